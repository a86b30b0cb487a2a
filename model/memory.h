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
    // Caching-allocator reserve over what is allocated and freed within a step (activations, loss,
    // gathers, buckets); model states are allocated once in contiguous buffers and do not fragment.
    double allocatorOverhead = 0.08;
    double lossBytesPerLogitFused = 6;    // Megatron vocab-parallel CE: fp32 softmax kept (4) + bf16 grad (2)
    double lossBytesPerLogitEager = 12;   // PyTorch CE on .float() logits: saved fp32 log-softmax, its grad, grad input
    double lossBytesPerLogitFusedKernel = 4;   // fused CE on 16-bit logits: the logits kept (2) + their gradient (2)
    double planMarginFraction = 0.05;     // plan search keeps this share of HBM free
    double optimizerBytesPerParam = 30;   // Adam step traffic: fp32 master, m, v read+written, fp32 grad read, bf16 weight written
    double optimizerBytesPerParam16 = 14; // 16-bit states: m, v, weight read+written (12), 16-bit grad read (2)
    // fp32 master read+written (8), 16-bit m, v read+written (8), 16-bit grad read (2), bf16 weight written (2)
    double optimizerBytesPerParamMoments16 = 20;
    // Megatron-Core passes over the whole local gradient buffer every step, in its element type
    // (fp32 main grads, or bf16): zero_grad_buffer (write), the NaN check's norm (read) and the
    // pre-reduction scaling grad_data *= gradient_scaling_factor (read + write), in
    // distributed/param_and_grad_buffer.py (r0.8) with --check-for-nan-in-loss-and-grad on by default.
    double megatronGradBufferPasses = 4;
    // Host link for activation offloading when a GPU does not give its own, per direction: PCIe
    // Gen5 x16 as measured, 52.8 GB/s device-to-host (nvbandwidth device_to_host_memcpy on one
    // H100 of a node, NVIDIA/nvbandwidth#24; the copy engines reach about the same host-to-device),
    // assumed to hold with every GPU copying at once.
    double hostBytesPerSecond = 52.8e9;
    // Host memory per GPU when a GPU does not give its own: DGX H100's 2 TB over its 8 GPUs.
    double hostMemoryBytes = 250e9;
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
/// optimizerStates: Bf16 keeps Adam's m and v in 16-bit and no master copy (4 bytes, not 12;
/// FSDP's fp32 sharded parameters stay the master: 4, not 8).
StateBytesPerParam stateBytesPerParam(Framework framework, Precision precision, int zeroStage, double shards,
                                      bool pipeline, double gradElementBytes = 4,
                                      OptimizerStates optimizerStates = OptimizerStates::Fp32);

/// How a framework keeps one layer's activations.
struct ActivationLayout
{
    int tp = 1;
    bool sequenceParallel = false;
    /// The GEMMs keep their quantized inputs for the weight gradient (Transformer Engine): the
    /// norm outputs and the MLP activation output cost these bytes per element (1 in FP8, 0.5 and
    /// a sixteenth in NVFP4, with their block scales), and the attention output is kept twice
    /// (16-bit by flash attention for its backward, quantized by the output projection). 0: 16-bit.
    double quantizedInputBytes = 0;
    /// With sequence parallelism the column-parallel GEMMs keep their all-gathered (full h)
    /// input, as PyTorch DTensor TP and AsyncTP do; Megatron/TE keep the local shard and gather
    /// again in backward.
    bool gatheredGemmInputs = false;
    /// [MoE] The routing probabilities weigh the experts' activation (Megatron-Core >= 0.13,
    /// "Memory efficient token permutation", 2659630, 2025-04: the probabilities are permuted with
    /// the tokens and the weighted SwiGLU keeps one fp32 probability a row), so the combine's
    /// unpermute keeps nothing but its row map. Else the combine weighs the expert outputs and keeps
    /// them for the probabilities' gradient (as unpermute with probs did before 0.13); Megatron is
    /// the only framework validate() runs experts under.
    bool probsInActivation = false;
    /// PyTorch eager ops as Hugging Face and torchtitan write them keep more than fused kernels:
    /// an RMSNorm keeps its fp32 upcast input and its normalized 16-bit output (beside the
    /// weighted output the next GEMM keeps), and SwiGLU keeps the SiLU output for the product.
    bool eager = false;
    /// What an eager RMSNorm keeps beyond a fused one per input element, in the 16-bit units the
    /// caller scales: 4 (an fp32 upcast and a normalized copy); 2 in fp32 training, whose upcast
    /// is the input itself and whose normalized copy the caller's scaling makes 4 bytes.
    double eagerNormExtraBytes = 4;
    /// Bytes per element of Q, K, V and of the attention output that the fused attention keeps for
    /// its backward: 2 (16-bit); with FP8 attention [TE] Transformer Engine's FusedAttnFunc keeps
    /// the FP8 Q, K, V (1 byte; MXFP8 a row-wise and a column-wise copy of 1 + 1/32 with their
    /// scales, get_attention_quantizers) and the output in FP8 under delayed scaling only (current
    /// scaling and MXFP8 keep it 16-bit: NVTE_DPA_FP8CS_O_in_F16 defaults to 1).
    double attentionInputBytes = 2;
    double attentionOutputBytes = 2;
};
/// The layout a framework uses: [TE] FP8 inputs for every framework but FSDP (torchao's
/// Float8Linear saves the 16-bit input and casts again); gathered inputs for FSDP (torchtitan).
/// quantizedBytes: one quantized element with its scale (KernelSpec::fp8ElementBytes + fp8ScaleBytes).
/// fp8Attention: training.fp8_attention in effect (KernelSpec::fp8Attention), under `recipe`.
ActivationLayout activationLayout(Framework framework, Precision precision, int tp, bool sequenceParallel, bool eager,
                                  double quantizedBytes = 1.0, bool fp8Attention = false,
                                  Fp8Recipe recipe = Fp8Recipe::Delayed);

/// Activation bytes one layer keeps per token on one GPU until its backward, counted in 16-bit
/// elements (the caller scales fp32 runs).
/// Flash: Q, K, V, the attention output and the norm/MLP inputs (Megatron-LM
/// theoretical_memory_usage.py generalised); materialized: [K22] Table 2 with the 5 a s / h scores.
double layerActivationBytesPerToken(const Workload &w, Framework framework, Recompute recompute,
                                    const ActivationLayout &layout, unsigned recomputeModules = kRecomputeCoreAttn);
/// Bytes of one layer's full activations per token (held while that layer is recomputed).
double layerFullActivationBytesPerToken(const Workload &w, const ActivationLayout &layout);

/// Bytes per token of the activation gradients alive while one layer runs backward, on top of
/// what the layers keep: the gathered output gradient and its input gradient through the MLP
/// down projection (h + f), the activation's backward (f + gates f), the up projection's input
/// gradient before its reduce-scatter (gates f + h); the largest of the three, in 16-bit.
double layerBackwardWorkingBytesPerToken(const Workload &w, const ActivationLayout &layout);

/// The three above from one count of the layer's widths, as an evaluation asks for them together:
/// kept (layerActivationBytesPerToken), full (layerFullActivationBytesPerToken) and backward working
/// (layerBackwardWorkingBytesPerToken) bytes per token, 16-bit.
struct LayerActivationBytes
{
    double keptPerToken = 0, fullPerToken = 0, backwardWorkingPerToken = 0;
};
LayerActivationBytes layerActivationBytes(const Workload &w, Framework framework, Recompute recompute,
                                          const ActivationLayout &layout, unsigned recomputeModules);

/// Peak bytes per logit element on the last stage while the loss and its gradient are live.
double lossBytesPerLogit(CrossEntropy crossEntropy);

} // namespace ts
