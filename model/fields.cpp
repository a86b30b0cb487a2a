// SPDX-License-Identifier: MIT
#include "fields.h"

#include "shape.h"
#include "units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace ts {

namespace {

using K = FieldKind;

// One row per input. Ranges are the display values a control offers; the model validates the
// scenario itself (evaluate.cpp validate) and names the field when a value cannot run.
const std::array<FieldInfo, size_t(Field::Count)> kFields = {{
    {Field::None, "", "", "", 1, K::Real, 0, 0},
    {Field::Parameters, "workload.parameters", "parameters", "B", 1e9, K::Real, 0.1, 2000},
    {Field::SeqLen, "workload.seq_len", "sequence length", "tokens", 1, K::Integer, 1, 16777216},
    {Field::GlobalBatch, "training.global_batch", "global batch", "sequences", 1, K::Integer, 1, 1e9},
    {Field::MicroBatch, "training.micro_batch", "micro-batch size", "sequences", 1, K::Integer, 1, 4096},
    {Field::Precision, "training.precision", "precision", "", 1, K::Choice, 0, 3},
    {Field::Recompute, "training.recompute", "activation recompute", "", 1, K::Choice, 0, 2},
    {Field::RecomputeLayers, "training.recompute_layers", "recomputed layers per chunk (0 = all)", "", 1, K::Integer, 0, 1000000},
    {Field::OffloadLayers, "training.offload_layers", "layers offloaded to host memory", "", 1, K::Integer, 0, 1000000},
    {Field::Fp8Params, "training.fp8_params", "FP8 weights", "", 1, K::Bool, 0, 1},
    {Field::Fp8Recipe, "training.fp8_recipe", "FP8 scaling recipe", "", 1, K::Choice, 0, 4},
    {Field::Fp8Attention, "training.fp8_attention", "FP8 attention", "", 1, K::Bool, 0, 1},
    {Field::Tokens, "training.tokens", "token budget", "T tokens", 1e12, K::Real, 0.001, 100},
    {Field::ComputeTime, "training.compute_time", "given compute time", "s", 1, K::Real, 0, 1e6},
    {Field::Gpus, "cluster.gpus", "GPUs", "", 1, K::Integer, 1, 65536},
    {Field::GpusPerNode, "cluster.gpus_per_node", "GPUs per node", "", 1, K::Integer, 1, 72},
    {Field::Rails, "cluster.rails", "NICs per node", "", 1, K::Integer, 1, 16},
    {Field::Oversubscription, "cluster.oversubscription", "oversubscription", ":1", 1, K::Real, 1, 8},
    {Field::InNetworkReduction, "cluster.in_network_reduction", "in-network reduction", "", 1, K::Bool, 0, 1},
    {Field::Transport, "cluster.transport", "RDMA", "", 1, K::Bool, 0, 1},
    {Field::IntraLatency, "cluster.intra_node.latency", "intra-node latency", "µs", 1e-6, K::Real, 0, 100},
    {Field::InterLatency, "cluster.inter_node.latency", "inter-node latency", "µs", 1e-6, K::Real, 0, 200},
    {Field::IntraEfficiency, "cluster.intra_node.efficiency", "intra-node achievable share", "%", 0.01, K::Real, 1, 100},
    {Field::InterEfficiency, "cluster.inter_node.efficiency", "inter-node achievable share", "%", 0.01, K::Real, 1, 100},
    {Field::IntraBandwidth, "cluster.intra_node.bandwidth", "intra-node bandwidth", "GB/s", units::kBytesPerGB, K::Real, 1, 5000},
    {Field::InterBandwidth, "cluster.inter_node.bandwidth", "inter-node bandwidth", "Gb/s", units::kBytesPerGB / 8, K::Real, 1, 3200},
    {Field::Tp, "plan.tp", "TP", "", 1, K::Integer, 1, 65536},
    {Field::Pp, "plan.pp", "PP", "", 1, K::Integer, 1, 65536},
    {Field::Dp, "plan.dp", "DP", "", 1, K::Integer, 1, 65536},
    {Field::Cp, "plan.cp", "CP", "", 1, K::Integer, 1, 65536},
    {Field::CpComm, "plan.cp_comm", "CP communication", "", 1, K::Choice, 0, 2},
    {Field::SequenceParallel, "plan.sequence_parallel", "sequence parallel", "", 1, K::Bool, 0, 1},
    {Field::Schedule, "plan.schedule", "pipeline schedule", "", 1, K::Choice, 0, 4},
    {Field::VirtualStages, "plan.virtual_stages", "virtual stages", "", 1, K::Integer, 1, 16},
    {Field::Zero, "plan.zero", "ZeRO stage", "", 1, K::Choice, 0, 3},
    {Field::OverlapDp, "plan.overlap_dp", "gradient-sync overlap", "", 1, K::Bool, 0, 1},
    {Field::TpOverlap, "plan.tp_overlap", "TP communication overlap", "", 1, K::Bool, 0, 1},
    {Field::TpAsyncGrad, "plan.tp_async_grad", "asynchronous TP gradient communication", "", 1, K::Bool, 0, 1},
    {Field::Bucket, "plan.bucket", "DP bucket", "MB", units::kBytesPerMB, K::Real, 0, 20000},
    {Field::Compression, "plan.compression", "gradient compression", "x", 1, K::Real, 1, 64},
    {Field::Jitter, "plan.jitter", "straggler jitter", "%", 0.01, K::Real, 0, 50},
    {Field::LocalSgd, "plan.local_sgd", "local SGD interval", "steps", 1, K::Integer, 1, 64},
    {Field::Framework, "plan.framework", "framework", "", 1, K::Choice, 0, 3},
    {Field::Attention, "workload.attention", "attention kernel", "", 1, K::Choice, 0, 3},
    {Field::CrossEntropy, "training.cross_entropy", "loss kernel", "", 1, K::Choice, 0, 3},
    {Field::Norm, "workload.norm", "normalisation", "", 1, K::Choice, 0, 2},
    {Field::Kernels, "training.kernels", "elementwise kernels", "", 1, K::Choice, 0, 2},
    {Field::GradReduce, "plan.grad_reduce", "gradient reduction", "", 1, K::Choice, 0, 2},
    {Field::FsdpVersion, "plan.fsdp_version", "FSDP API", "", 1, K::Choice, 0, 1},
    {Field::Ep, "plan.ep", "EP", "", 1, K::Integer, 1, 65536},
    {Field::EpOverlap, "plan.ep_overlap", "EP all-to-all overlap", "", 1, K::Bool, 0, 1},
    {Field::EpDispatcher, "plan.ep_dispatcher", "EP token dispatcher", "", 1, K::Choice, 0, 2},
    {Field::RecomputeModules, "training.recompute_modules", "recomputed modules", "", 1, K::Integer, 0, kRecomputeAllModules},
}};

int asInt(double v) { return int(std::lround(v)); }

// DP is what the GPUs leave over; when it does not divide, DP stays and the model reports the
// mismatch at plan.dp (never a silent change elsewhere).
void rebalanceDp(Scenario &s)
{
    const long long modelParallel = (long long)s.plan.tp * s.plan.pp * s.plan.cp;
    if (modelParallel > 0 && s.cluster.gpus % modelParallel == 0)
        s.plan.dp = int(s.cluster.gpus / modelParallel);
}

std::string printed(const char *fmt, double v)
{
    char text[256];
    std::snprintf(text, sizeof text, fmt, v);
    return text;
}

const char *choiceName(Field f, int i)
{
    switch (f) {
    case Field::Precision: {
        static const char *names[] = {"FP32", "BF16", "FP16", "FP8"};
        return i >= 0 && i < 4 ? names[i] : "?";
    }
    case Field::Recompute: {
        static const char *names[] = {"none", "selective", "full"};
        return i >= 0 && i < 3 ? names[i] : "?";
    }
    case Field::Schedule: {
        static const char *names[] = {"GPipe", "1F1B", "interleaved 1F1B", "zero bubble (ZB-H1)", "DualPipeV"};
        return i >= 0 && i < 5 ? names[i] : "?";
    }
    case Field::Framework: {
        static const char *names[] = {"derived from ZeRO", "Megatron-LM", "DeepSpeed", "PyTorch FSDP"};
        return i >= 0 && i < 4 ? names[i] : "?";
    }
    case Field::Attention: {   // Attention's order: Flash, Materialized, Flash2, Triton
        static const char *names[] = {"FlashAttention (the GPU's best)", "materialized scores", "FlashAttention-2",
                                      "FlashAttention's Triton kernel"};
        return i >= 0 && i < 4 ? names[i] : "?";
    }
    case Field::CrossEntropy: {
        static const char *names[] = {"the framework's", "Megatron vocab-parallel", "PyTorch on fp32 logits",
                                      "fused on 16-bit logits"};
        return i >= 0 && i < 4 ? names[i] : "?";
    }
    case Field::Norm: {
        static const char *names[] = {"by MLP (RMSNorm with SwiGLU)", "LayerNorm", "RMSNorm"};
        return i >= 0 && i < 3 ? names[i] : "?";
    }
    case Field::Kernels: {
        static const char *names[] = {"the framework's", "fused (Megatron/TE, torch.compile)", "PyTorch eager"};
        return i >= 0 && i < 3 ? names[i] : "?";
    }
    case Field::Fp8Recipe: {   // Fp8Recipe's order: Delayed, Tensorwise, Mxfp8, Blockwise, Nvfp4
        static const char *names[] = {"delayed (amax history)", "tensorwise (current scaling)", "MXFP8 (32-element blocks)",
                                      "blockwise (128-element blocks)", "NVFP4 (4-bit, 16-element blocks)"};
        return i >= 0 && i < 5 ? names[i] : "?";
    }
    case Field::CpComm: {   // CpComm's order: P2p, AllGather, A2a
        static const char *names[] = {"K/V ring (p2p)", "K/V all-gather", "all-to-all (Ulysses)"};
        return i >= 0 && i < 3 ? names[i] : "?";
    }
    case Field::EpDispatcher: {   // EpDispatcher's order: AllToAll, DeepEp, HybridEp
        static const char *names[] = {"all-to-all (every copy)", "DeepEP (once per node and GPU)", "HybridEP (once per node and GPU)"};
        return i >= 0 && i < 3 ? names[i] : "?";
    }
    case Field::FsdpVersion: {   // index = fsdp_version - 1
        static const char *names[] = {"FSDP1 (flat parameters)", "FSDP2 (fully_shard)"};
        return i >= 0 && i < 2 ? names[i] : "?";
    }
    case Field::GradReduce: {   // GradReduce's order: Auto, Fp32, Bf16
        static const char *names[] = {"the framework's", "fp32", "bf16"};
        return i >= 0 && i < 3 ? names[i] : "?";
    }
    default: return "?";
    }
}

} // namespace

const FieldInfo &fieldInfo(Field field)
{
    const size_t i = size_t(field);
    return i < kFields.size() ? kFields[i] : kFields[0];
}

Field fieldForKey(const std::string &key)
{
    for (const FieldInfo &f : kFields)
        if (f.field != Field::None && key == f.key)
            return f.field;
    return Field::None;
}

double fieldValue(const Scenario &s, Field field)
{
    switch (field) {
    case Field::None:
    case Field::Count: return 0;
    case Field::Parameters: return countShape(s.workload).totalParams;
    case Field::SeqLen: return s.workload.seqLen;
    case Field::GlobalBatch: return double(s.training.globalBatch);
    case Field::MicroBatch: return s.training.microBatch;
    case Field::Precision: return int(s.training.precision);
    case Field::Recompute: return int(s.training.recompute);
    case Field::RecomputeLayers: return s.training.recomputeLayers;
    case Field::RecomputeModules: return s.training.recomputeModules;
    case Field::OffloadLayers: return s.training.offloadLayers;
    case Field::Fp8Params: return s.training.fp8Params ? 1 : 0;
    case Field::Fp8Recipe: return int(s.training.fp8Recipe);
    case Field::Fp8Attention: return s.training.fp8Attention ? 1 : 0;
    case Field::Tokens: return s.training.tokens;
    case Field::ComputeTime: return s.training.computeSecondsOverride;
    case Field::Gpus: return s.cluster.gpus;
    case Field::GpusPerNode: return s.cluster.gpusPerNode;
    case Field::Rails: return s.cluster.rails;
    case Field::Oversubscription: return s.cluster.oversubscription;
    case Field::InNetworkReduction: return s.cluster.inNetworkReduction ? 1 : 0;
    case Field::Transport: return s.cluster.transport == Transport::Rdma ? 1 : 0;
    case Field::IntraLatency: return s.cluster.intraNode.latencySeconds;
    case Field::InterLatency: return s.cluster.interNode.latencySeconds;
    case Field::IntraEfficiency: return s.cluster.intraNode.efficiency;
    case Field::InterEfficiency: return s.cluster.interNode.efficiency;
    case Field::IntraBandwidth: return s.cluster.intraNode.bytesPerSecond;
    case Field::InterBandwidth: return s.cluster.interNode.bytesPerSecond;
    case Field::Tp: return s.plan.tp;
    case Field::Pp: return s.plan.pp;
    case Field::Dp: return s.plan.dp;
    case Field::Cp: return s.plan.cp;
    case Field::CpComm: return int(s.plan.cpComm);
    case Field::SequenceParallel: return s.plan.sequenceParallel ? 1 : 0;
    case Field::Schedule: return int(s.plan.schedule);
    case Field::VirtualStages: return s.plan.virtualStages;
    case Field::Zero: return s.plan.zeroStage;
    case Field::OverlapDp: return s.plan.overlapDp ? 1 : 0;
    case Field::TpOverlap: return s.plan.tpOverlap ? 1 : 0;
    case Field::TpAsyncGrad: return s.plan.tpAsyncGrad ? 1 : 0;
    case Field::Bucket: return s.plan.bucketBytes;
    case Field::Compression: return s.plan.compression;
    case Field::Jitter: return s.plan.jitter;
    case Field::LocalSgd: return s.plan.localSgdInterval;
    case Field::Framework: return int(s.plan.framework);
    case Field::Attention: return int(s.workload.attention);
    case Field::CrossEntropy: return int(s.training.crossEntropy);
    case Field::Norm: return int(s.workload.norm);
    case Field::Kernels: return int(s.training.kernels);
    case Field::GradReduce: return int(s.plan.gradReduce);
    case Field::FsdpVersion: return s.plan.fsdpVersion - 1;
    case Field::Ep: return s.plan.ep;
    case Field::EpOverlap: return s.plan.epOverlap ? 1 : 0;
    case Field::EpDispatcher: return int(s.plan.epDispatcher);
    }
    return 0;
}

FieldEdit withField(const Scenario &in, Field field, double v)
{
    FieldEdit r{in, {}};
    Scenario &s = r.scenario;
    // An FP8-only setting switched on moves precision to fp8 and says so.
    const auto needFp8 = [&](bool wanted, const char *note) {
        if (wanted && s.training.precision != Precision::Fp8) {
            s.training.precision = Precision::Fp8;
            r.note = note;
        }
    };
    switch (field) {
    case Field::None:
    case Field::Count: break;
    case Field::Parameters: {
        if (!(v >= 1e6 && v <= 1e14)) {
            r.note = printed("workload.parameters: must be between 0.001 and 100000 billion (got %g billion)", v / 1e9);
            break;
        }
        const DerivedShape d = deriveShape(v, s.workload.vocab, s.workload.seqLen);
        s.workload = d.workload;   // a dense GPT shape: no experts to split
        s.plan.ep = 1;
        s.plan.epOverlap = false;
        r.note = d.description;
        break;
    }
    case Field::SeqLen: s.workload.seqLen = asInt(v); break;
    case Field::GlobalBatch: s.training.globalBatch = std::llround(v); break;
    case Field::MicroBatch: s.training.microBatch = asInt(v); break;
    case Field::Precision:
        s.training.precision = Precision(asInt(v));
        if (s.training.precision != Precision::Fp8 && s.training.fp8Params) {
            s.training.fp8Params = false;   // FP8 weights need FP8 GEMMs
            r.note = "training.fp8_params turned off: FP8 weights need fp8 precision";
        }
        if (s.training.precision != Precision::Fp8 && s.training.fp8Attention) {
            s.training.fp8Attention = false;   // FP8 attention runs under an FP8 recipe
            r.note = "training.fp8_attention turned off: FP8 attention needs fp8 precision";
        }
        break;
    case Field::Recompute:
        s.training.recompute = Recompute(asInt(v));
        if (s.training.recompute != Recompute::Full && s.training.recomputeLayers != 0) {
            s.training.recomputeLayers = 0;   // it counts fully recomputed layers
            r.note = "training.recompute_layers set to 0 (every layer): it applies to full recompute";
        }
        if (s.training.recompute != Recompute::None && s.training.offloadLayers != 0) {
            s.training.offloadLayers = 0;   // Megatron-Core offloads only without recompute
            r.note = "training.offload_layers set to 0: activation offloading runs without recompute";
        }
        break;
    case Field::RecomputeLayers:
        s.training.recomputeLayers = asInt(v);
        if (s.training.recomputeLayers > 0 && s.training.recompute != Recompute::Full) {
            s.training.recompute = Recompute::Full;
            r.note = "training.recompute set to full: recompute_layers counts fully recomputed layers";
        }
        break;
    case Field::RecomputeModules:
    {
        const unsigned modules = unsigned(asInt(v));
        // Megatron-Core reads the list under selective recompute only: a new list turns it on.
        const bool changed = modules != s.training.recomputeModules;
        s.training.recomputeModules = modules;
        if (changed && s.training.recompute != Recompute::Selective) {
            s.training.recompute = Recompute::Selective;
            s.training.recomputeLayers = 0;
            s.training.offloadLayers = 0;
            r.note = "training.recompute set to selective: recompute_modules is Megatron's selective recompute";
        }
        break;
    }
    case Field::OffloadLayers:
        s.training.offloadLayers = asInt(v);
        if (s.training.offloadLayers > 0 && s.training.recompute != Recompute::None) {
            s.training.recompute = Recompute::None;   // Megatron-Core offloads only without recompute
            s.training.recomputeLayers = 0;
            r.note = "training.recompute set to none: activation offloading runs without recompute";
        }
        break;
    case Field::Fp8Params:
        s.training.fp8Params = v != 0;
        needFp8(s.training.fp8Params, "training.precision set to fp8: FP8 weights need FP8 GEMMs");
        break;
    case Field::Fp8Attention:
        s.training.fp8Attention = v != 0;
        needFp8(s.training.fp8Attention, "training.precision set to fp8: FP8 attention runs under an FP8 recipe");
        break;
    case Field::Fp8Recipe:
        s.training.fp8Recipe = Fp8Recipe(asInt(v));
        needFp8(s.training.fp8Recipe != Fp8Recipe::Delayed, "training.precision set to fp8: a scaling recipe applies to FP8 GEMMs");
        if (s.training.fp8Recipe == Fp8Recipe::Nvfp4 && s.training.fp8Params) {
            s.training.fp8Params = false;   // 4-bit parameter gathers are not modelled
            r.note = "training.fp8_params turned off: NVFP4 weights gathered in 4 bits are not modelled";
        }
        break;
    case Field::Tokens: s.training.tokens = v; break;
    case Field::ComputeTime: s.training.computeSecondsOverride = v; break;
    case Field::Gpus:
        s.cluster.gpus = asInt(v);
        rebalanceDp(s);
        break;
    case Field::GpusPerNode:
        s.cluster.gpusPerNode = asInt(v);
        s.cluster.rails = s.cluster.gpusPerNode;   // one NIC per GPU, as the presets assume
        break;
    case Field::Rails: s.cluster.rails = asInt(v); break;
    case Field::Oversubscription: s.cluster.oversubscription = v; break;
    case Field::InNetworkReduction: s.cluster.inNetworkReduction = v != 0; break;
    case Field::Transport: s.cluster.transport = v != 0 ? Transport::Rdma : Transport::Tcp; break;
    case Field::IntraLatency: s.cluster.intraNode.latencySeconds = v; break;
    case Field::InterLatency: s.cluster.interNode.latencySeconds = v; break;
    case Field::IntraEfficiency: s.cluster.intraNode.efficiency = v; break;
    case Field::InterEfficiency: s.cluster.interNode.efficiency = v; break;
    case Field::IntraBandwidth: s.cluster.intraNode.bytesPerSecond = v; break;
    case Field::InterBandwidth: s.cluster.interNode.bytesPerSecond = v; break;
    case Field::Tp: s.plan.tp = asInt(v); rebalanceDp(s); break;
    case Field::Pp: s.plan.pp = asInt(v); rebalanceDp(s); break;
    case Field::Cp: s.plan.cp = asInt(v); rebalanceDp(s); break;
    case Field::CpComm: s.plan.cpComm = CpComm(asInt(v)); break;
    case Field::Dp:
        s.plan.dp = asInt(v);
        s.cluster.gpus = s.plan.tp * s.plan.pp * s.plan.cp * s.plan.dp;
        break;
    case Field::SequenceParallel: s.plan.sequenceParallel = v != 0; break;
    case Field::Schedule: s.plan.schedule = Schedule(asInt(v)); break;
    case Field::VirtualStages: s.plan.virtualStages = asInt(v); break;
    case Field::Zero: s.plan.zeroStage = asInt(v); break;
    case Field::OverlapDp: s.plan.overlapDp = v != 0; break;
    case Field::TpOverlap: s.plan.tpOverlap = v != 0; break;
    case Field::TpAsyncGrad: s.plan.tpAsyncGrad = v != 0; break;
    case Field::Bucket: s.plan.bucketBytes = v < 0 ? kFrameworkBucket : v; break;
    case Field::Compression: s.plan.compression = v; break;
    case Field::Jitter: s.plan.jitter = v; break;
    case Field::LocalSgd: s.plan.localSgdInterval = asInt(v); break;
    case Field::Framework: s.plan.framework = Framework(asInt(v)); break;
    case Field::Attention: s.workload.attention = Attention(asInt(v)); break;
    case Field::CrossEntropy: s.training.crossEntropy = CrossEntropy(asInt(v)); break;
    case Field::Norm: s.workload.norm = NormKind(asInt(v)); break;
    case Field::Kernels: s.training.kernels = Kernels(asInt(v)); break;
    case Field::GradReduce: s.plan.gradReduce = GradReduce(asInt(v)); break;
    case Field::FsdpVersion: s.plan.fsdpVersion = asInt(v) + 1; break;
    case Field::Ep: s.plan.ep = asInt(v); break;
    case Field::EpOverlap: s.plan.epOverlap = v != 0; break;
    case Field::EpDispatcher: s.plan.epDispatcher = EpDispatcher(asInt(v)); break;
    }
    return r;
}

std::string formatFieldValue(Field field, double si)
{
    const FieldInfo &f = fieldInfo(field);
    switch (f.kind) {
    case FieldKind::Bool:
        if (field == Field::Transport)
            return si != 0 ? "RDMA" : "TCP";
        return si != 0 ? "on" : "off";
    case FieldKind::Choice:
        if (field == Field::Zero)
            return printed("%.0f", si);
        return choiceName(field, asInt(si));
    case FieldKind::Integer:
        if (field == Field::RecomputeModules)
            return recomputeModulesText(unsigned(asInt(si)));
        return printed("%.0f", si);
    case FieldKind::Real: break;
    }
    if (field == Field::Bucket && si < 0)
        return "the framework's default";
    const double display = si / f.siPerDisplay;
    std::string number = printed(std::abs(display) >= 100 || display == std::floor(display) ? "%.0f" : "%.3g", display);
    if (!*f.unit)
        return number;
    return number + (f.unit[0] == ':' ? "" : " ") + f.unit;
}

std::string describeFieldChange(Field field, double si)
{
    const FieldInfo &f = fieldInfo(field);
    if (field == Field::None || field == Field::Count)
        return {};
    if (field == Field::ComputeTime && si <= 0)
        return "Derive compute from the shape and GPU (remove the given compute time)";
    if (f.kind == FieldKind::Bool && field != Field::Transport)
        return std::string("Turn ") + f.name + (si != 0 ? " on" : " off");
    return std::string("Set ") + f.name + " to " + formatFieldValue(field, si);
}

} // namespace ts
