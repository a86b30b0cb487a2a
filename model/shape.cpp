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
    const double headDim = headDimOf(w);
    const double qDim = attentionWidthOf(w);        // all query heads: h unless head_dim decouples it
    const double kvDim = w.kvHeads * headDim;       // K and V width under GQA
    const double ffnMatrices = w.mlp == MlpKind::SwiGlu ? 3.0 : 2.0;
    // W_Q (h x a d), W_K and W_V (h x g d), W_O (a d x h), and the FFN; a mixture-of-experts layer
    // has the router (h x E) and E expert FFNs in its place (Shazeer et al. 2017; Fedus et al. 2022).
    const double attentionMatrices = 2 * h * qDim + 2 * h * kvDim;
    const bool moe = isMoe(w);
    c.layerMatrixParams = attentionMatrices + (moe ? h * w.experts : ffnMatrices * h * w.ffnHidden);
    c.layerExpertParams = moe ? double(w.experts) * ffnMatrices * h * expertFfnOf(w) : 0.0;
    // Biases of QKV, O, FFN (GPT-style; Llama has none but they are < 0.1%; experts have none), two
    // layer norms, and the per-head query and key norms' weights (one d-vector each, shared by the heads).
    c.layerOtherParams = (qDim + 2 * kvDim) + h + (moe ? 0.0 : (ffnMatrices - 1) * w.ffnHidden + h) + 4 * h
                         + (w.qkNorm ? 2 * headDim : 0.0);
    c.embeddingParams = double(w.vocab) * h + (w.learnedPositions ? double(w.seqLen) * h : 0.0);
    c.headParams = w.tiedEmbeddings ? 0.0 : double(w.vocab) * h;
    c.totalParams = w.layers * (c.layerMatrixParams + c.layerOtherParams + c.layerExpertParams) + c.embeddingParams
                    + c.headParams + 2 * h;   // final layer norm
    // A token runs through k of the E experts.
    const double activeExpertParams = moe ? c.layerExpertParams * expertsPerTokenOf(w) / w.experts : 0.0;
    c.activeParams = c.totalParams - w.layers * (c.layerExpertParams - activeExpertParams);
    c.layerMatrixFlopsPerToken = 2 * (c.layerMatrixParams + activeExpertParams);
    c.layerAttentionFlopsPerToken = 4.0 * w.seqLen * qDim;
    c.headFlopsPerToken = 2.0 * h * w.vocab;
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
    return layers * (c.layerMatrixFlopsPerToken + c.layerAttentionFlopsPerToken) + c.headFlopsPerToken;
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
