// SPDX-License-Identifier: MIT
// Memory per GPU as frameworks keep it: model states per framework and ZeRO/FSDP stage, the
// activations one layer keeps for backward (generalised to GQA, gated MLPs, FlashAttention,
// sequence parallelism and each recompute policy), logits and loss buffers, and the runtime's
// own reserve. Sources in memory.cpp.
#pragma once

#include "inputs.h"

namespace ts {

/// Named defaults of the memory model, the same for every run.
struct MemoryDefaults
{
    double cudaContextBytes = 0.5 * 1024 * 1024 * 1024;   // context with lazy loading (~300-600 MiB, PyTorch PR 86509)
    double workspaceBytes = 0.5 * 1024 * 1024 * 1024;     // cuBLAS/cuDNN workspaces and NCCL channel buffers
    double allocatorOverhead = 0.08;                      // caching-allocator reserve over what is allocated
    double lossBytesPerLogitFused = 6;    // Megatron vocab-parallel CE: fp32 softmax kept (4) + bf16 grad (2)
    double lossBytesPerLogitEager = 12;   // PyTorch CE on .float() logits: saved fp32 log-softmax, its grad, grad input
    double fp8WeightBytesPerParam = 2;    // TE keeps FP8 weights and their transpose (Hopper TN layout)
    double planMarginFraction = 0.05;     // plan search keeps this share of HBM free
    double optimizerBytesPerParam = 30;   // Adam step traffic: fp32 master, m, v read+written, fp32 grad read, bf16 weight written
};
const MemoryDefaults &memoryDefaults();

/// Bytes a framework keeps per parameter of this GPU's model shard (after TP and PP).
struct StateBytesPerParam
{
    double weights = 0;       // resident (sharded where the stage shards them)
    double gradients = 0;
    double optimizer = 0;
    double gatheredWeights = 0;   // unsharded 16-bit copies held through the step (ZeRO-2/FSDP with PP)
};
/// shards: the ZeRO/FSDP shard group size.
/// gradElementBytes: Megatron's main gradients are kept in the reduction's type (fp32 by default,
/// bf16 with --grad-reduce-in-bf16 / NeMo grad_sync_dtype=bf16).
StateBytesPerParam stateBytesPerParam(Framework framework, Precision precision, int zeroStage, double shards,
                                      bool pipeline, double gradElementBytes = 4);

/// Activation bytes one layer keeps per token on one GPU until its backward.
/// Flash: Q, K, V, the attention output and the norm/MLP inputs (Megatron-LM
/// theoretical_memory_usage.py generalised); materialized: [K22] Table 2 with the 5 a s / h scores.
double layerActivationBytesPerToken(const Workload &w, Framework framework, Recompute recompute, int tp, bool sp);
/// Bytes of one layer's full activations per token (held while that layer is recomputed).
double layerFullActivationBytesPerToken(const Workload &w, int tp, bool sp);

/// Peak bytes per logit element on the last stage while the loss and its gradient are live.
double lossBytesPerLogit(Framework framework);

} // namespace ts
