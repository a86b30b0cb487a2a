// SPDX-License-Identifier: MIT
// Where the time of one transformer layer goes on one GPU: every GEMM on its own (forward, input
// gradient, weight gradient) at an efficiency that follows its M, N, K; fused attention at its
// kernel's efficiency with the causal work it really executes; norms, activations, rotary,
// residuals and FP8 casts as HBM traffic. Sources and defaults in kernels.cpp.
#pragma once

#include "inputs.h"

namespace ts {

/// How Transformer Engine's norm kernel hands its output to the FP8 cast of the GEMM after it
/// (LayerNormLinear; pytorch/csrc/extensions/normalization.cpp, "Choose implementation"): Output =
/// the norm writes FP8 itself (FULLY_FUSED), Amax = it writes 16-bit and the tensor's amax, so
/// the cast needs no amax pass (FUSED_NORM_AMAX_FP8), None = a separate quantization.
enum class Fp8Fusion { None, Amax, Output };

/// FlashAttention-2's tiling and per-score work: the FlashAttention-2 kernel and the Triton kernel,
/// which runs the same algorithm's tiles on the same (Ampere-style) tensor-core instructions.
inline bool fa2Family(Attention a) { return a == Attention::Flash2 || a == Attention::Triton; }

/// Named defaults of the kernel model, the same for every run. A GPU preset overrides the
/// per-GPU ones (gemm/attention efficiency, SM count); these apply when a custom GPU omits them.
struct KernelDefaults
{
    double gemmEfficiency = 0.75;         // generic best-shape dense GEMM / peak (MAMF of A100..B200: 0.78-0.87)
    double gemmEfficiencyFp8 = 0.70;      // generic FP8 (MAMF of H100..B200: 0.71-0.76)
    double attentionEfficiency = 0.55;    // generic fused attention fwd+bwd (FA2 A100 0.65, FA3 H100 0.59)
    double attentionEfficiencyFa2 = 0.34; // generic FlashAttention-2 (H100: 335 / 989, Dao 2023 Sec. 4.1, Fig. 7)
    // [FA2] FlashAttention's Triton kernel (flash_attn_triton.py; llm-foundry's attn_impl triton,
    // compiled by triton-pre-mlir) against FlashAttention-2, forward + backward, head dim 128, on
    // the same GPU: Dao 2023 (arXiv:2307.08691) Fig. 4, A100 80 GB, "FlashAttention Triton" over
    // "FlashAttention-2" at 2K, 4K and 8K: causal 68/155, 74/173, 78/182, non-causal 90/187,
    // 93/196, 95/201, mean 0.45. Both run Ampere's mma.sync tiles on Hopper too (neither uses
    // wgmma), so the ratio carries to H100, where FlashAttention-1, which the Triton kernel
    // matches on A100 (69 against 68 causal at 2K), measured 0.41 of FlashAttention-2 (108/265,
    // the FlashAttention-2 README's H100 figure).
    double attentionTritonOverFa2 = 0.45;
    int tileM = 128, tileN = 256;         // CTA tile of large Hopper GEMMs (CUTLASS 128x256x64), when a GPU does not say
    int tileSms = 1;                      // SMs that compute one tile together (2 for Blackwell's 2-CTA MMA)
    double splitKMinK = 512;              // smallest K slice when cuBLAS splits K to fill the SMs
    // Split-K slices write fp32 partial outputs that a reduction reads back before writing the
    // output: 2 x 4 B per slice and output element, + the output's own bytes.
    double splitKPartialBytes = 8.0;
    // A GEMM kernel's fixed time, whatever its size: launch, the first tiles' loads before the
    // tensor cores start, the last wave's epilogue. Fit to XLA's measured matmul tables
    // (tests/data/kernels: H100 BF16, B200 BF16 and FP8) where outputs do not fill the GPU, with
    // the split-K partials above: 3 us (2-4 us across the three tables).
    double gemmFixedSeconds = 3e-6;
    // [cuDNN-SDPA] Query rows one CTA of the fused kernel frameworks run (cuDNN through Transformer
    // Engine) works through: two 128-row tiles. cudnn-frontend's measured sequence ramp and causal
    // penalty on H200, GB200 and GB300 (2K-32K, 30 points; tests/data/kernels) fit 256 with the
    // overhead below (log-error 0.065, against 0.226 at 128); FlashAttention-2 works on 128.
    int attentionBlock = 256;
    int attentionBlockFa2 = 128;
    double attentionCtaOverheadBlocks = 1.5;  // per Q block, in block units: the CTA's launch and pipeline fill
    double attentionBackwardRatio = 2.5;  // FA backward / forward FLOPs (5 matmuls vs 2, Dao 2023 Sec. 4)
    // [FA3] A fused attention tile's matmuls scale with the head dim d, its softmax (exp, max,
    // rescale: one of each per score, on the SFUs) does not: a tile costs (d + c) where its FLOPs
    // say d, c the per-score work in head-dim columns. FlashAttention-3's measured H100 BF16
    // throughput, non-causal at 16K (Shah et al. 2024, arXiv:2407.08608, Figs. 5-6): forward 497
    // TFLOP/s at d = 64 against 648 at 128 gives c = 128 (1 - R) / (2R - 1) = 56 (R = 497/648),
    // which predicts 764 at d = 256 where it measured 756; backward 474 against 561, c = 29.
    // FlashAttention-2's slower matmuls leave less to the softmax: 324/370 and 291/322 in the same
    // figures give 21 and 15. The GPUs' attention efficiencies are read at d = 128 (gpus.json),
    // where the factor is 1. c grows with the tensor cores' rate over the exp units': a GPU gives
    // its own forward c (Gpu::attentionScoreDims; Blackwell 112, twice Hopper's tensor FLOPs per SM
    // and clock at the same 16 exps: FlashAttention-4's forward roofline, arXiv:2603.05451, has a
    // 128 x 128 x 128 tile take 1024 cycles of MMA and 1024 of exps on B200), and FP8 attention
    // doubles it again (FA3's Fig. 7 has FP8 at d = 64 at 0.61 of d = 128; c = 112 gives 0.68).
    // [cuDNN-SDPA] From d = 128 on the matmuls hide the softmax: cuDNN's forward measured flat from
    // d = 128 to query/key 192 with value 128 on H200 (643 against 644 TFLOP/s, causal 8K) and
    // within 9% up to 256 on GB200 and GB300, so the factor stays 1 above 128 (FA3's own kernel
    // gains 17% at 256; FlashAttention-2 loses 12% there, same figures). The backward's c is
    // measured no larger on Blackwell: GPT-OSS's d = 64 rows against Llama's, with Hopper's 29,
    // come out -9% to -3% on GB200, -3% to -1% on GB300 and +3% to +5% on H200
    // (tests/data/kernels/cudnn-sdpa-headdims.csv). Wider heads than 2 x 128 slow the backward
    // instead: it keeps dK and dV (d_qk + d_v FP32 columns per key row) on chip beside the score
    // tiles (Blackwell's 512 tensor-memory columns: 128 + 128 + S and dP at d = 128; Hopper's
    // register file likewise), so a wider head shrinks its key tile in proportion and every key
    // tile streams all of Q and dO again: time x (d_qk + d_v) / 256. At DeepSeek-V3's and Kimi
    // K2.6's 192/128, cuDNN's backward on GB200 and GB300 measured 0.79-0.96 of Llama's throughput
    // from 4K (median 0.87) in the benchmark's FLOP count (3 d_qk + 2 d_v), where this gives 0.83;
    // FlashAttention-4 on B200 0.79-0.86 (flash-attention#2270's first 192/128 kernel, 1072.8
    // TFLOP/s non-causal at 8K, against #2280's 128 with and without 2-CTA MMA, 1359.8 and
    // 1247.5). Hopper's and Ampere's wide backward and 256 + 256 (0.5) are not measured here.
    double attentionScoreDimsForward = 56;
    double attentionScoreDimsBackward = 29;
    double attentionScoreDimsForwardFa2 = 21;
    double attentionScoreDimsBackwardFa2 = 15;
    double attentionReferenceHeadDim = 128;
    // [cuDNN-NORM] Streaming kernels reach 85% of nominal HBM bandwidth: cuDNN's fused norms over
    // 15 models' shapes, forward and backward, fit 0.81-0.87 on H200, GB200 and GB300.
    double hbmEfficiency = 0.85;
    double backwardTrafficRatio = 2.0;    // elementwise backward reads saved input + grad, writes grad
    // FP8 cast: read bf16 (2 B), write one byte per FP8 copy (row-wise and, on Hopper, transposed).
    double fp8CastReadBytes = 2.0;
    int fp8Copies = 2;                    // when a GPU does not say (Hopper's TN-only FP8 GEMMs)
    // [TE-CS] Current scaling (fp8_recipe tensorwise) reads the tensor twice: an amax pass, then
    // the scale-and-cast pass. Delayed scaling takes its scale from the amax history and fuses
    // this step's amax into the cast.
    double fp8AmaxReadBytes = 2.0;
    // [TE-MX], [TE-BW] Block recipes quantize the row-wise and the column-wise copy separately
    // (their blocks run along different axes), on any GPU, and write a scale per block:
    // MXFP8 one E8M0 byte per 32 elements, FP8 block scaling one fp32 per 128 (1D blocks).
    int fp8BlockCopies = 2;
    double mxfp8ScaleBytes = 1.0 / 32;
    double blockwiseScaleBytes = 4.0 / 128;
    // [TE-GEMM] Rate of a block-scaled FP8 GEMM relative to the per-tensor FP8 GEMM, inputs
    // already quantized. MXFP8 on Blackwell: TE's gemm profiling on B300 (5B layer, M = 15,872)
    // gives 6.812 ms per layer for per-tensor FP8 and 7.161 ms for MXFP8: 0.951. FP8 block
    // scaling on Hopper, which "software-emulates" the block scales: TE's H200 NVL table gives
    // 22.882 ms per layer with quantization, of which this model's cast traffic is 2.47 ms, against
    // 16.785 ms for the per-tensor kernel: 16.785 / (22.882 - 2.47) = 0.82. On a GPU with MXFP8
    // tensor cores TE runs block scaling as MXFP8 GEMMs.
    double mxfp8GemmRate = 0.951;
    double blockwiseGemmRateEmulated = 0.82;
    // [NVFP4] fp8_recipe nvfp4 (TE NVFP4BlockScaling): 4-bit E2M1 elements, half a byte, with an
    // E4M3 scale per 16 (1D blocks for inputs and gradients, 16 x 16 for weights) and one fp32 per
    // tensor. Quantizing an input or a gradient reads it three times: an amax pass (the row-wise
    // amax and that of the Hadamard-transformed column-wise copy in one kernel), then the row-wise
    // cast and the transformed column-wise cast (TE benchmarks/benchmark_rht_cast.py counts
    // "input_nbytes * 3"), writing two block-scaled copies.
    double nvfp4ElementBytes = 0.5;
    double nvfp4ScaleBytes = 1.0 / 16;
    double nvfp4HadamardReadBytes = 2.0;
    // Generic NVFP4 GEMM ceiling, for a GPU with an FP4 peak but no figure of its own: the B300
    // preset's (TE's measured NVFP4 layer GEMMs, kernels.cpp [TE-GEMM]).
    double gemmEfficiencyFp4 = 0.505;
    // HBM bytes per logit of the fp32 cross-entropy, forward and backward, as the frameworks'
    // kernels run it (the logits GEMM's own bf16 write is in the GEMM):
    //  Megatron-Core vocab_parallel_cross_entropy (tensor_parallel/cross_entropy.py, unfused by
    //  default): .float() r2 w4, max r4, -= max r4 w4, exp r4 w4, sum r4, /= sum r4 w4 (38);
    //  backward *= grad r4 w4, cast to bf16 r4 w2 (14);
    //  PyTorch F.cross_entropy(logits.float()) (torchtitan, DeepSpeed/HF): cast r2 w4, log_softmax
    //  r4 r4 w4, backward zero-filled nll grad w4, log_softmax backward r4 r4 w4, cast r4 w2.
    double lossForwardBytesPerLogitMegatron = 38.0;
    double lossBackwardBytesPerLogitMegatron = 14.0;
    double lossForwardBytesPerLogitPyTorch = 18.0;
    double lossBackwardBytesPerLogitPyTorch = 24.0;
    //  A fused kernel on the 16-bit logits (flash-attn ops/triton/cross_entropy.py): forward reads
    //  them once (r2), backward reads them and writes the gradient (r2 w2).
    double lossForwardBytesPerLogitFused = 2.0;
    double lossBackwardBytesPerLogitFused = 4.0;
    // The input embedding's gradient is dense: embedding backward zero-fills a [V/t, h] tensor and
    // adds the tokens' rows into it every micro-batch (PyTorch embedding_dense_backward, w2).
    // Megatron's DDP hook then adds it to the fp32 main gradient (distributed_data_parallel.py,
    // param_hook: main_grad.add_(grad), r4 r2 w4); other frameworks accumulate it into the 16-bit
    // .grad (r2 r2 w2). HBM bytes per embedding element per micro-batch:
    double embeddingGradBytesMegatron = 12.0;
    double embeddingGradBytesOther = 8.0;
    // [DS-BF16] DeepSpeed's BF16_Optimizer, which its pipeline engine runs for bf16 training, sets
    // the 16-bit gradients to None before every micro-batch's backward and afterwards adds them to
    // fp32 copies, parameter by parameter, on the compute stream before the gradient is sent on:
    // hp_grad.add_(lp.grad.to(fp32)), r2 w4 for the cast, r4 r4 w4 for the add (bf16_optimizer.py
    // backward / update_hp_grads, pipe/engine.py _exec_backward_pass; v0.7.0 through v0.16).
    // HBM bytes per parameter per micro-batch. BigScience measured their 195B configuration's
    // iteration 5.0-5.4% longer with this optimizer (bigscience train/tr11-176B-ml/chronicles-prequel.md).
    double deepSpeedBf16GradBytes = 18.0;
    // PyTorch eager, as torchtitan (without compile) and Hugging Face write a Llama block: HBM
    // bytes per element, forward, where fused kernels move fewer (the backward moves twice as
    // many, backwardTrafficRatio). RMSNorm: x.float() r2 w4, pow(2) r4 w4, mean r4, x * rsqrt
    // r4 w4, type_as r4 w2, * weight r2 w2 (torchtitan models/norms.py RMSNorm, HF LlamaRMSNorm);
    // fused 4. LayerNorm is one native kernel either way (F.layer_norm: r2 w2).
    double eagerRmsNormBytes = 36;
    // SwiGLU: silu(gate) r2 w2, then * up r2 r2 w2 (fused: r2 r2 w2).
    double eagerSwigluBytes = 10;
    // Rotary in complex fp32 (torchtitan apply_rotary_emb, Meta's llama reference): float +
    // view_as_complex r2 w4, * freqs_cis r4 w4, view_as_real + type_as r4 w2 (fused: r2 w2).
    double eagerRotaryBytes = 20;
    // The attention output back to [tokens, h]: transpose(1, 2).contiguous() r2 w2 (Megatron and
    // TE write that layout directly).
    double eagerAttentionOutputBytes = 4;
    // [ROPE-MSCALE] Megatron-Core runs RoPE op by op when YaRN's attention factor is not 1
    // (Workload::ropeAttentionFactor; rope_utils.py apply_rotary_pos_emb: "mscale=... is not
    // supported by TE's fused RoPE. Using unfused implementation", Megatron-LM 2edffadb, the
    // Megatron-Bridge v0.4.2 submodule). _apply_rotary_pos_emb_bshd on 16-bit Q and K, bytes per
    // element: t * cos r2 w2, _rotate_half's -x2 r1 w1 and cat r2 w2, * sin r2 w2, + r2 r2 w2, the
    // final cat with the empty pass-through part r2 w2: 24 forward (fused: r2 w2). Autograd's
    // backward: g * cos r2 w2, g * sin r2 w2, the negation r1 w1, chunk's backward (a cat) r2 w2,
    // the two gradients of t added r2 r2 w2: 20 (fused: twice the forward's 4, backwardTrafficRatio).
    double unfusedRopeForwardBytes = 24;
    double unfusedRopeBackwardBytes = 20;
    // [MOE-BIAS-CLAMP] Megatron-Core's TEGroupedMLP (experts.py at the Megatron-Bridge v0.4.2
    // submodule 2edffadb). The GLU clamp: weighted_bias_quick_geglu_impl (fused_bias_geglu.py)
    // clamps both halves of the fc1 output and concatenates them before its fused kernel, bytes per
    // fc1 output element: clamps r2 w2, cat r2 w2 = 8 forward (again when moe_act is recomputed);
    // backward the two clamps' masks r2 r2 w2 and chunk's cat r2 w2 = 10. The fc2 bias: _apply_bias
    // splits the output per expert and adds bias x router probability in a Python loop, 16-bit
    // (gpt-oss's router dtype unset), bytes per fc2 output element: b * p w2, t + that r2 r2 w2, the
    // cat r2 w2 = 12 forward; backward g * p and its row sum r2 w2 r2, g * b and its sum r2 w2 r2,
    // the split's cat r2 w2 = 16. The fc1 bias is added inside the fused GLU kernel (no bytes).
    double gluClampForwardBytes = 8;
    double gluClampBackwardBytes = 10;
    double expertBiasForwardBytes = 12;
    double expertBiasBackwardBytes = 16;
    // [MOE-SYNC] A dropless MoE layer's dispatcher reads the token counts on the host before it
    // can size the exchange: Megatron-Core's all-to-all dispatcher synchronizes on a D2H copy of
    // the splits (token_dispatcher.py _maybe_dtoh_and_synchronize), HybridEP and DeepEP's normal
    // dispatch wait for the received count (the same file's "CPU sync in dispatch"; NeMo
    // Automodel #3931 describes the drain). The GPU then idles until the host has issued the
    // work after it again. Measured: Megatron-Bridge skills/nemo-mbridge-perf-moe-comm-overlap/
    // card.yaml @067f987d, Qwen3 30B-A3B on 16 H100, EP 16, HybridEP, 48 MoE layers x 64
    // micro-batches a step: the step 24,713.8 ms, the GPU's active union 22,820.7 ms, so 1,893 ms
    // idle over 3,072 MoE layer forwards, 0.62 ms each (all the step's idle counted: an upper
    // bound). With --overlap-moe-expert-parallel-comm the union (21,221 ms) covers the step
    // (20,992 ms): the other micro-batch's queued work fills the wait. Seconds per sync:
    double moeDispatchSyncSeconds = 0.6e-3;
    double tpOverlapSms = 16;             // SMs a pipelined reduce-scatter overlap takes (TE userbuffers)
    // SMs an NCCL collective or send/receive holds while it runs: one CTA per channel, and NCCL
    // sets up 32 collective and 32 p2p channels on NVSwitch Hopper/Blackwell nodes ("NCCL INFO 32
    // coll channels, ..., 32 p2p channels" in DGX H100 logs); large messages use them all. Compute
    // overlapping such a collective runs on the other SMs.
    double ncclChannelSms = 32;
    // A ring whose every hop leaves the node (one rank per node, as DP under TP 8) gets fewer: the
    // topology search finds one channel per NIC at the NIC's speed, ncclTopoDupChannels doubles it
    // (src/graph/search.cc, when that speed is at least 25 GB/s) and ncclTopoPostset doubles the
    // result again ("Duplication should be complete now", src/graph/connect.cc): 4 channels, 4 SMs,
    // per NIC the group's ranks on a node use, at most ncclChannelSms.
    double ncclChannelsPerNic = 4;
    int smCount = 132;                    // when a custom GPU does not say (H100 SXM)
    // A custom GPU that gives its own efficiencies but no sustained fraction has them taken as
    // sustained ones (what a training profile measures).
    double sustainedFraction = 1.0;
    // One that gives none runs at the generic ceilings above, which are burst figures like the
    // presets' (MAMF), so at the generic sustained share of them: H200's measured MSMF / MAMF with
    // all 8 GPUs busy, 698.6 / 823.9 (the H100 and H200 presets' figure; B200 0.815, A100 0.926).
    double genericSustainedFraction = 0.848;
};
const KernelDefaults &kernelDefaults();

/// The GPU's figures with the generic defaults filled in.
struct KernelSpec
{
    double peakFlops = 0;          // of the GEMM precision
    // GEMM and attention efficiencies below already carry it (power-limited clock, MSMF / MAMF).
    double sustainedFraction = 1;
    double peakFlops16 = 0;        // attention and the LM head run in 16-bit (the FP32 rate in FP32 training)
    double gemmEfficiency = 0;     // ceiling for the GEMM precision
    double gemmEfficiency16 = 0;   // the 16-bit GEMMs' (LM head, router, materialized attention), sustained
    double attentionEfficiency = 0;
    double attentionEfficiencyFa2 = 0;
    // The peak the fused attention runs against: the 16-bit one, or FP8's with fp8 attention
    // (attentionEfficiency is then the GPU's FP8 attention figure).
    double attentionPeakFlops = 0;
    // The fused attention forward's softmax work c in head-dim columns ([FA3] above): the GPU's,
    // twice that for FP8 attention (its matmuls at the FP8 rate, the exps at the same).
    double attentionScoreDimsForward = 0;
    bool fp8Attention = false;
    double hbmBytesPerSecond = 0;  // achievable
    int smCount = 0;
    int tileM = 0, tileN = 0, tileSms = 1;   // the GEMM tile and the SMs that share it
    int fp8Copies = 2;                       // FP8 copies of each cast tensor (2 with a transpose)
    double fp8ElementBytes = 1;              // bytes of one quantized element: 1 (FP8), 0.5 (NVFP4)
    // FP8 quantization of one element (fp8_recipe, KernelDefaults): bytes read (the cast's 16-bit
    // read, and current scaling's amax pass), and the scale bytes written per element and copy.
    double fp8ReadBytes = 2;
    double fp8ScaleBytes = 0;
    // Block recipes quantize both copies from the 16-bit source; per-tensor recipes gather the
    // row-wise FP8 copy only and make the transposed one (Hopper) from the gathered tensor.
    bool fp8BlockScaled = false;
    // The GEMM rate of the recipe relative to the per-tensor FP8 GEMM (already in gemmEfficiency):
    // 1, or a block-scaled GEMM's measured share (KernelDefaults::mxfp8GemmRate, ...Emulated).
    double fp8GemmRate = 1;
    // [TE-ACC] The forward (fprop) GEMMs' rate over gemmEfficiency: per-tensor FP8 recipes run
    // them with fast accumulation (Gpu::gemmEfficiencyFp8Fast / gemmEfficiencyFp8), the input- and
    // weight-gradient GEMMs with the split accumulator the FP8 ceiling was measured with; 1 else.
    double forwardGemmRate = 1;
    // Whether the norms quantize their own output under this recipe [TE]: delayed scaling writes
    // FP8 from the norm, current scaling fuses the amax into it, MXFP8 and block scaling quantize
    // separately (MXFP8's fused norm only when cuDNN's norm is forced); None under FSDP, whose FP8
    // is torchao's casts, not Transformer Engine's modules. The activation is
    // Megatron-Core's own kernel (core/transformer/mlp.py: bias_swiglu_impl, bias_gelu_impl),
    // writing 16-bit that the next GEMM quantizes, as TE's fused activation-cast (LayerNormMLP)
    // is not what Megatron-Core runs.
    Fp8Fusion fp8NormFusion = Fp8Fusion::None;
    // FLOP per byte at which the GEMM rate meets HBM: peak x ceiling / HBM bandwidth. A tile's
    // epilogue writes its C tile at the SM's share of HBM, which costs as much as ridge x (output
    // bytes / 2) units of K in its main loop.
    double ridgeFlopsPerByte = 0;
};
/// Query rows per attention block of the kernel `attention` runs (KernelDefaults::attentionBlock,
/// attentionBlockFa2).
int attentionBlockRows(Attention attention);
/// The fused attention kernel's efficiency (burst x sustained) for `attention`: the GPU's best,
/// FlashAttention-2's (never above the best), or the Triton kernel's share of it ([FA2]).
double attentionKernelEfficiency(Attention attention, const KernelSpec &spec);

/// [FA3] [cuDNN-SDPA] A fused attention kernel's time at the layer's head widths over its time at
/// d = 128 for the same FLOPs (KernelDefaults, attentionScoreDims*): below 128 the softmax's
/// per-score work c weighs (d + c)/d x 128/(128 + c), d = (d_qk + d_v)/2; from 128 on the
/// matmuls hide it (1), and the backward slows by (d_qk + d_v)/256 past 256 columns of dK and dV.
struct AttentionHeadDimFactors
{
    double forward = 1, backward = 1;
    double forwardScoreDims = 0, backwardScoreDims = 0;   // the c used
    double backwardAccumulatorFactor = 1;                 // max(1, (d_qk + d_v) / 256)
};
AttentionHeadDimFactors attentionHeadDimFactors(const Workload &w, const KernelSpec &spec);

/// framework: the resolved one; FSDP's FP8 is torchao's, without Transformer Engine's fused norms.
/// fp8Attention: training.fp8_attention (with precision fp8 only).
KernelSpec kernelSpec(const Gpu &gpu, Precision precision, Fp8Recipe recipe = Fp8Recipe::Delayed,
                      Framework framework = Framework::Megatron, bool fp8Attention = false);
/// HBM bytes of quantizing one element of a 16-bit tensor to FP8 (NVFP4) on this GPU, every copy
/// the GEMMs need written (KernelSpec::fp8ReadBytes + fp8Copies x (fp8ElementBytes + fp8ScaleBytes)).
double fp8CastBytesPerElement(const KernelSpec &spec);
/// Bytes one quantized element takes where it is kept or moved (saved GEMM inputs, weight copies,
/// sequence-parallel gathers): the element and its block scale (FP8 1, MXFP8 1 + 1/32, NVFP4
/// 0.5 + 1/16).
double quantizedElementBytes(const KernelSpec &spec);

/// Extra time of a GEMM that shares the GPU with TE's pipelined reduce-scatter overlap:
/// it runs on SMs - tpOverlapSms of the SMs, so it takes sms / (SMs - sms) longer.
double tpOverlapSlowdown(const KernelSpec &spec);
/// Share of the SMs an overlapped NCCL collective takes from compute: hiding T seconds of such
/// communication behind compute lengthens the compute by T x this share.
double ncclComputeShare(const KernelSpec &spec);
/// The same for a collective that holds `channelSms` SMs.
double ncclComputeShare(const KernelSpec &spec, double channelSms);

/// Efficiency (fraction of peak) of one GEMM C[M,N] = A[M,K] B[K,N]: ceiling x tile fill x wave
/// quantization over the SMs (the best of three tile shapes, with split-K when one wave is not
/// filled) x K / (K + K0), K0 = ridge x outputBytes / 2 (the C-tile write; 8 for an fp32
/// read-modify-write accumulation into main gradients).
double gemmEfficiency(double M, double N, double K, const KernelSpec &spec, double batch = 1, double outputBytes = 2);
/// Seconds of that GEMM: its FLOPs at that efficiency, plus the split-K partials' HBM traffic and
/// the kernel's fixed time (KernelDefaults::splitKPartialBytes, gemmFixedSeconds).
double gemmSeconds(double M, double N, double K, const KernelSpec &spec, double batch = 1, double outputBytes = 2);

/// Times of one layer for one micro-batch on one GPU (seconds).
struct LayerTimes
{
    double gemmForward = 0;         // QKV, attention output, MLP up(+gate), MLP down
    double gemmBackwardData = 0;    // input gradients
    double gemmBackwardWeight = 0;  // weight gradients (W of zero-bubble schedules)
    // The same per GEMM (kQkv, kAttentionOut, kMlpUp, kMlpDown): an overlapped TP collective can
    // hide only behind the GEMM it is pipelined with.
    enum LayerGemm { kQkv, kAttentionOut, kMlpUp, kMlpDown, kLayerGemms };
    double forwardOf[kLayerGemms] = {};
    double backwardDataOf[kLayerGemms] = {};
    double backwardWeightOf[kLayerGemms] = {};
    // The part of each slot a TP collective is pipelined with, per block that has one: QKV's
    // column-parallel GEMMs after the gather (under MLA the up projections, not the replicated down
    // projections), and the MLP slots' dense MLP or shared experts (routed experts have no TP
    // collective). Equal to *Of for a dense layer without latent attention.
    double tpForwardOf[kLayerGemms] = {};
    double tpBackwardDataOf[kLayerGemms] = {};
    double tpBackwardWeightOf[kLayerGemms] = {};
    double attentionForward = 0;    // fused (or materialized) core attention
    double attentionBackward = 0;
    double elementwiseForward = 0;  // norms, residuals, activation, rotary, softmax when materialized
    double elementwiseBackward = 0;
    double castForward = 0;         // FP8 quantization of GEMM inputs
    double castBackward = 0;
    // Mixture of experts: the router GEMM and the experts' grouped GEMMs are in gemm* and *Of[kMlp*];
    // the tokens' permutation to and from expert order is in elementwise*, and here.
    double permuteForward = 0;      // gather into expert order and the weighted scatter back
    // Forward time of the parts Megatron's selective recompute may replay (Training::recomputeModules):
    double normForward = 0;         // the two layer norms
    double moeActForward = 0;       // the routed experts' activation function
    double mlaUpForward = 0;        // MLA's up projections and rotary
    double mlpForward = 0;          // a dense layer's MLP (GEMMs and activation)
    double moeForward = 0;          // a MoE layer's router, permutation, experts and shared experts
    double sharedForward = 0;       // the shared experts'
    /// What selective recompute replays for these modules, forward time (the all-to-alls are the caller's).
    double recomputeSeconds(unsigned modules) const;
    double forward() const { return gemmForward + attentionForward + elementwiseForward + castForward; }
    double backward() const
    {
        return gemmBackwardData + gemmBackwardWeight + attentionBackward + elementwiseBackward + castBackward;
    }
};

/// tokens: b s / c on this GPU; keys: the sequence length each query sees in full (s);
/// cp: context-parallel degree (causal load balancing of Megatron/TE: each rank gets 1/cp of the work).
/// wgradOutputBytes: 8 when weight gradients accumulate into fp32 main gradients in the GEMM
/// (Megatron-LM gradient_accumulation_fusion), else 2. eager: PyTorch eager elementwise ops
/// (KernelDefaults::eager*), else fused kernels.
/// cpComm: a K/V ring (p2p) runs each of its c steps over all of this rank's Q blocks, so each Q
/// block pays its fixed cost c times; all-gather and all-to-all run every Q block once.
/// ep: expert-parallel degree of a mixture-of-experts layer (Plan::ep): this GPU runs E/ep whole
/// experts on the tokens the ep ranks route to them (balanced routing), in place of the dense MLP.
/// mlaDownOnShard: latent attention's down projections run on this rank's SP shard (Megatron-Core's
/// duplicated TELinear); false: on every token gathered (torchtitan's NoParallel wq_a, wkv_a).
/// Training::moeFusedMlp takes effect: Transformer Engine's kernel is MXFP8 only, so under another
/// precision the setting is kept and changes nothing.
inline bool runsMoeFusedMlp(const Training &tr)
{
    return tr.moeFusedMlp && tr.precision == Precision::Fp8 && tr.fp8Recipe == Fp8Recipe::Mxfp8;
}

/// [ROPE-MSCALE] Megatron-Core (fused kernels otherwise) rotates Q and K op by op: a YaRN attention
/// factor other than 1 on a rotary model.
bool ropeRunsOpByOp(const Workload &w, bool megatronCore, bool eager);
/// [MOE-BIAS-CLAMP] The experts' GLU clamp and fc2 bias that Megatron-Core's grouped MLP runs op by
/// op (not under eager PyTorch, another framework or the fused grouped MLP).
bool gluClampRunsOpByOp(const Workload &w, bool megatronCore, bool eager, bool moeFusedMlp);
bool expertBiasRunsOpByOp(const Workload &w, bool megatronCore, bool eager, bool moeFusedMlp);

/// megatronCore: Megatron-Core's attention, whose RoPE runs unfused under a YaRN attention factor
/// other than 1 ([ROPE-MSCALE]), and its grouped MLP, whose expert biases and GLU clamp run partly
/// op by op ([MOE-BIAS-CLAMP]) unless moeFusedMlp (Training::moeFusedMlp).
LayerTimes layerTimes(const Workload &w, Precision precision, double tokens, int tp, int cp, bool sequenceParallel,
                      const KernelSpec &spec, double wgradOutputBytes = 2, bool eager = false, CpComm cpComm = CpComm::P2p,
                      int ep = 1, bool mlaDownOnShard = true, bool megatronCore = false, bool moeFusedMlp = false);

/// LM head and loss of one micro-batch on the last stage: GEMM forward, backward, loss traffic.
struct HeadTimes
{
    double forward = 0;
    double backward = 0;
    double weightGrad = 0;   // part of backward
};
/// HBM traffic of the cross-entropy per logit, forward and backward (KernelDefaults, per framework).
struct LossTraffic
{
    double forwardBytesPerLogit = 0;
    double backwardBytesPerLogit = 0;
};
/// The cross-entropy kernel's traffic (KernelDefaults).
LossTraffic lossTrafficOf(CrossEntropy crossEntropy);
HeadTimes headTimes(const Workload &w, double tokens, int tp, const KernelSpec &spec, const LossTraffic &loss,
                    double wgradOutputBytes = 2);

} // namespace ts
