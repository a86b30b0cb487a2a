// SPDX-License-Identifier: MIT
#include "explain.h"
#include "kernels.h"
#include "pipeline.h"

#include "economics.h"

#include "evaluate.h"
#include "shape.h"
#include "units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts {

namespace {

std::string num(double v, const char *unit = "")
{
    char text[64];
    std::snprintf(text, sizeof text, "%.4g%s%s", v, *unit ? " " : "", unit);
    return text;
}
std::string sec(double s)
{
    if (std::abs(s) < 1e-3 && s != 0)
        return num(s * 1e6, "us");
    if (std::abs(s) < 1)
        return num(s * 1e3, "ms");
    return num(s, "s");
}
std::string bytes(double b)
{
    char text[96];
    std::snprintf(text, sizeof text, "%.4g GB (%.4g GiB)", b / units::kBytesPerGB, b / units::kBytesPerGiB);
    return text;
}
std::string bw(double bps)
{
    char text[96];
    std::snprintf(text, sizeof text, "%.4g GB/s (%.4g Gb/s)", bps / units::kBytesPerGB,
                  units::bytesPerSecondToGigabitsPerSecond(bps));
    return text;
}
std::string pct(double f) { return num(100 * f, "%"); }

// How the presets' GPU and model compared with measured runs, appended to a source: each a clause,
// the model's a new sentence after a text that ends one.
std::string measuredAccuracy(const Scenario &sc)
{
    std::string out;
    if (!sc.cluster.gpu.accuracy.empty())
        out += "; measured runs on this GPU: " + sc.cluster.gpu.accuracy;
    if (!sc.workload.accuracy.empty())
        out += (out.empty() || out.back() != '.' ? "; measured" : " Measured") + std::string(" runs of this model: ") + sc.workload.accuracy;
    return out;
}

constexpr const char *kSC21 = "Narayanan et al. 2021 (Megatron-LM SC21), arXiv:2104.04473";
constexpr const char *kK22 = "Korthikanti et al. 2022, arXiv:2205.05198, Table 2";
constexpr const char *kZeRO = "Rajbhandari et al. 2020 (ZeRO), arXiv:1910.02054, Sec. 3";
constexpr const char *kNCCL = "NCCL src/graph/tuning.cc (latency and bandwidth per algorithm and protocol); nccl-tests "
                              "doc/PERFORMANCE.md; Patarasuk & Yuan 2009 (ring all-reduce)";

} // namespace

std::vector<Explanation> explainAll(const Scenario &sc, const Evaluation &e)
{
    std::vector<Explanation> out;
    if (!e.feasible)
        return out;
    const Breakdown &b = e.breakdown;
    const Plan &pl = sc.plan;
    const Workload &w = sc.workload;
    const int p = pl.pp, t = pl.tp, d = pl.dp, c = pl.cp;
    const int v = chunksPerStage(pl);
    const int layersPerStage = e.criticalStageLayers;   // on the slowest stage
    const long long m = e.microBatches;
    const int N = sc.cluster.gpus;
    const KernelSpec ks = kernelSpec(sc.cluster.gpu, sc.training.precision, sc.training.fp8Recipe, e.framework, sc.training.fp8Attention);
    const AttentionHeadDimFactors headDims = attentionHeadDimFactors(sc.workload, ks);

    out.push_back({"step_time_s", "Step time",
                   "T = compute + TP_exposed + CP_exposed + EP_exposed + bubble + p2p_exposed + DP_exposed + optimizer"
                   " + offload_exposed + stragglers",
                   sec(b.computeSeconds) + " + " + sec(b.tpCommExposedSeconds) + " + " + sec(b.cpCommExposedSeconds) + " + "
                       + sec(b.epCommExposedSeconds) + " + "
                       + sec(b.ppBubbleSeconds) + " + " + sec(b.ppP2pExposedSeconds) + " + " + sec(b.dpCommExposedSeconds)
                       + " + " + sec(b.optimizerSeconds) + " + " + sec(b.offloadExposedSeconds) + " + " + sec(b.stragglerSeconds),
                   sec(b.stepSeconds), "Critical path of one synchronous step; model/evaluate.cpp"});
    if (sc.training.computeSecondsOverride > 0)
        out.push_back({"compute_s", "Compute", "given: training.compute_time", sec(sc.training.computeSecondsOverride),
                       sec(b.computeSeconds), "Scenario input (the seeds' compute time)"});
    else {
        // The op-by-op paths layerTimes charged, as it decided them (evaluate.cpp kernelTimesOf).
        const bool megatronCore = e.framework == Framework::Megatron, eager = e.kernels == Kernels::Eager;
        const bool fusedMlp = runsMoeFusedMlp(sc.training);
        const bool clampOpByOp = gluClampRunsOpByOp(w, megatronCore, eager, fusedMlp);
        const bool biasOpByOp = expertBiasRunsOpByOp(w, megatronCore, eager, fusedMlp);
        const bool fp8 = sc.training.precision == Precision::Fp8;
        const std::string fp8Text =
            !fp8 ? std::string()
                 : std::string("; FP8 recipe ") + nameOf(sc.training.fp8Recipe) + ": each cast reads " + num(ks.fp8ReadBytes, "B")
                       + " and writes " + num(ks.fp8Copies * quantizedElementBytes(ks), "B") + " per element ("
                       + std::to_string(ks.fp8Copies) + (ks.fp8Copies == 1 ? " copy" : " copies")
                       + (sc.training.fp8Recipe == Fp8Recipe::Nvfp4
                              ? " of 4-bit elements with E4M3 scales per 16; the amax pass covers the Hadamard-transformed "
                                "column-wise copy), GEMMs at the FP4 peak " + num(ks.peakFlops / 1e12, "TFLOP/s") + " x ceiling x sustained "
                                    + pct(ks.gemmEfficiency)
                          : ks.fp8BlockScaled ? " with block scales), GEMMs at " + pct(ks.fp8GemmRate) + " of the per-tensor FP8 rate"
                                              : ")")
                       + (ks.forwardGemmRate != 1 ? "; forward GEMMs with fast accumulation at " + num(ks.forwardGemmRate, "x")
                                                        + " the split-accumulator ceiling of the gradient GEMMs"
                                                  : std::string())
                       + (ks.fp8NormFusion == Fp8Fusion::Output ? "; the norms write FP8 themselves (no cast read)"
                          : ks.fp8NormFusion == Fp8Fusion::Amax ? "; the norms fuse the amax (their cast reads once)"
                                                                : "")
                       + (ks.fp8Attention ? "; attention in FP8 (training.fp8_attention) at the FP8 peak "
                                                + num(ks.attentionPeakFlops / 1e12, "TFLOP/s") + " x "
                                                + pct(ks.attentionEfficiency) + " (measured cuDNN FP8 attention x sustained)"
                                          : std::string());
        out.push_back({"compute_s", "Compute",
                       "m x (F + B) on the slowest stage; per layer: each GEMM 2MNK / (peak x ceiling x sustained x "
                       "tile/wave quantization x K/(K + K0)) + split-K partials / HBM + "
                           + sec(kernelDefaults().gemmFixedSeconds) + " fixed per kernel, attention block work / (peak x attention efficiency x "
                       "sustained) with n = s/B blocks of B = " + std::to_string(attentionBlockRows(w.attention))
                           + " query rows per head and micro-batch sequence: n^2/2 + n/2 causal (n^2 not)"
                           + (windowedLayersOf(w) > 0 && w.attention != Attention::Materialized
                                  ? ", on the " + std::to_string(windowedLayersOf(w)) + " of " + std::to_string(w.layers)
                                        + " layers with a " + std::to_string(w.slidingWindow)
                                        + "-token sliding window c (c + 1)/2 + (n - c) c with c = floor((w - 2)/B) + 2 key blocks"
                                  : std::string())
                           + " + " + num(kernelDefaults().attentionCtaOverheadBlocks) + " n of launch and fill, 2 B^2 (d_qk + d_v) FLOPs each (d_qk = "
                           + num(qkHeadDimOf(w)) + ", d_v = " + num(vHeadDimOf(w)) + ")"
                           + (w.attention == Attention::Materialized
                                  ? std::string("; ")
                                  : ", times (d + c)/d x 128/(128 + c) below d = 128 for the softmax's per-score work, d = (d_qk + d_v)/2 = "
                                        + num((qkHeadDimOf(w) + vHeadDimOf(w)) / 2) + ", c = " + num(headDims.forwardScoreDims)
                                        + (fa2Family(w.attention) ? " forward and " : " forward (the GPU's, doubled for FP8 attention) and ")
                                        + num(headDims.backwardScoreDims)
                                        + (fa2Family(w.attention) ? " backward (FlashAttention-2's bars in FlashAttention-3 Figs. 5-6), 1 from 128 on"
                                                                            : " backward (FlashAttention-3 Figs. 5-6), 1 from 128 on (cuDNN)")
                                        + ", and the backward x max(1, (d_qk + d_v)/256) = "
                                        + num(headDims.backwardAccumulatorFactor)
                                        + " for dK and dV held on chip: forward x " + num(headDims.forward) + ", backward x "
                                        + num(headDims.backward) + "; ")
                           + (isMla(w) ? "latent attention's QKV is four GEMMs (Q down h x " + std::to_string(w.qLoraRank) + ", Q up, KV down h x "
                                             + std::to_string(w.kvLoraRank + w.ropeHeadDim) + ", KV up); "
                                       : std::string())
                           + (moeLayersOf(w) > 0 && moeLayersOf(w) < w.layers
                                  ? "a layer is the mean of " + std::to_string(moeLayersOf(w)) + " MoE and "
                                        + std::to_string(w.layers - moeLayersOf(w)) + " dense layers; "
                                  : std::string())
                           + (w.mtpLayers > 0 ? "the last stage runs " + std::to_string(w.mtpLayers)
                                                    + " multi-token-prediction layer(s) more and its head " + std::to_string(1 + w.mtpLayers)
                                                    + " times; "
                                              : std::string())
                           + "norms/activations/casts bytes / HBM; the first stage adds its dense embedding gradient "
                       "(V/t x h x " + num(kernelDefaults().embeddingGradBytesMegatron) + " B in Megatron, "
                           + num(kernelDefaults().embeddingGradBytesOther) + " B elsewhere, / HBM)",
                       num(double(m)) + " x " + sec(b.computeSeconds / double(m)) + " per micro-batch, "
                           + std::to_string(e.criticalStageLayers) + " layers on stage " + std::to_string(e.criticalStage + 1)
                           + "; per layer GEMMs " + sec(e.layerGemmSeconds) + ", attention " + sec(e.layerAttentionSeconds)
                           + (w.attention == Attention::Triton
                                  ? " (FlashAttention's Triton kernel: FlashAttention-2's efficiency "
                                        + pct(attentionKernelEfficiency(Attention::Flash2, ks)) + " x "
                                        + num(kernelDefaults().attentionTritonOverFa2) + ", Dao 2023 Fig. 4)"
                                  : std::string())
                           + ", memory-bound " + sec(e.layerElementwiseSeconds) + " ("
                           + (e.kernels == Kernels::Eager
                                  ? std::string("PyTorch eager ops, ") + nameOf(resolveNorm(w))
                                  : std::string("fused kernels"))
                           + (ropeRunsOpByOp(w, megatronCore, eager)
                                  ? "; Megatron-Core rotates Q and K op by op under YaRN's attention factor "
                                        + num(w.ropeAttentionFactor) + ": " + num(kernelDefaults().unfusedRopeForwardBytes, "B")
                                        + " forward and " + num(kernelDefaults().unfusedRopeBackwardBytes, "B")
                                        + " backward per element, for the fused kernel's 4 and 8 (rope_utils.py)"
                                  : std::string())
                           + (clampOpByOp || biasOpByOp
                                  ? std::string("; Megatron-Core's grouped MLP runs op by op")
                                        + (clampOpByOp ? " the GLU clamp at " + num(w.gluClamp) + " (" + num(kernelDefaults().gluClampForwardBytes, "B")
                                                             + " forward, " + num(kernelDefaults().gluClampBackwardBytes, "B")
                                                             + " backward per fc1 output element)"
                                                       : std::string())
                                        + (biasOpByOp ? std::string(clampOpByOp ? " and" : "") + " the fc2 bias per expert ("
                                                            + num(kernelDefaults().expertBiasForwardBytes, "B") + " forward, "
                                                            + num(kernelDefaults().expertBiasBackwardBytes, "B")
                                                            + " backward per fc2 output element; experts.py _apply_bias)"
                                                      : std::string())
                                  : std::string())
                           + "); peak "
                           + num(e.peakFlopsPerGpu / 1e12, "TFLOP/s") + ", sustained "
                           + pct(ks.sustainedFraction)
                           + " of the burst figures, forward GEMMs at " + pct(e.kernelEfficiency)
                           + "; the first stage's embedding gradient " + sec(e.perLayer.embeddingGradSeconds) + " per micro-batch"
                           + (e.hpGradSecondsPerMicroBatch > 0
                                  ? "; DeepSpeed's BF16 optimizer adds each micro-batch's gradients to fp32 copies after its backward: "
                                        "params per GPU x " + num(kernelDefaults().deepSpeedBf16GradBytes, "B") + " / HBM = "
                                        + sec(e.hpGradSecondsPerMicroBatch) + " per micro-batch (bf16_optimizer.py update_hp_grads)"
                                  : std::string())
                           + fp8Text,
                       sec(b.computeSeconds),
                       "GEMM ceilings: ml-engineering MAMF table; sustained: ml-engineering mamf-finder MSMF / MAMF with "
                       "all 8 GPUs busy; attention: FlashAttention-2 Fig. 4 / FlashAttention-3 Figs. 5-6; eager bytes: torchtitan "
                       "RMSNorm / apply_rotary_emb as written (model/kernels.cpp)"
                           + (fp8 ? std::string("; FP8 casts and block-scaled GEMM rates: TransformerEngine low-precision "
                                                "training docs and GEMM profiling tables (H200 NVL, B300)")
                                  : std::string())
                           + measuredAccuracy(sc)});
    }
    if (t > 1)
        out.push_back({"tp_comm_exposed_s", "Tensor-parallel communication",
                       "m x L/p x n_coll x T_coll (all-reduce equivalents; with SP each gather and scatter is NCCL's ring "
                       "all-gather / reduce-scatter, (t-1)/t S per GPU, as NVLS shortens only the all-reduce; without SP "
                       "half an all-reduce), S = b s h x "
                       "bytes / c; T_coll = NCCL latency (base + steps x hop) + S / algbw of the algorithm and protocol "
                       "NCCL's tuner picks (ring: busbw = min(NVLink, NICs), inside an NVSwitch node x k(n-1) / (k(n-1) + 0.5) for the "
                       "chunk's silent last step, k = 2 for all-reduce; NVLS: B g/(g+1) x 0.85, plus the fill of its "
                       "three-stage chunk pipeline, 2 x min(S, channels x heads x chunk) / algbw, NCCL all_reduce.h and "
                       "enqueue.cc); exposed: "
                       + std::string(pl.tpOverlap && pl.sequenceParallel
                                         ? "with tp_overlap each gather and scatter hides behind the one GEMM it is "
                                           "pipelined with, exposed = sum of max(0, T_coll - T_GEMM), and the GEMMs that "
                                           "reduce-scatter run without the 16 SMs the overlap takes"
                                           + std::string(e.framework == Framework::Fsdp
                                                             ? "; under torchtitan's AsyncTP + 2 T_RS per layer in backward: it "
                                                               "fuses a reduce-scatter only with the one matmul that produces its "
                                                               "input, so the scatters of the attention and MLP input gradients "
                                                               "(sums over wq, wk, wv and w1, w3) run in the open, and only the "
                                                               "forward's scattering GEMMs lose the 16 SMs"
                                                             : std::string())
                                         : "the forward's, and in backward (Megatron, DeepSpeed) what the column-parallel "
                                           "GEMMs' input- and weight-gradient GEMMs cannot hide, plus NCCL's SM share of "
                                           "what they hide"),
                       num(double(m)) + " x " + std::to_string(layersPerStage) + " x " + num(e.tpCollectivesPerLayer)
                           + " all-reduce equivalents of " + bytes(e.tpBytesPerCollective) + " over t = " + std::to_string(t) + ", each "
                           + sec(e.tpCollectiveSeconds) + " (" + nameOf(e.tpAlgorithm) + ", " + nameOf(e.tpProtocol)
                           + (e.tpPipelineFillSeconds > 0 ? ", of which pipeline fill " + sec(e.tpPipelineFillSeconds) : std::string()) + ")"
                           + (e.tpFp8Gathers ? "; under FP8 the all-gathers move the quantized tensor, "
                                                   + num(quantizedElementBytes(ks), "B")
                                                   + " of 2 per element (a fraction of an all-reduce equivalent each), the "
                                                     "reduce-scatters 16-bit"
                                             : ""),
                       sec(b.tpCommExposedSeconds) + " exposed of " + sec(b.tpCommSeconds),
                       std::string(kSC21) + ", Sec. 3.2 (2 all-reduces forward, 2 backward per layer; with SP "
                           "Megatron re-gathers the input for the weight gradient: 3); Megatron-Core "
                           "LinearWithGradAccumulationAndAsyncCommunication and TransformerEngine linear.py "
                           "(\"Overlap dgrad-RS/AR with wgrad\"), userbuffers (Megatron-Core tp_comm_overlap); FP8 gathers: TransformerEngine layernorm_linear.py (FP8 ln_out "
                           "gathered) and base.py grad_output_preprocess; " + kNCCL});
    if (c > 1) {
        // In CpComm's order: P2p, AllGather, A2a.
        static const struct
        {
            const char *title, *formula, *source;
        } kinds[] = {
            {"Context-parallel communication (K/V ring, p2p)",
             "per layer (c-1) hops of this rank's K and V forward, K, V and dK, dV backward, hidden behind attention: "
             "exposed = max(0, comm - attention) + min(comm, attention) x NCCL's SM share",
             "Liu et al. 2023 (Ring Attention), arXiv:2310.01889"},
            {"Context-parallel communication (K/V all-gather)",
             "per layer K and V all-gathered before attention; backward gathers them again and reduce-scatters dK, dV; "
             "synchronous, all exposed",
             "Dubey et al. 2024 (Llama 3), Sec. 3.3.2"},
            {"Context-parallel communication (all-to-all, Ulysses)",
             "per layer all-to-alls of Q, K, V before attention and of the output after (backward: dO, then dQ, dK, dV), "
             "each rank computing 1/c of the heads over whole sequences; all exposed",
             "Jacobs et al. 2023 (DeepSpeed-Ulysses), arXiv:2309.14509"},
        };
        const auto &kind = kinds[std::clamp(int(pl.cpComm), 0, 2)];
        out.push_back({"cp_comm_exposed_s", kind.title, std::string(kind.formula) + "; recompute repeats the forward's",
                       "c = " + std::to_string(c), sec(b.cpCommExposedSeconds) + " exposed of " + sec(b.cpCommSeconds),
                       std::string(kind.source) + "; TransformerEngine context_parallel.py, Megatron-LM --cp-comm-type"});
    }
    if (isMoe(w) && pl.ep > 1) {
        const bool flex = pl.epDispatcher != EpDispatcher::AllToAll;
        out.push_back({"ep_comm_exposed_s",
                       flex ? std::string("Expert-parallel communication (") + (pl.epDispatcher == EpDispatcher::DeepEp ? "DeepEP" : "HybridEP")
                                  + " dispatch)"
                            : std::string("Expert-parallel communication (all-to-all)"),
                       std::string("per layer a dispatch and a combine forward and two backward (full recompute repeats the "
                                   "forward's), ")
                           + (flex ? "each sending a token once to every other node and every other GPU that holds one of its "
                                     "k experts: over the NICs b s / (c t) x h x bytes x R_node x (ranks per node), over NVLink "
                                     "x R_gpu, pipelined; with balanced routing R = (g - 1)(1 - C(E - E/g, k) / C(E, k)) for g "
                                     "nodes or GPUs"
                                         + (w.moeRouterGroups > 0
                                                ? std::string(", under group-limited routing (M of G groups of n) R = (g - 1)(1 - sum_j "
                                                              "Hyp(j; G, o, M) (sum_m p[m] C(n - c, m) / C(n, m))^j) for a node or GPU "
                                                              "overlapping o groups by c experts, p[m] the router's experts per picked group")
                                                : std::string())
                                         + "; "
                                   : "each moving this rank's tokens' k copies: b s / (c t) x k x h x bytes; ")
                           + (pl.epOverlap ? "ep_overlap: behind another micro-batch's layer, exposed = max(0, comm - layer) + "
                                             "min(comm, layer) x NCCL's SM share, + the GPU's wait for the host after the "
                                             "dispatcher's sync, sigma, on the forwards that run alone (unpaired / chunks)"
                                           : "all exposed, + the GPU's wait for the host after the dispatcher's sync, "
                                             "sigma per MoE layer forward (again when recomputed)"),
                       "ep = " + std::to_string(pl.ep) + ", k = " + std::to_string(expertsPerTokenOf(w))
                           + (flex ? ", E = " + std::to_string(w.experts)
                                         + (w.moeRouterGroups > 0 ? ", M = " + std::to_string(w.moeRouterGroupTopk) + " of G = "
                                                                        + std::to_string(w.moeRouterGroups) + " groups"
                                                                  : std::string())
                                         + ", R_node = " + num(e.epRemoteNodesPerToken) + ", R_gpu = "
                                         + num(e.epGpuCopiesPerToken) + ", one dispatch sends " + bytes(e.epA2aBytes)
                                   : ", one all-to-all " + bytes(e.epA2aBytes))
                           + " in " + sec(e.epA2aSeconds)
                           + (e.epSyncSeconds > 0 ? ", sigma = " + sec(e.epSyncSeconds) : std::string()) + " x "
                           + std::to_string(m) + " micro-batches x " + std::to_string(int(e.criticalStageLayers)) + " layers",
                       sec(b.epCommExposedSeconds) + " exposed of " + sec(b.epCommSeconds),
                       std::string(flex ? "deepseek-ai/DeepEP (internode dispatch: RDMA once per node, NVLink forwarding); "
                                          "Megatron-Core --moe-token-dispatcher-type flex (fused_a2a.py, HybridEP); "
                                          "--overlap-moe-expert-parallel-comm"
                                        : "Megatron-Core MoEAlltoAllTokenDispatcher (token_dispatcher.py), "
                                          "--overlap-moe-expert-parallel-comm; Lepikhin et al. 2020 (GShard), arXiv:2006.16668")
                           + std::string(e.epSyncSeconds > 0 ? "; sigma: Megatron-Bridge moe-comm-overlap card (Qwen3 30B-A3B, "
                                                           "16 H100: 1.89 s idle over 3,072 MoE layer forwards)"
                                                         : "")});
    }
    if (p > 1) {
        std::string formula, subst;
        switch (pl.schedule) {
        case Schedule::GPipe:
        case Schedule::OneFOneB:
            formula = "bubble = (p-1)(F+B); share of pipeline time (p-1)/(m+p-1)";
            subst = "(" + std::to_string(p) + "-1) x (" + sec(e.stageForwardSeconds) + " + " + sec(e.stageBackwardSeconds)
                    + "); " + std::to_string(p - 1) + "/" + std::to_string(m + p - 1);
            break;
        case Schedule::Interleaved:
            formula = "bubble = (p-1)(F+B)/v";
            subst = "(" + std::to_string(p) + "-1) x (" + sec(e.stageForwardSeconds) + " + " + sec(e.stageBackwardSeconds)
                    + ") / " + std::to_string(v);
            break;
        case Schedule::ZeroBubbleH1:
            formula = "bubble = (p-1)(F + B_in - W), B_in = B - W";
            subst = "(" + std::to_string(p) + "-1) x (" + sec(e.stageForwardSeconds) + " + "
                    + sec(e.stageBackwardSeconds - e.stageWeightGradSeconds) + " - " + sec(e.stageWeightGradSeconds) + ")";
            break;
        case Schedule::DualPipeV:
            formula = "bubble = (p-1) max(F/2 + B - 1.5W, F) per rank of the V (2p stages, 2 chunks a rank): DeepSeek's "
                      "(PP/2-1)(F&B + B - 3W) per chunk";
            subst = "(" + std::to_string(p) + "-1) x max(" + sec(e.stageForwardSeconds) + " / 2 + " + sec(e.stageBackwardSeconds) + " - 1.5 x "
                    + sec(e.stageWeightGradSeconds) + ", " + sec(e.stageForwardSeconds) + ")";
            break;
        }
        // Uneven stages (the head on the last stage, Megatron's first/last stage layers): fill and
        // drain pass once through every other stage; GPipe's two phases each at their slowest stage.
        const std::vector<StageTimes> stages = stageTimesOf(stageLayersOf(w, pl), e.perLayer);
        double others = 0, maxF = 0, maxB = 0;
        for (size_t i = 0; i < stages.size(); ++i) {
            if (int(i) != e.criticalStage)
                others += stages[i].forwardSeconds + stages[i].backwardSeconds;
            maxF = std::max(maxF, stages[i].forwardSeconds);
            maxB = std::max(maxB, stages[i].backwardSeconds);
        }
        const StageTimes &slow = stages[size_t(std::clamp(e.criticalStage, 0, int(stages.size()) - 1))];
        const bool uneven = std::any_of(stages.begin(), stages.end(), [&](const StageTimes &t) {
            return std::abs(t.forwardSeconds + t.backwardSeconds - slow.forwardSeconds - slow.backwardSeconds)
                   > 1e-9 * (slow.forwardSeconds + slow.backwardSeconds);
        });
        if (uneven && pl.schedule != Schedule::ZeroBubbleH1) {
            formula += "; uneven stages: x (sum of the other stages' F+B) / ((p-1)(F+B) of the slowest)";
            subst += "; x " + sec(others) + " / (" + std::to_string(p - 1) + " x " + sec(slow.forwardSeconds + slow.backwardSeconds) + ")";
        }
        if (uneven && pl.schedule == Schedule::GPipe && maxF + maxB > slow.forwardSeconds + slow.backwardSeconds) {
            formula += "; GPipe's forward and backward phases each wait on their own slowest stage: + (m-1)(max F + max B - F - B)";
            subst += "; + " + std::to_string(m - 1) + " x (" + sec(maxF) + " + " + sec(maxB) + " - " + sec(slow.forwardSeconds + slow.backwardSeconds) + ")";
        }
        out.push_back({"pp_bubble_s", "Pipeline bubble", formula, subst,
                       sec(b.ppBubbleSeconds) + " (" + pct(e.ppBubbleFraction) + " of pipeline time, " +
                           pct(e.ppBubbleFractionOfIdeal) + " of ideal)",
                       std::string(kSC21) + ", Sec. 2.2; Qi et al. 2023 (zero bubble), arXiv:2401.10241"
                           + (pl.schedule == Schedule::DualPipeV ? "; DeepSeek-V3, arXiv:2412.19437 Sec. 3.2.1, deepseek-ai/DualPipe "
                                                                   "dualpipev.py (the order simulated in pipeline.cpp)"
                                                                 : "")});
        out.push_back({"pipeline_efficiency", "Pipeline efficiency", "m (F+B) / (m (F+B) + bubble)",
                       num(double(m)) + " x (F+B) / (" + num(double(m)) + " x (F+B) + " + sec(b.ppBubbleSeconds) + ")",
                       pct(e.pipelineEfficiency), kSC21});
        const int leaving = boundariesLeavingNode(pl.pp, e.ppStagesPerNode);
        const std::string boundaries =
            leaving == 0          ? "every boundary inside a node, " + sec(e.p2pIntraSecondsPerTransfer) + " per transfer"
            : leaving == pl.pp - 1 ? "every boundary across nodes, " + sec(e.p2pInterSecondsPerTransfer) + " per transfer"
                                   : std::to_string(leaving) + " of " + std::to_string(pl.pp - 1) + " boundaries across nodes ("
                                         + std::to_string(e.ppStagesPerNode) + " stages a node): " + sec(e.p2pInterSecondsPerTransfer)
                                         + " per transfer there, " + sec(e.p2pIntraSecondsPerTransfer) + " inside";
        out.push_back({"pp_p2p_exposed_s", "Pipeline point-to-point",
                       "per transfer alpha + b s h x bytes / (t c beta), over NVLink between stages on one node and the network between nodes; "
                       "total (2 m v + 2 (p - 1)) transfers at the slowest boundary; fill and drain exposed, and in the steady state "
                       "1F1B's round trip per micro-batch, an interleaved chunk's wait once its chain of chunk ops and transfers "
                       "outlasts the chunks stage 1 holds (Little's law)",
                       "boundary " + bytes(e.ppBoundaryBytes) + ", " + boundaries,
                       sec(b.ppP2pExposedSeconds) + " exposed of " + sec(b.ppP2pSeconds),
                       std::string(kSC21) + ", Sec. 4.1 (scatter/gather); simulated schedule in model/pipeline.cpp"});
    }
    if (d * c > 1 || b.dpCommSeconds > 0) {   // (MoE: expert gradients are reduced over tp cp dp / ep ranks)
        // As evaluate() syncs: per micro-batch (FSDP, ZeRO-2/3), once per step behind the last
        // backward (DDP, ZeRO-1), or after it (DeepSpeed's pipeline engine, no overlap).
        const bool perMicro = e.dpGathersPerMicro > 0 || e.dpReducePerMicroSeconds > 0;
        const bool deepSpeedPipeline = e.framework == Framework::DeepSpeed && pl.pp > 1;
        std::string formula =
            deepSpeedPipeline ? "after the last backward, nothing hidden (DeepSpeed's pipeline engine): buckets x T_bucket "
                                "(all-reduce) + the parameter all-gather G (ZeRO-1)"
            : perMicro ? std::string("per micro-batch: gathers x G + R (G a parameter all-gather, R the gradient reduce-scatter")
                             + (e.dpBackwardGatherShare < 1 ? "; FSDP's backward gather leaves out the embedding, final norm and LM "
                                                              "head, kept gathered since the forward"
                                                            : "")
                             + "), hidden "
                       "behind that micro-batch's F+B; exposed = m x max(0, gathers x G + R - (F+B)) + the first gather "
                       "bucket + the last reduce bucket"
            : pl.zeroStage == 0 ? "buckets x T_bucket (all-reduce); exposed = max(T_bucket, n T_bucket - (n-1)/n x B_last)"
                                : "buckets x T_bucket (reduce-scatter), exposed = max(T_bucket, n T_bucket - (n-1)/n x B_last); "
                                  "+ one parameter all-gather G per step, exposed max(T_gather bucket, G - F_first) before "
                                  "the first forward where it is prefetched (Megatron, FSDP with PP), all of it else";
        if (!deepSpeedPipeline)
            formula = pl.overlapDp ? formula + "; + hidden traffic x the SMs NCCL holds (compute slowed)"
                                   : "not overlapped: all of it exposed (" + formula + ")";
        const bool hybrid = pl.zeroStage >= 1 && pl.shardGroup > 0 && pl.shardGroup < d * c;
        if (hybrid)
            formula += "; HSDP: each bucket's reduced shard all-reduced across the replicas on its own stream, "
                       "pipelined with the next reduce-scatter (each bucket takes the longer stage, the last adds the shorter)";
        out.push_back({"dp_comm_exposed_s", "Data-parallel gradient sync", formula,
                       std::to_string(e.dpBuckets) + " buckets of " + bytes(e.dpBucketBytes)
                           + (pl.bucketBytes < 0 ? std::string(" (") + nameOf(e.framework) + "'s default)" : std::string())
                           + " x " + sec(e.dpBucketSeconds) + " (" + nameOf(e.dpAlgorithm)
                           + ", " + nameOf(e.dpProtocol) + ") over "
                           + (hybrid ? std::to_string(pl.shardGroup) + " ranks, then across " + std::to_string(d * c / pl.shardGroup)
                                           + " replicas"
                                     : std::to_string(d * c) + " ranks")
                           + ", " + bytes(e.gradientBytesPerGpu) + " of gradients"
                           + (e.dpGatherSeconds > 0 ? ", G = " + sec(e.dpGatherSeconds)
                                                          + (e.dpGathersPerMicro == 2 && e.dpBackwardGatherShare < 1
                                                                 ? " per micro-batch and " + pct(e.dpBackwardGatherShare)
                                                                       + " of it again for its backward (FSDP keeps the embedding, final norm and LM head gathered)"
                                                             : e.dpGathersPerMicro == 2 ? " twice per micro-batch"
                                                             : e.dpGathersPerMicro == 1 ? " per micro-batch"
                                                                                        : " per step")
                                                    : std::string())
                           + (e.dpReducePerMicroSeconds > 0 ? ", R = " + sec(e.dpReducePerMicroSeconds) + " per micro-batch" : std::string())
                           + (pl.overlapDp ? "" : ", not overlapped"),
                       sec(b.dpCommExposedSeconds) + " exposed of " + sec(b.dpCommSeconds) + ": " + sec(e.dpLeadSeconds)
                           + " before the first forward + " + sec(e.dpPerMicroExposedSeconds) + " waited inside micro-batches + "
                           + sec(e.dpTailSeconds) + " after the last backward"
                           + (e.dpInterferenceSeconds > 0
                                  ? " + " + sec(e.dpInterferenceSeconds) + " compute slowed while NCCL holds "
                                        + pct(e.dpNcclComputeShare) + " of the SMs"
                                  : std::string()),
                       std::string("Li et al. 2020 (PyTorch DDP), arXiv:2006.15704; ") + kZeRO + "; " + kNCCL
                           + (hybrid ? "; HSDP: PyTorch FSDP _runtime_utils.py _reduce_grad (all_reduce on the inter-node group)" : "")
                           + "; buckets: Megatron-Core max(40M, 1M x DP) params, DeepSpeed 5e8 elements, FSDP one block; "
                             "fp32 gradient reduction in Megatron-LM and torchtitan; NCCL's SMs: one per channel, 4 per NIC "
                             "on a ring of one rank per node (NCCL src/graph/search.cc ncclTopoDupChannels, src/graph/connect.cc)"
                           + std::string(e.dpBackwardGatherShare < 1
                                             ? "; kept embedding, norm and head: torchtitan distributed/fsdp.py apply_fsdp_to_decoder, "
                                               "OLMo-core transformer/model.py, PyTorch FSDP1 _runtime_utils.py _post_forward"
                                             : "")});
    }
    out.push_back({"gradient_bytes_per_gpu", "Gradient bytes per GPU", "P_stage / t x bytes per gradient / compression",
                   bytes(e.gradientBytesPerGpu), bytes(e.gradientBytesPerGpu), "MODEL.md: (P / (TP PP)) x bytes per element"});
    if (sc.training.computeSecondsOverride <= 0)
        out.push_back({"optimizer_s", "Optimizer step",
                       "params per GPU (/ N_d with ZeRO >= 1) x Adam bytes / HBM + Megatron's 4 passes over the gradient buffer"
                       " + (m - 1) x params x 3 x element bytes of unfused gradient accumulation (other frameworks)"
                       " + FSDP2's copies: gathers x 2 x gathered bytes + reductions x (params x gradient element + reduced bytes)",
                       "HBM " + bw(sc.cluster.gpu.memoryBytesPerSecond) + ", Adam "
                           + sec(b.optimizerSeconds - e.gradBufferSeconds - e.gradAccumulateSeconds - e.fsdpCopySeconds)
                           + ", gradient buffer " + sec(e.gradBufferSeconds) + ", accumulation " + sec(e.gradAccumulateSeconds)
                           + ", FSDP2 copies " + sec(e.fsdpCopySeconds),
                       sec(b.optimizerSeconds),
                       "Adam reads and writes fp32 master, m, v, reads the gradient, writes bf16 weights (30 B; 14 with "
                       "16-bit states); Megatron-Core zeroes, NaN-checks and scales the gradient buffer each step "
                       "(param_and_grad_buffer.py); PyTorch's AccumulateGrad adds each micro-batch's gradients to "
                       ".grad where Megatron fuses it into the weight-gradient GEMM; FSDP2 (fully_shard) copies gathered "
                       "parameters out of, and gradients into, its collective buffers on the compute stream "
                       "(_fsdp_collectives.py foreach_all_gather_copy_out, foreach_reduce)"});
    if (sc.training.offloadLayers > 0) {
        const double L = layersPerStage, n = sc.training.offloadLayers;
        out.push_back({"offload_exposed_s", "Activation offload wait",
                       "m x (max(0, N c - (L - 2) f) + max(0, N c - (L - 2) b)), c = one layer's activations / host "
                       "bandwidth (N c each way when L - N = 1)",
                       "N = " + num(n) + " of L = " + num(L) + " layers, " + bytes(e.offloadLayerBytes) + " a layer at "
                           + bw(e.hostBytesPerSecond) + ": c = " + sec(e.offloadLayerSeconds) + "; f = "
                           + sec(e.perLayer.forwardSeconds + e.perLayer.forwardCommSeconds) + ", b = "
                           + sec(e.perLayer.backwardSeconds + e.perLayer.backwardCommSeconds) + "; m = " + std::to_string(m)
                           + ", waits " + sec(e.offloadForwardStallSeconds) + " + " + sec(e.offloadBackwardStallSeconds)
                           + " a micro-batch",
                       sec(b.offloadExposedSeconds),
                       "TransformerEngine cpu_offloading docs (default scheduling: the first N layers offloaded, at most "
                       "L - N layers' activations on the GPU); Megatron-Core --cpu-offloading-num-layers; host link: "
                       "cluster.gpu.host_bandwidth"});
    }
    if (b.stragglerSeconds > 0)
        out.push_back({"straggler_s", "Straggler allowance", "sigma x E[max of N normals], sigma = jitter x pipeline time",
                       "jitter " + pct(pl.jitter) + ", N = " + std::to_string(N), sec(b.stragglerSeconds) + " (p99 step "
                           + sec(e.stepP99Seconds) + ", median " + sec(e.stepMedianSeconds) + ")",
                       "Blom 1958 approximation of the expected maximum; MODEL.md ~ sigma sqrt(2 ln N)"});
    if (e.flopsApplicable)
        out.push_back({"mfu", "Model FLOPs utilisation",
                       "MFU = 3 x forward FLOPs x tokens / (N x peak x T), causal attention counted as executed (s^2 / 2; s w - w (w - 1)/2 under a sliding window w)",
                       num(e.modelFlopsPerStepCausal) + " FLOP / (" + std::to_string(N) + " x "
                           + num(e.peakFlopsPerGpu / 1e12, "TFLOP/s") + " x " + sec(b.stepSeconds) + "); full s^2 count "
                           + num(e.modelFlopsPerStep) + " FLOP gives " + pct(e.mfuFullAttention),
                       pct(e.mfu), std::string(kSC21) + ", Eq. 3 without recompute; Chowdhery et al. 2022 (PaLM) MFU"});
    else
        out.push_back({"mfu", "Model FLOPs utilisation", "not applicable: training.compute_time is given, not computed",
                       "compute_time " + sec(sc.training.computeSecondsOverride), "n/a", "Definition"});
    out.push_back({"hardware_tflops_per_gpu", "Hardware FLOP/s per GPU",
                   "FLOPs incl. recompute / (N x T); full recompute: 96 B s L h^2 (1 + s/6h + V/16Lh), block recompute "
                   "its share of the layers",
                   num(e.hardwareFlopsPerStep) + " FLOP / (" + std::to_string(N) + " x " + sec(b.stepSeconds) + ")"
                       + (sc.training.recompute == Recompute::Full && e.recomputedLayerShare < 1
                              ? ", " + pct(e.recomputedLayerShare) + " of the layers recomputed"
                              : std::string()),
                   num(e.hardwareFlopsPerSecondPerGpu / 1e12, "TFLOP/s"), std::string(kSC21) + ", Eq. 3"});
    out.push_back({"tokens_per_s", "Tokens per second", "B x s / T",
                   std::to_string(sc.training.globalBatch) + " x " + std::to_string(w.seqLen) + " / " + sec(b.stepSeconds),
                   num(e.tokensPerSecond, "tokens/s"), "Definition"});
    out.push_back({"train_time_s", "Time to train", "tokens / (B s) x T",
                   num(sc.training.tokens) + " / " + num(e.tokensPerStep) + " x " + sec(b.stepSeconds),
                   num(e.trainSeconds / units::kSecondsPerDay, "days"), "Definition"});
    out.push_back({"train_gpu_hours", "GPU-hours to train", "time to train x N / 3600",
                   num(e.trainSeconds, "s") + " x " + std::to_string(N) + " / 3600", num(e.gpuHours, "GPU-hours"), "Definition"});
    out.push_back({"communication_fraction", "Communication share", "(TP + CP + EP + p2p + DP exposed) / T",
                   "(" + sec(b.tpCommExposedSeconds) + " + " + sec(b.cpCommExposedSeconds) + " + " + sec(b.epCommExposedSeconds)
                       + " + " + sec(b.ppP2pExposedSeconds)
                       + " + " + sec(b.dpCommExposedSeconds) + ") / " + sec(b.stepSeconds),
                   pct(e.communicationFraction), "Seed 000/001: s = T_comm / (T_comp + T_comm)"});
    if (const Economics x = economics(sc, e); x.valid) {
        const Goodput &g = x.goodput;
        out.push_back({"goodput.train_time_s", "Time to train with failures",
                       "T_fail = T / f, f = 1 - delta/tau - (tau/2 + R + restore)/M, M = 1 / (N x rate), "
                       "tau = sqrt(2 delta M) - delta, delta = P x 14 B / storage bandwidth",
                       "T = " + sec(e.trainSeconds) + ", M = " + sec(g.jobMtbfSeconds) + " (" + num(double(sc.cluster.gpus))
                           + " GPUs x " + num(g.failuresPerGpuHour) + " per GPU-hour), delta = " + sec(g.checkpointWriteSeconds)
                           + ", tau = " + sec(g.checkpointIntervalSeconds) + ", R = " + sec(g.restartSeconds) + ", f = "
                           + pct(g.effectiveFraction),
                       sec(g.trainSeconds) + " (" + num(g.interruptions) + " interruptions; p90 " + sec(g.trainSecondsP90) + ")",
                       "Young 1974 (CACM 17(9)); Daly 2006 (FGCS 22(3)); failure rate: Llama 3, arXiv:2407.21783, Sec. 3.3.4"});
        out.push_back({"cost.total_usd", "Cost of the token budget",
                       "GPU-hours with failures x price per GPU-hour; energy = N x (TDP x average power + host) x (1 + "
                       "network) x PUE x T_fail",
                       num(x.cost.gpuHours) + " GPU-hours x $" + num(x.cost.pricePerGpuHour) + "; " + num(x.energy.facilityMegawatts)
                           + " MW x " + sec(g.trainSeconds),
                       "$" + num(x.cost.totalUsd) + " ($" + num(x.cost.perMillionTokensUsd) + " per million tokens); "
                           + num(x.energy.energyMegawattHours) + " MWh, " + num(x.energy.emissionsTonnesCo2) + " t CO2",
                       "GPU datasheets (TDP); NVIDIA DGX H100 datasheet (10.2 kW system); price, PUE and grid intensity are "
                       "the scenario's operations inputs"});
    }
    {
        // The scaling chart: the model's own sweep, and the two laws with s as the serial part.
        const double s = e.communicationFraction, twice = 2.0 * sc.cluster.gpus;
        const double p = twice / sc.cluster.gpus;
        out.push_back({"scaling", "Scaling with GPUs",
                       "speedup(N) = throughput(N) / throughput(N0) x N0, efficiency = speedup / N, evaluated at each N "
                       "with TP, PP, CP kept and DP scaled (weak: global batch grows with DP; strong: kept); "
                       "Amdahl S(P) = 1 / (s + (1 - s)/P); Gustafson S(P) = P - (P - 1) s",
                       "s = " + pct(s) + " (exposed communication share); doubling to " + num(twice) + " GPUs: Amdahl "
                           + num(1.0 / (s + (1 - s) / p)) + "x, Gustafson " + num(p - (p - 1) * s) + "x of the current",
                       "the chart's points",
                       "Amdahl 1967; Gustafson 1988, CACM 31(5); seed 001 (Gustafson with the communication share)"});
    }
    const MemoryBreakdown &mem = e.memory;
    const std::string stageText = "stage " + std::to_string(mem.stage + 1) + " of " + std::to_string(mem.stages)
                                  + " (the fullest), " + nameOf(e.framework) + ", zero " + std::to_string(pl.zeroStage);
    const char *kStates = "Megatron-LM theoretical_memory_usage.py (18 B/param, 6 + 12/d); ZeRO (Rajbhandari 2020) Sec. 5; "
                          "PyTorch FSDP2 (16 B/param / d)";
    out.push_back({"memory.weights_bytes", "Weights", "parameters on this GPU (the TP-split ones / t; norms, router, MLA's down projections whole) x weight bytes (Megatron/DeepSpeed 2, FSDP 4 "
                                                      "fp32 sharded + 2 gathered; + 1 per FP8 copy under TE, 2 on Hopper, 1 on Blackwell, MXFP8 2 x 1.03, NVFP4 2 x 0.5625; with FP8 "
                                                      "weights the GEMM weights' 16-bit copy goes)",
                   stageText + (sc.training.fp8Params ? ", FP8 weights (training.fp8_params)" : ""), bytes(mem.weightsBytes),
                   kStates});
    out.push_back({"memory.gradients_bytes", "Gradients", "Megatron 4 (fp32 main grads); DeepSpeed 2 (/ N_d from ZeRO-2); "
                                                          "FSDP 4 / N_d",
                   stageText + ", N_d = " + std::to_string(pl.shardGroup > 0 ? pl.shardGroup : d * c), bytes(mem.gradientsBytes),
                   kStates});
    out.push_back({"memory.optimizer_bytes", "Optimizer states", "fp32 master + Adam m, v: 12 (FSDP 8; 16-bit states 4) / N_d from ZeRO-1",
                   stageText, bytes(mem.optimizerBytes), kStates});
    out.push_back({"memory.activations_bytes", "Activations",
                   "layers on the stage x tokens x bytes per token per layer (flash: 2(4r + q + 2kv + q + (g+1)f); "
                   "materialized adds 5as/h; FP8 under TE: norm and activation outputs at 1 byte with any block scale (MXFP8 1.03, NVFP4 0.5625); "
                   "FP8 attention without recompute: Q, K, V at 1 byte (MXFP8 two copies of 1.03), O too under delayed scaling; eager PyTorch ops: "
                   "RMSNorm + 8r, SwiGLU + 2f; QK norm + 2(q + kv), eager + 6(q + kv); MoE: f = k f_e / t and the k expert "
                   "rows in and out, 4 k h / t, and the router's fp32 scores) x micro-batches "
                   "in flight + one layer's backward gradients; block recompute: the first N layers of each chunk "
                   "recomputed, the others kept",
                   stageText + ", " + num(mem.inFlightMicroBatches) + " micro-batches in flight (" + nameOf(pl.schedule)
                       + ", recompute " + nameOf(sc.training.recompute)
                       + (sc.training.recompute == Recompute::Full && sc.training.recomputeLayers > 0
                              ? " of the first " + std::to_string(sc.training.recomputeLayers) + " layers per chunk, "
                                    + pct(e.recomputedLayerShare) + " of the layers"
                              : std::string())
                       + ")"
                       + (mem.offloadedBytes > 0 ? ", less the first " + std::to_string(sc.training.offloadLayers)
                                                       + " layers' " + bytes(mem.offloadedBytes) + " held in host memory"
                                                 : std::string()),
                   bytes(mem.activationsBytes), std::string(kK22) + "; Megatron-LM theoretical_memory_usage.py"});
    {
        const CrossEntropy ce = resolveCrossEntropy(sc.training.crossEntropy, resolveFramework(pl));
        out.push_back({"memory.loss_bytes", "Logits and loss",
                       "last stage: tokens x V / t x bytes per logit (Megatron vocab-parallel 6, PyTorch on fp32 logits 12, "
                       "fused on 16-bit logits 4)",
                       stageText + ", cross entropy " + nameOf(ce), bytes(mem.lossBytes),
                       "Megatron vocab-parallel cross entropy; torchtitan train.py (fp32 logits); flash-attn "
                       "CrossEntropyLoss (llm-foundry)"});
    }
    // What the ZeRO-3 gathers hold depends on who gathers: FSDP whole layers, DeepSpeed submodules.
    const std::string gathers = pl.zeroStage < 3 || d * c <= 1          ? ""
                                : e.framework == Framework::DeepSpeed ? " + DeepSpeed ZeRO-3: 2 B x min(1e9 stage3_max_reuse_distance, "
                                                                        "the stage's parameters / t) + the largest module's 16-bit gradient "
                                                                        "(h x ffn / t, or V x h / t on the first and last stage) + 2 reduce buckets"
                                                                      : " + ZeRO-3/FSDP: 2 gathered layers + the layer's 16-bit gradient "
                                                                        "+ its reduce-scatter input";
    out.push_back({"memory.buffers_bytes", "Buffers",
                   std::string("2 DP buckets + 2 p2p buffers") + gathers
                       + (e.cpGatherBytes > 0 ? " + the CP all-gather's whole-sequence K, V, dK, dV" : ""),
                   "bucket " + bytes(e.dpBucketBytes) + (e.cpGatherBytes > 0 ? ", CP gathers " + bytes(e.cpGatherBytes) : ""),
                   bytes(mem.buffersBytes),
                   std::string("PyTorch DDP buckets; FSDP2 prefetch; DeepSpeed partitioned_param_coordinator.py, stage3.py ipg bucket")
                       + (e.cpGatherBytes > 0 ? "; TransformerEngine context_parallel.py AttnFuncWithCPAndKVAllGather" : "")});
    out.push_back({"memory.runtime_bytes", "Runtime", "CUDA context 0.5 GiB + workspaces 0.5 GiB + 8% allocator reserve over per-step allocations",
                   stageText, bytes(mem.runtimeBytes), "PyTorch PR 86509 (context with lazy loading); model/memory.h"});
    out.push_back({"memory_per_gpu_bytes", "Memory per GPU",
                   "weights + gradients + optimizer + activations + loss + buffers + runtime",
                   bytes(mem.weightsBytes) + " + " + bytes(mem.gradientsBytes) + " + " + bytes(mem.optimizerBytes) + " + "
                       + bytes(mem.activationsBytes) + " + " + bytes(mem.lossBytes) + " + " + bytes(mem.buffersBytes) + " + "
                       + bytes(mem.runtimeBytes),
                   bytes(mem.totalBytes) + (mem.totalBytes <= mem.capacityBytes ? " (fits in " : " (does NOT fit in ")
                       + bytes(mem.capacityBytes) + ")",
                   std::string(kStates) + "; " + kK22});
    if (mem.offloadedBytes > 0)
        out.push_back({"memory.offloaded_bytes", "Activations in host memory",
                       "offloaded layers x one layer's activations (training.offload_layers)",
                       std::to_string(sc.training.offloadLayers) + " layers x " + bytes(e.offloadLayerBytes),
                       bytes(mem.offloadedBytes) + (mem.offloadedBytes <= mem.hostCapacityBytes ? " (fits in " : " (does NOT fit in ")
                           + bytes(mem.hostCapacityBytes) + " of host memory per GPU)",
                       "TransformerEngine cpu_offloading docs; host memory per GPU: cluster.gpu.host_memory"});
    out.push_back({"parameters", "Parameters",
                   std::string("P = L (Q,K,V,O + FFN matrices + biases, norms) + V h (+ s h) (+ V h untied); ")
                       + (isMla(w) ? "latent attention: Q h x q_lora + q_lora x a (d + d_r), KV h x (kv_lora + d_r) + kv_lora x a (d + d_v), O a d_v x h"
                                   : "Q and O are h x a d, K and V h x g d")
                       + (isMoe(w) ? "; MoE: the FFN is E experts of width f_e and a router h x E, a token using k of them" : "")
                       + (w.sharedExpertFfn > 0 ? ", plus shared experts of width f_s" : "")
                       + (moeLayersOf(w) < w.layers && isMoe(w) ? "; the first " + std::to_string(w.layers - moeLayersOf(w)) + " layers dense" : "")
                       + (w.mtpLayers > 0 ? "; + " + std::to_string(w.mtpLayers) + " MTP module(s): a layer and a 2h x h projection each" : ""),
                   "L = " + std::to_string(w.layers) + ", h = " + std::to_string(w.hidden) + ", a = " + std::to_string(w.heads)
                       + ", g = " + std::to_string(w.kvHeads) + ", d = " + num(headDimOf(w)) + ", ffn = "
                       + std::to_string(w.ffnHidden) + ", V = " + std::to_string(w.vocab),
                   num(e.parameters)
                       + (isMoe(w) ? " (" + num(e.activeParameters) + " per token: E = " + std::to_string(w.experts) + ", k = "
                                         + std::to_string(expertsPerTokenOf(w)) + ", f_e = " + num(expertFfnOf(w)) + ")"
                                   : std::string()),
                   std::string(kSC21) + ", Eq. 2 generalised to GQA and SwiGLU" + (isMoe(w) ? "; Shazeer et al. 2017 (MoE)" : "")
                       + (isMla(w) || w.sharedExpertFfn > 0 || w.mtpLayers > 0 ? "; DeepSeek-V3, arXiv:2412.19437 Sec. 2 (MLA, shared experts, MTP)" : "")});
    out.push_back({"micro_batches", "Micro-batches per step", "m = B / (b x dp)",
                   std::to_string(sc.training.globalBatch) + " / (" + std::to_string(sc.training.microBatch) + " x "
                       + std::to_string(d) + ")",
                   std::to_string(m), "Definition"});
    return out;
}

Explanation explain(const Scenario &scenario, const Evaluation &evaluation, const std::string &id)
{
    for (Explanation &x : explainAll(scenario, evaluation))
        if (x.id == id)
            return x;
    return {};
}

} // namespace ts
