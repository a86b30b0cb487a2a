// SPDX-License-Identifier: MIT
#include "shape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts {

ShapeCounts countShape(const Workload &w)
{
    ShapeCounts c;
    const double h = w.hidden;
    const double qDim = attentionWidthOf(w);        // all query heads: h unless head_dim decouples it
    const double outDim = attentionOutWidthOf(w);   // all value heads, the output projection's input
    const double ffnMatrices = w.mlp == MlpKind::SwiGlu ? 3.0 : 2.0;
    // W_Q (h x a d), W_K and W_V (h x g d), W_O (a d x h). Under MLA [MLA] (Megatron-Core
    // MLASelfAttention): Q down (h x q_lora) and up (q_lora x a (d + d_r)), or W_Q (h x a (d + d_r))
    // without a Q latent; KV down (h x (kv_lora + d_r)) and up (kv_lora x a (d + d_v)); W_O
    // (a d_v x h); the latents' norms. The count of Megatron-LM's num_floating_point_operations.
    double attentionMatrices = 0, attentionOther = 0, replicatedMatrices = 0, replicatedOther = 0;
    if (isMla(w)) {
        const double ql = w.qLoraRank, kl = w.kvLoraRank, dr = w.ropeHeadDim;
        attentionMatrices = (ql > 0 ? h * ql + ql * qDim : h * qDim) + h * (kl + dr) + kl * w.heads * (headDimOf(w) + vHeadDimOf(w))
                            + outDim * h;
        attentionOther = ql + kl;
        // The down projections are TELinear "duplicated" (multi_latent_attention.py), their latents' norms too.
        replicatedMatrices = (ql > 0 ? h * ql : 0.0) + h * (kl + dr);
        replicatedOther = ql + kl;
    } else {
        const double kvDim = w.kvHeads * headDimOf(w);   // K and V width under GQA
        attentionMatrices = h * qDim + 2 * h * kvDim + outDim * h;
        attentionOther = qDim + 2 * kvDim + (w.qkNorm ? 2 * headDimOf(w) : 0.0);   // QKV biases, QK norms
        replicatedOther = w.qkNorm ? 2 * headDimOf(w) : 0.0;
    }
    // A dense layer's FFN; a mixture-of-experts layer has the router (h x E), the shared experts'
    // FFN and E expert FFNs in its place (Shazeer et al. 2017; Fedus et al. 2022; DeepSeek-V3).
    // Per-layer figures are the model's mean layer: a share of the layers are MoE layers.
    const double moeShare = moeLayerShare(w);
    const double denseMlp = ffnMatrices * h * w.ffnHidden;
    const double moeMlp = h * w.experts + ffnMatrices * h * w.sharedExpertFfn;
    const double moeExperts = double(w.experts) * ffnMatrices * h * expertFfnOf(w);
    c.layerMatrixParams = attentionMatrices + moeShare * moeMlp + (1 - moeShare) * denseMlp;
    c.layerExpertParams = moeShare * moeExperts;
    // Biases of QKV, O, FFN (GPT-style; Llama has none but they are < 0.1%; experts have none), two
    // layer norms, and the per-head query and key norms' weights (one d-vector each, shared by the heads).
    c.layerOtherParams = attentionOther + h + (1 - moeShare) * ((ffnMatrices - 1) * w.ffnHidden + h) + 4 * h;
    // Whole on every TP rank: the router (TopKRouter's weight is not split), the norms, the biases
    // of the row-parallel output and down projections.
    c.layerTpReplicatedMatrixParams = replicatedMatrices + moeShare * h * w.experts;
    c.layerTpReplicatedOtherParams = replicatedOther + h + (1 - moeShare) * h + 4 * h;
    c.embeddingParams = double(w.vocab) * h + (w.learnedPositions ? double(w.seqLen) * h : 0.0);
    c.headParams = w.tiedEmbeddings ? 0.0 : double(w.vocab) * h;
    // A token runs through k of the E experts.
    const double activeExperts = isMoe(w) ? moeExperts * expertsPerTokenOf(w) / w.experts : 0.0;
    // [MTP] Each module: a layer of the last layer's kind (MoE when any are), the projection of the
    // normed hidden state and next embedding (2h x h), its two norms and its final norm; the
    // embedding and output head are the main model's (DeepSeek-V3 Sec. 2.2).
    const bool mtpMoe = moeLayersOf(w) > 0;
    const double mtpLayerParams = attentionMatrices + attentionOther + 5 * h
                                  + (mtpMoe ? moeMlp + moeExperts : denseMlp + (ffnMatrices - 1) * w.ffnHidden + h);
    c.mtpParams = w.mtpLayers * (mtpLayerParams + 2 * h * h + 3 * h);
    c.totalParams = w.layers * (c.layerMatrixParams + c.layerOtherParams + c.layerExpertParams) + c.embeddingParams
                    + c.headParams + 2 * h + c.mtpParams;   // final layer norm
    c.activeParams = c.totalParams - w.layers * (c.layerExpertParams - moeShare * activeExperts)
                     - (mtpMoe ? w.mtpLayers * (moeExperts - activeExperts) : 0.0);
    c.layerMatrixFlopsPerToken = 2 * (c.layerMatrixParams + moeShare * activeExperts);
    // Q K^T over d + d_r and A V over d_v per head: 2 s a (d_qk + d_v), 4 s a d without MLA.
    c.layerAttentionFlopsPerToken = 2.0 * w.seqLen * w.heads * (qkHeadDimOf(w) + vHeadDimOf(w));
    c.headFlopsPerToken = 2.0 * h * w.vocab;
    const double mtpMatrixFlops = 2 * (attentionMatrices + (mtpMoe ? moeMlp + activeExperts : denseMlp) + 2 * h * h);
    c.mtpFlopsPerToken = w.mtpLayers * (mtpMatrixFlops + c.layerAttentionFlopsPerToken + c.headFlopsPerToken);
    return c;
}

double executedAttentionShare(const Workload &w)
{
    if (!w.causal)
        return 1.0;
    const int windowed = windowedLayersOf(w);
    if (windowed == 0)
        return 0.5;
    const double s = w.seqLen, win = w.slidingWindow;
    const double windowShare = (s * win - win * (win - 1) / 2) / (s * s);
    return ((w.layers - windowed) * 0.5 + windowed * windowShare) / w.layers;
}

double causalTiles(double n, double c)
{
    if (c >= n)
        return n * n / 2 + n / 2;
    return c * (c + 1) / 2 + (n - c) * c;
}

double forwardFlopsPerToken(const ShapeCounts &c, int layers)
{
    return layers * (c.layerMatrixFlopsPerToken + c.layerAttentionFlopsPerToken) + c.headFlopsPerToken + c.mtpFlopsPerToken;
}

DerivedShape deriveShape(double parameters, int vocab, int seqLen)
{
    constexpr double kTargetAspect = 128.0;   // h / L of GPT-3 175B and Llama 2 7B
    constexpr int kHiddenQuantum = 128;       // tensor-core friendly, head dim 128
    auto shapeWith = [&](int layers, int hidden, int ffn) {
        Workload w;
        w.layers = layers;
        w.hidden = hidden;
        w.heads = hidden / kHiddenQuantum;
        w.kvHeads = w.heads;
        w.ffnHidden = ffn;
        w.mlp = MlpKind::Gelu;
        w.tiedEmbeddings = true;
        w.learnedPositions = true;
        w.vocab = vocab;
        w.seqLen = seqLen;
        return w;
    };
    DerivedShape best;
    double bestScore = 1e300;
    for (int layers = 2; layers <= 512; ++layers) {
        // Solve 12 L h^2 + (V + s) h ~= P for h, then snap to the quantum.
        const double a = 12.0 * layers, b = double(vocab) + seqLen;
        const double hExact = (-b + std::sqrt(b * b + 4 * a * parameters)) / (2 * a);
        for (int q : {int(std::floor(hExact / kHiddenQuantum)), int(std::ceil(hExact / kHiddenQuantum))}) {
            if (q < 1)
                continue;
            const int hidden = q * kHiddenQuantum;
            // The FFN width absorbs the rest so that P matches: each unit adds 2h + 1 per layer.
            const Workload base = shapeWith(layers, hidden, 4 * hidden);
            const double rest = countShape(base).totalParams - layers * (2.0 * hidden + 1) * base.ffnHidden;
            const long long ffn = std::llround((parameters - rest) / (layers * (2.0 * hidden + 1)));
            if (ffn < hidden || ffn > 8LL * hidden)
                continue;   // FFN outside [h, 8h] is not a plausible transformer
            const Workload w = shapeWith(layers, hidden, int(ffn));
            const double p = countShape(w).totalParams;
            const double relError = std::abs(p - parameters) / parameters;
            const double aspectError = std::abs(std::log(hidden / (kTargetAspect * layers)));
            const double ffnError = std::abs(std::log(double(ffn) / (4.0 * hidden)));
            const double score = 8.0 * relError + aspectError + ffnError;
            if (score < bestScore) {
                bestScore = score;
                best.workload = w;
                best.parameters = p;
            }
        }
    }
    if (bestScore == 1e300) {   // too small for any layered shape: fall back to the smallest
        best.workload = shapeWith(2, kHiddenQuantum, 4 * kHiddenQuantum);
        best.parameters = countShape(best.workload).totalParams;
    }
    char text[320];
    std::snprintf(text, sizeof text,
                  "derived GPT-style shape: %d layers, hidden %d, %d heads of 128, FFN %d (GeLU, %.2f h, sized so "
                  "that P matches), %.4g parameters (%+.3f%% of the %.4g asked), h/L = %.0f",
                  best.workload.layers, best.workload.hidden, best.workload.heads, best.workload.ffnHidden,
                  double(best.workload.ffnHidden) / best.workload.hidden, best.parameters,
                  100.0 * (best.parameters - parameters) / parameters, parameters,
                  double(best.workload.hidden) / best.workload.layers);
    best.description = text;
    best.workload.name = "derived";
    return best;
}

} // namespace ts
