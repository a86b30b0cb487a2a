// SPDX-License-Identifier: MIT
// Memory model. Sources:
//  [ZeRO]  Rajbhandari et al. 2020, arXiv:1910.02054, Sec. 3.1 and 5: 2 + 2 + 12 bytes per
//          parameter for mixed-precision Adam; stages 1/2/3 shard optimizer, gradients, weights.
//  [MLM]   Megatron-LM megatron/training/theoretical_memory_usage.py (@d98e8a6): 18 bytes per
//          parameter (bf16 weight, fp32 main gradient, fp32 master + Adam m, v), 6 + 12/d with the
//          distributed optimizer; activations s b h (18 + 4 ffn/h) / t per layer with SP and
//          selective recompute; interleaving penalty 1 + (p - 1)/(p v).
//  [K22]   Korthikanti et al. 2022, arXiv:2205.05198, Table 2 and Sec. 4.2.3.
//  [FSDP2] PyTorch FSDP2 / torchtitan: sharded fp32 parameters, fp32 gradients and Adam states
//          (16 bytes / param / shard), bf16 unsharded parameters while a module runs; with pipeline
//          parallelism torchtitan keeps them gathered (reshard_after_forward=False).
//  [SAC]   torchtitan parallelize_llama.py selective "op" checkpointing: saves the outputs of
//          matmuls (every second one recomputed) and of SDPA; everything else is recomputed.
//  [CTX]   PyTorch PR 86509: CUDA context 274 MiB with lazy module loading, 636 MiB without.
#include "memory.h"

#include <algorithm>
#include <cmath>

namespace ts {

const MemoryDefaults &memoryDefaults()
{
    static const MemoryDefaults defaults;
    return defaults;
}

StateBytesPerParam stateBytesPerParam(Framework framework, Precision precision, int zero, double shards, bool pipeline,
                                      double gradElementBytes)
{
    StateBytesPerParam b;
    const double sh = std::max(1.0, shards);
    if (precision == Precision::Fp32) {   // fp32 weights and gradients, Adam m and v
        b.weights = 4 / (zero >= 3 ? sh : 1);
        b.gradients = 4 / (zero >= 2 ? sh : 1);
        b.optimizer = 8 / (zero >= 1 ? sh : 1);
        return b;
    }
    switch (framework) {
    case Framework::Megatron:
    case Framework::Auto:
        // [MLM] bf16 weights, fp32 main gradients, fp32 master + m + v (distributed optimizer: / d).
        b.weights = 2;
        b.gradients = gradElementBytes;
        b.optimizer = 12 / (zero >= 1 ? sh : 1);
        break;
    case Framework::DeepSpeed:
        // [ZeRO] 2 + 2 + 12, each sharded from its stage on.
        b.weights = 2 / (zero >= 3 ? sh : 1);
        b.gradients = 2 / (zero >= 2 ? sh : 1);
        b.optimizer = 12 / (zero >= 1 ? sh : 1);
        break;
    case Framework::Fsdp:
        // [FSDP2] fp32 sharded parameters are the master copy; bf16 copies exist while gathered.
        b.weights = 4 / (zero >= 2 ? sh : 1);
        b.gradients = 4 / (zero >= 2 ? sh : 1);
        b.optimizer = 8 / (zero >= 2 ? sh : 1);
        if (zero == 2 || (zero >= 3 && pipeline))
            b.gatheredWeights = 2;   // SHARD_GRAD_OP, or kept gathered across a PP step's micro-batches
        if (zero >= 2 && pipeline)   // gradient sync only after the last micro-batch: unsharded fp32 grads accumulate
            b.gradients += 4;
        break;
    }
    return b;
}

namespace {

struct Widths
{
    double r, q, kv, f, gates;
};

Widths widthsOf(const Workload &w, int tp, bool sp)
{
    const double h = w.hidden, t = tp;
    const double headDim = h / w.heads;
    return {(sp || tp == 1) ? h / t : h, h / t, std::max(1.0, double(w.kvHeads) / tp) * headDim, double(w.ffnHidden) / t,
            w.mlp == MlpKind::SwiGlu ? 2.0 : 1.0};
}

} // namespace

double layerFullActivationBytesPerToken(const Workload &w, int tp, bool sp)
{
    const Widths x = widthsOf(w, tp, sp);
    // 16-bit: norm inputs and outputs (4 r), Q K V (q + 2 kv), attention output (q),
    // MLP up(+gate) outputs and the activation output (gates + 1) f.
    double bytes = 2 * (4 * x.r + x.q + 2 * x.kv + x.q + (x.gates + 1) * x.f);
    if (w.attention == Attention::Materialized) {
        // [K22]: scores 2, dropout mask 1, dropout output 2 per head and key; two 1-byte dropout masks.
        bytes += 5.0 * std::max(1.0, double(w.heads) / tp) * w.seqLen + 2 * x.r;
    }
    return bytes;
}

double layerActivationBytesPerToken(const Workload &w, Framework framework, Recompute recompute, int tp, bool sp)
{
    const Widths x = widthsOf(w, tp, sp);
    switch (recompute) {
    case Recompute::Full:
        return 2 * x.r;   // the layer input only [K22 Sec. 5]
    case Recompute::Selective:
        if (framework == Framework::Fsdp) {
            // [SAC] layer input; wq, wv, w1, w2 outputs (every second matmul); SDPA output.
            return 2 * (x.r + x.q + x.kv + x.q + x.f + x.r);
        }
        // Megatron: recompute the core attention; with flash it stores nothing s x s to drop.
        if (w.attention == Attention::Materialized)
            return 2 * (4 * x.r + x.q + 2 * x.kv + x.q + (x.gates + 1) * x.f) + 2 * x.r;
        return layerFullActivationBytesPerToken(w, tp, sp);
    case Recompute::None:
        break;
    }
    return layerFullActivationBytesPerToken(w, tp, sp);
}

double lossBytesPerLogit(Framework framework)
{
    const MemoryDefaults &d = memoryDefaults();
    return framework == Framework::Megatron || framework == Framework::Auto ? d.lossBytesPerLogitFused
                                                                           : d.lossBytesPerLogitEager;
}

} // namespace ts
