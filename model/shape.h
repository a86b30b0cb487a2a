// SPDX-License-Identifier: MIT
// Parameter and FLOP counts of a transformer shape, and a shape derived from a parameter count.
#pragma once

#include "inputs.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ts {

/// Width of one attention head: workload.head_dim, or hidden / heads when it is 0.
inline double headDimOf(const Workload &w) { return w.headDim > 0 ? double(w.headDim) : double(w.hidden) / std::max(1, w.heads); }
/// Whether the layers are mixture-of-experts layers.
inline bool isMoe(const Workload &w) { return w.experts > 0; }
/// Experts a token is routed to, k (0 when dense; validate() keeps it within the experts).
inline int expertsPerTokenOf(const Workload &w) { return w.experts > 0 ? std::min(w.expertsPerToken, w.experts) : 0; }
/// One expert's FFN width: workload.moe_ffn_hidden, or ffn_hidden when it is 0.
inline double expertFfnOf(const Workload &w) { return w.moeFfnHidden > 0 ? double(w.moeFfnHidden) : double(w.ffnHidden); }
/// Whether attention is multi-head latent attention (workload.kv_lora_rank > 0).
inline bool isMla(const Workload &w) { return w.kvLoraRank > 0; }
/// Width of one head's query and key: head_dim, plus the rotary part under MLA (DeepSeek-V3: 128 + 64).
inline double qkHeadDimOf(const Workload &w) { return headDimOf(w) + (isMla(w) ? w.ropeHeadDim : 0); }
/// Width of one head's value (and output): v_head_dim under MLA when given, head_dim otherwise.
inline double vHeadDimOf(const Workload &w) { return isMla(w) && w.vHeadDim > 0 ? double(w.vHeadDim) : headDimOf(w); }
/// Width of all query heads, heads x query width: h unless head_dim decouples it.
inline double attentionWidthOf(const Workload &w) { return w.heads * qkHeadDimOf(w); }
/// Width of the attention output (the output projection's input), heads x value width.
inline double attentionOutWidthOf(const Workload &w) { return w.heads * vHeadDimOf(w); }
/// Layers that are mixture-of-experts layers: all but the first dense ones (0 when dense).
inline int moeLayersOf(const Workload &w) { return isMoe(w) ? w.layers - std::min(w.layers, std::max(0, w.firstDenseLayers)) : 0; }
/// Share of the layers that are MoE layers: per-layer figures are the model's mean layer.
inline double moeLayerShare(const Workload &w) { return w.layers > 0 ? double(moeLayersOf(w)) / w.layers : 0.0; }
/// The dense layer of a model whose first layers are dense: the same shape with an MLP of ffn_hidden.
inline Workload denseLayerOf(Workload w)
{
    w.experts = 0;
    w.sharedExpertFfn = 0;
    w.firstDenseLayers = 0;
    return w;
}
/// Layers whose attention is a sliding window: all but layers N, 2N, ... when full_attention_every
/// is N > 0 (Megatron-Core window_attn_skip_freq: layer_number % N != 0), every layer when it is 0.
inline int windowedLayersOf(const Workload &w)
{
    if (w.slidingWindow <= 0 || w.slidingWindow >= w.seqLen)
        return 0;
    return w.fullAttentionEvery > 0 ? w.layers - w.layers / w.fullAttentionEvery : w.layers;
}

/// Share of the s^2 query-key pairs a layer's attention really has, averaged over the layers: 1
/// without a causal mask, 1/2 causal (the published convention, s^2/2), and under a window of w < s
/// (s w - w (w - 1) / 2) / s^2 (each query sees min(i + 1, w) keys; Megatron-Bridge flop_utils
/// calculate_swa_context: w - w (w - 1) / 2s per query).
double executedAttentionShare(const Workload &w);

/// (B x B) tiles one head and sequence of n = s/B query blocks runs under a causal mask when a
/// query block reaches `windowTiles` key blocks at most: sum over q of min(q + 1, c), the diagonal
/// tile run in full; n^2/2 + n/2 without a window (c >= n).
double causalTiles(double queryBlocks, double windowTiles);

/// Key blocks of B a query block of B reaches under a causal window of w >= 1 keys: the diagonal
/// block and ceil((w - 1)/B) before it, = floor((w - 2)/B) + 2.
inline double windowKeyBlocks(int window, double blockRows) { return std::floor((window - 2.0) / blockRows) + 2.0; }

struct ShapeCounts
{
    // Per layer: the model's mean layer when its first layers are dense and the rest MoE.
    double layerMatrixParams = 0;  // Q, K, V, O and FFN matrices of one layer (MoE: the router and shared experts instead of the FFN)
    double layerExpertParams = 0;  // MoE: all routed experts' FFN matrices of one layer (0 when dense)
    double layerOtherParams = 0;   // biases and layer norms of one layer (and the QK norms)
    // Of those, what every TP rank holds whole (Megatron-Core): the matrices MLA's down projections
    // and the router; the others the norms and the row-parallel GEMMs' biases.
    double layerTpReplicatedMatrixParams = 0;
    double layerTpReplicatedOtherParams = 0;
    double embeddingParams = 0;    // V x h (+ s x h with learned positions)
    double headParams = 0;         // untied LM head V x h (0 when tied)
    double totalParams = 0;
    double activeParams = 0;       // used per token: with MoE, k of the E experts (= totalParams when dense)
    // Forward FLOPs per token (one multiply-add = 2 FLOP).
    double layerMatrixFlopsPerToken = 0;    // 2 x layer matrix params (MoE: + 2 x the k experts' a token uses)
    double layerAttentionFlopsPerToken = 0; // Q K^T and A V: 2 s a (d_qk + d_v) (= 4 s h when a d = h; counted unmasked)
    double headFlopsPerToken = 0;           // 2 h V
    double mtpParams = 0;                   // the multi-token-prediction modules (in totalParams)
    double mtpFlopsPerToken = 0;            // their layers, projections and head passes, forward
};

/// Counts the actual matrices (Narayanan et al. 2021, Eq. 2 generalised to GQA and SwiGLU).
/// For multi-head attention, GeLU, ffn = 4h and learned positions this equals
/// P = 12 L h^2 (1 + 13/(12h) + (V+s)/(12 L h)).
ShapeCounts countShape(const Workload &workload);

/// Forward FLOPs of one token through the whole model.
double forwardFlopsPerToken(const ShapeCounts &counts, int layers);

struct DerivedShape
{
    Workload workload;
    double parameters = 0;
    std::string description;
};

/// A GPT-3-family shape with about `parameters` parameters: h a multiple of 128, head dim 128,
/// ffn near 4h (sized so that P matches within ~1e-4), GeLU, tied embeddings, learned positions,
/// and h/L as close to 128 as P allows
/// (GPT-3 175B: 12288/96; Llama 2 7B: 4096/32). parameters in [1e6, 1e14].
DerivedShape deriveShape(double parameters, int vocab, int seqLen);

} // namespace ts
