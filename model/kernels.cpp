// SPDX-License-Identifier: MIT
// Kernel-level time model. Sources:
//  [MAMF]  S. Bekman, ml-engineering, compute/accelerator/README.md @744d01e, "Maximum Achievable
//          Matmul FLOPS comparison table": best measured dense GEMM per GPU and precision
//          (A100 271.2/312, H100 794.5/989 and FP8 1402.6/1979, H200 FP8 1453.4/1979,
//          B200 1745/2250 and FP8 3432.5/4500, MI300X 668.4/1300). Kept per GPU in the presets.
//  [FA2]   Dao 2023, FlashAttention-2, arXiv:2307.08691, Fig. 4 (A100 fwd+bwd, hdim 128, 16k:
//          203 TFLOP/s non-causal) and Sec. 4.1 (FLOPs: fwd 4 s^2 d a, causal / 2, bwd 2.5 x fwd).
//  [FA3]   Shah et al. 2024, FlashAttention-3, arXiv:2407.08608, Figs. 5-6 (H100 BF16 hdim 128:
//          fwd 648 non-causal / 616 causal at 16k, 292 causal at 512; bwd 561).
//  [MSMF]  S. Bekman, ml-engineering, compute/accelerator/benchmarks/README.md (mamf-finder with
//          MSMF, after 744d01e), "What we measured: alone vs all-8 concurrent": the Maximum
//          Sustainable Matmul FLOPS of a GPU saturated at its power limit against the boost-burst
//          MAMF, all 8 GPUs of a node busy: H200 BF16 698.6 / 823.9 (clock ~1405-1527 MHz),
//          B200 BF16 1426.4 / 1751.2. Kept per GPU in the presets as sustained_fraction.
//  [K22]   Korthikanti et al. 2022, arXiv:2205.05198, Sec. 4 (the tensors of a layer).
//  [TE]    NVIDIA TransformerEngine: FP8 GEMM inputs are cast with amax and a transposed copy
//          for the weight-gradient GEMM (cast_transpose); userbuffers TP overlap takes 16 SMs
//          for pipelined reduce-scatter (transformer_engine/pytorch/module/base.py, initialize_ub).
//  [TE-CS] TransformerEngine docs/features/low_precision_training/fp8_current_scaling: "Quantization
//          is a memory-bound operation that requires reading the tensor twice" (amax, then cast);
//          Blackwell's row-wise and column-wise per-tensor copies share one layout.
//  [TE-MX] ibid. mxfp8/mxfp8.rst: one E8M0 scale per 32 elements; "rowwise and columnwise MXFP8
//          tensors are numerically different ... Both must be quantized independently"; SM 10.0+.
//  [TE-BW] ibid. fp8_blockwise_scaling.rst: fp32 scales per 128 elements (1D) or 128x128 tiles;
//          "On Hopper, block-scaled GEMMs are software-emulated".
//  [NVFP4] TransformerEngine transformer_engine/common/recipe/__init__.py NVFP4BlockScaling and
//          pytorch/csrc/quantizer.cpp NVFP4Quantizer::quantize_impl (@d0067d0d): E2M1 elements,
//          E4M3 scales per 16 (weights 16 x 16), an fp32 scale per tensor from its amax
//          (nvte_hadamard_transform_amax: the row-wise amax and the column-wise one after the
//          16 x 16 random Hadamard transform, one read), then nvte_quantize_with_hadamard_transform
//          writes both copies; fprop, dgrad and wgrad all NVFP4 GEMMs. NVIDIA 2025, Pretraining
//          LLMs with NVFP4, arXiv:2509.25149.
//  [TE-GEMM] TransformerEngine docs/examples/gemm_profiling/gemm_profiling.rst (@d0067d0d):
//          per-layer GEMM times of a 5B layer (h 4096, ffn 16384, M 15,872) on H200 NVL and B300,
//          per recipe, with and without the quantization (tests/data/kernels/te-gemm-profiling.csv).
//  [TE-ACC] TransformerEngine transformer_engine/common/recipe/__init__.py and pytorch/module/base.py
//          (@d0067d0d): DelayedScaling and Float8CurrentScaling run fprop with
//          use_split_accumulator=False (cuBLAS fast accumulation), dgrad and wgrad with True; the
//          block recipes split-accumulate all three. torchao's Float8LinearConfig does the same
//          (use_fast_accum for the output GEMM only). torch._scaled_mm, which measured the FP8 MAMF
//          figures, defaults to the split accumulator.
//  [cuDNN-NORM] NVIDIA/cudnn-frontend benchmark/norms/results/{h200,gb200,gb300} @3929da2: cuDNN's
//          fused RMSNorm/LayerNorm forward and backward for 15 models' shapes (tests/data/kernels).
//  [cuDNN-SDPA] NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training @3929da2: cuDNN's training
//          SDPA on H200 (9.19), GB200 and GB300 (9.22), Llama 3.1's GQA heads, BF16, 2K-32K, causal
//          and not (tests/data/kernels/cudnn-sdpa-llama31.csv).
//  [CUTLASS] Hopper warp-specialized GEMM default CTA tile 128x256x64; cuBLAS picks tile shapes
//          and split-K per problem, so several tiles are tried and the best one kept.
#include "kernels.h"

#include "shape.h"

#include <algorithm>
#include <cmath>

namespace ts {

const KernelDefaults &kernelDefaults()
{
    static const KernelDefaults defaults;
    return defaults;
}

int attentionBlockRows(Attention attention)
{
    const KernelDefaults &k = kernelDefaults();
    return fa2Family(attention) ? k.attentionBlockFa2 : k.attentionBlock;
}

double attentionKernelEfficiency(Attention attention, const KernelSpec &spec)
{
    // FlashAttention-2 is never faster than the GPU's best kernel (a custom GPU may give a low best);
    // FlashAttention's Triton kernel runs at its measured share of FlashAttention-2's ([FA2]).
    const double fa2 = std::min(spec.attentionEfficiencyFa2, spec.attentionEfficiency);
    return attention == Attention::Flash2   ? fa2
           : attention == Attention::Triton ? fa2 * kernelDefaults().attentionTritonOverFa2
                                            : spec.attentionEfficiency;
}

KernelSpec kernelSpec(const Gpu &gpu, Precision precision, Fp8Recipe recipe, Framework framework, bool fp8Attention)
{
    const KernelDefaults &k = kernelDefaults();
    KernelSpec s;
    s.peakFlops16 = gpu.peakFlops16;
    const double ceiling16 = gpu.gemmEfficiency > 0 ? gpu.gemmEfficiency : k.gemmEfficiency;
    const double ceiling8 = gpu.gemmEfficiencyFp8 > 0 ? gpu.gemmEfficiencyFp8 : k.gemmEfficiencyFp8;   // split accumulator
    switch (precision) {
    case Precision::Fp8:
        s.peakFlops = gpu.peakFlops8;
        s.gemmEfficiency = ceiling8;
        break;
    case Precision::Fp32:
        // FP32 training runs GEMMs as TF32 where allowed; same best-shape fraction as 16-bit (assumed).
        s.peakFlops = gpu.peakFlops32 > 0 ? gpu.peakFlops32 : gpu.peakFlops16 / 2;
        s.gemmEfficiency = ceiling16;
        s.peakFlops16 = s.peakFlops;   // no 16-bit kernels in FP32 training: attention and the head run at the FP32 rate too
        break;
    case Precision::Bf16:
    case Precision::Fp16:
        s.peakFlops = gpu.peakFlops16;
        s.gemmEfficiency = ceiling16;
        break;
    }
    s.attentionEfficiency = gpu.attentionEfficiency > 0 ? gpu.attentionEfficiency : k.attentionEfficiency;
    s.attentionEfficiencyFa2 = gpu.attentionEfficiencyFa2 > 0 ? gpu.attentionEfficiencyFa2 : k.attentionEfficiencyFa2;
    s.attentionPeakFlops = s.peakFlops16;
    s.attentionScoreDimsForward = gpu.attentionScoreDims > 0 ? gpu.attentionScoreDims : k.attentionScoreDimsForward;
    // [cuDNN-SDPA] FP8 attention: Q, K, V (and dO) quantized, the kernel at the FP8 rate and the GPU's
    // measured FP8 attention efficiency (validate() requires the figure the recipe needs).
    if (fp8Attention && precision == Precision::Fp8) {
        s.fp8Attention = true;
        s.attentionPeakFlops = gpu.peakFlops8;
        s.attentionEfficiency = recipe == Fp8Recipe::Mxfp8 ? gpu.attentionEfficiencyMxfp8 : gpu.attentionEfficiencyFp8;
        s.attentionScoreDimsForward *= gpu.peakFlops8 / gpu.peakFlops16;   // [FA3] the matmuls faster, the exps not
    }
    // [MSMF] The GEMM and attention figures are burst rates at the boost clock; a training run keeps
    // the tensor cores saturated, the board at its power limit and the clock lower, so every
    // tensor-core kernel runs at the sustained fraction of them. HBM-bound kernels do not follow
    // the SM clock and keep their rate.
    const bool ownEfficiencies = gpu.gemmEfficiency > 0 || gpu.gemmEfficiencyFp8 > 0 || gpu.gemmEfficiencyFp8Fast > 0 || gpu.gemmEfficiencyFp4 > 0
                                 || gpu.attentionEfficiency > 0
                                 || gpu.attentionEfficiencyFa2 > 0 || gpu.attentionEfficiencyFp8 > 0
                                 || gpu.attentionEfficiencyMxfp8 > 0;
    s.sustainedFraction = gpu.sustainedFraction > 0 ? gpu.sustainedFraction
                          : ownEfficiencies         ? k.sustainedFraction
                                                    : k.genericSustainedFraction;
    s.gemmEfficiency *= s.sustainedFraction;
    s.gemmEfficiency16 = ceiling16 * s.sustainedFraction;   // for FP32 too: TF32 at the 16-bit ceiling, as above
    s.attentionEfficiency *= s.sustainedFraction;
    s.attentionEfficiencyFa2 *= s.sustainedFraction;
    s.hbmBytesPerSecond = gpu.memoryBytesPerSecond * k.hbmEfficiency;
    s.smCount = gpu.smCount > 0 ? gpu.smCount : k.smCount;
    const bool ownTile = gpu.gemmTileM > 0 && gpu.gemmTileN > 0;
    s.tileM = ownTile ? gpu.gemmTileM : k.tileM;
    s.tileN = ownTile ? gpu.gemmTileN : k.tileN;
    s.tileSms = gpu.gemmTileSms > 0 ? gpu.gemmTileSms : k.tileSms;
    s.fp8Copies = gpu.fp8Copies > 0 ? gpu.fp8Copies : k.fp8Copies;
    s.fp8ReadBytes = k.fp8CastReadBytes;
    if (precision == Precision::Fp8) {
        switch (recipe) {
        case Fp8Recipe::Delayed:
            s.fp8NormFusion = Fp8Fusion::Output;
            break;
        case Fp8Recipe::Tensorwise:   // [TE-CS]
            s.fp8ReadBytes += k.fp8AmaxReadBytes;
            s.fp8NormFusion = Fp8Fusion::Amax;
            break;
        case Fp8Recipe::Mxfp8:        // [TE-MX]
            s.fp8BlockScaled = true;
            s.fp8Copies = k.fp8BlockCopies;
            s.fp8ScaleBytes = k.mxfp8ScaleBytes;
            s.fp8GemmRate = k.mxfp8GemmRate;
            break;
        case Fp8Recipe::Blockwise:    // [TE-BW]
            s.fp8BlockScaled = true;
            s.fp8Copies = k.fp8BlockCopies;
            s.fp8ScaleBytes = k.blockwiseScaleBytes;
            s.fp8GemmRate = gpu.mxfp8 ? k.mxfp8GemmRate : k.blockwiseGemmRateEmulated;
            break;
        case Fp8Recipe::Nvfp4:        // [NVFP4] the GEMMs at the FP4 peak and ceiling
            s.fp8BlockScaled = true;
            s.fp8Copies = k.fp8BlockCopies;
            s.fp8ElementBytes = k.nvfp4ElementBytes;
            s.fp8ScaleBytes = k.nvfp4ScaleBytes;
            s.fp8ReadBytes += k.fp8AmaxReadBytes + k.nvfp4HadamardReadBytes;
            s.peakFlops = gpu.peakFlops4;
            s.gemmEfficiency = (gpu.gemmEfficiencyFp4 > 0 ? gpu.gemmEfficiencyFp4 : k.gemmEfficiencyFp4) * s.sustainedFraction;
            break;
        }
        s.gemmEfficiency *= s.fp8GemmRate;
        // [TE-ACC] Per-tensor recipes (delayed, tensorwise) run the forward GEMM with fast
        // accumulation; block recipes split-accumulate every GEMM.
        if (!s.fp8BlockScaled && gpu.gemmEfficiencyFp8Fast > 0)
            s.forwardGemmRate = gpu.gemmEfficiencyFp8Fast / ceiling8;
        if (framework == Framework::Fsdp)   // torchao's float8 casts each GEMM input itself
            s.fp8NormFusion = Fp8Fusion::None;
    }
    s.ridgeFlopsPerByte = s.peakFlops * s.gemmEfficiency / gpu.memoryBytesPerSecond;
    return s;
}

double fp8CastBytesPerElement(const KernelSpec &spec)
{
    return spec.fp8ReadBytes + spec.fp8Copies * quantizedElementBytes(spec);
}

double quantizedElementBytes(const KernelSpec &spec) { return spec.fp8ElementBytes + spec.fp8ScaleBytes; }

double tpOverlapSlowdown(const KernelSpec &spec)
{
    const double lost = kernelDefaults().tpOverlapSms;
    return lost / std::max(lost, spec.smCount - lost);
}

double ncclComputeShare(const KernelSpec &spec)
{
    return ncclComputeShare(spec, kernelDefaults().ncclChannelSms);
}

double ncclComputeShare(const KernelSpec &spec, double channelSms)
{
    return std::min(0.5, channelSms / std::max(1.0, double(spec.smCount)));
}

AttentionHeadDimFactors attentionHeadDimFactors(const Workload &w, const KernelSpec &spec)
{
    const KernelDefaults &k = kernelDefaults();
    const bool fa2 = fa2Family(w.attention);
    AttentionHeadDimFactors f;
    f.forwardScoreDims = fa2 ? k.attentionScoreDimsForwardFa2 : spec.attentionScoreDimsForward;
    f.backwardScoreDims = fa2 ? k.attentionScoreDimsBackwardFa2 : k.attentionScoreDimsBackward;
    const double dqk = qkHeadDimOf(w), dv = vHeadDimOf(w), d = (dqk + dv) / 2, d0 = k.attentionReferenceHeadDim;
    const auto softmax = [&](double c) { return d < d0 ? (d + c) / d * d0 / (d0 + c) : 1.0; };
    f.backwardAccumulatorFactor = std::max(1.0, (dqk + dv) / (2 * d0));
    f.forward = softmax(f.forwardScoreDims);
    f.backward = softmax(f.backwardScoreDims) * f.backwardAccumulatorFactor;
    return f;
}

namespace {
// Attention and the LM head run in 16-bit whatever the GEMM precision (FP8 and NVFP4 recipes keep
// them), at the 16-bit peak and ceiling.
KernelSpec sixteenBit(const KernelSpec &spec)
{
    KernelSpec s = spec;
    s.peakFlops = spec.peakFlops16;
    s.gemmEfficiency = spec.gemmEfficiency16;
    s.forwardGemmRate = 1;
    s.ridgeFlopsPerByte = spec.ridgeFlopsPerByte * (spec.peakFlops16 * spec.gemmEfficiency16) / (spec.peakFlops * spec.gemmEfficiency);
    return s;
}
} // namespace

namespace {
// ceil for the non-negative tile and wave counts below: a truncating conversion and a compare, as
// exact as std::ceil there, and cheaper on the x86-64 baseline, which has no rounding instruction
// (gemmFit runs 15 times an evaluation, 7 ceilings each).
double ceilCount(double x)
{
    if (!(x < 9e18))
        return std::ceil(x);
    const double whole = double((long long)x);
    return whole < x ? whole + 1 : whole;
}

struct GemmFit
{
    double efficiency = 0;
    double splitK = 1;   // K slices of the chosen tiling
};

GemmFit gemmFit(double M, double N, double K, const KernelSpec &spec, double batch, double outputBytes)
{
    const KernelDefaults &k = kernelDefaults();
    if (!(M > 0 && N > 0 && K > 0))
        return {spec.gemmEfficiency, 1};
    // Tile counts along M and N for the two tile edges; the three tiles reuse them. A tile shared
    // by an SM pair (Blackwell) cannot be halved at full rate, so only one-SM tiles try the square
    // of the short edge.
    const double edge[2] = {double(spec.tileM > 0 ? spec.tileM : k.tileM), double(spec.tileN > 0 ? spec.tileN : k.tileN)};
    const double tilesM[2] = {ceilCount(M / edge[0]), ceilCount(M / edge[1])};
    const double tilesN[2] = {ceilCount(N / edge[0]), ceilCount(N / edge[1])};
    const double sms = double(spec.smCount) / std::max(1, spec.tileSms), batches = std::max(1.0, batch);
    const int shapes = spec.tileSms > 1 ? 2 : 3;
    GemmFit best;
    const std::pair<int, int> tiles[] = {{0, 1}, {1, 0}, {0, 0}};
    for (int shape = 0; shape < shapes; ++shape) {
        const auto [i, j] = tiles[shape];
        double ctas = tilesM[i] * tilesN[j] * batches;
        // Split-K: too few tiles to fill the SMs and K long enough to share out.
        double split = 1;
        if (ctas < sms) {
            split = std::max(1.0, std::min(std::floor(sms / ctas), std::floor(K / k.splitKMinK)));
            ctas *= split;
        }
        const double waves = ceilCount(ctas / sms);
        // tile fill x wave quantization: M N / (tiles x tile area) x ctas / (waves x SMs)
        const double quant = M * N * ctas / (tilesM[i] * edge[i] * tilesN[j] * edge[j] * waves * sms);
        if (quant > best.efficiency)
            best = {quant, split};
    }
    const double overheadK = spec.ridgeFlopsPerByte * outputBytes / 2;
    best.efficiency *= spec.gemmEfficiency * K / (K + overheadK);
    return best;
}
} // namespace

double gemmEfficiency(double M, double N, double K, const KernelSpec &spec, double batch, double outputBytes)
{
    return gemmFit(M, N, K, spec, batch, outputBytes).efficiency;
}

double gemmSeconds(double M, double N, double K, const KernelSpec &spec, double batch, double outputBytes)
{
    if (!(M > 0 && N > 0 && K > 0 && batch > 0))
        return 0;
    const KernelDefaults &k = kernelDefaults();
    const GemmFit fit = gemmFit(M, N, K, spec, batch, outputBytes);
    // Batched GEMMs (materialized attention) fill the SMs with batch x tiles, in one kernel.
    const double partialBytes = fit.splitK > 1 ? (fit.splitK * k.splitKPartialBytes + outputBytes) * M * N * batch : 0.0;
    return 2.0 * M * N * K * batch / (spec.peakFlops * fit.efficiency) + (partialBytes > 0 ? partialBytes / spec.hbmBytesPerSecond : 0.0)
           + k.gemmFixedSeconds;
}

namespace {

// K/V width per GPU: kv heads are split by TP, or replicated when TP exceeds them. Under MLA every
// head has its own key (d + d_r) and value (d_v), made from the latent: the mean of the two.
double kvWidthPerGpu(const Workload &w, int tp)
{
    if (isMla(w))
        return std::max(1.0, double(w.heads) / tp) * (qkHeadDimOf(w) + vHeadDimOf(w)) / 2;
    return std::max(1.0, double(w.kvHeads) / tp) * headDimOf(w);
}

// Every field of a weighted mean of two layers' times: a share `share` of the layers like a, the rest like b.
// The TP-paired MLP times are per MLP block: when a (MoE) has no shared experts, b's dense MLP is every block.
LayerTimes meanLayer(const LayerTimes &a, const LayerTimes &b, double share, bool aHasMlpBlock)
{
    const auto mix = [share](double x, double y) { return share * x + (1 - share) * y; };
    LayerTimes m;
    for (int i = 0; i < LayerTimes::kLayerGemms; ++i) {
        m.forwardOf[i] = mix(a.forwardOf[i], b.forwardOf[i]);
        m.backwardDataOf[i] = mix(a.backwardDataOf[i], b.backwardDataOf[i]);
        m.backwardWeightOf[i] = mix(a.backwardWeightOf[i], b.backwardWeightOf[i]);
        const bool mlpSlot = i == LayerTimes::kMlpUp || i == LayerTimes::kMlpDown;
        const double tpShare = mlpSlot && !aHasMlpBlock ? 0.0 : share;
        const auto tpMix = [tpShare](double x, double y) { return tpShare * x + (1 - tpShare) * y; };
        m.tpForwardOf[i] = tpMix(a.tpForwardOf[i], b.tpForwardOf[i]);
        m.tpBackwardDataOf[i] = tpMix(a.tpBackwardDataOf[i], b.tpBackwardDataOf[i]);
        m.tpBackwardWeightOf[i] = tpMix(a.tpBackwardWeightOf[i], b.tpBackwardWeightOf[i]);
    }
    m.gemmForward = mix(a.gemmForward, b.gemmForward);
    m.gemmBackwardData = mix(a.gemmBackwardData, b.gemmBackwardData);
    m.gemmBackwardWeight = mix(a.gemmBackwardWeight, b.gemmBackwardWeight);
    m.attentionForward = mix(a.attentionForward, b.attentionForward);
    m.attentionBackward = mix(a.attentionBackward, b.attentionBackward);
    m.elementwiseForward = mix(a.elementwiseForward, b.elementwiseForward);
    m.elementwiseBackward = mix(a.elementwiseBackward, b.elementwiseBackward);
    m.castForward = mix(a.castForward, b.castForward);
    m.castBackward = mix(a.castBackward, b.castBackward);
    m.permuteForward = mix(a.permuteForward, b.permuteForward);
    m.normForward = mix(a.normForward, b.normForward);
    m.moeActForward = mix(a.moeActForward, b.moeActForward);
    m.mlaUpForward = mix(a.mlaUpForward, b.mlaUpForward);
    m.mlpForward = mix(a.mlpForward, b.mlpForward);
    m.moeForward = mix(a.moeForward, b.moeForward);
    m.sharedForward = mix(a.sharedForward, b.sharedForward);
    return m;
}

} // namespace

double LayerTimes::recomputeSeconds(unsigned modules) const
{
    double seconds = 0;
    if (modules & kRecomputeCoreAttn)
        seconds += attentionForward;
    if (modules & kRecomputeLayerNorm)
        seconds += normForward;
    if (modules & kRecomputeMlaUpProj)
        seconds += mlaUpForward;
    if (modules & kRecomputeMlp)
        seconds += mlpForward;
    if (modules & kRecomputeMoe)   // the activation and shared experts with it; a nested shared_experts
        seconds += moeForward + (modules & kRecomputeSharedExperts ? sharedForward : 0.0);   // checkpoint replays them again
    else
        seconds += (modules & kRecomputeMoeAct ? moeActForward : 0.0) + (modules & kRecomputeSharedExperts ? sharedForward : 0.0);
    return seconds;
}

bool ropeRunsOpByOp(const Workload &w, bool megatronCore, bool eager)
{
    return megatronCore && !eager && w.ropeAttentionFactor != 1.0 && !w.learnedPositions;
}

bool gluClampRunsOpByOp(const Workload &w, bool megatronCore, bool eager, bool moeFusedMlp)
{
    return isMoe(w) && megatronCore && !eager && !moeFusedMlp && w.gluClamp > 0 && w.mlp == MlpKind::SwiGlu;
}

bool expertBiasRunsOpByOp(const Workload &w, bool megatronCore, bool eager, bool moeFusedMlp)
{
    return isMoe(w) && megatronCore && !eager && !moeFusedMlp && w.expertBias;
}

LayerTimes layerTimes(const Workload &w, Precision precision, double tokens, int tp, int cp, bool sp,
                      const KernelSpec &spec, double wgradOutputBytes, bool eager, CpComm cpComm, int ep, bool mlaDownOnShard,
                      bool megatronCore, bool moeFusedMlp)
{
    // A model whose first layers are dense (DeepSeek-V3's first 3 of 61): the mean of its two
    // kinds of layer, weighted by their counts.
    if (isMoe(w) && moeLayersOf(w) < w.layers) {
        Workload moeOnly = w;
        moeOnly.firstDenseLayers = 0;
        return meanLayer(layerTimes(moeOnly, precision, tokens, tp, cp, sp, spec, wgradOutputBytes, eager, cpComm, ep, mlaDownOnShard, megatronCore, moeFusedMlp),
                         layerTimes(denseLayerOf(w), precision, tokens, tp, cp, sp, spec, wgradOutputBytes, eager, cpComm, ep, mlaDownOnShard, megatronCore, moeFusedMlp),
                         moeLayerShare(w), w.sharedExpertFfn > 0);
    }
    const KernelDefaults &k = kernelDefaults();
    LayerTimes lt;
    const double T = tokens, h = w.hidden, t = tp, f = w.ffnHidden;
    const double q = attentionWidthOf(w) / t;      // this GPU's query heads width
    const double o = attentionOutWidthOf(w) / t;   // and attention output width (= q but under MLA)
    const double gates = w.mlp == MlpKind::SwiGlu ? 2.0 : 1.0;
    const double kv = kvWidthPerGpu(w, tp);
    const bool mla = isMla(w);
    struct Shape { double N, K; };
    const Shape gemms[LayerTimes::kLayerGemms] = {{q + 2 * kv, h},       // fused QKV (column parallel, after all-gather)
                                                 {h, o},                 // attention output (row parallel, then reduce-scatter)
                                                 {gates * f / t, h},     // MLP up (+ gate)
                                                 {h, f / t}};            // MLP down
    // [TE-ACC] The forward GEMMs may accumulate faster than the gradient GEMMs.
    KernelSpec forwardSpec = spec;
    forwardSpec.gemmEfficiency *= spec.forwardGemmRate;
    forwardSpec.ridgeFlopsPerByte *= spec.forwardGemmRate;
    // [MoE] Mixture of experts (Megatron-Core MoELayer, experts with expert tensor parallelism 1,
    // TE GroupedLinear): the router scores this rank's Tin tokens (its SP shard) against the E
    // experts, each token goes to k of them, and this rank runs its E/ep experts on the tokens the ep
    // ranks route there: with balanced routing Tin k ep / E tokens each, one grouped GEMM over the
    // E/ep experts per projection. The work per GPU is Tin k expert FFNs whatever ep is; ep sets the
    // GEMMs' M and how many experts share the SMs.
    const bool moe = isMoe(w);
    const double Tin = moe && (sp || tp == 1) ? T / t : T;
    const double topK = expertsPerTokenOf(w);
    const double fe = expertFfnOf(w);
    const double localExperts = moe ? double(w.experts) / std::max(1, ep) : 0.0;
    const double expertTokens = moe ? Tin * topK / localExperts : 0.0;   // M of each local expert's GEMMs
    // The expert FFN width per token of this rank (Tin k expert rows), as f / t is the dense MLP's.
    const double mlpWidth = moe ? Tin / T * topK * fe + double(w.sharedExpertFfn) / t : f / t;
    // One GEMM of M rows (batch of them) into slot i: forward, input gradient, weight gradient;
    // tpPaired: a GEMM the slot's TP collective is pipelined with (LayerTimes::tpForwardOf).
    const auto addGemm = [&](int i, double M, double N, double K, double batch, bool tpPaired = true) {
        const double forward = gemmSeconds(M, N, K, forwardSpec, batch);
        const double backwardData = gemmSeconds(M, K, N, spec, batch);
        const double backwardWeight = gemmSeconds(K, N, M, spec, batch, wgradOutputBytes);
        lt.forwardOf[i] += forward;
        lt.backwardDataOf[i] += backwardData;
        lt.backwardWeightOf[i] += backwardWeight;
        if (tpPaired) {
            lt.tpForwardOf[i] += forward;
            lt.tpBackwardDataOf[i] += backwardData;
            lt.tpBackwardWeightOf[i] += backwardWeight;
        }
    };
    // [MLA] Megatron-Core MLASelfAttention (gpt_layer_specs.py): the down projections are
    // replicated on every TP rank (TELinear "duplicated"), on this rank's SP shard of the tokens
    // (their latents are gathered after); the up projections are column parallel on all T.
    const double ql = w.qLoraRank, kl = w.kvLoraRank, dr = w.ropeHeadDim;
    const double downTokens = sp && mlaDownOnShard ? T / t : T;
    // [MoE] Shared experts (Megatron-Core SharedExpertMLP): a dense MLP of the shared width on every
    // token, tensor parallel like a dense layer's, beside the routed experts.
    const double fs = moe ? double(w.sharedExpertFfn) : 0.0;
    for (int i = 0; i < LayerTimes::kLayerGemms; ++i) {
        const Shape &g = gemms[i];
        const bool expert = moe && (i == LayerTimes::kMlpUp || i == LayerTimes::kMlpDown);
        if (expert) {
            const double N = i == LayerTimes::kMlpUp ? gates * fe : h, K = i == LayerTimes::kMlpUp ? h : fe;
            addGemm(i, expertTokens, N, K, localExperts, false);
            if (fs > 0) {
                const double before = lt.forwardOf[i];
                addGemm(i, T, i == LayerTimes::kMlpUp ? gates * fs / t : h, i == LayerTimes::kMlpUp ? h : fs / t, 1);
                lt.sharedForward += lt.forwardOf[i] - before;
            }
        } else if (mla && i == LayerTimes::kQkv) {
            double before = 0;
            if (ql > 0) {
                addGemm(i, downTokens, ql, h, 1, false);   // Q down
                before = lt.forwardOf[i];
                addGemm(i, T, q, ql, 1);            // Q up: a (d + d_r) / t
                lt.mlaUpForward += lt.forwardOf[i] - before;
            } else {
                addGemm(i, T, q, h, 1);             // Q from h
            }
            addGemm(i, downTokens, kl + dr, h, 1, false);               // KV down and the rotary key
            before = lt.forwardOf[i];
            addGemm(i, T, w.heads * (headDimOf(w) + vHeadDimOf(w)) / t, kl, 1);   // KV up: a (d + d_v) / t
            lt.mlaUpForward += lt.forwardOf[i] - before;
        } else {
            addGemm(i, T, g.N, g.K, 1);
        }
        lt.gemmForward += lt.forwardOf[i];
        lt.gemmBackwardData += lt.backwardDataOf[i];
        lt.gemmBackwardWeight += lt.backwardWeightOf[i];
    }
    if (moe) {   // the router: Tin x E scores from h, in 16-bit (the recipes' fp32 router is smaller still)
        const KernelSpec router16 = sixteenBit(spec);
        lt.moeForward = lt.forwardOf[LayerTimes::kMlpUp] + lt.forwardOf[LayerTimes::kMlpDown] + gemmSeconds(Tin, w.experts, h, router16);
        lt.gemmForward += gemmSeconds(Tin, w.experts, h, router16);
        lt.gemmBackwardData += gemmSeconds(Tin, h, w.experts, router16);
        lt.gemmBackwardWeight += gemmSeconds(h, w.experts, Tin, router16, 1, wgradOutputBytes);
    }

    // Core attention.
    const KernelSpec spec16 = sixteenBit(spec);
    const double s = w.seqLen;
    const double headsPerGpu = std::max(1.0, double(w.heads) / tp);
    const double sequences = T * cp / s;   // micro-batch sequences (each rank holds 1/cp of every one)
    const double hbm = spec.hbmBytesPerSecond;
    double softmaxBytesPerToken = 0;
    if (w.attention != Attention::Materialized) {
        // Block work of one sequence and head on this rank, in (B x B) tiles: the useful tiles,
        // the diagonal tiles run in full under causal masking, and a fixed cost per Q block
        // (launch and pipeline fill), B and that cost fit to cuDNN's measured sequence ramp and
        // causal penalty ([cuDNN-SDPA]).
        const double B = attentionBlockRows(w.attention);
        const double nQ = std::ceil(s / B);
        // This rank's nQ / cp Q blocks pay the fixed cost at each of a K/V ring's cp steps, once otherwise.
        const double overheadBlocks = nQ * k.attentionCtaOverheadBlocks / (cpComm == CpComm::P2p ? 1.0 : double(cp));
        // A sliding window of w keys reaches floor((w - 2)/B) + 2 key blocks from a query block
        // (FlashAttention's local masking runs both edge tiles in full); full layers all q + 1.
        const int windowed = windowedLayersOf(w);
        const double windowTiles = windowKeyBlocks(w.slidingWindow, B);
        const double causalUnits = (double(w.layers - windowed) * causalTiles(nQ, nQ) + windowed * causalTiles(nQ, windowTiles))
                                   / w.layers;
        const double units = (w.causal ? causalUnits : nQ * nQ) / cp + overheadBlocks;
        // Q K^T over the query width and P V over the value width (2 B^2 (d_qk + d_v), 4 B^2 d).
        const double unitFlops = 2.0 * B * B * (qkHeadDimOf(w) + vHeadDimOf(w));
        const double efficiency = attentionKernelEfficiency(w.attention, spec);
        const double flopSeconds = sequences * headsPerGpu * units * unitFlops / (spec.attentionPeakFlops * efficiency);
        const AttentionHeadDimFactors f = attentionHeadDimFactors(w, spec);
        lt.attentionForward = flopSeconds * f.forward;
        lt.attentionBackward = k.attentionBackwardRatio * flopSeconds * f.backward;
    } else {
        // [K22]: Q K^T and softmax(.) V as batched GEMMs with K = head dim; scores stored.
        const double batch = sequences * headsPerGpu;
        const double rows = s / cp;   // this rank's query rows
        lt.attentionForward = gemmSeconds(rows, s, qkHeadDimOf(w), spec16, batch) + gemmSeconds(rows, vHeadDimOf(w), s, spec16, batch);
        lt.attentionBackward = 2 * lt.attentionForward;
        // scale + mask + softmax (read 2, write 2), dropout (read 2, write 2 + mask 1) per score
        softmaxBytesPerToken = 9.0 * headsPerGpu * s;
    }

    // Memory-bound kernels, bytes per token: fused as Megatron/TE (or torch.compile) run them, or
    // op by op in PyTorch eager (KernelDefaults::eager*).
    const double r = (sp || tp == 1) ? h / t : h;   // width of the norm/residual region on this GPU
    const double normBytes = eager && resolveNorm(w) == NormKind::RmsNorm ? k.eagerRmsNormBytes : 4.0;
    double bytes = 2 * normBytes * r   // two norms: read + write 16-bit when fused
                   + 2 * 6 * r;        // two bias-dropout-residual adds: read two, write one
    const double activationBytes = w.mlp == MlpKind::SwiGlu ? (eager ? k.eagerSwigluBytes : 6.0) : 4.0;   // SiLU(gate)*up or GeLU
    bytes += activationBytes * mlpWidth;
    // The norms Megatron's layernorm module replays: those not fused into the next GEMM (MLA's
    // input norm, a MoE layer's MLP norm; memory.cpp megatronSelectiveBytes).
    const double standaloneNorms = (mla ? 1.0 : 0.0) + (moe ? 1.0 : 0.0);
    lt.normForward = T * standaloneNorms * (eager && resolveNorm(w) == NormKind::RmsNorm ? k.eagerRmsNormBytes : 4.0)
                     * ((sp || tp == 1) ? h / t : h) / spec.hbmBytesPerSecond;
    if (moe) {
        const double routedWidth = Tin / T * topK * fe;
        lt.moeActForward = T * activationBytes * routedWidth / spec.hbmBytesPerSecond;
        lt.sharedForward += T * activationBytes * double(w.sharedExpertFfn) / t / spec.hbmBytesPerSecond;
        // The shared experts' GEMMs are in forwardOf already: add their activation only.
        lt.moeForward += lt.moeActForward + T * activationBytes * double(w.sharedExpertFfn) / t / spec.hbmBytesPerSecond;   // and the permutation, below
    } else {
        lt.mlpForward = lt.forwardOf[LayerTimes::kMlpUp] + lt.forwardOf[LayerTimes::kMlpDown]
                        + T * activationBytes * mlpWidth / spec.hbmBytesPerSecond;
    }
    if (moe) {
        // [MoE] Per token of this rank: the router's fp32 logits and probabilities (softmax, top-k:
        // write and read 4 B each of E), the gather into expert order (k rows of h read and
        // written, 16-bit) and the weighted scatter back (k rows read, one written), fused as
        // Megatron-Core's moe_permute_fusion runs them.
        lt.permuteForward = Tin * (8.0 * w.experts + 6.0 * topK * h + 2.0 * h) / hbm;
        lt.moeForward += lt.permuteForward;
    }
    // [ROPE-MSCALE] The Q and K elements Megatron-Core rotates op by op under a YaRN attention
    // factor: the bytes beyond the fused kernel's, forward and backward, added below.
    double unfusedRopeElements = 0;
    const bool unfusedRope = ropeRunsOpByOp(w, megatronCore, eager);
    if (mla) {
        // [MLA] rotary on each head's d_r query part and the shared d_r key; the latents' norms
        // (fused into the up projections' LayerNormLinear: read and write); Q and K assembled
        // from their no-rotary and rotary parts (torch.cat: read and write 16-bit, each a (d + d_r)).
        bytes += (eager ? k.eagerRotaryBytes : 4.0) * (w.heads * dr / t + dr) + 4.0 * (ql + kl) + 4.0 * 2 * q;
        lt.mlaUpForward += T * ((eager ? k.eagerRotaryBytes : 4.0) * (w.heads * dr / t + dr) + 4.0 * 2 * q) / spec.hbmBytesPerSecond;
        if (unfusedRope)
            unfusedRopeElements = w.heads * dr / t + dr;
    } else if (!w.learnedPositions) {
        bytes += (eager ? k.eagerRotaryBytes : 4.0) * (q + kv);   // rotary on Q and K
        if (unfusedRope)
            unfusedRopeElements = q + kv;
    }
    if (w.qkNorm)   // per-head RMSNorm of Q and K (fused: read and write 16-bit; eager as the layer norms)
        bytes += (eager ? k.eagerRmsNormBytes : 4.0) * (q + kv);
    if (eager)
        bytes += k.eagerAttentionOutputBytes * q;
    bytes += softmaxBytesPerToken;
    lt.elementwiseForward = T * bytes / hbm + lt.permuteForward;
    lt.elementwiseBackward = k.backwardTrafficRatio * lt.elementwiseForward;
    if (unfusedRopeElements > 0) {
        lt.elementwiseForward += T * (k.unfusedRopeForwardBytes - 4.0) * unfusedRopeElements / hbm;
        lt.elementwiseBackward += T * (k.unfusedRopeBackwardBytes - k.backwardTrafficRatio * 4.0) * unfusedRopeElements / hbm;
        if (mla)   // MLA's rotary is replayed with its up projections (recompute module mla_up_proj)
            lt.mlaUpForward += T * (k.unfusedRopeForwardBytes - 4.0) * unfusedRopeElements / hbm;
    }
    const bool clamp = gluClampRunsOpByOp(w, megatronCore, eager, moeFusedMlp);
    const bool bias = expertBiasRunsOpByOp(w, megatronCore, eager, moeFusedMlp);
    if (clamp || bias) {
        // [MOE-BIAS-CLAMP] per token of T: this rank's routed rows, Tin k / T of them, each an fc1
        // output of gates x fe and an fc2 output of h. The clamp runs inside the checkpointed
        // activation, so moe_act's replay repeats it.
        const double rowsPerToken = Tin / T * topK;
        const double clampForward = clamp ? k.gluClampForwardBytes * gates * fe * rowsPerToken : 0.0;
        const double clampBackward = clamp ? k.gluClampBackwardBytes * gates * fe * rowsPerToken : 0.0;
        const double biasForward = bias ? k.expertBiasForwardBytes * h * rowsPerToken : 0.0;
        const double biasBackward = bias ? k.expertBiasBackwardBytes * h * rowsPerToken : 0.0;
        lt.elementwiseForward += T * (clampForward + biasForward) / hbm;
        lt.elementwiseBackward += T * (clampBackward + biasBackward) / hbm;
        lt.moeActForward += T * clampForward / hbm;
        lt.moeForward += T * (clampForward + biasForward) / hbm;
    }
    if (precision == Precision::Fp8) {
        // [TE] every GEMM input is quantized forward and every output gradient backward, reading 16
        // bits (a second time for current scaling's amax) and writing one byte per FP8 copy (plus
        // block scales). Under sequence parallelism the norm outputs (QKV and up inputs) and the
        // row-parallel output gradients are quantized on this rank's shard, r = h/t, and gathered in
        // FP8: per-tensor recipes gather the row-wise copy and make the transposed one (Hopper) from
        // the gathered h, reading and writing a byte (layernorm_linear.py, base.py
        // grad_output_preprocess: cast, gather, fp8_transpose); block recipes quantize both copies
        // on the shard [TE-MX]. A norm that quantizes its own output (Fp8Fusion::Output) skips the
        // cast's read and writes the row-wise FP8 copy in place of its 16-bit output, whose bytes
        // leave the elementwise traffic, and transposes it after (ln_api.cpp / rmsnorm_api.cpp:
        // nvte_transpose when columnwise data is needed); with Amax it skips the amax pass.
        const double element = quantizedElementBytes(spec);
        const double writes = spec.fp8Copies * element;
        const double transposeBytes = spec.fp8BlockScaled ? 0.0 : 2.0 * (spec.fp8Copies - 1);
        const bool gathered = sp && tp > 1;
        // One tensor of local width x (the shard when gathered, of full width h), read `read` bytes.
        const auto cast = [&](double x, double read, bool gatheredTensor) {
            if (spec.fp8BlockScaled || !gatheredTensor)
                return (read + writes) * x;
            return (read + element) * x + transposeBytes * h;
        };
        const double normOut = r;   // the norm's output on this rank: the shard under SP
        double normCastBytes = cast(normOut, spec.fp8NormFusion == Fp8Fusion::Amax ? k.fp8CastReadBytes : spec.fp8ReadBytes,
                                    gathered);
        if (spec.fp8NormFusion == Fp8Fusion::Output) {   // row-wise FP8 from the norm, transposed after
            normCastBytes = element * normOut + transposeBytes * (gathered ? h : normOut);
            lt.elementwiseForward -= T * 2 * 2 * normOut / hbm;   // the two norms' 16-bit writes
        }
        double rowParallelGrads = 2 * cast(gathered ? r : h, spec.fp8ReadBytes, gathered);
        double inBytes = 2 * normCastBytes + cast(o + mlpWidth, spec.fp8ReadBytes, false);
        if (mla)   // [MLA] the up projections' inputs, the normed latents
            inBytes += cast(ql + kl, spec.fp8ReadBytes, false);
        if (moe && fs > 0)   // the shared experts read the MLP norm's output as a dense MLP does
            inBytes += normCastBytes;
        if (moe) {
            // [MoE] The experts' grouped GEMMs quantize their own inputs, the permuted token rows
            // (k h per token of this rank; the router stays 16-bit), and the down projection's
            // output gradients there, not a norm's gathered output.
            const double expertRows = Tin / T * topK * h;
            inBytes += cast(expertRows, spec.fp8ReadBytes, false) - normCastBytes;
            rowParallelGrads += cast(expertRows, spec.fp8ReadBytes, false)
                                - (fs > 0 ? 0.0 : cast(gathered ? r : h, spec.fp8ReadBytes, gathered));   // shared down keeps its own
            if (spec.fp8NormFusion == Fp8Fusion::Output)   // only the attention norm wrote FP8 in place of 16-bit
                lt.elementwiseForward += T * 2 * normOut / hbm;
        }
        // Output gradients of the column-parallel GEMMs: QKV (under MLA the up and down
        // projections': a (d + d_r), a (d + d_v), and the latents) and MLP up.
        const double qkvOut = mla ? q + 2 * kv + (ql > 0 ? ql : 0.0) + kl + dr : q + 2 * kv;
        const double gradBytes = rowParallelGrads + cast(qkvOut + gates * mlpWidth, spec.fp8ReadBytes, false);
        lt.castForward = T * inBytes / hbm;
        lt.castBackward = T * gradBytes / hbm;
    }
    return lt;
}

LossTraffic lossTrafficOf(CrossEntropy crossEntropy)
{
    const KernelDefaults &k = kernelDefaults();
    switch (crossEntropy) {
    case CrossEntropy::PyTorch: return {k.lossForwardBytesPerLogitPyTorch, k.lossBackwardBytesPerLogitPyTorch};
    case CrossEntropy::Fused: return {k.lossForwardBytesPerLogitFused, k.lossBackwardBytesPerLogitFused};
    case CrossEntropy::Megatron:
    case CrossEntropy::Auto: break;
    }
    return {k.lossForwardBytesPerLogitMegatron, k.lossBackwardBytesPerLogitMegatron};
}

HeadTimes headTimes(const Workload &w, double tokens, int tp, const KernelSpec &spec, const LossTraffic &loss,
                    double wgradOutputBytes)
{
    // The LM head stays in 16-bit under FP8 recipes (Megatron, torchao skip the output layer).
    const KernelSpec spec16 = sixteenBit(spec);
    const double T = tokens, h = w.hidden, V = double(w.vocab) / tp;
    HeadTimes ht;
    const double logitsPerByteRate = T * V / spec.hbmBytesPerSecond;
    ht.forward = gemmSeconds(T, V, h, spec16) + logitsPerByteRate * loss.forwardBytesPerLogit;
    ht.weightGrad = gemmSeconds(h, V, T, spec16, 1, wgradOutputBytes);
    ht.backward = gemmSeconds(T, h, V, spec16) + ht.weightGrad + logitsPerByteRate * loss.backwardBytesPerLogit;
    if (w.mtpLayers > 0) {
        // [MTP] Each module runs the shared head and its loss again, after projecting the normed
        // hidden state and next token's embedding, 2h -> h (Megatron-Core eh_proj, column parallel).
        const double passes = 1.0 + w.mtpLayers;
        const double projForward = gemmSeconds(T, h / tp, 2 * h, spec);
        const double projWeight = gemmSeconds(2 * h, h / tp, T, spec, 1, wgradOutputBytes);
        const double projData = gemmSeconds(T, 2 * h, h / tp, spec);
        ht.forward = passes * ht.forward + w.mtpLayers * projForward;
        ht.weightGrad = passes * ht.weightGrad + w.mtpLayers * projWeight;
        ht.backward = passes * ht.backward + w.mtpLayers * (projData + projWeight);
    }
    return ht;
}

} // namespace ts
