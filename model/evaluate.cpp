// SPDX-License-Identifier: MIT
// The analytical cost model. Sources for each formula are cited where it is used:
//  [SC21]  Narayanan et al. 2021, Efficient Large-Scale LM Training on GPU Clusters, arXiv:2104.04473
//  [K22]   Korthikanti et al. 2022, Reducing Activation Recomputation, arXiv:2205.05198
//  [ZeRO]  Rajbhandari et al. 2020, ZeRO, arXiv:1910.02054
//  [ZB]    Qi et al. 2023, Zero Bubble Pipeline Parallelism, arXiv:2401.10241
//  [NCCL]  nccl-tests doc/PERFORMANCE.md (algbw, busbw)
//  [DDP]   Li et al. 2020, PyTorch Distributed, arXiv:2006.15704 (buckets, overlap)
//  [DS]    microsoft/DeepSpeed runtime/pipe/engine.py: PipelineEngine turns backward all-reduce
//          off and reduces in _exec_reduce_grads (the schedule's ReduceGrads, after the last
//          backward); in bf16 _bf16_reduce_grads all-reduces the BF16 optimizer's fp32 gradients
//  [TE-OFF] NVIDIA/TransformerEngine docs/features/other_optimizations/cpu_offloading: the first
//          num_layers layers' saved tensors are copied to host memory as forward saves them and
//          reloaded before their backward; at most model_layers - num_layers layers' activations
//          are on the GPU, compute and copies stalling to keep it so (Megatron-Core
//          transformer_config.py: cpu_offloading needs pp 1 and no recompute)
//
// Modelling assumptions, in one place:
//  - Ranks are ordered TP innermost, then CP, DP, PP (Megatron-LM), which decides which groups
//    cross node boundaries.
//  - Stages hold the layers of the split (even or plan.first/last_stage_layers) plus the embedding
//    or LM head; the slowest is the critical one.
//  - Compute is built per kernel (model/kernels.cpp): every GEMM at its tile/wave efficiency under
//    the GPU's measured ceiling, attention at its kernel's efficiency, memory-bound kernels as HBM
//    traffic. Backward GEMMs split into input gradients (B) and weight gradients (W) [ZB].
//  - TP collectives of the forward are exposed unless plan.tpOverlap; in backward Megatron and
//    TransformerEngine hide the column-parallel GEMMs' gradient collectives (plan.tpAsyncGrad).
//    DP buckets overlap only with the last micro-batch's backward (gradient accumulation syncs
//    once per step) [DDP].
#include "evaluate.h"

#include "economics.h"

#include "collectives.h"
#include "kernels.h"
#include "memory.h"
#include "pipeline.h"
#include "shape.h"
#include "units.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace ts {

namespace {

bool finitePositive(double x) { return std::isfinite(x) && x > 0; }
bool finiteNonNegative(double x) { return std::isfinite(x) && x >= 0; }

// Acklam's rational approximation of the standard normal quantile, written for the upper tail
// so that p = 1 - tail stays accurate when tail is tiny (|relative error| < 1.2e-9).
double normalQuantileUpper(double tail)
{
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                   -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                   3.754408661907416e+00};
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                   1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                   6.680131188771972e+01, -1.328068155288572e+01};
    if (tail <= 0)
        return 40.0;
    if (tail >= 1)
        return -40.0;
    constexpr double kLow = 0.02425;
    if (tail < kLow) {
        const double q = std::sqrt(-2 * std::log(tail));
        return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
               / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (tail > 1 - kLow) {
        const double q = std::sqrt(-2 * std::log(1 - tail));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
               / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    const double q = (1 - tail) - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
           / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

// Quantile of the maximum of n iid standard normals: Phi^-1(q^(1/n)), upper tail 1 - q^(1/n).
double maxOfNormalsQuantile(double q, double n) { return normalQuantileUpper(-std::expm1(std::log(q) / n)); }

double activationElementBytes(Precision precision) { return precision == Precision::Fp32 ? 4.0 : 2.0; }

// Forward FLOPs per token of the mean layer that Megatron's selective recompute replays
// (Training::recomputeModules): the core attention and the matrices of the recomputed modules.
double recomputedModuleFlopsPerToken(const Workload &w, const ShapeCounts &c, unsigned modules)
{
    const double h = w.hidden, gates = w.mlp == MlpKind::SwiGlu ? 3.0 : 2.0, share = moeLayerShare(w);
    double flops = modules & kRecomputeCoreAttn ? c.layerAttentionFlopsPerToken : 0.0;
    if ((modules & kRecomputeMlaUpProj) && isMla(w))
        flops += 2.0 * (w.qLoraRank > 0 ? w.qLoraRank * attentionWidthOf(w) : 0.0)
                 + 2.0 * w.kvLoraRank * w.heads * (headDimOf(w) + vHeadDimOf(w));
    if (modules & kRecomputeMlp)
        flops += (1 - share) * 2.0 * gates * h * w.ffnHidden;
    const double shared = 2.0 * gates * h * w.sharedExpertFfn;
    if (modules & kRecomputeMoe)
        flops += share * (2.0 * h * w.experts + shared + 2.0 * gates * h * expertFfnOf(w) * expertsPerTokenOf(w));
    if (modules & kRecomputeSharedExperts)   // nested inside moe's checkpoint it runs once more
        flops += share * shared;
    return flops;
}

std::vector<int> divisorsOf(int n)
{
    std::vector<int> out;
    for (int i = 1; (long long)i * i <= n; ++i) {
        if (n % i == 0) {
            out.push_back(i);
            if (i != n / i)
                out.push_back(n / i);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The plan search reads only whether a plan runs, so its candidates skip formatting the message
// (most of the time an infeasible plan costs) and keep the field (evaluateCandidate).
thread_local bool tMessages = true;

Problem problem(std::string field, const char *format, double a = 0, double b = 0, double c = 0)
{
    if (!tMessages)
        return {std::move(field), {}};
    char text[320];
    std::snprintf(text, sizeof text, format, a, b, c);
    return {std::move(field), text};
}

/// A warning's candidate fixes (at most 12, each a change and an optional second one), kept on the
/// stack: the default plans fire warnings on every evaluation.
struct FixCandidates
{
    using Fix = std::pair<Change, Change>;
    std::array<Fix, 12> items{};
    int count = 0;
    FixCandidates() = default;
    FixCandidates(std::initializer_list<Fix> fixes)
    {
        for (const Fix &f : fixes)
            push_back(f);
    }
    void push_back(const Fix &f)
    {
        assert(count < int(items.size()));   // the longest list (communication_dominates) holds 10
        if (count < int(items.size()))
            items[size_t(count++)] = f;
    }
    bool empty() const { return count == 0; }
    const Fix &back() const { return items[size_t(count - 1)]; }
    const Fix *begin() const { return items.data(); }
    const Fix *end() const { return items.data() + count; }
};

/// The warning's index, or -1 when the list is full.
int addWarning(Evaluation &e, WarningCode code, double value, double threshold, Change first = {},
               Change second = {})
{
    if (e.warningCount >= kMaxWarnings)
        return -1;
    Warning &w = e.warnings[size_t(e.warningCount++)];
    w.code = code;
    w.value = value;
    w.threshold = threshold;
    w.changes = {first, second};
    w.changeCount = (first.field != Field::None) + (second.field != Field::None);
    return e.warningCount - 1;
}

constexpr double kCommunicationWarnFraction = 0.5;
constexpr double kPipelineEfficiencyWarn = 0.8;
constexpr double kSlowTpLinkBytesPerSecond = 100e9;  // below NVLink class: PCIe
constexpr double kLatencyBoundShare = 0.5;           // alpha share of one bucket's time
constexpr double kSlowZero3LinkBytesPerSecond = 40e9;
constexpr double kStragglerWarnFraction = 0.05;
constexpr double kExposedSyncWarnFraction = 0.2;      // exposed gradient sync / step
// Exposed TP collectives / step above which an expert turns on TP communication overlap: NVIDIA's
// performance recipes (NeMo 2.0, Megatron-Bridge) run it wherever TP > 1 (tests/data/validation
// README, sections F and G).
constexpr double kExposedTpWarnFraction = 0.1;
// Expert all-to-alls in the open for this share of the step: as for TP, the share at which NVIDIA's
// MoE recipes already overlap them or send tokens once per node.
constexpr double kExposedEpWarnFraction = 0.1;
constexpr double kExposedCpWarnFraction = 0.1;   // the K/V exchange in the open, across nodes: as for TP
constexpr double kMaxParameters = 1e15;

} // namespace

const char *nameOf(Attention a)
{
    switch (a) {
    case Attention::Flash: return "flash";
    case Attention::Flash2: return "flash2";
    case Attention::Triton: return "triton";
    case Attention::Materialized: return "materialized";
    }
    return "flash";
}
const char *nameOf(Framework f)
{
    switch (f) {
    case Framework::Auto: return "auto";
    case Framework::Megatron: return "megatron";
    case Framework::DeepSpeed: return "deepspeed";
    case Framework::Fsdp: return "fsdp";
    }
    return "?";
}

const char *nameOf(CpComm c)
{
    switch (c) {
    case CpComm::P2p: return "p2p";
    case CpComm::AllGather: return "allgather";
    case CpComm::A2a: return "a2a";
    }
    return "?";
}

const char *nameOf(EpDispatcher d)
{
    switch (d) {
    case EpDispatcher::AllToAll: return "alltoall";
    case EpDispatcher::DeepEp: return "deepep";
    case EpDispatcher::HybridEp: return "hybridep";
    }
    return "?";
}

const char *nameOf(GradReduce g)
{
    switch (g) {
    case GradReduce::Auto: return "auto";
    case GradReduce::Fp32: return "fp32";
    case GradReduce::Bf16: return "bf16";
    }
    return "?";
}

namespace {
// The slower of the transfers over stage c's boundaries to its neighbours (boundary b joins
// stages b and b + 1).
double criticalBoundarySeconds(int c, int p, int stagesPerNode, double intraSeconds, double interSeconds)
{
    double seconds = 0;
    for (const int b : {c - 1, c})
        if (b >= 0 && b + 1 < p)
            seconds = std::max(seconds, stageBoundaryLeavesNode(b, p, stagesPerNode) ? interSeconds : intraSeconds);
    return seconds;
}

// DeepSpeed's pipeline engine trains bf16 (and FP8 on bf16 weights) with its BF16_Optimizer, which
// keeps fp32 gradients ([DS], kernels.h deepSpeedBf16GradBytes).
bool runsDeepSpeedBf16Optimizer(Framework framework, Precision precision, int pipelineStages)
{
    return framework == Framework::DeepSpeed && pipelineStages > 1 && precision != Precision::Fp16
           && precision != Precision::Fp32;
}
} // namespace

double gradientReduceElementBytes(Framework framework, Precision precision, GradReduce gradReduce, int pipelineStages)
{
    if (precision == Precision::Fp32 || gradReduce == GradReduce::Fp32)
        return 4.0;
    if (gradReduce == GradReduce::Bf16)
        return 2.0;
    if (runsDeepSpeedBf16Optimizer(framework, precision, pipelineStages))
        return 4.0;   // PipelineEngine._bf16_reduce_grads: the BF16 optimizer's fp32 gradients
    if (framework == Framework::Megatron)   // forced for bf16 (and FP8 on bf16 weights), not for fp16
        return precision == Precision::Fp16 ? 2.0 : 4.0;
    return framework == Framework::Fsdp ? 4.0 : 2.0;
}

// DeepSpeed ZeRO-3's stage3_max_reuse_distance default (deepspeed/runtime/zero/config.py).
constexpr double kDeepSpeedReuseDistanceParams = 1e9;

// SMs NCCL's channels hold while a DP collective of group g runs (KernelDefaults::ncclChannelSms):
// all of a node's channels, but ncclChannelsPerNic per NIC of a rank when every hop of the ring
// leaves the node (one rank per node, as DP under TP 8 on 8-GPU nodes).
double dpChannelSms(const Group &g, const Fabric &f)
{
    const KernelDefaults &k = kernelDefaults();
    if (g.nodes() <= 1 || g.ranksPerNode > 1)
        return k.ncclChannelSms;
    const double nicsPerRank = std::max(1.0, double(f.nicsPerNode) / std::max(1, f.gpusPerNode));
    return std::min(k.ncclChannelSms, k.ncclChannelsPerNic * nicsPerRank);
}

double frameworkBucketBytes(const Plan &plan, Framework framework, double elementBytes, double layerParamsPerGpu)
{
    if (plan.bucketBytes >= 0)
        return plan.bucketBytes;
    switch (framework) {
    case Framework::DeepSpeed: return 5e8 * elementBytes;
    case Framework::Fsdp: return layerParamsPerGpu * elementBytes;
    case Framework::Auto:
    case Framework::Megatron: break;
    }
    return std::max(40e6, 1e6 * double(plan.dp) * plan.cp) * elementBytes;
}

Framework resolveFramework(const Plan &plan)
{
    if (plan.framework != Framework::Auto)
        return plan.framework;
    if (plan.zeroStage >= 3)
        return Framework::Fsdp;
    if (plan.zeroStage == 2)
        return plan.pp > 1 ? Framework::Fsdp : Framework::DeepSpeed;
    return Framework::Megatron;
}

bool frameworkRunsSchedule(Framework framework, Schedule schedule, int pp)
{
    if (pp <= 1)
        return true;
    switch (framework) {
    case Framework::Megatron: return schedule == Schedule::OneFOneB || schedule == Schedule::Interleaved;
    case Framework::DeepSpeed: return schedule == Schedule::OneFOneB;
    // PyTorch's torch.distributed.pipelining runs GPipe, 1F1B, interleaved, the zero-bubble
    // schedules and ScheduleDualPipeV (torchtitan's pipeline_parallel_schedule).
    case Framework::Fsdp:
    case Framework::Auto: return true;
    }
    return true;
}

bool frameworkRunsCpComm(Framework framework, CpComm cpComm, int cp)
{
    if (cp <= 1)
        return true;
    switch (framework) {
    case Framework::DeepSpeed: return cpComm == CpComm::A2a;
    case Framework::Fsdp: return cpComm == CpComm::P2p;
    case Framework::Megatron:
    case Framework::Auto: return true;
    }
    return true;
}

CpComm frameworkCpComm(Framework framework) { return framework == Framework::DeepSpeed ? CpComm::A2a : CpComm::P2p; }

const char *nameOf(Precision p)
{
    switch (p) {
    case Precision::Fp32: return "fp32";
    case Precision::Bf16: return "bf16";
    case Precision::Fp16: return "fp16";
    case Precision::Fp8: return "fp8";
    }
    return "?";
}
const char *nameOf(OptimizerStates o)
{
    return o == OptimizerStates::Bf16 ? "bf16" : o == OptimizerStates::Bf16Moments ? "bf16_moments" : "fp32";
}

const char *nameOf(CrossEntropy c)
{
    switch (c) {
    case CrossEntropy::Auto: return "auto";
    case CrossEntropy::Megatron: return "megatron";
    case CrossEntropy::PyTorch: return "pytorch";
    case CrossEntropy::Fused: return "fused";
    }
    return "auto";
}

const char *recomputeModuleName(unsigned flag)
{
    switch (flag) {
    case kRecomputeCoreAttn: return "core_attn";
    case kRecomputeMoeAct: return "moe_act";
    case kRecomputeLayerNorm: return "layernorm";
    case kRecomputeMlaUpProj: return "mla_up_proj";
    case kRecomputeMlp: return "mlp";
    case kRecomputeMoe: return "moe";
    case kRecomputeSharedExperts: return "shared_experts";
    default: return "";
    }
}

std::string recomputeModulesText(unsigned modules)
{
    std::string text;
    for (unsigned flag = 1; flag <= kRecomputeSharedExperts; flag <<= 1)
        if (modules & flag)
            text += (text.empty() ? "" : ", ") + std::string(recomputeModuleName(flag));
    return text.empty() ? "none" : text;
}

std::string recomputeText(const Training &tr)
{
    if (tr.recompute == Recompute::Full && tr.recomputeLayers > 0)
        return "block " + std::to_string(tr.recomputeLayers);
    if (tr.offloadLayers > 0)   // no recompute: the activations of the first N layers go to host memory
        return "offload " + std::to_string(tr.offloadLayers);
    return nameOf(tr.recompute);
}

const char *nameOf(NormKind n)
{
    switch (n) {
    case NormKind::Auto: return "auto";
    case NormKind::LayerNorm: return "layernorm";
    case NormKind::RmsNorm: return "rmsnorm";
    }
    return "?";
}

const char *nameOf(Kernels k)
{
    switch (k) {
    case Kernels::Auto: return "auto";
    case Kernels::Fused: return "fused";
    case Kernels::Eager: return "eager";
    }
    return "?";
}

const char *nameOf(Fp8Recipe r)
{
    switch (r) {
    case Fp8Recipe::Delayed: return "delayed";
    case Fp8Recipe::Tensorwise: return "tensorwise";
    case Fp8Recipe::Mxfp8: return "mxfp8";
    case Fp8Recipe::Blockwise: return "blockwise";
    case Fp8Recipe::Nvfp4: return "nvfp4";
    }
    return "?";
}

NormKind resolveNorm(const Workload &w)
{
    if (w.norm != NormKind::Auto)
        return w.norm;
    return w.mlp == MlpKind::SwiGlu ? NormKind::RmsNorm : NormKind::LayerNorm;
}

// PyTorch FSDP runs the model as written, op by op, and so does DeepSpeed without tensor or
// pipeline parallelism: its ZeRO users train Hugging Face Transformers models through the Trainer or
// Accelerate (eager ops unless the user adds Liger or torch.compile; S. Bekman's H200 ZeRO-2 Llama
// 3.1 8B: 9,094 tokens/s per GPU eager, 9,987 fused, 8,957 measured). Megatron-LM, and DeepSpeed
// with Megatron's tensor parallelism or its pipeline engine, which Megatron-DeepSpeed drives (BLOOM,
// MT-NLG), run Megatron's and Transformer Engine's fused kernels. FP8 under PyTorch FSDP is
// torchao's float8 (torchtitan, OLMo-core), which is run under torch.compile: it generates the
// fused float8 scaling and cast kernels, and torchao's speedups are those measured with it on
// (torchao/float8/README.md: "enable torch.compile to generate fused kernels for float8 scaling and
// casting"); compile fuses the model's other memory-bound ops too. Every torchtitan and OLMo-core
// FP8 run in the test data was compiled, and none of their BF16 runs without a stated compile was.
Kernels resolveKernels(Kernels given, Framework framework, int tensorParallel, int pipelineStages, Precision precision)
{
    if (given != Kernels::Auto)
        return given;
    const bool eager = (framework == Framework::Fsdp && precision != Precision::Fp8)
                       || (framework == Framework::DeepSpeed && tensorParallel <= 1 && pipelineStages <= 1);
    return eager ? Kernels::Eager : Kernels::Fused;
}

CrossEntropy resolveCrossEntropy(CrossEntropy given, Framework framework)
{
    if (given != CrossEntropy::Auto)
        return given;
    return framework == Framework::Megatron || framework == Framework::Auto ? CrossEntropy::Megatron : CrossEntropy::PyTorch;
}

const char *nameOf(Recompute r)
{
    switch (r) {
    case Recompute::None: return "none";
    case Recompute::Selective: return "selective";
    case Recompute::Full: return "full";
    }
    return "?";
}
const char *nameOf(Schedule s)
{
    switch (s) {
    case Schedule::GPipe: return "gpipe";
    case Schedule::OneFOneB: return "1f1b";
    case Schedule::Interleaved: return "interleaved";
    case Schedule::ZeroBubbleH1: return "zb-h1";
    case Schedule::DualPipeV: return "dualpipev";
    }
    return "?";
}
const char *nameOf(MlpKind m) { return m == MlpKind::SwiGlu ? "swiglu" : "gelu"; }
const char *nameOf(Transport t) { return t == Transport::Tcp ? "tcp" : "rdma"; }

const char *nameOf(IntraFabric f)
{
    switch (f) {
    case IntraFabric::Auto: return "auto";
    case IntraFabric::NvSwitch: return "nvswitch";
    case IntraFabric::Pcie: return "pcie";
    case IntraFabric::Mesh: return "mesh";
    }
    return "?";
}

const char *nameOf(ParallelDim d)
{
    switch (d) {
    case ParallelDim::Tp: return "tp";
    case ParallelDim::Cp: return "cp";
    case ParallelDim::Dp: return "dp";
    case ParallelDim::Pp: return "pp";
    }
    return "?";
}

namespace {
// Every dimension's rankStride() in one pass over the order, indexed by ParallelDim.
std::array<int, 4> rankStrides(const Plan &plan)
{
    // The degrees indexed by ParallelDim; a degree below 1 counts as 1.
    static_assert(int(ParallelDim::Tp) == 0 && int(ParallelDim::Cp) == 1 && int(ParallelDim::Dp) == 2 && int(ParallelDim::Pp) == 3);
    const std::array<long long, 4> degree{std::max(1, plan.tp), std::max(1, plan.cp), std::max(1, plan.dp), std::max(1, plan.pp)};
    // A dimension the order lacks (parseRankOrder admits none) sits outside all of them.
    std::array<int, 4> out{-1, -1, -1, -1};
    long long stride = 1;
    for (ParallelDim d : plan.rankOrder) {
        const size_t i = size_t(d);
        if (out[i] < 0)
            out[i] = int(std::min<long long>(stride, 1 << 30));
        stride *= degree[i];
    }
    for (int &x : out)
        if (x < 0)
            x = int(std::min<long long>(stride, 1 << 30));
    return out;
}

// The gradient group is dp x cp (both hold replicas of the same weights): contiguous when the two
// are neighbours in the rank order, at the stride of the inner one.
int dataParallelStride(const Plan &pl, const std::array<int, 4> &strides)
{
    const int dp = strides[size_t(ParallelDim::Dp)], cp = strides[size_t(ParallelDim::Cp)];
    if (pl.cp <= 1)
        return dp;
    if (cp * pl.cp == dp)
        return cp;   // cp directly inside dp
    return dp;       // dp inside cp, or apart: charged at dp's stride
}
} // namespace

int rankStride(const Plan &plan, ParallelDim dim)
{
    return rankStrides(plan)[size_t(dim)];
}

std::string rankOrderName(const Plan &plan)
{
    std::string out;
    for (ParallelDim d : plan.rankOrder) {
        if (!out.empty())
            out += '-';
        out += nameOf(d);
    }
    return out;
}

bool parseRankOrder(const std::string &text, std::array<ParallelDim, 4> *order)
{
    std::array<ParallelDim, 4> out{};
    bool seen[4] = {false, false, false, false};
    size_t pos = 0;
    for (int i = 0; i < 4; ++i) {
        const size_t end = text.find('-', pos);
        const std::string token = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        int idx = token == "tp" ? 0 : token == "cp" ? 1 : token == "dp" ? 2 : token == "pp" ? 3 : -1;
        if (idx < 0 || seen[idx])
            return false;
        seen[idx] = true;
        out[size_t(i)] = ParallelDim(idx);
        if (i < 3) {
            if (end == std::string::npos)
                return false;
            pos = end + 1;
        } else if (end != std::string::npos)
            return false;
    }
    *order = out;
    return true;
}

namespace {
// The rules plan.tp_overlap meets, checked as if it were on: validate() applies them when it is,
// and the tp_comm_exposed warning offers it as the fix only where they hold (a valid scenario with
// the overlap switched on fails no other rule: nothing else reads it).
// tpGroup: the TP group when the caller has placed it already (evaluate's warnings), else placed here.
std::optional<Problem> tpOverlapProblem(const Scenario &sc, const Group *tpGroup = nullptr)
{
    const Workload &w = sc.workload;
    const Training &tr = sc.training;
    const Cluster &cl = sc.cluster;
    const Plan &pl = sc.plan;
    if (pl.tp <= 1)
        return std::nullopt;
    // [MLA] Megatron-Core turns TP comm overlap off for the whole model when a TE linear has a
    // buffer other than qkv, proj, fc1, fc2 (transformer_engine.py TELinear: MLA's q_down_proj,
    // kv_up_proj, ... set config.tp_comm_overlap = False, a config every layer shares).
    if (isMla(w) && resolveFramework(pl) != Framework::Fsdp)
        return problem("plan.tp_overlap", "Megatron-Core runs no TP communication overlap with latent attention "
                                          "(Transformer Engine has no userbuffers for MLA's projections and the layer turns "
                                          "the overlap off for the whole model): turn tp_overlap off");
    // Transformer Engine's TP overlap (userbuffers) exchanges through NVLink peer memory: the TP
    // group must sit in one node (TE pytorch/module/base.py initialize_ub: intra-node only).
    if (cl.gpusPerNode > 0 && (tpGroup ? *tpGroup : groupOf(pl.tp, rankStride(pl, ParallelDim::Tp), cl)).nodes() > 1)
        return problem("plan.tp_overlap",
                       "TP overlap runs inside one node's NVLink; TP %g spans nodes of %g GPUs: turn tp_overlap off or "
                       "keep tp within a node", pl.tp, cl.gpusPerNode);
    // NVIDIA's NVFP4 recipes run without TE's userbuffers TP overlap: MLPerf Training v5.1
    // (NVIDIA llama31_405b config_common_fp4.sh: "TP overlap not supported yet") and
    // Megatron-Bridge's perf recipes (tp_comm_overlap = False in every *_nvfp4_config).
    if (tr.precision == Precision::Fp8 && tr.fp8Recipe == Fp8Recipe::Nvfp4)
        return problem("plan.tp_overlap",
                       "TP communication overlap does not run with NVFP4 (NVIDIA's MLPerf and Megatron-Bridge NVFP4 "
                       "recipes turn it off: TE's userbuffers overlap has no NVFP4 path yet); turn tp_overlap off");
    return std::nullopt;
}

} // namespace

struct KernelTimesReuse::Cache
{
    // Every input of layerTimes and headTimes besides the workload and GPU, which the cache holds.
    struct Key
    {
        double tokens;
        int tp, cp;
        CpComm cpComm;
        bool sp, eager;
        double wgradOutputBytes;
        Precision precision;
        Fp8Recipe recipe;
        Framework framework;
        CrossEntropy crossEntropy;
        int ep;
        bool fp8Attention;
        bool moeFusedMlp;
        bool operator==(const Key &) const = default;
    };
    Workload workload;
    Gpu gpu;
    std::vector<std::pair<Key, std::pair<LayerTimes, HeadTimes>>> entries;
    size_t last = 0;   // the entry met last: a search tries the variants of one shape in a row
    // The GPU's kernel spec for the last precision, recipe, framework and FP8 attention asked.
    struct SpecKey
    {
        Precision precision;
        Fp8Recipe recipe;
        Framework framework;
        bool fp8Attention;
        bool operator==(const SpecKey &) const = default;
    };
    std::optional<std::pair<SpecKey, KernelSpec>> spec;
    // The held workload and GPU passed their own checks (validateWorkload, validateGpu), and
    // the workload's counted shape.
    bool shapeChecked = false, gpuChecked = false;
    ShapeCounts counts;
};

namespace {
thread_local KernelTimesReuse::Cache *tKernelTimes = nullptr;

// This thread's kernel-times cache, emptied when the scenario's workload or GPU is not the one it
// holds (checked once an evaluation); null outside a KernelTimesReuse scope.
KernelTimesReuse::Cache *kernelCacheFor(const Scenario &sc)
{
    KernelTimesReuse::Cache *cache = tKernelTimes;
    if (cache && (!(cache->workload == sc.workload) || !(cache->gpu == sc.cluster.gpu))) {
        cache->workload = sc.workload;
        cache->gpu = sc.cluster.gpu;
        cache->entries.clear();
        cache->spec.reset();
        cache->shapeChecked = cache->gpuChecked = false;
    }
    return cache;
}

// The workload's own checks, and its shape counted (validateCounting, first).
std::optional<Problem> validateWorkload(const Workload &w, ShapeCounts &counts)
{
    if (w.layers < 1 || w.layers > 100000)
        return problem("workload.layers", "layers must be between 1 and 100000 (got %g)", w.layers);
    if (w.hidden < 1 || w.hidden > 1000000)
        return problem("workload.hidden", "hidden must be between 1 and 1000000 (got %g)", w.hidden);
    if (w.headDim < 0 || w.headDim > 65536)
        return problem("workload.head_dim", "head_dim must be between 1 and 65536, or 0 for hidden / heads (got %g)",
                       w.headDim);
    if (w.heads < 1 || w.heads > 1000000 || (w.headDim == 0 && w.hidden % w.heads != 0))
        return problem("workload.heads",
                       "heads must be between 1 and 1000000 and divide hidden %g, or give workload.head_dim (got %g)", w.hidden,
                       w.heads);
    if (w.kvHeads < 1 || w.heads % w.kvHeads != 0)
        return problem("workload.kv_heads", "kv_heads must be at least 1 and divide heads %g (got %g)", w.heads,
                       w.kvHeads);
    if (w.ffnHidden < 1 || w.ffnHidden > 10000000)
        return problem("workload.ffn_hidden", "ffn_hidden must be between 1 and 10000000 (got %g)", w.ffnHidden);
    if (w.experts < 0 || w.experts == 1 || w.experts > 100000)
        return problem("workload.experts", "experts must be 0 (a dense model) or between 2 and 100000 routed experts (got %g)",
                       w.experts);
    if (w.experts > 0 && (w.expertsPerToken < 1 || w.expertsPerToken > w.experts))
        return problem("workload.experts_per_token", "experts_per_token must be between 1 and the %g experts (got %g)",
                       w.experts, w.expertsPerToken);
    if (w.moeFfnHidden < 0 || w.moeFfnHidden > 10000000)
        return problem("workload.moe_ffn_hidden", "moe_ffn_hidden must be between 1 and 10000000, or 0 for ffn_hidden (got %g)",
                       w.moeFfnHidden);
    if (w.firstDenseLayers < 0 || (w.firstDenseLayers >= w.layers && w.firstDenseLayers > 0))
        return problem("workload.first_dense_layers", "first_dense_layers must be between 0 and %g, fewer than the layers, "
                       "so that some layers are MoE (got %g); set experts to 0 for a dense model",
                       w.layers - 1, w.firstDenseLayers);
    if (w.firstDenseLayers > 0 && w.experts == 0)
        return problem("workload.first_dense_layers", "first_dense_layers picks the dense layers of a mixture-of-experts "
                       "model: give workload.experts too, or set it to 0");
    // Group-limited routing as Megatron-Core checks it (transformer_config.py): equal groups of experts.
    if (w.moeRouterGroups < 0 || w.moeRouterGroups > 1000000)
        return problem("workload.moe_router_groups", "moe_router_groups must be 0 (no group-limited routing) or a divisor of "
                       "the experts (got %g)", w.moeRouterGroups);
    if (w.moeRouterGroups > 0 && (w.experts == 0 || w.experts % w.moeRouterGroups != 0))
        return problem("workload.moe_router_groups", "moe_router_groups (%g) must divide the %g routed experts into equal groups",
                       w.moeRouterGroups, w.experts);
    if (w.moeRouterGroups == 0 && w.moeRouterGroupTopk != 0)
        return problem("workload.moe_router_group_topk", "moe_router_group_topk (%g) picks among moe_router_groups: give "
                       "moe_router_groups too, or set it to 0", w.moeRouterGroupTopk);
    // (Above k, Megatron-Core scores each group by its top k / group_topk = 0 experts: every group
    // ties and every token picks the same ones.)
    if (w.moeRouterGroups > 0
        && (w.moeRouterGroupTopk < 1 || w.moeRouterGroupTopk > w.moeRouterGroups || w.moeRouterGroupTopk > w.expertsPerToken
            || double(w.moeRouterGroupTopk) * (w.experts / w.moeRouterGroups) < w.expertsPerToken))
        return problem("workload.moe_router_group_topk", "moe_router_group_topk must be between 1 and the %g groups, at most "
                       "the %g experts a token picks, and its groups must hold them (got %g)", w.moeRouterGroups,
                       w.expertsPerToken, w.moeRouterGroupTopk);
    if (w.sharedExpertFfn < 0 || w.sharedExpertFfn > 10000000)
        return problem("workload.moe_shared_ffn_hidden",
                       "moe_shared_ffn_hidden must be 0 (no shared experts) or between 1 and 10000000 (got %g)", w.sharedExpertFfn);
    if (w.sharedExpertFfn > 0 && w.experts == 0)
        return problem("workload.moe_shared_ffn_hidden", "shared experts belong to mixture-of-experts layers: give "
                       "workload.experts too, or set moe_shared_ffn_hidden to 0");
    if (w.kvLoraRank < 0 || w.kvLoraRank > 1000000)
        return problem("workload.kv_lora_rank", "kv_lora_rank must be 0 (no latent attention) or between 1 and 1000000 (got %g)",
                       w.kvLoraRank);
    if (w.qLoraRank < 0 || w.qLoraRank > 1000000)
        return problem("workload.q_lora_rank", "q_lora_rank must be 0 (queries projected from h) or between 1 and 1000000 (got %g)",
                       w.qLoraRank);
    if (w.ropeHeadDim < 0 || w.ropeHeadDim > 65536)
        return problem("workload.qk_rope_head_dim", "qk_rope_head_dim must be between 0 and 65536 (got %g)", w.ropeHeadDim);
    if (w.vHeadDim < 0 || w.vHeadDim > 65536)
        return problem("workload.v_head_dim", "v_head_dim must be between 0 (head_dim) and 65536 (got %g)", w.vHeadDim);
    if (w.kvLoraRank == 0 && (w.qLoraRank > 0 || w.ropeHeadDim > 0 || w.vHeadDim > 0))
        return problem(w.qLoraRank > 0 ? "workload.q_lora_rank" : w.ropeHeadDim > 0 ? "workload.qk_rope_head_dim" : "workload.v_head_dim",
                       "q_lora_rank, qk_rope_head_dim and v_head_dim shape multi-head latent attention: give "
                       "workload.kv_lora_rank too, or set them to 0");
    if (w.kvLoraRank > 0 && w.qkNorm)
        return problem("workload.qk_norm", "latent attention normalizes its Q and KV latents (counted with kv_lora_rank), "
                       "not each head: set qk_norm false");
    if (w.kvLoraRank > 0 && w.kvHeads != w.heads)
        return problem("workload.kv_heads", "latent attention (kv_lora_rank) gives every head its own key and value: "
                       "kv_heads must equal the %g heads (got %g)", w.heads, w.kvHeads);
    if (w.mtpLayers < 0 || w.mtpLayers > 16)
        return problem("workload.mtp_layers", "mtp_layers must be between 0 and 16 (got %g)", w.mtpLayers);
    if (!(w.ropeAttentionFactor >= 0.01 && w.ropeAttentionFactor <= 100))
        return problem("workload.rope_attention_factor",
                       "rope_attention_factor must be between 0.01 and 100: YaRN's attention factor, 1 for plain RoPE (got %g)",
                       w.ropeAttentionFactor);
    if (w.ropeAttentionFactor != 1.0 && w.learnedPositions)
        return problem("workload.rope_attention_factor", "rope_attention_factor scales rotary positions, and learned_positions "
                       "models have none: set rope_attention_factor 1 or learned_positions false");
    // expert_bias and glu_clamp shape the experts only: a dense model keeps them and ignores them.
    if (!(w.gluClamp >= 0 && w.gluClamp <= 1e6))
        return problem("workload.glu_clamp", "glu_clamp must be 0 (no clamp) or a positive bound up to 1e6 (got %g)", w.gluClamp);
    if (w.slidingWindow < 0 || w.slidingWindow > 100000000)
        return problem("workload.sliding_window",
                       "sliding_window must be 0 (full attention) or between 1 and 100000000 tokens (got %g)", w.slidingWindow);
    if (w.slidingWindow > 0 && !w.causal)
        return problem("workload.sliding_window", "sliding_window is a causal window (the tokens before each query): set "
                       "workload.causal true or sliding_window 0");
    if (w.fullAttentionEvery < 0 || w.fullAttentionEvery > 100000)
        return problem("workload.full_attention_every",
                       "full_attention_every must be 0 (every layer windowed) or between 1 and 100000 (got %g)",
                       w.fullAttentionEvery);
    if (w.fullAttentionEvery > 0 && w.slidingWindow == 0)
        return problem("workload.full_attention_every",
                       "full_attention_every picks the layers that keep full attention among windowed ones: give "
                       "workload.sliding_window too, or set it to 0");
    if (w.vocab < 1 || w.vocab > 100000000)
        return problem("workload.vocab", "vocab must be between 1 and 100000000 (got %g)", w.vocab);
    if (w.seqLen < 1 || w.seqLen > 100000000)
        return problem("workload.seq_len", "seq_len must be between 1 and 100000000 (got %g)", w.seqLen);
    counts = countShape(w);
    if (const double params = counts.totalParams; !(params <= kMaxParameters))
        return problem("workload.hidden", "the shape has %.3g parameters; at most %.0g are modelled", params,
                       kMaxParameters);
    return std::nullopt;
}

// The GPU's own checks (validateCounting, after the training and cluster sizes).
std::optional<Problem> validateGpu(const Gpu &gpu)
{
    if (!finitePositive(gpu.peakFlops16) || gpu.peakFlops16 > 1e18)
        return problem("cluster.gpu.peak_flops", "peak_flops must be positive and below 1e18 FLOP/s (got %g)",
                       gpu.peakFlops16);
    if (!finiteNonNegative(gpu.peakFlops8) || !finiteNonNegative(gpu.peakFlops32))
        return problem("cluster.gpu.peak_flops_fp8", "peak_flops_fp8 and peak_flops_fp32 must be >= 0 (0 = unknown)");
    if (!finiteNonNegative(gpu.peakFlops4) || gpu.peakFlops4 > 1e18)
        return problem("cluster.gpu.peak_flops_fp4", "peak_flops_fp4 must be >= 0 (0 = no FP4 tensor cores) and below 1e18 FLOP/s (got %g)",
                       gpu.peakFlops4);
    if (!finitePositive(gpu.memoryBytes) || gpu.memoryBytes > 1e15)
        return problem("cluster.gpu.memory", "memory must be positive and below 1 PB (got %g bytes)", gpu.memoryBytes);
    if (!finitePositive(gpu.memoryBytesPerSecond) || gpu.memoryBytesPerSecond > 1e15)
        return problem("cluster.gpu.memory_bandwidth", "memory_bandwidth must be positive (got %g B/s)",
                       gpu.memoryBytesPerSecond);
    if (gpu.smCount < 0 || gpu.smCount > 100000)
        return problem("cluster.gpu.sm_count", "sm_count must be between 0 (unknown) and 100000 (got %g)", gpu.smCount);
    if (gpu.gemmTileM < 0 || gpu.gemmTileM > 4096 || gpu.gemmTileN < 0 || gpu.gemmTileN > 4096
        || (gpu.gemmTileM > 0) != (gpu.gemmTileN > 0))
        return problem(gpu.gemmTileM < 0 || gpu.gemmTileM > 4096 ? "cluster.gpu.gemm_tile_m" : "cluster.gpu.gemm_tile_n",
                       "gemm_tile_m and gemm_tile_n are given together, each between 1 and 4096 elements (got %g x %g)",
                       gpu.gemmTileM, gpu.gemmTileN);
    if (gpu.fp8Copies < 0 || gpu.fp8Copies > 2)
        return problem("cluster.gpu.fp8_copies", "fp8_copies must be 0 (the default, 2), 1 (Blackwell: no transposed copy) "
                                                 "or 2 (Hopper: row-wise and transposed) (got %g)", gpu.fp8Copies);
    if (gpu.gemmTileSms < 0 || gpu.gemmTileSms > 64
        || (gpu.gemmTileSms > 0 && gpu.smCount > 0 && gpu.smCount % gpu.gemmTileSms != 0))
        return problem("cluster.gpu.gemm_tile_sms", "gemm_tile_sms must be 0 (one SM) or the SMs sharing a tile, up to 64 "
                                                    "and dividing sm_count (got %g with %g SMs)",
                       gpu.gemmTileSms, gpu.smCount);
    for (auto [value, key] : {std::pair{gpu.gemmEfficiency, "cluster.gpu.gemm_efficiency"},
                              std::pair{gpu.gemmEfficiencyFp8, "cluster.gpu.gemm_efficiency_fp8"},
                              std::pair{gpu.gemmEfficiencyFp8Fast, "cluster.gpu.gemm_efficiency_fp8_fast"},
                              std::pair{gpu.gemmEfficiencyFp4, "cluster.gpu.gemm_efficiency_fp4"},
                              std::pair{gpu.attentionEfficiency, "cluster.gpu.attention_efficiency"},
                              std::pair{gpu.attentionEfficiencyFa2, "cluster.gpu.attention_efficiency_fa2"},
                              std::pair{gpu.attentionEfficiencyFp8, "cluster.gpu.attention_efficiency_fp8"},
                              std::pair{gpu.attentionEfficiencyMxfp8, "cluster.gpu.attention_efficiency_mxfp8"},
                              std::pair{gpu.sustainedFraction, "cluster.gpu.sustained_fraction"}})
        if (!(value >= 0 && value <= 1))
            return problem(key, "a fraction in (0, 1], or 0 for the default (got %g)", value);
    if (!finiteNonNegative(gpu.attentionScoreDims) || gpu.attentionScoreDims > 4096)
        return problem("cluster.gpu.attention_score_dims", "attention_score_dims must be 0 (the default, Hopper's 56) or the "
                                                           "attention forward's softmax work in head-dim columns, up to 4096 (got %g)",
                       gpu.attentionScoreDims);
    if (!finiteNonNegative(gpu.hostMemoryBytes) || gpu.hostMemoryBytes > 1e15)
        return problem("cluster.gpu.host_memory", "host_memory must be 0 (the default, 250 GB) or the host memory per GPU, "
                                                  "below 1 PB (got %g B)", gpu.hostMemoryBytes);
    if (!finiteNonNegative(gpu.hostBytesPerSecond) || gpu.hostBytesPerSecond > 1e14)
        return problem("cluster.gpu.host_bandwidth", "host_bandwidth must be 0 (the default, PCIe Gen5) or a bandwidth "
                                                     "below 100 TB/s (got %g B/s)", gpu.hostBytesPerSecond);
    return std::nullopt;
}

// validate(), handing back the shape it counted so evaluate() does not count it again. Every
// check of the scenario, in the order the messages name their fields. A kernel-times
// cache (KernelTimesReuse) remembers that the workload and GPU it holds passed their own checks
// and the shape's counts, so a scope that varies the plan or batch does not redo them.
std::optional<Problem> validateCounting(const Scenario &sc, ShapeCounts &counts, KernelTimesReuse::Cache *cache = nullptr)
{
    const Workload &w = sc.workload;
    const Training &tr = sc.training;
    const Cluster &cl = sc.cluster;
    const Plan &pl = sc.plan;
    if (cache && cache->shapeChecked) {
        counts = cache->counts;
    } else {
        if (auto p = validateWorkload(w, counts))
            return p;
        if (cache) {
            cache->counts = counts;
            cache->shapeChecked = true;
        }
    }
    if (tr.globalBatch < 1 || tr.globalBatch > 1000000000LL)
        return problem("training.global_batch", "global_batch must be between 1 and 1e9 sequences (got %g)",
                       double(tr.globalBatch));
    if (tr.microBatch < 1 || tr.microBatch > tr.globalBatch)
        return problem("training.micro_batch", "micro_batch must be between 1 and global_batch %g (got %g)",
                       double(tr.globalBatch), tr.microBatch);
    if (!finitePositive(tr.tokens) || tr.tokens > 1e18)
        return problem("training.tokens", "tokens must be a positive number up to 1e18 (got %g)", tr.tokens);
    if (!finiteNonNegative(tr.computeSecondsOverride) || tr.computeSecondsOverride > 1e6)
        return problem("training.compute_time", "compute_time must be between 0 (computed) and 1e6 s (got %g)",
                       tr.computeSecondsOverride);
    if (cl.gpus < 1 || cl.gpus > 10000000)
        return problem("cluster.gpus", "gpus must be between 1 and 10000000 (got %g)", cl.gpus);
    if (cl.gpusPerNode < 1 || cl.gpusPerNode > 1024)
        return problem("cluster.gpus_per_node", "gpus_per_node must be between 1 and 1024 (got %g)", cl.gpusPerNode);
    if (cl.gpus > cl.gpusPerNode && cl.gpus % cl.gpusPerNode != 0)
        return problem("cluster.gpus", "gpus (%g) must be a multiple of gpus_per_node (%g)", cl.gpus, cl.gpusPerNode);
    if (!(cache && cache->gpuChecked)) {
        if (auto p = validateGpu(cl.gpu))
            return p;
        if (cache)
            cache->gpuChecked = true;
    }
    for (auto [link, key] : {std::pair{&cl.intraNode, "cluster.intra_node"}, std::pair{&cl.interNode, "cluster.inter_node"}}) {
        if (!finitePositive(link->bytesPerSecond) || link->bytesPerSecond > 1e15)
            return problem(std::string(key) + ".bandwidth", "bandwidth must be positive and below 1 PB/s (got %g B/s)",
                           link->bytesPerSecond);
        if (!finiteNonNegative(link->latencySeconds) || link->latencySeconds > 1)
            return problem(std::string(key) + ".latency", "latency must be between 0 and 1 s (got %g s)",
                           link->latencySeconds);
        if (!(link->efficiency > 0 && link->efficiency <= 1))
            return problem(std::string(key) + ".efficiency", "efficiency must be in (0, 1] (got %g)", link->efficiency);
    }
    if (cl.rails < 1 || cl.rails > 1024)
        return problem("cluster.rails", "rails must be between 1 and 1024 (got %g)", cl.rails);
    if (!(cl.oversubscription >= 1 && cl.oversubscription <= 1000))
        return problem("cluster.oversubscription", "oversubscription must be between 1 (non-blocking) and 1000 (got %g)",
                       cl.oversubscription);
    if (pl.tp < 1 || pl.pp < 1 || pl.dp < 1 || pl.cp < 1)
        return problem(pl.tp < 1 ? "plan.tp" : pl.pp < 1 ? "plan.pp" : pl.dp < 1 ? "plan.dp" : "plan.cp",
                       "parallel degrees must be at least 1");
    if ((long long)pl.tp * pl.pp * pl.dp * pl.cp != cl.gpus)
        return problem("plan.dp", "TP × PP × DP × CP = %g must equal the %g GPUs (DP would be %g)",
                       double((long long)pl.tp * pl.pp * pl.dp * pl.cp), cl.gpus,
                       double(cl.gpus) / (double(pl.tp) * pl.pp * pl.cp));
    if (w.heads % pl.tp != 0)
        return problem("plan.tp", "tp (%g) must divide the %g attention heads", pl.tp, w.heads);
    if (w.kvHeads % pl.tp != 0 && pl.tp % w.kvHeads != 0)
        return problem("plan.tp", "tp (%g) must divide kv_heads (%g) or be a multiple of it", pl.tp, w.kvHeads);
    if (int(pl.cpComm) < 0 || int(pl.cpComm) > int(CpComm::A2a))
        return problem("plan.cp_comm", "cp_comm must be p2p, allgather or a2a (got %g)", int(pl.cpComm));
    // Ulysses' all-to-alls hand each CP rank 1/cp of this TP rank's query and kv heads (TE
    // context_parallel.py asserts both divide).
    if (pl.cpComm == CpComm::A2a && pl.cp > 1) {
        const int headsPerTp = w.heads / pl.tp, kvHeadsPerTp = std::max(1, w.kvHeads / pl.tp);
        if (headsPerTp % pl.cp != 0 || kvHeadsPerTp % pl.cp != 0)
            return problem("plan.cp_comm", "cp_comm a2a gives each of the cp (%g) ranks a share of the heads: cp must divide "
                                           "the %g heads and %g kv heads per TP rank; use p2p or allgather, or a smaller cp",
                           pl.cp, headsPerTp, kvHeadsPerTp);
    }
    // Transformer Engine runs a sliding window under CP only with a2a or all-gather
    // (context_parallel.py: the K/V ring has no windowed mask).
    if (pl.cp > 1 && windowedLayersOf(w) > 0 && pl.cpComm == CpComm::P2p)
        return problem("plan.cp_comm", "a sliding window (workload.sliding_window) with cp %g needs cp_comm allgather or a2a; "
                                       "the p2p ring does not run windowed attention",
                       pl.cp);
    // A stage may hold only the embedding or the loss when they count as layer slots (DeepSpeed's
    // partition 'type:transformer|embedding' runs BLOOM-176B on PP72 with its 70 layers so).
    const int slots = w.layers + (pl.embeddingInSplit ? 1 : 0) + (pl.lossInSplit ? 1 : 0);
    if (pl.pp > slots)
        return problem("plan.pp", slots > w.layers ? "pp (%g) cannot exceed the %g layer slots (layers, embedding and loss)"
                                                   : "pp (%g) cannot exceed the %g layers",
                       pl.pp, slots);
    if (w.seqLen % pl.cp != 0)
        return problem("plan.cp", "cp (%g) must divide seq_len (%g)", pl.cp, w.seqLen);
    const long long perStep = (long long)tr.microBatch * pl.dp;
    if (tr.globalBatch % perStep != 0)
        return problem("training.global_batch", "global_batch (%g) must be a multiple of micro_batch x dp = %g",
                       double(tr.globalBatch), double(perStep));
    if (pl.zeroStage < 0 || pl.zeroStage > 3)
        return problem("plan.zero", "zero must be 0, 1, 2 or 3 (got %g)", pl.zeroStage);
    if (pl.virtualStages < 1 || pl.virtualStages > 1024)
        return problem("plan.virtual_stages", "virtual_stages must be between 1 and 1024 (got %g)", pl.virtualStages);
    const long long m = tr.globalBatch / perStep;
    if (pl.schedule == Schedule::Interleaved && pl.pp > 1 && m % pl.pp != 0)
        return problem("training.global_batch", "interleaved needs micro-batches (%g) to be a multiple of pp (%g)",
                       double(m), pl.pp);
    if (pl.firstStageLayers < 0 || pl.lastStageLayers < 0)
        return problem(pl.firstStageLayers < 0 ? "plan.first_stage_layers" : "plan.last_stage_layers",
                       "stage layer counts must be at least 0 (0 = even split)");
    if ((pl.firstStageLayers > 0 || pl.lastStageLayers > 0) && pl.pp < 2)
        return problem(pl.firstStageLayers > 0 ? "plan.first_stage_layers" : "plan.last_stage_layers",
                       "first/last stage layers need pp of at least 2 (got pp %g)", pl.pp);
    if (pl.firstStageLayers + pl.lastStageLayers > w.layers)
        return problem(pl.firstStageLayers > w.layers ? "plan.first_stage_layers" : "plan.last_stage_layers",
                       "first_stage_layers + last_stage_layers = %g exceeds the %g layers",
                       double(pl.firstStageLayers + pl.lastStageLayers), w.layers);
    // An even split of at least pp layers gives every stage one and adds up: only a set first or
    // last stage, or embedding and loss counted as slots, can leave a stage empty.
    // DualPipeV (deepseek-ai/DualPipe dualpipev.py): pp ranks hold 2 pp stages in a V, and its
    // order needs at least two micro-batches per stage on the way down (num_chunks >= 2 ranks).
    const bool vShape = pl.schedule == Schedule::DualPipeV && pl.pp > 1;
    Plan split = pl;
    if (vShape) {
        split.pp = 2 * pl.pp;
        if (split.pp > slots)
            return problem("plan.pp", "DualPipeV splits the model into 2 x pp = %g stages: pp can be at most half the %g "
                                      "layer slots", double(split.pp), double(slots));
        if (m < 2LL * pl.pp)
            return problem("training.global_batch", "DualPipeV needs at least 2 x pp = %g micro-batches (got %g): raise "
                                                    "global_batch or lower micro_batch",
                           double(2 * pl.pp), double(m));
    }
    if (split.pp > 1 && (pl.firstStageLayers > 0 || pl.lastStageLayers > 0 || pl.embeddingInSplit || pl.lossInSplit)) {
        const std::vector<int> layersOf = stageLayerCounts(w.layers, split);
        int sum = 0;
        for (int i = 0; i < split.pp; ++i) {
            sum += layersOf[size_t(i)];
            const bool slot = (i == 0 && pl.embeddingInSplit) || (i == split.pp - 1 && pl.lossInSplit);
            if (layersOf[size_t(i)] < (slot ? 0 : 1))
                return problem(pl.firstStageLayers + pl.lastStageLayers > 0 ? "plan.first_stage_layers" : "plan.pp",
                               "pipeline stage %g would hold no layer (%g layers over %g stages with this split)", i + 1,
                               w.layers, double(split.pp));
        }
        if (sum != w.layers)
            return problem(pl.lastStageLayers > 0 ? "plan.last_stage_layers" : "plan.first_stage_layers",
                           "with pp = 2 the first and last stage layers must add up to the %g layers (got %g)", w.layers,
                           double(sum));
    }
    if (tr.precision == Precision::Fp8 && tr.fp8Recipe == Fp8Recipe::Nvfp4 && !(cl.gpu.peakFlops4 > 0))
        return problem("training.fp8_recipe",
                       "nvfp4 needs FP4 tensor cores (Blackwell: B200, GB200, B300, GB300; cluster.gpu.peak_flops_fp4), "
                       "which this GPU lacks: use an FP8 recipe (tensorwise, delayed, mxfp8 or blockwise)");
    if (tr.precision == Precision::Fp8 && tr.fp8Recipe != Fp8Recipe::Nvfp4 && !(cl.gpu.peakFlops8 > 0))   // NVFP4 reads no FP8 peak
        return problem("training.precision",
                       "fp8 needs a GPU with FP8 tensor cores; this GPU has no FP8 peak (cluster.gpu.peak_flops_fp8); "
                       "use bf16, or an H100, H200, B200 or MI300X");
    // After the GPU's own FP8/FP4 checks: a recipe the GPU cannot run is the first thing to fix.
    if (pl.tpOverlap)
        if (auto p = tpOverlapProblem(sc))
            return p;
    if (tr.precision == Precision::Fp8 && tr.fp8Recipe == Fp8Recipe::Mxfp8 && !cl.gpu.mxfp8)
        return problem("training.fp8_recipe",
                       "mxfp8 needs block-scaled FP8 tensor cores (Blackwell: B200, GB200; cluster.gpu.mxfp8), which "
                       "this GPU lacks: use tensorwise, delayed or blockwise");
    if (tr.recomputeLayers < 0 || tr.recomputeLayers > 1000000)
        return problem("training.recompute_layers",
                       "recompute_layers must be 0 (every layer) or the layers recomputed per model chunk, up to 1000000 (got %g)",
                       tr.recomputeLayers);
    if (tr.recomputeLayers > 0 && tr.recompute != Recompute::Full)
        return problem("training.recompute_layers",
                       "recompute_layers (%g) counts fully recomputed layers: set training.recompute to full, or "
                       "recompute_layers to 0", tr.recomputeLayers);
    if (tr.recomputeModules & ~unsigned(kRecomputeAllModules))
        return problem("training.recompute_modules", "recompute_modules takes core_attn, moe_act, layernorm, mla_up_proj, mlp, "
                                                     "moe and shared_experts");
    // Megatron-Core's transformer_config.py raises on mla_up_proj without latent attention.
    if ((tr.recomputeModules & kRecomputeMlaUpProj) && !isMla(w) && tr.recompute == Recompute::Selective
        && resolveFramework(pl) == Framework::Megatron)
        return problem("training.recompute_modules", "mla_up_proj recomputes latent attention's up projections: this model "
                                                     "has none (workload.kv_lora_rank 0); take it out of recompute_modules");
    // Like Megatron-Core, which reads recompute_modules only under selective granularity, the list is
    // inert under recompute none or full and outside Megatron (the plan search switches both).
    if (tr.fp8Params && tr.precision != Precision::Fp8)
        return problem("training.fp8_params", "fp8_params keeps the GEMM weights in FP8: it needs training.precision fp8");
    if (tr.fp8Params && tr.fp8Recipe == Fp8Recipe::Nvfp4)
        return problem("training.fp8_params",
                       "fp8_params with fp8_recipe nvfp4: NVFP4 weights kept and gathered in 4 bits (Megatron "
                       "--fp4-param-gather) are not modelled; turn fp8_params off");
    // FlashAttention's Triton kernel (flash_attn_triton.py) has no local (windowed) masking and takes
    // head dims up to 128 ("FlashAttention only support head dimensions up to 128").
    if (w.attention == Attention::Triton && w.slidingWindow > 0)
        return problem("workload.attention", "attention triton (FlashAttention's Triton kernel) has no sliding window: use "
                                             "flash or flash2 with workload.sliding_window, or set sliding_window 0");
    if (w.attention == Attention::Triton && std::max(qkHeadDimOf(w), vHeadDimOf(w)) > 128)
        return problem("workload.attention",
                       "attention triton (FlashAttention's Triton kernel) takes head dims up to 128 (got %g): use flash or flash2",
                       std::max(qkHeadDimOf(w), vHeadDimOf(w)));
    // FP8 attention is Transformer Engine's fused attention on FP8 Q, K, V (cuDNN), under an FP8 recipe.
    if (tr.fp8Attention && tr.precision != Precision::Fp8)
        return problem("training.fp8_attention", "fp8_attention runs the fused attention on FP8 inputs under an FP8 recipe: "
                                                 "it needs training.precision fp8");
    if (tr.fp8Attention && w.attention != Attention::Flash)
        return problem("training.fp8_attention", (std::string("fp8_attention is Transformer Engine's fused (cuDNN) attention: it "
                                                             "needs workload.attention flash (got ")
                                                 + nameOf(w.attention) + ")")
                                                    .c_str());
    // Transformer Engine's fused attention turns itself off under block scaling
    // (dot_product_attention/utils.py get_attention_backend: float8_block_scaling).
    if (tr.fp8Attention && tr.fp8Recipe == Fp8Recipe::Blockwise)
        return problem("training.fp8_attention", "fp8_attention has no block-scaled (blockwise) kernel in Transformer Engine: "
                                                 "use fp8_recipe tensorwise, delayed or mxfp8, or turn fp8_attention off");
    if (tr.fp8Attention) {   // precision fp8 from here (checked above)
        const bool mx = tr.fp8Recipe == Fp8Recipe::Mxfp8;
        if (!((mx ? cl.gpu.attentionEfficiencyMxfp8 : cl.gpu.attentionEfficiencyFp8) > 0))
            return problem(mx ? "cluster.gpu.attention_efficiency_mxfp8" : "cluster.gpu.attention_efficiency_fp8",
                           "fp8_attention needs this GPU's measured FP8 fused-attention efficiency for the recipe (the "
                           "H100, H200, B200, GB200, B300 and GB300 presets carry it): give it or turn "
                           "training.fp8_attention off");
        if (!(cl.gpu.peakFlops8 > 0))   // NVFP4 recipes need only the FP4 peak; FP8 attention runs at FP8's
            return problem("cluster.gpu.peak_flops_fp8", "fp8_attention runs the attention at the GPU's FP8 tensor rate: give "
                                                         "peak_flops_fp8 or turn training.fp8_attention off");
    }
    const Framework fw = resolveFramework(pl);
    // Mixture of experts as Megatron-Core runs it (transformer_config.py, parallel_state.py):
    // experts over ep ranks of the stage's tp x cp x dp (expert tensor parallelism 1), sequence
    // parallelism with TP, its distributed optimizer. Only Megatron is modelled with MoE.
    if (pl.ep < 1 || pl.ep > 65536)
        return problem("plan.ep", "ep must be between 1 and 65536 (got %g)", pl.ep);
    if (pl.ep > 1 && w.experts == 0)
        return problem("plan.ep", "ep (%g) splits the experts of a mixture-of-experts model: set workload.experts, or ep 1",
                       pl.ep);
    if (w.experts > 0) {
        if (w.experts % pl.ep != 0)
            return problem("plan.ep", "ep (%g) must divide the %g experts", pl.ep, w.experts);
        const long long stageRanks = (long long)pl.tp * pl.cp * pl.dp;
        if (stageRanks % pl.ep != 0)
            return problem("plan.ep", "ep (%g) must divide tp x cp x dp = %g, the ranks of a stage the experts spread over",
                           pl.ep, double(stageRanks));
        if (fw != Framework::Megatron || pl.zeroStage > 1)
            return problem(fw != Framework::Megatron ? "plan.framework" : "plan.zero",
                           "mixture-of-experts layers are modelled as Megatron-Core runs them: plan.framework megatron "
                           "with zero 0 or 1 (its distributed optimizer)");
        if (pl.rankOrder[3] != ParallelDim::Pp)
            return problem("plan.rank_order", "mixture-of-experts layers are modelled with the pipeline outermost (tp-cp-dp-pp, "
                                              "Megatron's order), where each stage's experts spread over its own ranks");
        // Megatron-Core's checks for --overlap-moe-expert-parallel-comm (transformer_config.py).
        if (pl.epOverlap && pl.ep > 1 && tr.recompute == Recompute::Full)
            return problem("plan.ep_overlap", "the overlapped expert all-to-alls run without full recompute: turn ep_overlap "
                                              "off or use selective or no recompute");
        if (pl.epOverlap && pl.ep > 1 && pl.pp > 1 && pl.schedule != Schedule::Interleaved && pl.schedule != Schedule::DualPipeV)
            return problem("plan.ep_overlap", "with pipeline stages the overlapped expert all-to-alls need the interleaved "
                                              "schedule or DualPipeV's overlapped pairs (pp %g): set schedule interleaved or "
                                              "dualpipev, or turn ep_overlap off", pl.pp);
        if (pl.shardGroup > 0)
            return problem("plan.shard_group", "a shard group (hybrid sharding) is not modelled with mixture-of-experts layers: "
                                               "set shard_group 0");
        if (pl.tp > 1 && !pl.sequenceParallel)
            return problem("plan.sequence_parallel",
                           "Megatron-Core runs mixture-of-experts layers with tensor parallelism only under sequence "
                           "parallelism (tp %g): set sequence_parallel", pl.tp);
    }
    // Megatron-Core's own checks (transformer_config.py): fewer layers than the model, no
    // pipeline, no recompute; the offload is Transformer Engine's, which Megatron runs.
    if (tr.offloadLayers != 0) {
        if (tr.offloadLayers < 0 || tr.offloadLayers >= w.layers)
            return problem("training.offload_layers",
                           "offload_layers must be 0 (none) or the first layers whose activations go to host memory, "
                           "fewer than the model's %g layers (got %g)", w.layers, tr.offloadLayers);
        if (fw != Framework::Megatron)
            return problem("training.offload_layers",
                           (std::string("activation offloading is Megatron-Core's --cpu-offloading (Transformer Engine): "
                                        "it needs plan.framework megatron (got ")
                            + nameOf(fw) + ")")
                               .c_str());
        if (pl.pp > 1)
            return problem("training.offload_layers",
                           "Megatron-Core offloads activations without pipeline parallelism (got pp %g): use pp 1 or "
                           "offload_layers 0", pl.pp);
        if (tr.recompute != Recompute::None)
            return problem("training.offload_layers",
                           (std::string("Megatron-Core offloads activations only without recompute (got ")
                            + nameOf(tr.recompute) + "): set training.recompute to none or offload_layers to 0")
                               .c_str());
    }
    if (tr.fp8Attention && fw == Framework::Fsdp)
        return problem("training.fp8_attention", "fp8_attention is Transformer Engine's FP8 attention (Megatron, NeMo); PyTorch "
                                                 "FSDP's FP8 here is torchao's, whose attention stays 16-bit: turn it off or "
                                                 "set plan.framework megatron");
    if (tr.fp8Params && fw == Framework::DeepSpeed)
        return problem("training.fp8_params", "DeepSpeed keeps 16-bit weights: fp8_params needs plan.framework megatron or "
                                              "fsdp");
    // NVFP4 is modelled as Transformer Engine's recipe; PyTorch FSDP's low-precision training is
    // torchao's, whose casts the model charges for FP8 only.
    if (tr.precision == Precision::Fp8 && tr.fp8Recipe == Fp8Recipe::Nvfp4 && fw == Framework::Fsdp)
        return problem("plan.framework", "fp8_recipe nvfp4 is Transformer Engine's NVFP4 recipe, modelled under Megatron "
                                         "(or DeepSpeed with TE), not PyTorch FSDP's torchao casts: set plan.framework megatron");
    if (fw == Framework::Megatron && pl.zeroStage == 2)
        return problem("plan.zero", "Megatron-LM runs its distributed optimizer (zero 1) or Megatron-FSDP (zero 3); zero 2 "
                                    "needs plan.framework deepspeed or fsdp");
    if (fw == Framework::Megatron && pl.zeroStage >= 3 && pl.pp > 1)
        return problem("plan.zero", "Megatron-FSDP (zero 3 under megatron) runs without pipeline stages (got pp %g): use "
                                    "zero 1 with pp, or pp 1", pl.pp);
    if (fw == Framework::DeepSpeed && pl.pp > 1 && pl.zeroStage >= 2)
        return problem("plan.zero", "DeepSpeed's pipeline engine runs ZeRO stage 0 or 1 only (got zero %g with pp %g)",
                       pl.zeroStage, pl.pp);
    if (fw == Framework::Fsdp && pl.zeroStage == 1)
        return problem("plan.zero", "FSDP shards gradients with the optimizer: zero 0 (NO_SHARD), 2 (SHARD_GRAD_OP) or 3 "
                                    "(FULL_SHARD) (got 1)");
    if (pl.fsdpVersion != 1 && pl.fsdpVersion != 2)
        return problem("plan.fsdp_version", "fsdp_version must be 1 (FullyShardedDataParallel) or 2 (fully_shard) "
                                            "(got %g)", pl.fsdpVersion);
    if (pl.shardGroup < 0 || (pl.shardGroup > 0 && (pl.dp * pl.cp) % pl.shardGroup != 0))
        return problem("plan.shard_group", "shard_group must be 0 (all of dp x cp = %g) or divide it (got %g)",
                       double(pl.dp * pl.cp), pl.shardGroup);
    if (pl.shardGroup > 0 && pl.zeroStage == 0)
        return problem("plan.shard_group", "shard_group needs a sharded plan (zero 1, 2 or 3)");
    if (pl.bucketBytes != kFrameworkBucket && (!finiteNonNegative(pl.bucketBytes) || pl.bucketBytes > 1e13))
        return problem("plan.bucket", "bucket must be \"auto\" (the framework's default), 0 (one bucket) or up to 10 TB "
                                      "(got %g bytes)", pl.bucketBytes);
    if (!(pl.compression >= 1 && pl.compression <= 1000))
        return problem("plan.compression", "compression must be a ratio between 1 and 1000 (got %g)", pl.compression);
    if (!(pl.jitter >= 0 && pl.jitter <= 1))
        return problem("plan.jitter", "jitter must be a fraction between 0 and 1 (got %g)", pl.jitter);
    if (pl.localSgdInterval < 1 || pl.localSgdInterval > 1000000)
        return problem("plan.local_sgd", "local_sgd must be an interval of at least 1 step (got %g)", pl.localSgdInterval);
    // Cost, power and failure inputs are inputs like any other: out of range is an error.
    if (auto p = validateOperations(sc))
        return p;
    return std::nullopt;
}
} // namespace

std::optional<Problem> validate(const Scenario &sc)
{
    ShapeCounts counts;
    return validateCounting(sc, counts);
}

namespace {
Evaluation evaluateImpl(const Scenario &sc, bool withWarnings);
} // namespace

Evaluation evaluate(const Scenario &sc) { return evaluateImpl(sc, true); }


// A scope inside another (a sweep inside an analysis) keeps the outer one's times.
KernelTimesReuse::KernelTimesReuse() : m_cache(tKernelTimes ? nullptr : new Cache)
{
    if (m_cache)
        tKernelTimes = m_cache;
}
KernelTimesReuse::~KernelTimesReuse()
{
    if (m_cache) {
        tKernelTimes = nullptr;
        delete m_cache;
    }
}

namespace {

// kernelSpec(), from the cache when it holds the GPU's spec for these settings.
KernelSpec kernelSpecOf(KernelTimesReuse::Cache *cache, const Scenario &sc, Framework fw)
{
    const Training &tr = sc.training;
    if (!cache)
        return kernelSpec(sc.cluster.gpu, tr.precision, tr.fp8Recipe, fw, tr.fp8Attention);
    const KernelTimesReuse::Cache::SpecKey key{tr.precision, tr.fp8Recipe, fw, tr.fp8Attention};
    if (!cache->spec || !(cache->spec->first == key))
        cache->spec.emplace(key, kernelSpec(sc.cluster.gpu, tr.precision, tr.fp8Recipe, fw, tr.fp8Attention));
    return cache->spec->second;
}

// The layer's and the LM head's kernel times, from the cache when it holds them (a copy: an
// evaluation's fix candidates may grow the cache while it runs).
std::pair<LayerTimes, HeadTimes> kernelTimesOf(KernelTimesReuse::Cache *cache, const Scenario &sc, Framework fw,
                                               CrossEntropy crossEntropy, double tokens, const KernelSpec &spec,
                                               double wgradOutputBytes, bool eager, const LossTraffic &loss)
{
    const Workload &w = sc.workload;
    const Training &tr = sc.training;
    const int t = sc.plan.tp, c = sc.plan.cp;
    const bool sp = sc.plan.sequenceParallel;
    const auto compute = [&] {
        return std::pair{layerTimes(w, tr.precision, tokens, t, c, sp, spec, wgradOutputBytes, eager, sc.plan.cpComm, sc.plan.ep,
                                    fw != Framework::Fsdp, fw == Framework::Megatron, runsMoeFusedMlp(tr)),
                         headTimes(w, tokens, t, spec, loss, wgradOutputBytes)};
    };
    if (!cache)
        return compute();
    const KernelTimesReuse::Cache::Key key{tokens, t, c, sc.plan.cpComm, sp, eager, wgradOutputBytes, tr.precision, tr.fp8Recipe, fw, crossEntropy, sc.plan.ep,
                                           spec.fp8Attention, runsMoeFusedMlp(tr)};
    if (cache->last < cache->entries.size() && cache->entries[cache->last].first == key)
        return cache->entries[cache->last].second;
    for (size_t i = 0; i < cache->entries.size(); ++i)
        if (cache->entries[i].first == key) {
            cache->last = i;
            return cache->entries[i].second;
        }
    cache->last = cache->entries.size();
    cache->entries.emplace_back(key, compute());
    return cache->entries.back().second;
}
} // namespace

Evaluation evaluateForSearch(const Scenario &sc) { return evaluateImpl(sc, false); }

Evaluation evaluateCandidate(const Scenario &sc)
{
    struct Quiet
    {
        Quiet() { tMessages = false; }
        ~Quiet() { tMessages = true; }
    } quiet;
    return evaluateImpl(sc, false);
}

namespace {
Evaluation evaluateImpl(const Scenario &sc, bool withWarnings)
{
    Evaluation e;
    KernelTimesReuse::Cache *const kernelCache = kernelCacheFor(sc);
    ShapeCounts counts;   // the model's shape, counted once while validating
    if (auto p = validateCounting(sc, counts, kernelCache)) {
        e.problem = std::move(*p);
        return e;
    }
    const Workload &w = sc.workload;
    const Training &tr = sc.training;
    const Cluster &cl = sc.cluster;
    const Plan &pl = sc.plan;
    const int t = pl.tp, p = pl.pp, d = pl.dp, c = pl.cp;
    // DualPipeV: two chunks a rank, the V's down and up stages.
    const int v = chunksPerStage(pl);
    const bool vShape = pl.schedule == Schedule::DualPipeV && p > 1;
    const int N = cl.gpus;
    const int b = tr.microBatch;
    const long long m = tr.globalBatch / ((long long)b * d);
    const bool sp = pl.sequenceParallel && t > 1;
    const double h = w.hidden, s = w.seqLen;
    const Fabric fabric = fabricOf(cl);
    // Groups placed by plan.rank_order (Megatron's tp-cp-dp-pp by default): a group's neighbours
    // are rankStride() global ranks apart, so each group knows how many of its ranks share a node.
    const std::array<int, 4> strides = rankStrides(pl);
    const Group tpGroup = groupOf(t, strides[size_t(ParallelDim::Tp)], cl);
    const Group cpGroup = groupOf(c, strides[size_t(ParallelDim::Cp)], cl);
    const int dpStride = dataParallelStride(pl, strides);
    // The pipeline's stages, rankStride(Pp) ranks apart: which of its boundaries leave the node.
    const Group ppGroup = groupOf(p, strides[size_t(ParallelDim::Pp)], cl);
    e.microBatches = m;
    e.parameters = counts.totalParams;
    e.activeParameters = counts.activeParams;

    const Framework fw = resolveFramework(pl);
    e.framework = fw;
    e.flopsApplicable = tr.computeSecondsOverride <= 0;

    // ---- Compute: every GEMM, the attention kernel and the memory-bound kernels of a layer on
    // one GPU for one micro-batch (kernels.cpp) ----
    const double tokensPerGpu = double(b) * s / c;               // tokens of one micro-batch on one GPU
    const KernelSpec spec = kernelSpecOf(kernelCache, sc, fw);
    const double peakMatrix = spec.peakFlops;
    e.peakFlopsPerGpu = peakMatrix;
    // Megatron-LM accumulates weight gradients into fp32 main gradients inside the GEMM.
    const double wgradOutputBytes = fw == Framework::Megatron && tr.precision != Precision::Fp32 ? 8.0 : 2.0;
    e.kernels = resolveKernels(tr.kernels, fw, pl.tp, pl.pp, tr.precision);
    // Megatron's selective recompute reads recompute_modules; DeepSpeed's (Megatron-DeepSpeed) replays
    // the core attention, torchtitan's is op-level (below).
    const unsigned recomputeModules = fw == Framework::Megatron ? tr.recomputeModules : unsigned(kRecomputeCoreAttn);
    const CrossEntropy crossEntropy = resolveCrossEntropy(tr.crossEntropy, fw);
    const LossTraffic lossTraffic = lossTrafficOf(crossEntropy);
    const auto [lt, head] = kernelTimesOf(kernelCache, sc, fw, crossEntropy, tokensPerGpu, spec, wgradOutputBytes,
                                          e.kernels == Kernels::Eager, lossTraffic);
    e.kernelEfficiency = counts.layerMatrixFlopsPerToken * tokensPerGpu / t / (lt.gemmForward * peakMatrix);
    e.layerGemmSeconds = lt.gemmForward + lt.gemmBackwardData + lt.gemmBackwardWeight;
    e.layerAttentionSeconds = lt.attentionForward + lt.attentionBackward;
    e.layerElementwiseSeconds = lt.elementwiseForward + lt.elementwiseBackward + lt.castForward + lt.castBackward;
    // Extra forward work during backward, by recompute policy. Megatron's block method recomputes
    // the first recompute_layers layers of every model chunk and keeps the others' activations
    // (transformer_block.py _checkpointed_forward, recompute_method "block"): a share of the layers.
    const double layersPerChunk = double(w.layers) / (double(p) * v);
    const double recomputedShare = tr.recompute == Recompute::Full && tr.recomputeLayers > 0
                                       ? std::min(1.0, tr.recomputeLayers / layersPerChunk)
                                       : 1.0;
    e.recomputedLayerShare = tr.recompute == Recompute::None ? 0.0 : recomputedShare;
    double layerRecompute = 0;
    if (tr.recompute == Recompute::Full)
        layerRecompute = recomputedShare * lt.forward();
    else if (tr.recompute == Recompute::Selective)
        layerRecompute = fw == Framework::Fsdp ? 0.5 * lt.gemmForward + lt.elementwiseForward + lt.castForward   // [SAC]
                                               : lt.recomputeSeconds(recomputeModules);   // Megatron's modules (core attention)
    // Megatron-Core TP comm overlap runs the reduce-scatter on SMs beside its GEMM (kernels.h). Under
    // torchtitan's AsyncTP no backward GEMM is paired with a reduce-scatter (the input gradients'
    // scatters run in the open, below), so its backward GEMMs keep every SM.
    const double overlapSlowdown = pl.tpOverlap && t > 1 ? tpOverlapSlowdown(spec) : 0.0;
    const bool asyncTp = fw == Framework::Fsdp && sp && pl.tpOverlap && t > 1;   // torchtitan's AsyncTP
    const double backwardOverlapSlowdown = asyncTp ? 0.0 : overlapSlowdown;
    // [MoE] A mixture-of-experts layer's MLP has no TP collectives (its tokens stay this rank's SP
    // shard and go to the experts by all-to-all, below): only the attention block pairs GEMMs with them.
    // Dense layers of a MoE model, and shared experts (a TP-parallel MLP, Megatron-Core
    // SharedExpertMLP), bring their MLP's collectives back: per mean layer, mlpBlock of them.
    const bool moe = isMoe(w);
    const double moeShare = moeLayerShare(w);
    const double mlpBlock = moe ? (1 - moeShare) + (w.sharedExpertFfn > 0 ? moeShare : 0.0) : 1.0;
    using LG = LayerTimes;
    // (LayerTimes::tp*Of: the GEMMs a collective is pipelined with, per block; routed experts and
    // MLA's replicated down projections have none.)
    const double rsForwardGemms = lt.tpForwardOf[LG::kAttentionOut] + mlpBlock * lt.tpForwardOf[LG::kMlpDown];
    const double bulkBackwardGemms = moe || isMla(w) ? 0.5 * (lt.tpBackwardDataOf[LG::kQkv] + lt.tpBackwardDataOf[LG::kAttentionOut])
                                                           + mlpBlock * 0.5 * (lt.tpBackwardDataOf[LG::kMlpUp] + lt.tpBackwardDataOf[LG::kMlpDown])
                                                     : 0.5 * lt.gemmBackwardData;
    const double layerForward = lt.forward() + rsForwardGemms * overlapSlowdown;
    const double layerBackward = lt.backward() + bulkBackwardGemms * backwardOverlapSlowdown + layerRecompute;

    // ---- Tensor parallel [SC21] Sec. 3.2: forward, 2 all-reduces of b s h per layer (with SP an
    // all-gather before QKV and up and a reduce-scatter after output and down: the same volume).
    // Backward as Megatron-Core and TransformerEngine run it (Megatron-Core tensor_parallel/
    // layers.py LinearWithGradAccumulationAndAsyncCommunication; TE module/linear.py and
    // layernorm_linear.py, "Overlap dgrad-RS/AR with wgrad"): each column-parallel GEMM (QKV, up)
    // all-reduces its input gradient asynchronously behind its weight-gradient GEMM; with SP it
    // re-gathers its input (Megatron keeps the shard) behind its input-gradient GEMM and
    // reduce-scatters the input gradient behind the weight gradient, while the row-parallel GEMMs'
    // output gradients are all-gathered in the open. DeepSpeed runs Megatron's layers. torchtitan's
    // DTensor TP keeps the gathered input and overlaps nothing (AsyncTP is plan.tp_overlap). ----
    const double actBytes = activationElementBytes(tr.precision);
    double tpLayerFwd = 0, tpLayerBwd = 0, tpLayerFwdExposed = 0, tpLayerBwdExposed = 0;
    if (t > 1) {
        e.tpBytesPerCollective = double(b) * (s / c) * h * actBytes;
        const CollectiveTime ct = collectiveTime(Collective::AllReduce, Algorithm::Auto, e.tpBytesPerCollective,
                                                 tpGroup, fabric);
        e.tpAlgorithm = ct.algorithm;
        e.tpProtocol = ct.protocol;
        e.tpCollectiveSeconds = ct.seconds;
        e.tpPipelineFillSeconds = ct.pipelineFillSeconds;
        // With SP a layer gathers and scatters instead: NCCL runs those as rings (NVLS, whose switches
        // reduce and multicast, shortens only the all-reduce), each (t-1)/t of S per GPU over NVLink
        // (NCCL tuning.cc: only the all-reduce's NVLS bandwidth doubles, "AllReduce pipelines two
        // operations"). Without SP, or with ring all-reduce, a gather or scatter is half an all-reduce.
        const double allReduce = ct.seconds;
        const double half = sp ? collectiveTime(Collective::ReduceScatter, Algorithm::Auto, e.tpBytesPerCollective, tpGroup, fabric).seconds
                               : ct.seconds / 2;
        // With SP under FP8 the gathers move FP8: the norm's output before QKV and up, forward and
        // again for the weight gradients, and the output gradients of attention-out and down
        // (TransformerEngine: layernorm_linear.py gathers its FP8 ln_out, base.py
        // grad_output_preprocess "gathered grad_output in FP8"; torchao Float8ColwiseParallel);
        // the reduce-scatters carry the GEMMs' 16-bit outputs.
        // Block recipes gather their scales too (TE distributed.py _all_gather_mxfp8, _nvfp4).
        const double gather = sp && tr.precision == Precision::Fp8
                                  ? collectiveTime(Collective::AllGather, Algorithm::Auto,
                                                   e.tpBytesPerCollective / 2 * quantizedElementBytes(spec), tpGroup, fabric)
                                        .seconds
                                  : half;   // a ring gathers as it scatters
        const double pair = sp ? gather + half : allReduce;   // one all-reduce equivalent as the plan runs it
        e.tpFp8Gathers = sp && tr.precision == Precision::Fp8;
        // [MLA] Under Megatron-Core (multi_latent_attention.py) the attention block's column-parallel
        // GEMMs are the up projections: the down projections run "duplicated" on the SP shard, so
        // the block gathers the Q and KV latents (Q itself from h without a Q latent), FP8 under FP8
        // as a fused norm's output, and its input gradients scatter at that width; the rotary key
        // is gathered alone in 16 bits (gather_from_sequence_parallel_region, backward a scatter).
        // The wgrad re-gather is the latents'; without SP only the latents' all-reduce. The output
        // projection's scatter and the output gradients' gathers stay h wide. torchtitan gathers h.
        double gatherA = gather, regatherA = gather, halfA = half, allReduceA = allReduce;
        const bool mlaLatents = isMla(w) && (fw == Framework::Megatron || fw == Framework::DeepSpeed);
        if (mlaLatents) {
            const double latentBytes = e.tpBytesPerCollective * ((w.qLoraRank > 0 ? double(w.qLoraRank) : h) + w.kvLoraRank) / h;
            const double ropeBytes = e.tpBytesPerCollective * w.ropeHeadDim / h;
            const auto at = [&](Collective k, double bytes) { return collectiveTime(k, Algorithm::Auto, bytes, tpGroup, fabric).seconds; };
            allReduceA = at(Collective::AllReduce, latentBytes);
            if (sp) {
                const double latentScatter = at(Collective::ReduceScatter, latentBytes);
                const double ropeGather = w.ropeHeadDim > 0 ? at(Collective::AllGather, ropeBytes) : 0.0;
                regatherA = tr.precision == Precision::Fp8 ? at(Collective::AllGather, latentBytes / 2 * quantizedElementBytes(spec))
                                                          : latentScatter;
                gatherA = regatherA + ropeGather;
                halfA = latentScatter + (w.ropeHeadDim > 0 ? at(Collective::ReduceScatter, ropeBytes) : 0.0);
            } else {
                halfA = allReduceA / 2;
                gatherA = regatherA = halfA;
            }
        }
        // One block's collectives forward (gather + scatter, or the row all-reduce) and backward
        // when nothing pairs them (the output gradients' gather + the input gradients' scatter).
        const double pairForwardA = sp ? gatherA + half : allReduce, pairBackwardA = sp ? gather + halfA : allReduceA;
        const bool megatronLayers = (fw == Framework::Megatron || fw == Framework::DeepSpeed) && pl.tpAsyncGrad;
        const double blocks = 1 + mlpBlock;   // attention and MLP; attention alone in a MoE layer
        // The forward's, again: every block's under full recompute; under Megatron's selective
        // modules the dense MLP's (mlp) and the shared experts' (moe, shared_experts: Megatron-Core
        // moe_layer.py checkpoints them with the layer or alone); routed experts' tokens stay sharded.
        // With both moe and shared_experts the checkpoints nest: the shared experts run twice. The
        // mla_up_proj module's up projections gather their latents again under SP.
        double recomputed = 0, recomputedMlpBlocks = 0;
        if (tr.recompute == Recompute::Full)
            recomputed = (pairForwardA + mlpBlock * pair) * recomputedShare;
        else if (tr.recompute == Recompute::Selective) {
            if (recomputeModules & kRecomputeMlp)
                recomputedMlpBlocks += 1 - moeShare;
            if (w.sharedExpertFfn > 0)
                recomputedMlpBlocks += moeShare * (((recomputeModules & kRecomputeMoe) ? 1 : 0) + ((recomputeModules & kRecomputeSharedExperts) ? 1 : 0));
            recomputed = recomputedMlpBlocks * pair;
            if ((recomputeModules & kRecomputeMlaUpProj) && mlaLatents && sp)
                recomputed += regatherA;
        }
        double open = pairBackwardA + mlpBlock * pair, behindDgrad = 0, behindWgrad = 0;
        if (megatronLayers && sp) {
            open = blocks * gather;
            behindDgrad = regatherA + mlpBlock * gather;
            behindWgrad = halfA + mlpBlock * half;
        } else if (megatronLayers) {
            open = 0;
            behindWgrad = allReduceA + mlpBlock * allReduce;
        }
        tpLayerFwd = pairForwardA + mlpBlock * pair;
        tpLayerBwd = open + behindDgrad + behindWgrad + recomputed;
        e.tpCollectivesPerLayer = (tpLayerFwd + tpLayerBwd) / allReduce;
        if (pl.tpOverlap && sp) {
            // Each collective is pipelined with its own GEMM and hides only behind it (TE userbuffers,
            // Megatron-Core's tp_comm_overlap configuration: qkv_fprop and fc1_fprop all-gather,
            // proj_fprop and fc2_fprop reduce-scatter; in backward proj_dgrad and fc2_dgrad gather the
            // output gradients, qkv_dgrad and fc1_dgrad re-gather the input in bulk, qkv_wgrad and
            // fc1_wgrad reduce-scatter the input gradients in bulk; torchtitan's AsyncTP pairs the
            // same all-gather + matmul and matmul + reduce-scatter). A GEMM shorter than its
            // collective leaves the rest exposed. AsyncTP (torch/_inductor/fx_passes/
            // micro_pipeline_tp.py, fuse_matmul_reduce_scatter) fuses a reduce-scatter only when a
            // single matmul produces its input; torchtitan's Llama has separate wq, wk, wv and w1,
            // w3 (models/llama3/model.py), so the input gradients of attention and MLP are sums of
            // matmuls and their reduce-scatters run in the open.
            using G = LayerTimes;
            const auto over = [](double comm, double gemm) { return std::max(0.0, comm - gemm); };
            // (Summed in the dense order, each MLP term times mlpBlock: dense figures stay bit for bit.)
            const double fwdExposed = over(gatherA, lt.tpForwardOf[G::kQkv]) + over(half, lt.tpForwardOf[G::kAttentionOut])
                                      + mlpBlock * over(gather, lt.tpForwardOf[G::kMlpUp]) + mlpBlock * over(half, lt.tpForwardOf[G::kMlpDown]);
            tpLayerFwdExposed = fwdExposed;
            const double rowGathers = over(gather, lt.tpBackwardDataOf[G::kAttentionOut])
                                      + mlpBlock * over(gather, lt.tpBackwardDataOf[G::kMlpDown]);
            double columnCollectives = 0;
            if (megatronLayers)
                columnCollectives = over(regatherA, lt.tpBackwardDataOf[G::kQkv]) + mlpBlock * over(gather, lt.tpBackwardDataOf[G::kMlpUp])
                                    + over(halfA, lt.tpBackwardWeightOf[G::kQkv]) + mlpBlock * over(half, lt.tpBackwardWeightOf[G::kMlpUp]);
            else if (asyncTp)
                columnCollectives = halfA + mlpBlock * half;   // the summed input gradients' scatters
            else
                columnCollectives = over(halfA, lt.tpBackwardDataOf[G::kQkv]) + mlpBlock * over(half, lt.tpBackwardDataOf[G::kMlpUp]);
            // Recomputed forwards pair as the first ones did: every block's under full recompute,
            // the MLP blocks the selective modules replay.
            const double mlpFwdExposed = over(gather, lt.tpForwardOf[G::kMlpUp]) + over(half, lt.tpForwardOf[G::kMlpDown]);
            tpLayerBwdExposed = rowGathers + columnCollectives
                                + (tr.recompute == Recompute::Full ? recomputedShare * fwdExposed : recomputedMlpBlocks * mlpFwdExposed);
        } else if (pl.tpOverlap) {   // all-reduces (no SP): hidden behind the layer's GEMMs together
            tpLayerFwdExposed = std::max(0.0, tpLayerFwd - lt.gemmForward);
            tpLayerBwdExposed = std::max(0.0, tpLayerBwd - (lt.gemmBackwardData + lt.gemmBackwardWeight));
        } else {
            // What hides runs beside its GEMM, which loses the SMs the NCCL kernel holds.
            const double share = ncclComputeShare(spec);
            const auto exposed = [share](double comm, double gemm) {
                return std::max(0.0, comm - gemm) + std::min(comm, gemm) * share;
            };
            tpLayerFwdExposed = tpLayerFwd;
            const double columnData = lt.tpBackwardDataOf[LG::kQkv] + mlpBlock * lt.tpBackwardDataOf[LG::kMlpUp];
            const double columnWeight = lt.tpBackwardWeightOf[LG::kQkv] + mlpBlock * lt.tpBackwardWeightOf[LG::kMlpUp];
            tpLayerBwdExposed = open + recomputed + exposed(behindDgrad, columnData) + exposed(behindWgrad, columnWeight);
        }
    }

    // ---- Context parallel: how K and V reach the queries (plan.cp_comm, Transformer Engine's
    // context_parallel.py at d0067d0; Megatron-LM --cp-comm-type) ----
    double cpLayerFwd = 0, cpLayerBwd = 0, cpLayerFwdExposed = 0, cpLayerBwdExposed = 0;
    if (c > 1) {
        // Each TP rank moves only its own heads (kv heads split by TP, replicated when TP exceeds
        // them): TE's context parallelism runs inside the TP shard.
        const double headDim = headDimOf(w);
        // Under MLA each head's K (d + d_r) and V (d_v) travel, as TE's attention receives them.
        const double kvWidth = isMla(w) ? std::max(1.0, double(w.heads) / t) * (qkHeadDimOf(w) + vHeadDimOf(w)) / 2
                                        : std::max(1.0, double(w.kvHeads) / t) * headDim;
        const double kvOneBytes = b * (s / c) * kvWidth * actBytes;   // this rank's K (or V)
        // Recompute runs the exchange again inside the recomputed attention forward: full recompute
        // on its share of the layers, Megatron's selective recompute (core attention, TE's attention
        // with its CP exchange inside) on every layer; torchtitan's op-level policy saves attention.
        const double recomputedForwards = tr.recompute == Recompute::Full ? recomputedShare
                                          : tr.recompute == Recompute::Selective && fw != Framework::Fsdp
                                                  && (recomputeModules & kRecomputeCoreAttn)
                                              ? 1.0
                                              : 0.0;
        // The recomputed attention forward, in backward, hides the ring's recomputed hops.
        const double attentionBackwardSeconds = lt.attentionBackward + recomputedForwards * lt.attentionForward;
        switch (pl.cpComm) {
        case CpComm::P2p: {
            // Ring attention (Liu et al. 2023, arXiv:2310.01889; TE AttnFuncWithCPAndKVP2P): c-1
            // hops of this rank's K and V forward, K, V and dK, dV backward, each hop behind the
            // attention of the block in hand, whose kernel meanwhile runs without the SMs the NCCL
            // send/receive holds (KernelDefaults::ncclChannelSms).
            const CollectiveTime hop = collectiveTime(Collective::SendRecv, Algorithm::Ring, 2 * kvOneBytes, cpGroup, fabric);
            cpLayerFwd = (c - 1) * hop.seconds;
            cpLayerBwd = 2 * cpLayerFwd + recomputedForwards * cpLayerFwd;
            const double share = ncclComputeShare(spec);
            cpLayerFwdExposed = std::max(0.0, cpLayerFwd - lt.attentionForward) + std::min(cpLayerFwd, lt.attentionForward) * share;
            cpLayerBwdExposed = std::max(0.0, cpLayerBwd - attentionBackwardSeconds) + std::min(cpLayerBwd, attentionBackwardSeconds) * share;
            break;
        }
        case CpComm::AllGather: {
            // Llama 3 (Dubey et al. 2024, Sec. 3.3.2; TE AttnFuncWithCPAndKVAllGather): K and V
            // all-gathered whole before attention, synchronously ("not async, and cannot be
            // overlapped"); backward gathers them again and reduce-scatters dK and dV. Sizes in
            // nccl-tests' convention: the gathered output, the scattered input (c x this rank's).
            const double wholeBytes = c * kvOneBytes;
            const double gather = collectiveTime(Collective::AllGather, Algorithm::Auto, wholeBytes, cpGroup, fabric).seconds;
            const double scatter = collectiveTime(Collective::ReduceScatter, Algorithm::Auto, wholeBytes, cpGroup, fabric).seconds;
            cpLayerFwd = 2 * gather;
            cpLayerBwd = 2 * gather + 2 * scatter + recomputedForwards * cpLayerFwd;
            cpLayerFwdExposed = cpLayerFwd;
            cpLayerBwdExposed = cpLayerBwd;
            // Backward holds the gathered K, V and the whole-sequence dK, dV at once.
            e.cpGatherBytes = 4 * wholeBytes;
            break;
        }
        case CpComm::A2a: {
            // DeepSpeed-Ulysses (Jacobs et al. 2023, arXiv:2309.14509; TE AttnFuncWithCPAndQKVOA2A):
            // all-to-alls of Q, K and V give each rank whole sequences of 1/c of the heads, and one
            // of the output gives the sequence shard back; backward the same for dO and dQ, dK, dV.
            // One tensor after another, none behind attention. Sizes: this rank's tensor (nccl-tests).
            const double qBytes = b * (s / c) * (std::max(1.0, double(w.heads) / t) * qkHeadDimOf(w)) * actBytes;
            const auto allToAll = [&](double bytes) {
                return collectiveTime(Collective::AllToAll, Algorithm::Auto, bytes, cpGroup, fabric).seconds;
            };
            cpLayerFwd = 2 * allToAll(qBytes) + 2 * allToAll(kvOneBytes);
            cpLayerBwd = cpLayerFwd + recomputedForwards * cpLayerFwd;
            cpLayerFwdExposed = cpLayerFwd;
            cpLayerBwdExposed = cpLayerBwd;
            break;
        }
        }
    }

    // ---- Expert parallelism [MoE]: Megatron-Core's all-to-all token dispatcher
    // (token_dispatcher.py MoEAlltoAllTokenDispatcher): each rank sends its Tin tokens' k copies,
    // b s / (c t) x k rows of h, to the ranks holding their experts and gets the results back
    // (dispatch and combine); backward the same two in reverse; full recompute repeats the
    // forward's. The EP ranks are adjacent (expert tensor parallelism 1 puts EP innermost of
    // Megatron's expert rank order tp-ep-dp-pp). Every copy travels. The flex dispatcher's backends
    // (plan.ep_dispatcher deepep, hybridep; [DeepEP] deepseek-ai/DeepEP internode kernels: RDMA to
    // the same local rank of each target node, then NVLink forwarding; [HybridEP] Megatron-Core
    // fused_a2a.py) send a token once per node and once per GPU that holds any of its experts:
    // with balanced routing the expected other nodes and GPUs are hypergeometric
    // (expectedOtherGroupsHit). Without ep_overlap the exchanges run in the open; with it
    // (--overlap-moe-expert-parallel-comm) another micro-batch's layer runs meanwhile, on the SMs
    // NCCL leaves. ----
    double epLayerFwd = 0, epLayerBwd = 0, epLayerFwdExposed = 0, epLayerBwdExposed = 0;
    if (moe && pl.ep > 1) {
        const double tokenBytes = tokensPerGpu / (sp ? t : 1) * h * actBytes;   // this rank's tokens, once
        const int k = expertsPerTokenOf(w);
        const Group epGroup = groupOf(pl.ep, 1, cl);
        if (pl.epDispatcher == EpDispatcher::AllToAll) {
            e.epA2aBytes = tokenBytes * k;
            e.epA2aSeconds = collectiveTime(Collective::AllToAll, Algorithm::Auto, e.epA2aBytes, epGroup, fabric).seconds;
        } else {
            // [DSv3] Group-limited routing keeps a token's experts in its best groups (nodes, for
            // DeepSeek-V3's node-limited routing when a node holds a group).
            e.epRemoteNodesPerToken = expectedOtherGroupsHitLimited(w.experts, k, epGroup.nodes(), w.moeRouterGroups, w.moeRouterGroupTopk);
            e.epGpuCopiesPerToken = expectedOtherGroupsHitLimited(w.experts, k, pl.ep, w.moeRouterGroups, w.moeRouterGroupTopk);
            e.epA2aBytes = tokenBytes * std::max(e.epGpuCopiesPerToken, e.epRemoteNodesPerToken);
            e.epA2aSeconds = dedupDispatchTime(tokenBytes, e.epRemoteNodesPerToken, e.epGpuCopiesPerToken, epGroup, fabric).seconds;
        }
        epLayerFwd = 2 * e.epA2aSeconds * moeShare;   // the mean layer's: dense layers send nothing
        // [MOE-SYNC] The dispatcher's host sync before each MoE layer's dispatch leaves the GPU
        // idle while the host issues the work after it, unless another micro-batch's work is
        // queued behind it (ep_overlap: only the forwards that run alone wait, below).
        // Recomputing the layer syncs again.
        e.epSyncSeconds = kernelDefaults().moeDispatchSyncSeconds;
        if (!pl.epOverlap)
            epLayerFwd += e.epSyncSeconds * moeShare;
        // Recomputing the MoE layer (full, or Megatron's moe module) dispatches and combines again.
        const double moeRecomputed = tr.recompute == Recompute::Full ? recomputedShare
                                     : tr.recompute == Recompute::Selective && (recomputeModules & kRecomputeMoe) ? 1.0
                                                                                                                       : 0.0;
        epLayerBwd = 2 * e.epA2aSeconds * moeShare + moeRecomputed * epLayerFwd;
        if (pl.epOverlap) {
            // Megatron-Core's combined 1F1B pairs a chunk's forward with another micro-batch's
            // backward in the steady phase only. Without pipeline stages the first forward and the
            // last backward run alone: (m - 1) / m of the traffic can hide. Interleaved, the first
            // rank's warm-up forwards, 2 (p - 1) + (v - 1) p + 1 of its m v chunks (schedules.py
            // get_pp_rank_microbatches: microbatch_group_size_per_vp_stage p, one more with
            // overlap_moe_expert_parallel_comm), and as many cool-down backwards run alone.
            // DualPipeV pairs a forward with a backward in its steps 4 and 5 only (deepseek-ai/DualPipe
            // dualpipev.py): 2 (m - 2p + r + 1) + (p - r - 1) of rank r's 2m chunks, so rank 0 runs
            // 3p - 1 forwards, and as many backwards, alone.
            const double comm = epLayerFwd + epLayerBwd, window = layerForward + layerBackward;
            const bool piped = p > 1 && (pl.schedule == Schedule::Interleaved || pl.schedule == Schedule::DualPipeV);
            const double chunks = piped ? double(m) * v : double(m);
            const double unpaired = !piped ? 1.0
                                    : std::min(chunks, pl.schedule == Schedule::DualPipeV ? 3.0 * p - 1
                                                                                         : 2.0 * (p - 1) + (v - 1.0) * p + 1);
            const double hideable = comm * (chunks - unpaired) / chunks;
            const double exposed = comm - hideable + std::max(0.0, hideable - window)
                                   + std::min(hideable, window) * ncclComputeShare(spec);
            epLayerFwdExposed = exposed * epLayerFwd / comm;
            epLayerBwdExposed = exposed * epLayerBwd / comm;
            // [MOE-SYNC] A forward that runs alone has nothing queued behind its sync: the mean
            // layer forward waits unpaired / chunks of it.
            const double aloneSync = e.epSyncSeconds * moeShare * unpaired / chunks;
            epLayerFwd += aloneSync;
            epLayerFwdExposed += aloneSync;
        } else {
            epLayerFwdExposed = epLayerFwd;
            epLayerBwdExposed = epLayerBwd;
        }
    }

    // ---- Stages: layers per stage (uneven splits allowed), time and memory of each ----
    // [MTP] The multi-token-prediction layers run on the last stage (Megatron-Core's layout 'm'),
    // after its own layers: counted there as layers; their head passes are in `head`.
    std::array<int, 64> stageLayersBuffer;
    std::vector<int> stageLayersHeap;
    const std::span<const int> stageLayers = stageLayersOf(w, pl, stageLayersBuffer, stageLayersHeap);
    const MemoryDefaults &md = memoryDefaults();
    const int shardRanks = pl.shardGroup > 0 ? pl.shardGroup : d * c;
    // Megatron-FSDP (zero 3) shards what Megatron otherwise keeps whole on every rank.
    const double megatronFsdpShards = fw == Framework::Megatron && pl.zeroStage >= 3 ? std::max(1, shardRanks) : 1;
    const StateBytesPerParam sb = stateBytesPerParam(fw, tr.precision, pl.zeroStage, shardRanks, p > 1,
                                                   gradientReduceElementBytes(pl.framework, tr.precision, pl.gradReduce, p),
                                                   tr.optimizerStates);
    const ActivationLayout layout = activationLayout(fw, tr.precision, t, sp, e.kernels == Kernels::Eager,
                                                     quantizedElementBytes(spec), spec.fp8Attention, tr.fp8Recipe);
    const LayerActivationBytes layerBytes = layerActivationBytes(w, fw, tr.recompute, layout, recomputeModules);
    const double elementScale = activationElementBytes(tr.precision) / 2;   // counted in 16-bit elements
    const double actPerTokenLayer = layerBytes.keptPerToken * elementScale;
    // A layer that keeps its activations keeps them all (layerActivationBytesPerToken, Recompute::None).
    const double actFullPerTokenLayer = layerBytes.fullPerToken * elementScale;
    const double actKeptPerTokenLayer = actFullPerTokenLayer;
    const double backwardWorkingPerToken = layerBytes.backwardWorkingPerToken * elementScale;
    const double layerParams = counts.layerMatrixParams + counts.layerOtherParams;
    // One layer's parameters on a TP rank: 1/t of the split ones, all of the replicated ones (the
    // latter's (1 - 1/t) on top of their 1/t share).
    const double replicatedExtra = 1.0 - 1.0 / t;
    const double replicatedMatrixParams = counts.layerTpReplicatedMatrixParams * replicatedExtra;
    const double layerParamsPerTpRank = layerParams / t + replicatedMatrixParams + counts.layerTpReplicatedOtherParams * replicatedExtra;
    e.ppBoundaryBytes = tokensPerGpu * h * actBytes / (t > 1 ? t : 1);  // [SC21] scatter/gather
    const double gradCommBytes = gradientReduceElementBytes(pl.framework, tr.precision, pl.gradReduce, p);
    // Uncompressed gradient bytes per bucket.
    const double bucketBytesEff = frameworkBucketBytes(pl, fw, gradCommBytes, layerParamsPerTpRank);
    e.dpBucketBytes = bucketBytesEff;
    // The first stage's dense embedding gradient, every micro-batch (KernelDefaults).
    const double embeddingGradSeconds =
        counts.embeddingParams / t
        * (fw == Framework::Megatron ? kernelDefaults().embeddingGradBytesMegatron : kernelDefaults().embeddingGradBytesOther)
        / spec.hbmBytesPerSecond;
    // [DS-BF16] DeepSpeed's BF16 optimizer adds each micro-batch's gradients to fp32 copies before
    // the stage sends its input gradient on (kernels.h deepSpeedBf16GradBytes): backward work.
    const double hpGradSecondsPerParam = runsDeepSpeedBf16Optimizer(pl.framework, tr.precision, p) && tr.computeSecondsOverride <= 0
                                             ? kernelDefaults().deepSpeedBf16GradBytes / spec.hbmBytesPerSecond
                                             : 0.0;
    // The LM head's parameters on the last stage: a tied head keeps a copy there when p > 1.
    const double lastStageHeadParams = p > 1 && !vShape && w.tiedEmbeddings ? double(w.vocab) * h : counts.headParams;
    double stageFc = 0, stageBc = 0, stageW = 0;
    int critical = 0;
    double maxStageParamsPerGpu = 0, criticalBusySeconds = -1, criticalStageLayers = -1, maxStageMatrixShare = 0;
    double nextBusySeconds = -1, lastBusySeconds = -1;   // F + B of the slowest stage but the critical one; of stage i - 1
    double maxStageExpertParamsPerGpu = 0;
    // [MoE] Each GPU holds E/ep whole experts of each of its layers; their gradients are reduced and
    // their optimizer states sharded over the edp = tp cp dp / ep ranks that hold the same experts
    // (Megatron-Core expert data parallelism), the rest of the model's over dp x cp as before.
    const int expertDataRanks = moe ? std::max(1, t * c * d / pl.ep) : 1;
    const double expertOptimizerPerParam = pl.zeroStage >= 1 ? sb.optimizer * shardRanks / expertDataRanks : sb.optimizer;
    MemoryBreakdown best;
    best.totalBytes = -1;
    const std::vector<int> vStages = vShape ? dualPipeVStageLayers(w, pl) : std::vector<int>{};
    for (int i = 0; i < p; ++i) {
        // A middle stage with the layers of the middle stage before it runs as long, holds as many
        // parameters and no more micro-batches in flight (inFlightMicroBatches falls with the
        // stage outside DualPipeV): it is neither the slowest, the fullest nor the largest first.
        if (!vShape && i > 1 && i < p - 1 && stageLayers[size_t(i)] == stageLayers[size_t(i - 1)]) {
            nextBusySeconds = std::max(nextBusySeconds, lastBusySeconds);   // a twin of the critical one leaves no slack
            continue;
        }
        const double L = stageLayers[size_t(i)];
        // The V's rank 0 holds both ends: the embedding and the LM head with the loss.
        const bool first = i == 0, last = vShape ? i == 0 : i == p - 1;
        double F = L * (layerForward + tpLayerFwdExposed + cpLayerFwdExposed + epLayerFwdExposed) + (last ? head.forward : 0.0);
        double B = L * (layerBackward + tpLayerBwdExposed + cpLayerBwdExposed + epLayerBwdExposed) + (last ? head.backward : 0.0)
                   + (first ? embeddingGradSeconds : 0.0);
        const double W = L * lt.gemmBackwardWeight + (last ? head.weightGrad : 0.0) + (first ? embeddingGradSeconds : 0.0);
        // Parameters of this stage: its layers, the embedding on the first, the LM head on the
        // last (a tied head keeps a copy there when p > 1), the final norm on the last.
        double params = L * layerParams;
        if (first)
            params += counts.embeddingParams;
        if (last)
            params += lastStageHeadParams + 2 * h;
        // [MTP] The last stage holds the modules' projections and norms, and, when it is not the
        // first, its own copy of the word embedding the modules read (Megatron-Core gpt_model.py
        // builds it where pre_process or mtp_process; a tied head's copy already serves).
        if (last && w.mtpLayers > 0) {
            params += w.mtpLayers * (2 * h * h + 3 * h);
            if (p > 1 && !vShape && !w.tiedEmbeddings)
                params += counts.embeddingParams;
        }
        const double expertParamsPerGpu = L * counts.layerExpertParams / pl.ep;
        // (The final norm and the MTP modules' norms are whole on every TP rank too.)
        const double replicatedTail = last ? (2 * h + 3 * h * w.mtpLayers) * replicatedExtra : 0.0;
        const double paramsPerGpu = (t > 1 ? (params - L * layerParams) / t + L * layerParamsPerTpRank + replicatedTail : params)
                                    + expertParamsPerGpu;
        B += paramsPerGpu * hpGradSecondsPerParam;   // DeepSpeed's BF16 optimizer, every micro-batch
        // The slowest stage, exposed TP/CP time included, sets the steady state. A given compute
        // time is spread over the layers (below): there the stage with most layers.
        const bool slowest = tr.computeSecondsOverride > 0 ? L > criticalStageLayers : F + B > criticalBusySeconds;
        nextBusySeconds = std::max(nextBusySeconds, slowest ? criticalBusySeconds : F + B);
        lastBusySeconds = F + B;
        if (slowest) {
            criticalBusySeconds = F + B;
            criticalStageLayers = L;
            critical = i;
            stageFc = F;
            stageBc = B;
            stageW = W;
            e.hpGradSecondsPerMicroBatch = paramsPerGpu * hpGradSecondsPerParam;
        }
        // Every stage syncs its own gradients at the same time; the one with most parameters ends last.
        if (paramsPerGpu > maxStageParamsPerGpu) {
            maxStageParamsPerGpu = paramsPerGpu;
            maxStageExpertParamsPerGpu = expertParamsPerGpu;
            maxStageMatrixShare = (L * counts.layerMatrixParams + t * expertParamsPerGpu) / (params + t * expertParamsPerGpu);
        }

        // ---- Memory of this stage [ZeRO], [MLM], [K22] (memory.cpp) ----
        MemoryBreakdown mem;
        mem.weightsBytes = paramsPerGpu * (sb.weights + sb.gatheredWeights);
        const double matrixParamsPerGpu = L * (counts.layerMatrixParams / t + replicatedMatrixParams) + expertParamsPerGpu;
        if (tr.precision == Precision::Fp8 && fw != Framework::Fsdp) {
            // TE keeps its quantized copies (KernelSpec::fp8Copies, each quantizedElementBytes);
            // Megatron-FSDP shards them with the rest.
            mem.weightsBytes += matrixParamsPerGpu * spec.fp8Copies * quantizedElementBytes(spec) / megatronFsdpShards;
            if (tr.fp8Params)   // the FP8 weights are the model's: no 16-bit copy of the GEMM weights
                mem.weightsBytes -= matrixParamsPerGpu * sb.weights;
        }
        if (tr.fp8Params && fw == Framework::Fsdp)   // gathered GEMM weights stay in FP8 (1 of 2 bytes)
            mem.weightsBytes -= matrixParamsPerGpu * sb.gatheredWeights / 2;
        mem.gradientsBytes = paramsPerGpu * sb.gradients;
        mem.optimizerBytes = (paramsPerGpu - expertParamsPerGpu) * sb.optimizer + expertParamsPerGpu * expertOptimizerPerParam;
        mem.inFlightMicroBatches = inFlightMicroBatches(pl.schedule, p, i, m, v);
        if (vShape && L > 0)   // at its peak rank i holds 2p - i chunks of its down stage and i + 1 of its up stage
            mem.inFlightMicroBatches = ((2.0 * p - i) * vStages[size_t(i)] + (i + 1.0) * vStages[size_t(2 * p - 1 - i)]) / L;
        // Block recompute: the first recompute_layers of each of the stage's v chunks drop their activations.
        const double recomputedLayers = tr.recompute == Recompute::Full && tr.recomputeLayers > 0
                                            ? std::min(L, double(tr.recomputeLayers) * v)
                                            : (tr.recompute == Recompute::None ? 0.0 : L);
        mem.activationsBytes = (recomputedLayers * actPerTokenLayer + (L - recomputedLayers) * actKeptPerTokenLayer)
                               * tokensPerGpu * mem.inFlightMicroBatches;
        if (L > 0)   // one layer's activation gradients while it runs backward
            mem.activationsBytes += backwardWorkingPerToken * tokensPerGpu;
        // One layer is recomputed at a time and holds its full activations meanwhile [K22] Sec. 5.
        if (recomputedLayers > 0 && (tr.recompute == Recompute::Full || (tr.recompute == Recompute::Selective && fw == Framework::Fsdp)))
            mem.activationsBytes += actFullPerTokenLayer * tokensPerGpu;
        // [TE-OFF] The first offload_layers layers' activations go to host memory: the GPU holds
        // at most L - N layers' at a time (pp 1, one micro-batch in flight, no recompute).
        if (tr.offloadLayers > 0) {
            mem.offloadedBytes = tr.offloadLayers * actKeptPerTokenLayer * tokensPerGpu;   // validate(): N < L
            mem.activationsBytes -= mem.offloadedBytes;
        }
        mem.lossBytes = last ? (1 + w.mtpLayers) * tokensPerGpu * double(w.vocab) / t * lossBytesPerLogit(crossEntropy) : 0.0;   // [MTP] a loss each
        // Transient buffers: DDP buckets, p2p, and ZeRO-3/FSDP gathers of the largest module
        // (two in flight with prefetch, plus its unsharded 16-bit and fp32 reduce gradients).
        const double gradBytesPerGpu = paramsPerGpu * gradCommBytes / pl.compression;
        double bucketBuffer = d * c > 1 && pl.zeroStage == 0
                                  ? 2 * std::min(bucketBytesEff > 0 ? bucketBytesEff / pl.compression : gradBytesPerGpu, gradBytesPerGpu)
                                  : 0.0;
        // DeepSpeed ZeRO-1/2 allocate reduce_bucket_size elements of 16-bit gradients each step, twice
        // with overlap_comm (stage_1_and_2.py ipg buffers, "double buffers ... when overlap_comm").
        if (fw == Framework::DeepSpeed && d * c > 1 && (pl.zeroStage == 1 || pl.zeroStage == 2))
            bucketBuffer = (pl.overlapDp ? 2 : 1) * bucketBytesEff / gradCommBytes * activationElementBytes(tr.precision);
        double gatherBuffer = 0;
        const bool gathersPerMicroBatch = pl.zeroStage >= 3 && d * c > 1 && sb.gatheredWeights == 0;
        if (gathersPerMicroBatch && fw == Framework::DeepSpeed) {
            // [DS-Z3] DeepSpeed gathers each submodule's own parameters as it runs and prefetches
            // 5e7 more, not whole layers; a parameter whose next use comes within
            // stage3_max_reuse_distance (1e9) parameters of fetches stays gathered
            // (partitioned_param_coordinator.py __params_to_release), as the last layers' do at the
            // turn to backward: at most that many, 16-bit. A submodule's full gradient (the largest:
            // an MLP projection or, on the first and last stage, the V x h embedding or head) goes
            // into the reduce bucket (reduce_bucket_size elements, stage3.py's contiguous ipg buffer),
            // which reduce_scatter_coalesced copies once more (coalesced_collectives.py torch.cat).
            const double stageParamsPerTpRank = paramsPerGpu;   // before ZeRO's sharding
            double largestModuleParams = double(w.hidden) * std::max(w.ffnHidden, w.moeFfnHidden) / t;
            if (first || last)
                largestModuleParams = std::max(largestModuleParams, double(w.vocab) * h / t);
            gatherBuffer = 2 * std::min(kDeepSpeedReuseDistanceParams, stageParamsPerTpRank) + 2 * largestModuleParams
                           + 2 * bucketBytesEff;
        } else if (gathersPerMicroBatch) {
            // Two layers gathered (prefetch) in the width they are gathered in (FP8 GEMM weights
            // with fp8_params: Megatron --fp8-param-gather, torchao's float8 all-gather), plus the
            // layer's unsharded 16-bit gradient and the reduce-scatter's input in the reduction's width.
            const double gatheredBytes = tr.fp8Params ? counts.layerMatrixParams + 2 * counts.layerOtherParams : 2 * layerParams;
            // A TP rank's share of the layer, its replicated parameters whole.
            gatherBuffer = (2 * gatheredBytes + layerParams * (2 + gradCommBytes)) * (layerParamsPerTpRank / layerParams);
            // [FSDP2] the root module (embedding, LM head) is not resharded after forward.
            if (fw == Framework::Fsdp)
                gatherBuffer += ((first ? counts.embeddingParams : 0.0) + (last ? counts.headParams : 0.0)) / t * 2;
        }
        mem.buffersBytes = bucketBuffer + (p > 1 ? 2 * e.ppBoundaryBytes : 0.0) + gatherBuffer + e.cpGatherBytes;
        // States live in buffers allocated once; what is allocated and freed every step fragments:
        // activations, logits, buffers, gathered weights and, in FSDP2, the gradients
        // (torchtitan's zero_grad frees them each step; Megatron/DeepSpeed keep contiguous buffers).
        const double perStep = mem.activationsBytes + mem.lossBytes + mem.buffersBytes + paramsPerGpu * sb.gatheredWeights
                               + (fw == Framework::Fsdp ? mem.gradientsBytes : 0.0);
        const double allocated = mem.weightsBytes + mem.gradientsBytes + mem.optimizerBytes + mem.activationsBytes
                                 + mem.lossBytes + mem.buffersBytes;
        mem.runtimeBytes = md.cudaContextBytes + md.workspaceBytes + md.allocatorOverhead * perStep;
        mem.totalBytes = allocated + mem.runtimeBytes;
        mem.capacityBytes = cl.gpu.memoryBytes;
        mem.stage = i;
        if (mem.totalBytes > best.totalBytes)
            best = mem;
        if (i == 0)
            e.memoryFirstStageBytes = mem.totalBytes;
        if (i == p - 1)   // the last rank (the V's turn: its head is on rank 0)
            e.memoryLastStageBytes = mem.totalBytes;
    }
    best.hostCapacityBytes = cl.gpu.hostMemoryBytes > 0 ? cl.gpu.hostMemoryBytes : md.hostMemoryBytes;
    best.fits = best.totalBytes <= best.capacityBytes && best.offloadedBytes <= best.hostCapacityBytes;
    best.stages = p;
    e.memory = best;
    e.criticalStage = critical;
    e.criticalStageLayers = stageLayers[size_t(critical)];
    e.gradientBytesPerGpu = maxStageParamsPerGpu * gradCommBytes / pl.compression;
    e.expertParamsPerGpu = maxStageExpertParamsPerGpu;
    const double optimizerParamsPerGpu = pl.zeroStage >= 1 ? (maxStageParamsPerGpu - maxStageExpertParamsPerGpu) / shardRanks
                                                               + maxStageExpertParamsPerGpu / expertDataRanks
                                                         : maxStageParamsPerGpu;
    double optimizerSeconds = optimizerParamsPerGpu
                              * (tr.optimizerStates == OptimizerStates::Bf16          ? md.optimizerBytesPerParam16
                                 : tr.optimizerStates == OptimizerStates::Bf16Moments ? md.optimizerBytesPerParamMoments16
                                                                                      : md.optimizerBytesPerParam)
                              / spec.hbmBytesPerSecond;
    // Megatron zeroes, NaN-checks and scales its whole local gradient buffer every step, on the
    // compute stream (MemoryDefaults::megatronGradBufferPasses).
    e.gradBufferSeconds = fw == Framework::Megatron ? md.megatronGradBufferPasses * maxStageParamsPerGpu * gradCommBytes
                                                          / megatronFsdpShards
                                                          / spec.hbmBytesPerSecond
                                                    : 0.0;
    optimizerSeconds += e.gradBufferSeconds;
    // Without Megatron's fused accumulation, every micro-batch but the first adds its weight
    // gradients to the kept .grad in a separate kernel (PyTorch AccumulateGrad: read both, write
    // one, in the parameters' type) wherever gradients stay unsharded across micro-batches: DDP's
    // no_sync, ZeRO-1, FSDP kept gathered between pipeline micro-batches.
    // (DeepSpeed's BF16 optimizer writes the 16-bit gradients anew each micro-batch and accumulates in
    // fp32 instead: hpGradSecondsPerParam, in the backward.)
    const bool accumulatesUnsharded = fw != Framework::Megatron && m > 1 && (pl.zeroStage <= 1 || (fw == Framework::Fsdp && p > 1))
                                      && hpGradSecondsPerParam == 0;
    e.gradAccumulateSeconds = accumulatesUnsharded ? double(m - 1) * maxStageParamsPerGpu * 3.0
                                                         * activationElementBytes(tr.precision) / spec.hbmBytesPerSecond
                                                   : 0.0;
    optimizerSeconds += e.gradAccumulateSeconds;

    // A given compute time replaces all on-GPU work of the step (the seeds' input); the optimizer
    // is inside it.
    double tpFwdExposedStage = stageLayers[size_t(critical)] * tpLayerFwdExposed;
    double tpBwdExposedStage = stageLayers[size_t(critical)] * tpLayerBwdExposed;
    double cpFwdExposedStage = stageLayers[size_t(critical)] * cpLayerFwdExposed;
    double cpBwdExposedStage = stageLayers[size_t(critical)] * cpLayerBwdExposed;
    double epFwdExposedStage = stageLayers[size_t(critical)] * epLayerFwdExposed;
    double epBwdExposedStage = stageLayers[size_t(critical)] * epLayerBwdExposed;
    double computeFc = stageFc - tpFwdExposedStage - cpFwdExposedStage - epFwdExposedStage;
    double computeBc = stageBc - tpBwdExposedStage - cpBwdExposedStage - epBwdExposedStage;
    double computeScale = 1;
    if (tr.computeSecondsOverride > 0) {
        computeScale = tr.computeSecondsOverride / (double(m) * (computeFc + computeBc));
        computeFc *= computeScale;
        computeBc *= computeScale;
        stageW *= computeScale;
        stageFc = computeFc + tpFwdExposedStage + cpFwdExposedStage + epFwdExposedStage;
        stageBc = computeBc + tpBwdExposedStage + cpBwdExposedStage + epBwdExposedStage;
        optimizerSeconds = 0;
    }
    LayerTimesPerStage &pls = e.perLayer;
    pls.forwardSeconds = layerForward * computeScale;
    pls.backwardSeconds = layerBackward * computeScale + (layerParamsPerTpRank + counts.layerExpertParams / pl.ep) * hpGradSecondsPerParam;
    pls.weightGradSeconds = lt.gemmBackwardWeight * computeScale;
    pls.forwardCommSeconds = tpLayerFwdExposed + cpLayerFwdExposed + epLayerFwdExposed;
    pls.backwardCommSeconds = tpLayerBwdExposed + cpLayerBwdExposed + epLayerBwdExposed;
    pls.headForwardSeconds = head.forward * computeScale;
    pls.headBackwardSeconds = head.backward * computeScale + lastStageHeadParams / t * hpGradSecondsPerParam;
    pls.headWeightGradSeconds = head.weightGrad * computeScale;
    pls.embeddingGradSeconds = embeddingGradSeconds * computeScale + counts.embeddingParams / t * hpGradSecondsPerParam;
    pls.headOnFirstStage = vShape;
    if (tr.computeSecondsOverride > 0 && stageLayers[size_t(critical)] > 0) {
        // A given compute time says nothing of where the head sits: spread over the layers, so an
        // even split has even stages (the seeds' textbook pipeline).
        const double L = stageLayers[size_t(critical)];
        pls.forwardSeconds = computeFc / L;
        pls.backwardSeconds = computeBc / L;
        pls.weightGradSeconds = std::min(stageW, computeBc) / L;
        pls.headForwardSeconds = pls.headBackwardSeconds = pls.headWeightGradSeconds = pls.embeddingGradSeconds = 0;
    }

    // ---- Activation offloading [TE-OFF] (pp 1): a copy stream moves the first N layers' activations
    // out during forward and back during backward, one layer at a time, while the GPU may hold at
    // most k = L - N layers' activations. Copy-bound (c > f), the offload of layer i ends at
    // f + i c and layer i + k waits for it, so the forward ends at max(L f, N c + 2 f): it waits
    // max(0, N c - (L - 2) f); backward the same with the reloads. With k = 1 nothing overlaps.
    e.offloadLayerBytes = actKeptPerTokenLayer * tokensPerGpu;   // what one offloaded layer would move (the plan search reads it)
    if (tr.offloadLayers > 0 && !stageLayers.empty()) {
        const double L = stageLayers.front(), N = tr.offloadLayers;   // validate(): N < L, pp 1
        e.hostBytesPerSecond = cl.gpu.hostBytesPerSecond > 0 ? cl.gpu.hostBytesPerSecond : md.hostBytesPerSecond;
        e.offloadLayerSeconds = e.offloadLayerBytes / e.hostBytesPerSecond;
        const double copies = N * e.offloadLayerSeconds;
        const double f = pls.forwardSeconds + pls.forwardCommSeconds, bw = pls.backwardSeconds + pls.backwardCommSeconds;
        const bool overlaps = L - N >= 2;
        e.offloadForwardStallSeconds = overlaps ? std::max(0.0, copies - (L - 2) * f) : copies;
        e.offloadBackwardStallSeconds = overlaps ? std::max(0.0, copies - (L - 2) * bw) : copies;
        stageFc += e.offloadForwardStallSeconds;
        stageBc += e.offloadBackwardStallSeconds;
    }

    // ---- Pipeline [SC21] Sec. 2.2, [ZB]: the slowest stage sets the pace ----
    StageTimes st;
    st.forwardSeconds = stageFc;
    st.backwardSeconds = stageBc;
    st.weightGradSeconds = std::min(stageW, st.backwardSeconds);
    if (p > 1) {
        // A node holds ranksPerNode consecutive stages, so every ranksPerNode-th boundary crosses
        // the network (all of them with one stage per node), and so does the wrap from the last
        // stage back to the first: Llama 3.1 405B on GB200 NVL72 racks at 16 GPUs a stage puts 4
        // stages in a rack and its fourth boundary on InfiniBand; TP 2 x PP 8 on 8-GPU nodes, the
        // same. Fill and drain pass each boundary once; the steady state: pipeline.h.
        e.ppStagesPerNode = ppGroup.nodes() <= 1 && !ppGroup.straddles ? p : std::max(1, ppGroup.ranksPerNode);
        const int crossings = boundariesLeavingNode(p, e.ppStagesPerNode);
        const auto transfer = [&](const Tier &tier) { return tier.latencySeconds + e.ppBoundaryBytes / tier.bytesPerSecond; };
        const double intraSeconds = transfer(fabric.intra), interSeconds = transfer(fabric.inter);
        e.p2pIntraSecondsPerTransfer = intraSeconds;
        e.p2pInterSecondsPerTransfer = interSeconds;
        st.p2pSeconds = crossings == 0       ? intraSeconds
                        : crossings == p - 1 ? interSeconds
                                             : std::max(intraSeconds, interSeconds);
        const double hops = double(v) * (p - 1) + (v - 1);
        const double slowHops = double(v) * crossings + (crossings > 0 ? v - 1 : 0);
        st.p2pChainSeconds = (slowHops * interSeconds + (hops - slowHops) * intraSeconds) / hops;
    }
    e.stageForwardSeconds = st.forwardSeconds;
    e.stageBackwardSeconds = st.backwardSeconds;
    e.stageForwardTpSeconds = tpFwdExposedStage + cpFwdExposedStage + epFwdExposedStage;
    e.stageBackwardTpSeconds = tpBwdExposedStage + cpBwdExposedStage + epBwdExposedStage;
    e.stageWeightGradSeconds = st.weightGradSeconds;
    e.p2pSecondsPerTransfer = st.p2pSeconds;
    const double busy = double(m) * (st.forwardSeconds + st.backwardSeconds);
    // Fill and drain pass once through every other stage (uneven splits: pipeline.h).
    double bubble = 0;
    if (p > 1) {
        pls.p2pSeconds = st.p2pSeconds;
        bubble = pipelineBubbleSeconds(pl.schedule, v, stageLayers, pls, m);
    }
    const double p2pExposed =
        p > 1 ? pipelineP2pExposedSeconds(pl.schedule, p, v, m, st,
                                          {e.p2pIntraSecondsPerTransfer, e.ppStagesPerNode,
                                           nextBusySeconds >= 0 && tr.computeSecondsOverride <= 0 ? criticalBusySeconds - nextBusySeconds : 0.0,
                                           criticalBoundarySeconds(critical, p, e.ppStagesPerNode, e.p2pIntraSecondsPerTransfer,
                                                                   e.p2pInterSecondsPerTransfer)})
              : 0.0;
    e.ppTransferBytesPerStep = p > 1 ? 2.0 * double(m) * v * e.ppBoundaryBytes : 0.0;
    e.ppStashedBoundaryBytes = p > 1 ? inFlightMicroBatches(pl.schedule == Schedule::GPipe ? Schedule::GPipe
                                                                                            : Schedule::OneFOneB,
                                                            p, 0, m, 1) * e.ppBoundaryBytes
                                     : 0.0;
    const double pipelineSeconds = busy + bubble + p2pExposed;
    e.ppBubbleFraction = bubble / (busy + bubble);
    e.ppBubbleFractionOfIdeal = bubble / busy;
    e.pipelineEfficiency = 1.0 - e.ppBubbleFraction;

    // ---- Data-parallel synchronisation [DDP], [ZeRO] Sec. 7, as each framework runs it ----
    //  stage 0: one bucketed all-reduce per step, overlapped with the last backward;
    //  DeepSpeed's pipeline engine: all-reduce after the last backward, nothing hidden [DS];
    //  stage 1 (Megatron distributed optimizer, DeepSpeed): reduce-scatter per step + parameter
    //    all-gather (Megatron overlaps it with the next forward; DeepSpeed does not);
    //  stage 2 (DeepSpeed): reduce-scatter after every micro-batch's backward, gather per step;
    //  FSDP SHARD_GRAD_OP / FULL_SHARD: 1 or 2 parameter all-gathers and a reduce-scatter per
    //    micro-batch, or once per step when pipeline stages keep parameters gathered (torchtitan);
    //  HSDP: the shard group is inside; each bucket's reduced shard is all-reduced across the
    //    replicas right after its reduce-scatter, on a stream of its own, so the two pipeline
    //    behind the backward (PyTorch FSDP _runtime_utils.py _reduce_grad: dist.all_reduce(
    //    new_sharded_grad, group=state._inter_node_pg) on _all_reduce_stream; FSDP2
    //    foreach_reduce; Megatron's distributed-optimizer instances the same per bucket).
    const int dpRanks = d * c;   // gradients are reduced over DP x CP
    double dpTotal = 0, dpExposed = 0;
    double dpLead = 0, dpPerMicro = 0, dpTail = 0;   // where the exposed part sits (Evaluation::dpLeadSeconds)
    if (dpRanks > 1 || expertDataRanks > 1) {
        const double G = e.gradientBytesPerGpu;
        // [MoE] Buckets hold dense and expert gradients in their shares; the expert part of each
        // is reduced over the ranks that hold the same experts.
        const double expertShare = maxStageParamsPerGpu > 0 ? maxStageExpertParamsPerGpu / maxStageParamsPerGpu : 0.0;
        const Group expertGroup = groupOf(expertDataRanks, pl.ep, cl);
        // The gradient reduce-scatter averages where the framework asks NCCL to (ncclAvg, so no PAT):
        // Megatron as NVIDIA's Megatron-Bridge recipes run it (average_in_collective True;
        // Megatron-LM's own default divides first and sums) and FSDP2 (ReduceOp.AVG for bf16 and
        // fp32 reductions, _fsdp_collectives.py); FSDP1 and DeepSpeed divide first and sum.
        const ReduceOp gradientOp = fw == Framework::Megatron || (fw == Framework::Fsdp && pl.fsdpVersion == 2) ? ReduceOp::Average
                                                                                                               : ReduceOp::Sum;
        const auto timed = [&](Collective collective, double bytes, const Group &group) {
            const ReduceOp op = collective == Collective::ReduceScatter ? gradientOp : ReduceOp::Sum;
            if (expertShare <= 0)
                return collectiveTime(collective, Algorithm::Auto, bytes, group, fabric, op);
            CollectiveTime dense = collectiveTime(collective, Algorithm::Auto, bytes * (1 - expertShare), group, fabric, op);
            const CollectiveTime expert = collectiveTime(collective, Algorithm::Auto, bytes * expertShare, expertGroup, fabric, op);
            dense.seconds += expert.seconds;
            dense.latencySeconds += expert.latencySeconds;
            return dense;
        };
        const long long buckets = bucketBytesEff > 0
                                      ? std::max(1LL, (long long)std::ceil(G * pl.compression / bucketBytesEff - 1e-9))
                                      : 1;
        const double bucketBytes = G / double(buckets);
        e.dpBuckets = int(std::min<long long>(buckets, 1 << 30));
        const double backwardWindow = computeBc;   // last micro-batch's backward on this stage
        // Bucket i is ready at i/n of the window; buckets go one after another:
        // finish = max(W/n + n T, W + T)  =>  exposed = max(T, n T - (n-1)/n W).
        auto bucketed = [&](double perBucket, double window) {
            return pl.overlapDp ? std::max(perBucket, double(buckets) * perBucket - (double(buckets) - 1) / double(buckets) * window)
                                : double(buckets) * perBucket;
        };
        const Group dpGroup = groupOf(dpRanks, dpStride, cl);
        // The collective one bucket runs (the reduce-scatter when sharded): what the warnings and views read.
        const auto recordBucket = [&](const CollectiveTime &bucket) {
            e.dpAlgorithm = bucket.algorithm;
            e.dpProtocol = bucket.protocol;
            e.dpBucketSeconds = bucket.seconds;
            e.dpBucketLatencySeconds = bucket.latencySeconds;
        };
        // Gathered in the parameters' own width (fp32 training gathers fp32), the FP8 GEMM weights
        // in 1 byte with fp8_params.
        const double gatheredElementBytes = activationElementBytes(tr.precision);
        const double paramBytes = G * pl.compression / gradCommBytes
                                  * (tr.fp8Params ? gatheredElementBytes - maxStageMatrixShare * (gatheredElementBytes - 1.0) : gatheredElementBytes)
                                  / double(buckets);
        if (fw == Framework::DeepSpeed && p > 1) {
            // [DS] The pipeline engine turns the backward all-reduce hooks off and runs ReduceGrads
            // after the last backward: bucketed all-reduces of the whole gradient, nothing hidden
            // (runtime/pipe/engine.py _exec_reduce_grads); ZeRO-1 then all-gathers the updated
            // 16-bit parameters before the next step.
            const CollectiveTime ar = collectiveTime(Collective::AllReduce, Algorithm::Auto, bucketBytes, dpGroup, fabric);
            recordBucket(ar);
            dpTotal = double(buckets) * ar.seconds;
            if (pl.zeroStage >= 1) {
                e.dpGatherSeconds = double(buckets) * collectiveTime(Collective::AllGather, Algorithm::Auto, paramBytes, dpGroup, fabric).seconds;
                dpTotal += e.dpGatherSeconds;
            }
            dpExposed = dpTail = dpTotal;
        } else if (pl.zeroStage == 0) {
            const CollectiveTime ct = timed(Collective::AllReduce, bucketBytes, dpGroup);
            recordBucket(ct);
            dpTotal = double(buckets) * ct.seconds;
            dpExposed = dpTail = bucketed(ct.seconds, backwardWindow);
        } else {
            const int shards = std::min(shardRanks, dpRanks);
            const int replicas = dpRanks / shards;
            const Group shardGroup = groupOf(shards, dpStride, cl);
            const CollectiveTime rs = timed(Collective::ReduceScatter, bucketBytes, shardGroup);
            const CollectiveTime ag = timed(Collective::AllGather, paramBytes, shardGroup);
            recordBucket(rs);
            // A bucket's reduction: its reduce-scatter, then (HSDP) the all-reduce of its shard
            // across replicas on another stream. Buckets pipeline through the two stages: each
            // takes the longer stage, the last one adds the shorter.
            const double replicaBucket =
                replicas > 1 ? collectiveTime(Collective::AllReduce, Algorithm::Auto, bucketBytes / shards,
                                              groupOf(replicas, dpStride * shards, cl), fabric)
                                   .seconds
                             : 0.0;
            const double reduceBucket = std::max(rs.seconds, replicaBucket);
            const double reduceTail = std::min(rs.seconds, replicaBucket);
            const double rsStep = double(buckets) * (rs.seconds + replicaBucket), agStep = double(buckets) * ag.seconds;
            const bool keptGathered = fw == Framework::Fsdp && p > 1;
            const bool reducePerMicro = pl.zeroStage >= 2 && !keptGathered;
            // FSDP, Megatron-FSDP and DeepSpeed ZeRO-3 gather the parameters for every micro-batch's
            // forward and (ZeRO-3) again for its backward. DeepSpeed keeps a parameter gathered only
            // when it is reused within stage3_max_reuse_distance (1e9 parameters by default): the
            // backward of all but the last ~1e9 parameters' layers gathers again
            // (runtime/zero/partitioned_param_coordinator.py).
            const bool gathersParameters = fw == Framework::Fsdp || pl.zeroStage >= 3;
            const int gathersPerMicro = gathersParameters && !keptGathered ? (pl.zeroStage >= 3 ? 2 : 1) : 0;
            // [FSDP] What lies outside the transformer blocks (embedding, final norm, LM head) stays
            // gathered from forward to backward: FSDP1 does not free its root module after forward
            // (_runtime_utils.py _post_forward), which holds them under transformer-block wrapping
            // (fms-fsdp); OLMo-core kept them in the root as well (e27ba7455) and now keeps the LM
            // head with reshard_after_forward=False and the embedding out of backward
            // (set_unshard_in_backward(False); transformer/model.py); torchtitan keeps norm and head
            // (distributed/fsdp.py apply_fsdp_to_decoder) but regathers an untied embedding for its
            // backward, which needs no weights. The backward gather is the rest, in bytes: the kept
            // weights are 16-bit where fp8_params gathers the GEMM weights in 1 byte.
            e.dpBackwardGatherShare = 1.0;
            if (gathersPerMicro == 2 && fw == Framework::Fsdp && paramBytes > 0) {
                const double keptParams = counts.embeddingParams + counts.headParams + 2.0 * h;   // headParams is 0 when tied
                const double keptBytes = keptParams / t * gatheredElementBytes;
                e.dpBackwardGatherShare = std::clamp(1.0 - keptBytes / (paramBytes * double(buckets)), 0.0, 1.0);
            }
            const double gathersPerMicroLoad = gathersPerMicro == 2 ? 1.0 + e.dpBackwardGatherShare : double(gathersPerMicro);
            const double microWindow = computeFc + computeBc;
            const double perMicro = (reducePerMicro ? rsStep : 0.0) + gathersPerMicroLoad * agStep;
            dpTotal = double(m) * perMicro + (reducePerMicro ? 0.0 : rsStep) + (gathersPerMicro ? 0.0 : agStep);
            e.dpGatherSeconds = agStep;
            e.dpGathersPerMicro = gathersPerMicro;
            // [FSDP2] fully_shard copies each gathered parameter out of the all-gather buffer into
            // its layer's tensor (foreach_all_gather_copy_out: split_with_sizes_copy) and each
            // unsharded gradient into the reduce-scatter buffer in the reduction's type (foreach_reduce:
            // chunk_cat), both on the compute stream: a read and a write of every element, per gather
            // and per reduction (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py). FSDP1's
            // layers use views of its flat parameter and gradient.
            if (fw == Framework::Fsdp && pl.fsdpVersion >= 2 && pl.zeroStage >= 2 && tr.computeSecondsOverride <= 0) {
                const double gathers = gathersPerMicro ? double(m) * gathersPerMicroLoad : 1.0;
                const double reductions = reducePerMicro ? double(m) : 1.0;
                // The unsharded gradient is in the parameters' own width (gatheredElementBytes).
                const double copyBytes = gathers * 2.0 * paramBytes * double(buckets)
                                         + reductions * maxStageParamsPerGpu * (gatheredElementBytes + gradCommBytes);
                e.fsdpCopySeconds = copyBytes / spec.hbmBytesPerSecond;
                optimizerSeconds += e.fsdpCopySeconds;
            }
            e.dpReducePerMicroSeconds = reducePerMicro ? rsStep : 0.0;
            if (!pl.overlapDp) {   // each micro-batch waits for its own gathers and reduction
                dpPerMicro = double(m) * perMicro;
                dpTail = dpTotal - dpPerMicro;
                dpExposed = dpTotal;
            } else {
                // Per micro-batch traffic hides behind that micro-batch's compute; the first gather
                // and the last reduction bucket cannot.
                const double pipelinedPerMicro = (reducePerMicro ? double(buckets) * reduceBucket : 0.0) + gathersPerMicroLoad * agStep;
                dpPerMicro = double(m) * std::max(0.0, pipelinedPerMicro - microWindow);
                dpLead = gathersPerMicro ? ag.seconds : 0.0;
                dpTail = (reducePerMicro ? reduceBucket : bucketed(reduceBucket, backwardWindow)) + reduceTail;
                if (!gathersPerMicro) {   // one gather per step: Megatron and FSDP+PP prefetch it under the first forward
                    e.dpGatherPrefetched = fw != Framework::DeepSpeed;
                    if (e.dpGatherPrefetched)
                        dpLead += std::max(ag.seconds, agStep - computeFc);
                    else   // DeepSpeed gathers the updated parameters after the optimizer step
                        dpTail += agStep;
                }
                dpExposed = dpLead + dpPerMicro + dpTail;
                if (dpExposed > dpTotal) {   // no more exposed than there is traffic
                    const double scale = dpTotal / dpExposed;
                    dpLead *= scale, dpPerMicro *= scale, dpTail *= scale;
                    dpExposed = dpTotal;
                }
            }
        }
        // Hidden collectives hold NCCL's SMs while the compute they hide behind runs on the rest.
        e.dpNcclComputeShare = ncclComputeShare(spec, dpChannelSms(dpGroup, fabric));
        e.dpInterferenceSeconds = std::max(0.0, dpTotal - dpExposed) * e.dpNcclComputeShare;
        dpExposed += e.dpInterferenceSeconds;
        const double interval = pl.localSgdInterval;
        e.dpInterferenceSeconds /= interval;
        dpTotal /= interval;
        dpExposed /= interval;
        e.dpLeadSeconds = dpLead / interval;
        e.dpPerMicroExposedSeconds = dpPerMicro / interval;
        e.dpTailSeconds = dpTail / interval;
        e.dpGatherSeconds /= interval;
        e.dpReducePerMicroSeconds /= interval;
    }

    // ---- Stragglers: a synchronous step waits for the slowest of N (Blom's approximation of
    // the expected maximum of N normals; ~sqrt(2 ln N) for large N) ----
    const double sigma = pl.jitter * pipelineSeconds;
    double stragglerSeconds = 0, medianExtra = 0, p99Extra = 0;
    if (N > 1 && sigma > 0) {
        stragglerSeconds = sigma * normalQuantileUpper(1.0 - (N - 0.375) / (N + 0.25));
        medianExtra = sigma * maxOfNormalsQuantile(0.5, N);
        p99Extra = sigma * maxOfNormalsQuantile(0.99, N);
    }

    Breakdown &bd = e.breakdown;
    const double criticalLayers = stageLayers[size_t(critical)];
    bd.computeSeconds = double(m) * (computeFc + computeBc);
    bd.tpCommSeconds = double(m) * criticalLayers * (tpLayerFwd + tpLayerBwd);
    bd.tpCommExposedSeconds = double(m) * (tpFwdExposedStage + tpBwdExposedStage);
    bd.cpCommSeconds = double(m) * criticalLayers * (cpLayerFwd + cpLayerBwd);
    bd.cpCommExposedSeconds = double(m) * (cpFwdExposedStage + cpBwdExposedStage);
    bd.epCommSeconds = double(m) * criticalLayers * (epLayerFwd + epLayerBwd);
    bd.epCommExposedSeconds = double(m) * (epFwdExposedStage + epBwdExposedStage);
    bd.ppBubbleSeconds = bubble;
    // Each micro-batch's two transfers on a stage, plus the fill and drain hops across the other
    // p - 1 boundaries, which the exposed figure counts too (so exposed never exceeds the total).
    bd.ppP2pSeconds = p > 1 ? (2.0 * double(m) * v + 2.0 * (p - 1)) * st.p2pSeconds : 0.0;
    bd.ppP2pExposedSeconds = p2pExposed;
    bd.dpCommSeconds = dpTotal;
    bd.dpCommExposedSeconds = dpExposed;
    bd.optimizerSeconds = optimizerSeconds;
    bd.offloadExposedSeconds = double(m) * (e.offloadForwardStallSeconds + e.offloadBackwardStallSeconds);
    bd.stragglerSeconds = stragglerSeconds;
    const double baseSeconds = pipelineSeconds + dpExposed + optimizerSeconds;
    bd.stepSeconds = baseSeconds + stragglerSeconds;
    e.stepMedianSeconds = baseSeconds + medianExtra;
    e.stepP99Seconds = baseSeconds + p99Extra;

    // ---- Throughput [SC21] Eq. 3. Model FLOPs count the full (non-causal) s^2 attention, as
    // Megatron-LM, NeMo and torchtitan print them; the causal count (what the kernels execute)
    // is reported beside it. Recompute adds the forward work done again. ----
    e.tokensPerStep = double(tr.globalBatch) * s;
    const double forwardPerToken = forwardFlopsPerToken(counts, w.layers);
    e.modelFlopsPerStep = 3.0 * forwardPerToken * e.tokensPerStep;
    // The pairs the kernels execute: s^2/2 causal, fewer under a sliding window (shape.h).
    const double executedAttentionShareOfFull = executedAttentionShare(w);
    const double attentionLayers = w.layers + w.mtpLayers;   // the MTP layers attend too (in forwardPerToken)
    e.modelFlopsPerStepCausal = e.modelFlopsPerStep
                                - 3.0 * attentionLayers * counts.layerAttentionFlopsPerToken * (1 - executedAttentionShareOfFull) * e.tokensPerStep;
    double recomputePerToken = 0;
    if (tr.recompute == Recompute::Full)
        recomputePerToken = recomputedShare * w.layers * (counts.layerMatrixFlopsPerToken + counts.layerAttentionFlopsPerToken);
    else if (tr.recompute == Recompute::Selective)
        recomputePerToken = fw == Framework::Fsdp ? w.layers * 0.5 * counts.layerMatrixFlopsPerToken
                                                  : w.layers * recomputedModuleFlopsPerToken(w, counts, recomputeModules);
    e.hardwareFlopsPerStep = e.modelFlopsPerStep + recomputePerToken * e.tokensPerStep;
    const double step = bd.stepSeconds;
    e.modelFlopsPerSecondPerGpu = e.modelFlopsPerStep / (N * step);
    e.hardwareFlopsPerSecondPerGpu = e.hardwareFlopsPerStep / (N * step);
    // Utilisation counts the attention work that exists: with a causal mask half of s^2 (PaLM's
    // MFU counts useful FLOPs). The full-s^2 figures of published tables stay in the TFLOP/s keys,
    // and can exceed the peak for long causal sequences, so they are not called utilisation.
    const double causalAttentionPerToken = attentionLayers * counts.layerAttentionFlopsPerToken * (1 - executedAttentionShareOfFull);
    e.mfu = e.modelFlopsPerStepCausal / (N * step) / peakMatrix;
    e.mfuFullAttention = e.modelFlopsPerSecondPerGpu / peakMatrix;
    const double recomputedAttentionShare = tr.recompute == Recompute::Full ? recomputedShare
                                            : tr.recompute == Recompute::Selective && fw != Framework::Fsdp
                                                    && (recomputeModules & kRecomputeCoreAttn)
                                                ? w.layers / attentionLayers
                                                : 0.0;
    e.hfu = (e.hardwareFlopsPerStep - (3.0 + recomputedAttentionShare) * causalAttentionPerToken * e.tokensPerStep) / (N * step) / peakMatrix;
    e.tokensPerSecond = e.tokensPerStep / step;
    e.stepsToTrain = tr.tokens / e.tokensPerStep;
    e.trainSeconds = e.stepsToTrain * step;
    e.gpuHours = e.trainSeconds * N / units::kSecondsPerHour;
    const double exposedComm = bd.tpCommExposedSeconds + bd.cpCommExposedSeconds + bd.epCommExposedSeconds + bd.ppP2pExposedSeconds + dpExposed;
    e.communicationFraction = exposedComm / step;
    e.feasible = true;

    // ---- Warnings, each with the change that fixes it ----
    const auto applyFix = [&](const std::pair<Change, Change> &fix) -> Scenario {
        if (fix.second.field == Field::None)
            return applyChange(sc, fix.first);
        return applyChange(applyChange(sc, fix.first), fix.second);
    };
    // Warnings whose change was chosen among candidates that validate (bit i: warning i); the rest
    // are checked once at the end.
    unsigned fixValidated = 0;
    const auto markValidated = [&](int index) {
        if (index >= 0)
            fixValidated |= 1u << index;
    };
    static_assert(kMaxWarnings <= 32);
    // Of candidate changes (each evaluated), the one with the shortest step per token, so that a
    // larger batch is judged by the same work; `fallback` when none beats the plan.
    const auto fastestFix = [&](const FixCandidates &candidates,
                                std::pair<Change, Change> fallback) {
        double bestPerToken = step / e.tokensPerStep;
        std::optional<std::pair<Change, Change>> best;
        for (const std::pair<Change, Change> &candidate : candidates) {
            const Evaluation trial = evaluateImpl(applyFix(candidate), false);
            // A change that makes a fitting plan overflow its GPUs fixes nothing, nor as the fallback.
            const bool runs = trial.feasible && (trial.memory.fits || !e.memory.fits);
            if (!runs && candidate == fallback)
                fallback = {};
            if (runs && trial.breakdown.stepSeconds / trial.tokensPerStep < bestPerToken) {
                bestPerToken = trial.breakdown.stepSeconds / trial.tokensPerStep;
                best = candidate;
            }
        }
        return best.value_or(fallback);
    };
    // The fastest per token of candidate changes that run (valid, and fitting when the plan fits),
    // faster than the plan or not, else none: for warnings whose fix is a layout to move to, as long
    // as it is a plan the tool can evaluate.
    const auto fastestRunningFix = [&](const FixCandidates &candidates) {
        double bestPerToken = std::numeric_limits<double>::infinity();
        std::optional<std::pair<Change, Change>> best;
        for (const std::pair<Change, Change> &candidate : candidates) {
            const Evaluation trial = evaluateImpl(applyFix(candidate), false);
            if (!trial.feasible || (!trial.memory.fits && e.memory.fits))
                continue;
            if (trial.breakdown.stepSeconds / trial.tokensPerStep < bestPerToken) {
                bestPerToken = trial.breakdown.stepSeconds / trial.tokensPerStep;
                best = candidate;
            }
        }
        return best.value_or(std::pair<Change, Change>{});
    };
    // The first candidate that runs, else none: it validates, and where the plan fits it still
    // fits (evaluated then only: a plan that overflows already is told how to fit first).
    const auto firstRunningFix = [&](const FixCandidates &candidates) {
        for (const std::pair<Change, Change> &candidate : candidates) {
            const Scenario fixed = applyFix(candidate);
            if (validate(fixed))
                continue;
            if (!e.memory.fits)
                return candidate;
            if (const Evaluation trial = evaluateImpl(fixed, false); trial.feasible && trial.memory.fits)
                return candidate;
        }
        return std::pair<Change, Change>{};
    };
    // [MoE] Fewer expert-dispatch copies (the flex dispatcher, when EP leaves the node), the
    // dispatch behind another micro-batch's layer (ep_overlap, where Megatron-Core allows it), or
    // both: the fastest that runs.
    const auto addEpCandidates = [&](FixCandidates &candidates) {
        if (!moe || pl.ep <= 1)
            return;
        const bool flex = pl.epDispatcher == EpDispatcher::AllToAll && groupOf(pl.ep, 1, cl).nodes() > 1;
        const bool overlap = !pl.epOverlap && tr.recompute != Recompute::Full
                             && (p == 1 || pl.schedule == Schedule::Interleaved || pl.schedule == Schedule::DualPipeV);
        const Change deepEp{Field::EpDispatcher, double(int(EpDispatcher::DeepEp))}, overlapOn{Field::EpOverlap, 1};
        if (flex)
            candidates.push_back({deepEp, {}});
        if (overlap)
            candidates.push_back({overlapOn, {}});
        // Both: fewer copies, and the rest (with the dispatcher's host sync) behind the other micro-batch.
        if (flex && overlap)
            candidates.push_back({deepEp, overlapOn});
    };
    // TP cut to tpTo, the GPUs it frees to PP, DP or CP: the TP warnings below take the fastest of
    // those that run (each evaluated; a TP across nodes or over PCIe is rare, so the trials cost the
    // default plan nothing). None runs (a batch DP does not divide, more stages than layers, an
    // overflow): the warning names the problem without a change that would break the plan.
    const auto tpCutCandidates = [&](int tpTo) {
        const int factor = t / tpTo;
        FixCandidates candidates;
        if (w.layers >= p * factor)
            candidates.push_back({{Field::Tp, double(tpTo)}, {Field::Pp, double(p) * factor}});
        candidates.push_back({{Field::Tp, double(tpTo)}, {Field::Dp, double(d) * factor}});
        candidates.push_back({{Field::Tp, double(tpTo)}, {Field::Cp, double(c) * factor}});
        return candidates;
    };
    if (e.communicationFraction > kCommunicationWarnFraction && withWarnings) {
        // Recommend the candidate change that gives the shortest step (each evaluated).
        FixCandidates candidates;
        addEpCandidates(candidates);
        if (!pl.overlapDp)
            candidates.push_back({{Field::OverlapDp, 1}, pl.bucketBytes == 0 ? Change{Field::Bucket, kFrameworkBucket} : Change{}});
        else if (pl.bucketBytes == 0)
            candidates.push_back({{Field::Bucket, kFrameworkBucket}, {}});
        if (!cl.inNetworkReduction && N > cl.gpusPerNode && cl.transport == Transport::Rdma)
            candidates.push_back({{Field::InNetworkReduction, 1}, {}});
        if (cl.transport == Transport::Tcp)
            candidates.push_back({{Field::Transport, 1}, {}});
        if (t > 1 && t % 2 == 0)   // half the TP, the freed GPUs to PP, DP or CP (whichever runs fastest)
            for (const std::pair<Change, Change> &cut : tpCutCandidates(t / 2))
                candidates.push_back(cut);
        if (pl.zeroStage == 3)
            candidates.push_back({{Field::Zero, 1}, {}});
        // More compute per sync; not judged when compute_time is given (it would not grow with the batch).
        if (tr.computeSecondsOverride <= 0 || candidates.empty())
            candidates.push_back({{Field::GlobalBatch, double(tr.globalBatch) * 4}, {}});
        // Four times the batch is the fallback when no candidate is faster (as before the TP cuts
        // joined the list); with compute_time given there is none.
        const std::pair<Change, Change> fallback = tr.computeSecondsOverride <= 0 || candidates.count == 1 ? candidates.back()
                                                                                                          : std::pair<Change, Change>{};
        const std::pair<Change, Change> best = fastestFix(candidates, fallback);
        markValidated(addWarning(e, WarningCode::CommunicationDominates, e.communicationFraction, kCommunicationWarnFraction, best.first,
                   best.second));
    }
    if (!withWarnings)
        return e;
    // More micro-batches keep more of them in flight where m < p (and under GPipe): the larger
    // batch is offered only if the plan still fits.
    if (p > 1 && m < p) {
        const std::pair<Change, Change> fix = firstRunningFix({{{Field::GlobalBatch, double(p) * b * d}, {}}});
        markValidated(addWarning(e, WarningCode::FewMicroBatches, double(m), double(p), fix.first, fix.second));
    } else if (p > 1 && e.pipelineEfficiency < kPipelineEfficiencyWarn) {
        // The closed form's m for 80%; none where it asks for no more than the plan has (the
        // shortfall is then the uneven stages' or the transfers', which more micro-batches do not fix).
        const long long need = requiredMicroBatches(pl.schedule, p, v, kPipelineEfficiencyWarn, st);
        const std::pair<Change, Change> fix = need > m ? firstRunningFix({{{Field::GlobalBatch, double(need) * b * d}, {}}})
                                                       : std::pair<Change, Change>{};
        markValidated(addWarning(e, WarningCode::LowPipelineEfficiency, e.pipelineEfficiency, kPipelineEfficiencyWarn,
                                 fix.first, fix.second));
    }
    if (t > cl.gpusPerNode && t % cl.gpusPerNode == 0) {
        const std::pair<Change, Change> best = fastestRunningFix(tpCutCandidates(cl.gpusPerNode));
        markValidated(addWarning(e, WarningCode::TpSpansNodes, t, cl.gpusPerNode, best.first, best.second));
    } else if (t > cl.gpusPerNode || tpGroup.straddles || (t > 1 && tpGroup.nodes() > 1)) {
        // TP=4 with 6 GPUs per node, or a rank order that puts TP outside the node.
        int fit = 1;
        while (fit * 2 <= t && cl.gpusPerNode % (fit * 2) == 0 && t % (fit * 2) == 0)
            fit *= 2;
        // A TP that fits the node but sits across nodes by the rank order: no TP to cut to (the
        // text points at plan.rank_order).
        const std::pair<Change, Change> best = fit == t ? std::pair<Change, Change>{} : fastestRunningFix(tpCutCandidates(fit));
        markValidated(addWarning(e, t > cl.gpusPerNode ? WarningCode::TpSpansNodes : WarningCode::TpStraddlesNodes, t, cl.gpusPerNode,
                   best.first, best.second));
    }
    else if (t > 1 && cl.intraNode.bytesPerSecond < kSlowTpLinkBytesPerSecond) {
        const std::pair<Change, Change> best = fastestRunningFix(tpCutCandidates(1));
        markValidated(addWarning(e, WarningCode::TpOverSlowLink, cl.intraNode.bytesPerSecond, kSlowTpLinkBytesPerSecond, best.first,
                   best.second));
    }
    // The K/V exchange left the node and a tenth of the step waits for it (the share the TP warning
    // uses): recommend the in-node split that runs fastest per token, each evaluated, so a plan
    // whose CP must span nodes to fit (Llama 3.1 405B at TP 8, CP 2 on 8-GPU nodes, as NVIDIA runs
    // it) is not told to drop it.
    if (c > 1 && double(t) * c > cl.gpusPerNode && bd.cpCommExposedSeconds > kExposedCpWarnFraction * step
        && e.communicationFraction <= kCommunicationWarnFraction) {
        FixCandidates candidates;
        const int cpInNode = std::max(1, cl.gpusPerNode / t);
        if (cpInNode < c)
            candidates.push_back({{Field::Cp, double(cpInNode)}, {Field::Dp, double(d) * c / cpInNode}});
        const int tpInNode = std::max(1, cl.gpusPerNode / c);
        if (tpInNode < t && w.heads % tpInNode == 0)
            candidates.push_back({{Field::Tp, double(tpInNode)}, {Field::Dp, double(d) * t / tpInNode}});
        // Or keep the split and move K/V another way: a gathered or all-to-all exchange drives
        // every rank's NIC where the ring's hops cross nodes at its boundary pairs only.
        for (const CpComm other : {CpComm::P2p, CpComm::AllGather, CpComm::A2a})
            if (other != pl.cpComm && frameworkRunsCpComm(pl.framework, other, c))
                candidates.push_back({{Field::CpComm, double(int(other))}, {}});
        const std::pair<Change, Change> best = fastestFix(candidates, {});
        markValidated(addWarning(e, WarningCode::CpSpansNodes, bd.cpCommExposedSeconds / step, kExposedCpWarnFraction, best.first,
                   best.second));
    }
    const bool hostOverflow = e.memory.offloadedBytes > e.memory.hostCapacityBytes;
    if (hostOverflow) {
        // Offload only as many layers as host memory holds (each the same bytes).
        const double perLayer = e.offloadLayerBytes;
        const int hostLayers = perLayer > 0 ? int(std::floor(e.memory.hostCapacityBytes / perLayer)) : 0;
        addWarning(e, WarningCode::HostMemoryExceeded, e.memory.offloadedBytes, e.memory.hostCapacityBytes,
                   {Field::OffloadLayers, double(std::max(0, hostLayers))});
    }
    if (!e.memory.fits && e.memory.totalBytes > e.memory.capacityBytes) {
        // The next ZeRO stage the plan's framework runs, else full recompute (without the expert
        // overlap, which Megatron-Core runs only without it), else PP doubled: the first that runs.
        FixCandidates candidates;
        for (int zero = pl.zeroStage + 1; zero <= 3 && d * c > 1; ++zero)
            candidates.push_back({{Field::Zero, double(zero)}, {}});
        if (tr.recompute != Recompute::Full)
            candidates.push_back({{Field::Recompute, double(int(Recompute::Full))},
                                  pl.epOverlap ? Change{Field::EpOverlap, 0} : Change{}});
        else if (e.recomputedLayerShare < 1)
            candidates.push_back({{Field::RecomputeLayers, 0.0}, {}});   // recompute every layer, not the first few
        if (d % 2 == 0 && w.layers >= 2 * p)
            candidates.push_back({{Field::Pp, double(p) * 2}, {Field::Dp, double(d / 2)}});
        const std::pair<Change, Change> fix = firstRunningFix(candidates);
        markValidated(addWarning(e, WarningCode::DoesNotFitMemory, e.memory.totalBytes, e.memory.capacityBytes, fix.first, fix.second));
    }
    if (cl.transport == Transport::Tcp && N > cl.gpusPerNode)
        addWarning(e, WarningCode::TcpTransport, 0, 0, {Field::Transport, 1});
    // The fabric warnings look at the network's time, not at the compute a hidden sync slows.
    const double dpExposedComm = dpExposed - e.dpInterferenceSeconds;
    if (!pl.overlapDp && dpTotal > 0.05 * step && e.communicationFraction <= kCommunicationWarnFraction)
        addWarning(e, WarningCode::DpNotOverlapped, dpTotal / step, 0.05, {Field::OverlapDp, 1});
    // Overlapped, and still exposed: only the last micro-batch's backward (and the first forward,
    // for a parameter gather) can hide a per-step sync. Recommend the candidate that gives the
    // shortest step per token, each evaluated: 16-bit reduction where it is fp32, a longer last
    // backward (larger micro-batches), more tokens per sync, fewer parameters per GPU (TP inside
    // the node, or PP), switches that reduce in flight.
    if (pl.overlapDp && dpExposedComm > kExposedSyncWarnFraction * step
        && e.communicationFraction <= kCommunicationWarnFraction) {
        FixCandidates candidates;
        if (gradCommBytes > 2 && tr.precision != Precision::Fp32)
            candidates.push_back({{Field::GradReduce, double(int(GradReduce::Bf16))}, {}});
        if (!cl.inNetworkReduction && N > cl.gpusPerNode && cl.transport == Transport::Rdma)
            candidates.push_back({{Field::InNetworkReduction, 1}, {}});
        if (d % 2 == 0 && 2 * t <= cl.gpusPerNode && w.heads % (2 * t) == 0)
            candidates.push_back({{Field::Tp, double(2 * t)}, {Field::Dp, double(d / 2)}});
        if (d % 2 == 0 && w.layers >= 2 * p)
            candidates.push_back({{Field::Pp, double(2 * p)}, {Field::Dp, double(d / 2)}});
        // A longer last backward, the global batch kept: twice the micro-batch, half as many.
        if (m >= 2 && tr.computeSecondsOverride <= 0)
            candidates.push_back({{Field::MicroBatch, double(tr.microBatch) * 2}, {}});
        if (tr.computeSecondsOverride <= 0)
            candidates.push_back({{Field::GlobalBatch, double(tr.globalBatch) * 2}, {}});
        const std::pair<Change, Change> best = fastestFix(candidates, {});
        markValidated(addWarning(e, WarningCode::GradientSyncExposed, dpExposedComm / step, kExposedSyncWarnFraction, best.first,
                   best.second));
    }
    // TP collectives in the open for a large share of the step: hide them behind the GEMMs
    // (plan.tp_overlap: Transformer Engine's userbuffers, torchtitan's AsyncTP), which needs the TP
    // group inside one node's NVLink (a group that leaves the node has its own warning above). Not
    // weighed against other fixes by evaluating them: the default plan fires it, and every
    // evaluation of it would pay for those trials (eval_per_second).
    // Where TP overlap cannot run (latent attention under Megatron-Core, NVFP4: validate()) the
    // warning stands without a change, and its text says to lower TP.
    if (t > 1 && !pl.tpOverlap && tpGroup.nodes() <= 1 && !tpGroup.straddles
        && bd.tpCommExposedSeconds > kExposedTpWarnFraction * step && e.communicationFraction <= kCommunicationWarnFraction) {
        // Validated here by validate()'s own TP-overlap rules (the only ones that read it).
        const bool overlapRuns = !tpOverlapProblem(sc, &tpGroup);
        markValidated(addWarning(e, WarningCode::TpCommExposed, bd.tpCommExposedSeconds / step, kExposedTpWarnFraction,
                                 overlapRuns ? Change{Field::TpOverlap, 1} : Change{}));
    }
    // Overlapped, and still in the open for that share: the node's links are too slow for this TP
    // (an H800's 8 NVLinks), so the GEMMs cannot hide them. The evaluated faster of
    // half the TP with twice the PP or twice the DP, that still fits; none when neither is faster.
    // Evaluated here only, where TP overlap is already on (the default plan does not reach it).
    if (t > 1 && t % 2 == 0 && pl.tpOverlap && tpGroup.nodes() <= 1 && !tpGroup.straddles
        && cl.intraNode.bytesPerSecond >= kSlowTpLinkBytesPerSecond   // below it tp_over_slow_link says TP 1
        && bd.tpCommExposedSeconds > kExposedTpWarnFraction * step && e.communicationFraction <= kCommunicationWarnFraction) {
        FixCandidates candidates;
        if (w.layers >= 2 * p)
            candidates.push_back({{Field::Tp, double(t / 2)}, {Field::Pp, double(2 * p)}});
        candidates.push_back({{Field::Tp, double(t / 2)}, {Field::Dp, double(2 * d)}});
        const std::pair<Change, Change> best = fastestFix(candidates, {});
        markValidated(addWarning(e, WarningCode::TpCommExposed, bd.tpCommExposedSeconds / step, kExposedTpWarnFraction, best.first,
                   best.second));
    }
    // [MoE] Expert dispatch and combine in the open for a large share of the step: send each token
    // once per node (the flex dispatcher) when EP leaves the node, or run them behind another
    // micro-batch's layer (ep_overlap, where Megatron-Core allows it), or both; the evaluated fastest.
    if (moe && pl.ep > 1 && bd.epCommExposedSeconds > kExposedEpWarnFraction * step
        && e.communicationFraction <= kCommunicationWarnFraction) {
        FixCandidates candidates;
        addEpCandidates(candidates);
        const std::pair<Change, Change> best = fastestFix(candidates, {});
        markValidated(addWarning(e, WarningCode::EpCommExposed, bd.epCommExposedSeconds / step, kExposedEpWarnFraction, best.first,
                   best.second));
    }
    if (dpRanks > 1 && e.dpBuckets > 1 && e.dpBucketSeconds > 0) {
        // The latency share of the bucket's own collective (all-reduce, or the sharded reduce-scatter,
        // whose algorithm may be one with no all-reduce: PAT).
        const double alphaShare = e.dpBucketLatencySeconds / e.dpBucketSeconds;
        if (alphaShare > kLatencyBoundShare && dpExposedComm > 0.02 * step)
            addWarning(e, WarningCode::LatencyBoundBuckets, alphaShare, kLatencyBoundShare,
                       {Field::Bucket, bucketBytesEff * 8});
    }
    if (cl.oversubscription > 1 && dpRanks > 1 && d * double(t) * c > cl.gpusPerNode && dpExposedComm > 0.1 * step)
        addWarning(e, WarningCode::OversubscribedFabric, cl.oversubscription, 1, {Field::Oversubscription, 1});
    if (pl.zeroStage == 3 && N > cl.gpusPerNode && fabric.inter.bytesPerSecond < kSlowZero3LinkBytesPerSecond
        && dpExposedComm > 0.1 * step) {
        // ZeRO-1 where the framework runs it; FSDP shards gradients with the optimizer, so its
        // answer is SHARD_GRAD_OP (zero 2), which gathers the parameters once a step.
        const std::pair<Change, Change> fix = firstRunningFix({{{Field::Zero, 1}, {}}, {{Field::Zero, 2}, {}}});
        markValidated(addWarning(e, WarningCode::ZeroThreeOnSlowFabric, fabric.inter.bytesPerSecond, kSlowZero3LinkBytesPerSecond,
                   fix.first, fix.second));
    }
    if (tr.computeSecondsOverride > 0) {
        // The given compute time against the FLOPs it must hold: above peak is impossible.
        const double implied = e.hardwareFlopsPerStep / (N * tr.computeSecondsOverride * peakMatrix);
        if (implied > 1)
            addWarning(e, WarningCode::ComputeAbovePeak, implied, 1.0, {Field::ComputeTime, 0});
    }
    // A named framework that has no such schedule: the numbers describe a plan it cannot run.
    if (pl.framework != Framework::Auto && !frameworkRunsSchedule(pl.framework, pl.schedule, p))
        addWarning(e, WarningCode::ScheduleNotInFramework, double(int(pl.schedule)), double(int(pl.framework)),
                   {Field::Schedule, double(int(Schedule::OneFOneB))});
    if (pl.framework != Framework::Auto && !frameworkRunsCpComm(pl.framework, pl.cpComm, c)) {
        // The framework's exchange, or no context parallelism where that cannot split the heads.
        // CP 1 gives its ranks to DP, or to TP where the node and heads allow (DP changes the
        // micro-batches, which an interleaved schedule needs a multiple of pp).
        FixCandidates candidates{{{Field::CpComm, double(int(frameworkCpComm(pl.framework)))}, {}},
                                                          {{Field::Cp, 1}, {Field::Dp, double(d) * c}}};
        if (t * c <= cl.gpusPerNode && w.heads % (t * c) == 0)
            candidates.push_back({{Field::Cp, 1}, {Field::Tp, double(t) * c}});
        const std::pair<Change, Change> fix = firstRunningFix(candidates);
        markValidated(addWarning(e, WarningCode::CpCommNotInFramework, double(int(pl.cpComm)), double(int(pl.framework)), fix.first,
                   fix.second));
    }
    if (stragglerSeconds > kStragglerWarnFraction * step)
        addWarning(e, WarningCode::Stragglers, (e.stepP99Seconds - e.stepMedianSeconds) / e.stepMedianSeconds,
                   kStragglerWarnFraction);
    // No warning offers a change that gives a plan the tool rejects: the ones above pick among valid
    // candidates; this catches a fix whose validity another input decides (the fix is dropped and
    // the text says what to do instead).
    for (int i = 0; i < e.warningCount; ++i) {
        Warning &warning = e.warnings[size_t(i)];
        if (warning.changeCount > 0 && !(fixValidated & (1u << i)) && validate(applyWarning(sc, warning))) {
            warning.changes = {};
            warning.changeCount = 0;
        }
    }
    return e;
}

} // namespace

ValidDegrees validDegrees(const Workload &w, int gpus)
{
    ValidDegrees out;
    if (gpus < 1)
        return out;
    for (int x : divisorsOf(gpus)) {
        if (w.heads % x == 0 && (w.kvHeads % x == 0 || x % std::max(1, w.kvHeads) == 0))
            out.tp.push_back(x);
        if (x <= w.layers)
            out.pp.push_back(x);
        if (w.seqLen % x == 0)
            out.cp.push_back(x);
        out.dp.push_back(x);
    }
    return out;
}

ValidDegrees validDegrees(const Scenario &s)
{
    ValidDegrees out = validDegrees(s.workload, s.cluster.gpus);
    constexpr double kMaxGlobalBatch = 1e9;
    const long long quantum = (long long)std::max(1, s.training.microBatch) * std::max(1, s.plan.dp)
                              * (s.plan.schedule == Schedule::Interleaved ? std::max(1, s.plan.pp) : 1);
    // k = 1, 2, 3, 4, 6, 8, 12, 16, ...: about two steps per octave of micro-batch counts.
    for (long long power = 1; double(quantum) * power <= kMaxGlobalBatch; power *= 2) {
        out.globalBatch.push_back(double(quantum * power));
        if (power >= 2 && double(quantum) * power * 3 / 2 <= kMaxGlobalBatch)
            out.globalBatch.push_back(double(quantum * power * 3 / 2));
    }
    std::sort(out.globalBatch.begin(), out.globalBatch.end());
    if (s.plan.schedule == Schedule::DualPipeV && s.plan.pp > 1 && !out.globalBatch.empty()
        && out.globalBatch.back() >= double(quantum) * 2 * s.plan.pp)   // its 2 pp micro-batches at least
        std::erase_if(out.globalBatch, [&](double g) { return g < double(quantum) * 2 * s.plan.pp; });
    const long long stageRanks = (long long)std::max(1, s.plan.tp) * std::max(1, s.plan.cp) * std::max(1, s.plan.dp);
    for (long long x = 1; x <= std::min<long long>(std::max(1, s.workload.experts), stageRanks); ++x)
        if (s.workload.experts % x == 0 && stageRanks % x == 0)
            out.ep.push_back(int(x));
    if (out.ep.empty())
        out.ep.push_back(1);
    return out;
}

} // namespace ts
