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
//  [TE]    TransformerEngine pytorch/module/linear.py (_Linear.forward keeps the quantized,
//          column-wise input for wgrad), layernorm_linear.py (ln_out quantized),
//          layernorm_mlp.py (act_out = fc2_input_quantizer(act_out)); torchao float8 saves the
//          high-precision input instead (float8_linear.py, matmul_with_hp_or_float8_args).
//  [CTX]   PyTorch PR 86509: CUDA context 274 MiB with lazy module loading, 636 MiB without.
#include "memory.h"

#include "shape.h"

#include <algorithm>
#include <cmath>

namespace ts {

const MemoryDefaults &memoryDefaults()
{
    static const MemoryDefaults defaults;
    return defaults;
}

StateBytesPerParam stateBytesPerParam(Framework framework, Precision precision, int zero, double shards, bool pipeline,
                                      double gradElementBytes, OptimizerStates optimizerStates)
{
    const bool moments16 = optimizerStates != OptimizerStates::Fp32 && precision != Precision::Fp32;
    // Adam's bytes beside the 16-bit weights: fp32 master and m, v (12); 16-bit m, v only (4); fp32
    // master and 16-bit m, v (8).
    const double adamBytes = !moments16 ? 12.0 : optimizerStates == OptimizerStates::Bf16 ? 4.0 : 8.0;
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
        // [MLM] bf16 weights, fp32 main gradients, fp32 master + m + v (distributed optimizer: / d);
        // Megatron-FSDP (zero 3, --use-megatron-fsdp) shards weights and main gradients too.
        b.weights = 2 / (zero >= 3 ? sh : 1);
        b.gradients = gradElementBytes / (zero >= 3 ? sh : 1);
        b.optimizer = adamBytes / (zero >= 1 ? sh : 1);
        break;
    case Framework::DeepSpeed:
        // [ZeRO] 2 + 2 + 12, each sharded from its stage on. The pipeline engine in bf16 runs the
        // BF16 optimizer, which accumulates the gradients in one unsharded fp32 buffer
        // (runtime/bf16_optimizer.py fp32_groups_gradients), whatever type they are then reduced in
        // (communication_data_type() casts a copy); in fp16 its FP16 optimizer keeps fp16 gradients.
        b.weights = 2 / (zero >= 3 ? sh : 1);
        b.gradients = pipeline && zero < 2 ? (precision == Precision::Fp16 ? 2.0 : 4.0) : 2 / (zero >= 2 ? sh : 1);
        b.optimizer = adamBytes / (zero >= 1 ? sh : 1);
        break;
    case Framework::Fsdp:
        // [FSDP2] fp32 sharded parameters are the master copy; bf16 copies exist while gathered.
        b.weights = 4 / (zero >= 2 ? sh : 1);
        b.gradients = 4 / (zero >= 2 ? sh : 1);
        b.optimizer = (moments16 ? 4 : 8) / (zero >= 2 ? sh : 1);
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
    double r, rOut, q, kv, f, gates;   // rOut: a norm output as the next GEMM keeps it
    double o = 0;        // the attention output (= q but under MLA)
    double latents = 0;  // [MLA] the Q and KV latents before and after their norms, and the rotary key
    // [MoE] Per token of this GPU: the expert rows (k copies of h, SP shard), and the router's
    // fp32 logits and top-k probabilities in bytes; f is then the k experts' FFN width.
    double expertRows = 0, routerBytes = 0;
    // [MoE] What weighing the experts' outputs keeps per token: the 16-bit output rows when the
    // combine weighs them, or the fp32 probability of each row the weighted activation keeps.
    double expertOutBytes = 0;
    double fShared = 0;  // [MoE] the shared experts' part of f
};

Widths widthsOf(const Workload &w, const ActivationLayout &l)
{
    const double h = w.hidden, t = l.tp;
    const double r = (l.sequenceParallel || l.tp == 1) ? h / t : h;
    Widths x{r, l.gatheredGemmInputs && l.sequenceParallel ? h : r, attentionWidthOf(w) / t, std::max(1.0, double(w.kvHeads) / t) * headDimOf(w),
             double(w.ffnHidden) / t, w.mlp == MlpKind::SwiGlu ? 2.0 : 1.0};
    x.o = attentionOutWidthOf(w) / t;
    if (isMla(w)) {
        // [MLA] every head keeps its own K (d + d_r) and V (d_v); the up projections keep their
        // latent inputs, normed (LayerNormLinear keeps both), and the down projections' outputs.
        x.kv = std::max(1.0, double(w.heads) / t) * (qkHeadDimOf(w) + vHeadDimOf(w)) / 2;
        x.latents = 2.0 * w.qLoraRank + 2.0 * w.kvLoraRank + w.ropeHeadDim;
    }
    if (isMoe(w)) {   // this rank's SP shard of the tokens, each to k experts (validate(): SP with TP)
        const double k = expertsPerTokenOf(w);
        x.fShared = double(w.sharedExpertFfn) / t;
        x.f = k * expertFfnOf(w) / t + x.fShared;   // routed copies and the shared experts
        x.expertRows = k * h / t;
        x.routerBytes = 4.0 * (w.experts + k) / t;
        x.expertOutBytes = l.probsInActivation ? 4.0 * k / t : 2.0 * x.expertRows;
    }
    return x;
}

// Bytes per token the per-head query and key RMSNorms keep (Qwen3's q_norm/k_norm, Megatron
// qk_layernorm, outside the recomputed core attention): their 16-bit inputs, and, as eager
// PyTorch ops, the fp32 upcast and normalized copy as the layer norms below.
double qkNormKeptBytes(const Workload &w, const Widths &x, const ActivationLayout &l)
{
    if (!w.qkNorm)
        return 0.0;
    return (2 + (l.eager ? l.eagerNormExtraBytes : 0.0)) * (x.q + x.kv);
}

// 16-bit elements per token: norm inputs (2 r) and outputs (2 rOut), Q K V (q + 2 kv), attention
// output (q), MLP up(+gate) outputs and the activation output (gates + 1) f; [TE] quantized
// inputs take the norm outputs and the activation output to `quantized` bytes (1 in FP8) and add
// a quantized attention output.
double keptBytes(const Widths &x, double quantized)
{
    double bytes = 2 * (2 * x.r + 2 * x.rOut + x.q + 2 * x.kv + x.o + (x.gates + 1) * x.f + x.latents);
    if (x.expertRows > 0) {
        // [MoE] the experts' permuted input rows (the grouped GEMM's input), what weighing their
        // outputs keeps (expertOutBytes), the router's scores.
        bytes += 2 * x.expertRows + x.expertOutBytes + x.routerBytes;
        if (quantized > 0)   // the attention norm's output and the expert rows go in quantized; the router reads 16-bit
            bytes -= (2 - quantized) * (x.rOut + x.expertRows + x.f) - quantized * x.o;
        return bytes;
    }
    if (quantized > 0)
        bytes -= (2 - quantized) * (2 * x.rOut + x.f) - quantized * x.o;
    return bytes;
}

} // namespace

ActivationLayout activationLayout(Framework framework, Precision precision, int tp, bool sequenceParallel, bool eager,
                                  double quantizedBytes, bool fp8Attention, Fp8Recipe recipe)
{
    ActivationLayout l;
    l.eager = eager;
    l.eagerNormExtraBytes = precision == Precision::Fp32 ? 2.0 : 4.0;
    l.tp = tp;
    l.sequenceParallel = sequenceParallel;
    l.quantizedInputBytes = precision == Precision::Fp8 && framework != Framework::Fsdp ? quantizedBytes : 0.0;
    l.gatheredGemmInputs = framework == Framework::Fsdp && tp > 1;
    l.probsInActivation = framework == Framework::Megatron;
    if (fp8Attention) {   // [TE] FusedAttnFunc's saved tensors (backends.py)
        l.attentionInputBytes = recipe == Fp8Recipe::Mxfp8 ? 2 * (1.0 + 1.0 / 32) : 1.0;
        l.attentionOutputBytes = recipe == Fp8Recipe::Delayed ? 1.0 : 2.0;
    }
    return l;
}

// What FP8 attention keeps in fewer bytes than 16-bit: Q, K, V, and the output under delayed scaling.
double fp8AttentionSavedBytes(const Widths &x, const ActivationLayout &l)
{
    return (2 - l.attentionInputBytes) * (x.q + 2 * x.kv) + (2 - l.attentionOutputBytes) * x.o;
}

namespace {
// One layer's full activations per token from its widths (layerFullActivationBytesPerToken).
double fullBytes(const Workload &w, const Widths &x, const ActivationLayout &l)
{
    double bytes = keptBytes(x, l.quantizedInputBytes);
    if (l.eager) {
        // Hugging Face LlamaRMSNorm / torchtitan RMSNorm as written: x.float() (4 B) and the
        // normalized type_as(x) (2 B) are kept for the backward where a fused kernel keeps the
        // 16-bit input (2 B): +4 B per element, two norms a layer. SwiGLU as
        // w2(silu(w1 x) * w3 x): the SiLU output is kept for the product, +2 B per FFN element.
        // LayerNorm (F.layer_norm) and GELU are native kernels and keep what fused ones do.
        if (resolveNorm(w) == NormKind::RmsNorm)
            bytes += 2 * l.eagerNormExtraBytes * x.r;
        if (w.mlp == MlpKind::SwiGlu)
            bytes += 2 * x.f;
    }
    bytes += qkNormKeptBytes(w, x, l);
    if (w.attention == Attention::Materialized) {
        // [K22]: scores 2, dropout mask 1, dropout output 2 per head and key; two 1-byte dropout masks.
        bytes += 5.0 * std::max(1.0, double(w.heads) / l.tp) * w.seqLen + 2 * x.r;
    }
    bytes -= fp8AttentionSavedBytes(x, l);
    return bytes;
}


// Megatron-Core's selective recompute (recompute_modules) drops what each module would keep.
double megatronSelectiveBytes(const Workload &w, const Widths &x, const ActivationLayout &l, unsigned modules)
{
    double bytes = fullBytes(w, x, l);
    // core_attn: with flash nothing s x s is stored to drop, but the 16-bit Q, K, V the attention
    // is replayed from are kept where FP8 attention kept FP8; materialized, the scores go.
    if (modules & kRecomputeCoreAttn) {
        if (w.attention == Attention::Materialized)
            bytes = keptBytes(x, l.quantizedInputBytes) + 2 * x.r + qkNormKeptBytes(w, x, l);
        else
            bytes += fp8AttentionSavedBytes(x, l);
    }
    const double gemmInput = l.quantizedInputBytes > 0 ? l.quantizedInputBytes : 2.0;   // a kept GEMM input
    const bool moe = isMoe(w);
    // layernorm (output-discarding) recomputes only the norms that stand alone (Megatron-Core
    // transformer_layer.py skips IdentityOp): Transformer Engine fuses the others into the GEMM
    // after them (LayerNormLinear). Those are MLA's input norm, before its two down projections,
    // and a MoE layer's MLP norm, before the router and experts (kept in 16 bits).
    if (modules & kRecomputeLayerNorm)
        bytes -= (isMla(w) ? x.rOut * gemmInput : 0.0) + (moe ? x.rOut * 2.0 : 0.0);
    // mla_up_proj (output-discarding): the up projections' outputs, each head's Q, K and V.
    if ((modules & kRecomputeMlaUpProj) && isMla(w))
        bytes -= (x.q + 2 * x.kv) * (modules & kRecomputeCoreAttn ? 2.0 : l.attentionInputBytes);
    const double routed = x.f - x.fShared;
    // What an MLP keeps of width f: its up(+gate) outputs in 16 bits and its activation output as
    // the down projection's (maybe quantized) input, as keptBytes counts them.
    const auto mlpKept = [&](double f) { return 2 * x.gates * f + gemmInput * f; };
    if (moe && (modules & kRecomputeMoe)) {
        // moe (checkpointed): everything of the MoE layer but its input: the MLPs, the expert rows
        // in (quantized under FP8), what weighing their outputs keeps, the router's scores.
        bytes -= mlpKept(x.f) + gemmInput * x.expertRows + x.expertOutBytes + x.routerBytes;
    } else if (moe) {
        if (modules & kRecomputeMoeAct)   // the experts' activation output, their down projection's input
            bytes -= routed * gemmInput;
        if (modules & kRecomputeSharedExperts)
            bytes -= mlpKept(x.fShared);
    } else if (modules & kRecomputeMlp) {
        bytes -= mlpKept(x.f);
    }
    return bytes;
}

// A model whose first layers are dense keeps, per layer, the mean of its two kinds of layer.
template <typename PerLayer>
double meanOverLayerKinds(const Workload &w, PerLayer perLayer)
{
    Workload moeOnly = w;
    moeOnly.firstDenseLayers = 0;
    const double share = moeLayerShare(w);
    return share * perLayer(moeOnly) + (1 - share) * perLayer(denseLayerOf(w));
}
} // namespace

double layerFullActivationBytesPerToken(const Workload &w, const ActivationLayout &l)
{
    if (isMoe(w) && moeLayersOf(w) < w.layers)
        return meanOverLayerKinds(w, [&l](const Workload &x) { return layerFullActivationBytesPerToken(x, l); });
    return fullBytes(w, widthsOf(w, l), l);
}

namespace {
double keptBytesFor(const Workload &w, const Widths &x, Framework framework, Recompute recompute, const ActivationLayout &l,
                    unsigned modules)
{
    switch (recompute) {
    case Recompute::Full:
        return 2 * x.r;   // the layer input only [K22 Sec. 5]
    case Recompute::Selective:
        if (framework == Framework::Fsdp) {
            // [SAC] layer input; wq, wv, w1, w2 outputs (every second matmul); SDPA output.
            return 2 * (x.r + x.q + x.kv + x.q + x.f + x.r);
        }
        return megatronSelectiveBytes(w, x, l, modules);
    case Recompute::None:
        break;
    }
    return fullBytes(w, x, l);
}

double backwardWorkingBytes(const Workload &w, const Widths &x)
{
    const double h = w.hidden;
    return 2 * std::max({h + x.f, x.f + x.gates * x.f, x.gates * x.f + h});
}
} // namespace

double layerActivationBytesPerToken(const Workload &w, Framework framework, Recompute recompute, const ActivationLayout &l,
                                    unsigned modules)
{
    if (isMoe(w) && moeLayersOf(w) < w.layers)
        return meanOverLayerKinds(w, [&](const Workload &x) { return layerActivationBytesPerToken(x, framework, recompute, l, modules); });
    return keptBytesFor(w, widthsOf(w, l), framework, recompute, l, modules);
}

double layerBackwardWorkingBytesPerToken(const Workload &w, const ActivationLayout &l)
{
    if (isMoe(w) && moeLayersOf(w) < w.layers)   // the widest layer's
        return std::max(layerBackwardWorkingBytesPerToken(denseLayerOf(w), l), [&] {
            Workload moeOnly = w;
            moeOnly.firstDenseLayers = 0;
            return layerBackwardWorkingBytesPerToken(moeOnly, l);
        }());
    return backwardWorkingBytes(w, widthsOf(w, l));
}

LayerActivationBytes layerActivationBytes(const Workload &w, Framework framework, Recompute recompute,
                                          const ActivationLayout &l, unsigned modules)
{
    if (isMoe(w) && moeLayersOf(w) < w.layers)
        return {layerActivationBytesPerToken(w, framework, recompute, l, modules), layerFullActivationBytesPerToken(w, l),
                layerBackwardWorkingBytesPerToken(w, l)};
    const Widths x = widthsOf(w, l);   // once: the three share it
    return {keptBytesFor(w, x, framework, recompute, l, modules), fullBytes(w, x, l), backwardWorkingBytes(w, x)};
}

double lossBytesPerLogit(CrossEntropy crossEntropy)
{
    const MemoryDefaults &d = memoryDefaults();
    switch (crossEntropy) {
    case CrossEntropy::PyTorch: return d.lossBytesPerLogitEager;
    case CrossEntropy::Fused: return d.lossBytesPerLogitFusedKernel;
    case CrossEntropy::Megatron:
    case CrossEntropy::Auto: break;
    }
    return d.lossBytesPerLogitFused;
}

} // namespace ts
