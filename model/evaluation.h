// SPDX-License-Identifier: MIT
// Output value types of the cost model. All quantities in SI base units.
#pragma once

#include "collectives.h"
#include "fields.h"
#include "inputs.h"
#include "pipeline.h"

#include <array>
#include <string>

namespace ts {

/// Why a scenario cannot be evaluated. `field` is the scenario key ("plan.tp").
struct Problem
{
    std::string field;
    std::string message;
};
/// "field: message", or the message alone when no one key is at fault.
inline std::string describe(const Problem &p) { return p.field.empty() ? p.message : p.field + ": " + p.message; }

/// Where one step's time goes on the critical path. The *Exposed* and plain
/// terms that are summed make stepSeconds exactly (see evaluate.cpp).
struct Breakdown
{
    double computeSeconds = 0;        // forward + backward (+ recompute) of all micro-batches
    double tpCommSeconds = 0;         // tensor-parallel collectives, total
    double tpCommExposedSeconds = 0;  // ... on the critical path
    double cpCommSeconds = 0;         // context-parallel K/V exchange, total
    double cpCommExposedSeconds = 0;
    double epCommSeconds = 0;         // mixture-of-experts all-to-all dispatch and combine, total
    double epCommExposedSeconds = 0;
    double ppBubbleSeconds = 0;       // pipeline fill and drain idle time
    double ppP2pSeconds = 0;          // boundary send/recv per step: a stage's, plus fill and drain hops
    double ppP2pExposedSeconds = 0;
    double dpCommSeconds = 0;         // gradient synchronisation, total (per step, after local SGD)
    double dpCommExposedSeconds = 0;
    double optimizerSeconds = 0;
    double offloadExposedSeconds = 0; // activation offload / reload the compute waits for (training.offload_layers)
    double stragglerSeconds = 0;      // expected wait for the slowest of N GPUs
    double stepSeconds = 0;
};

struct MemoryBreakdown
{
    double weightsBytes = 0;
    double gradientsBytes = 0;
    double optimizerBytes = 0;
    double activationsBytes = 0;
    double lossBytes = 0;             // logits and cross-entropy buffers (last stage)
    double buffersBytes = 0;          // DDP buckets, p2p, ZeRO-3/FSDP gathers
    double runtimeBytes = 0;          // CUDA context, workspaces, caching-allocator reserve
    double totalBytes = 0;
    double offloadedBytes = 0;        // activations held in host memory instead (training.offload_layers), not in totalBytes
    double hostCapacityBytes = 0;     // host memory per GPU they must fit in (cluster.gpu.host_memory)
    double capacityBytes = 0;
    double inFlightMicroBatches = 0;  // micro-batches whose activations this stage holds at its peak
    int stage = 0;                    // the pipeline stage these figures are for: the fullest
    int stages = 1;
    bool fits = true;
};

/// A change to one input (model/fields.h); a warning's recommendation is one or two of these.
struct Change
{
    Field field = Field::None;
    double value = 0;   // SI; enums and bools as their integer value

    bool operator==(const Change &) const = default;
};

enum class WarningCode {
    CommunicationDominates,  // exposed communication > 50% of the step
    LowPipelineEfficiency,   // pipeline efficiency < 80%
    FewMicroBatches,         // m < p: stages idle most of the step
    TpSpansNodes,            // TP group crosses the node boundary
    TpStraddlesNodes,        // TP group fits a node in size but its ranks are split over two nodes
    TpOverSlowLink,          // TP over PCIe-class intra-node links
    CpSpansNodes,            // context-parallel K/V exchange crosses nodes
    DoesNotFitMemory,        // per-GPU memory > HBM
    HostMemoryExceeded,      // offloaded activations > the GPU's share of host memory
    TcpTransport,            // TCP instead of RDMA
    DpNotOverlapped,         // overlap off while gradient sync is significant
    LatencyBoundBuckets,     // DP buckets so small that alpha dominates
    OversubscribedFabric,    // DP traffic crosses an oversubscribed spine
    ZeroThreeOnSlowFabric,   // ZeRO-3 parameter gathers on a slow inter-node link
    Stragglers,              // p99 step noticeably above median
    ComputeAbovePeak,        // a given compute time implies more than the GPUs' peak FLOP/s
    ScheduleNotInFramework,  // the named framework has no such pipeline schedule
    GradientSyncExposed,     // overlapped gradient sync still exposed for a large share of the step
    TpCommExposed,           // TP collectives in the open for a large share of the step (overlap off, or on over slow links)
    CpCommNotInFramework,    // the named framework has no such context-parallel K/V exchange
    EpCommExposed,           // expert dispatch and combine in the open for a large share of the step
    Count                    // not a warning: the number of codes
};

struct Warning
{
    WarningCode code = WarningCode::CommunicationDominates;
    double value = 0;       // the measured quantity (fraction, bytes, ...), see describe()
    double threshold = 0;   // the limit it crossed
    std::array<Change, 2> changes{};
    int changeCount = 0;
};

struct WarningText
{
    std::string code;            // stable snake_case id for scripts
    std::string message;
    std::string recommendation;
};

inline constexpr int kMaxWarnings = 16;

struct Evaluation
{
    bool feasible = false;
    Problem problem;              // set when !feasible

    Breakdown breakdown;
    MemoryBreakdown memory;

    // Derived quantities.
    long long microBatches = 0;         // m = B / (b * DP)
    double parameters = 0;              // total parameter count
    double tokensPerStep = 0;
    Framework framework = Framework::Megatron;  // resolved: whose memory layout and sync the numbers assume
    bool flopsApplicable = true;        // false when compute_time is given: MFU and TFLOP/s are not defined
    double modelFlopsPerStep = 0;       // 3 x forward FLOPs (no recompute), full s^2 attention (published convention)
    double modelFlopsPerStepCausal = 0; // the same with the causal half of attention only (what kernels execute)
    double mfuFullAttention = 0;        // model FLOPs with full s^2 attention / peak (published tables' convention)
    double hardwareFlopsPerStep = 0;    // includes recompute (Megatron SC21 Eq. 3 with full recompute)
    double mfu = 0;                     // model FLOPs, causal attention counted as executed / (N * peak * step)
    double hfu = 0;                     // hardware FLOPs / (N * peak * step)
    double modelFlopsPerSecondPerGpu = 0;
    double hardwareFlopsPerSecondPerGpu = 0;
    double peakFlopsPerGpu = 0;
    double tokensPerSecond = 0;
    double stepsToTrain = 0;
    double trainSeconds = 0;
    double gpuHours = 0;
    double stepMedianSeconds = 0;
    double stepP99Seconds = 0;
    double communicationFraction = 0;   // exposed communication / step
    double ppBubbleFraction = 0;        // idle share of pipeline time: (p-1)/(m+p-1) for 1F1B
    double ppBubbleFractionOfIdeal = 0; // bubble / ideal time: (p-1)/m for 1F1B
    double pipelineEfficiency = 1;      // 1 - ppBubbleFraction

    // Per micro-batch, per stage (the critical stage).
    double stageForwardSeconds = 0;     // compute + exposed TP/CP comm
    double stageBackwardSeconds = 0;    // includes recompute
    double stageForwardTpSeconds = 0;   // exposed TP (and CP, EP) communication inside stageForwardSeconds
    double stageBackwardTpSeconds = 0;  // ... inside stageBackwardSeconds
    double dpInterferenceSeconds = 0;   // compute slowed by hidden DP collectives holding SMs (in dp exposed)
    double dpNcclComputeShare = 0;      // share of the SMs those collectives hold (their NCCL channels)
    // Where the exposed DP sync sits in the step (their sum + interference = dp exposed), and the
    // traffic the step timeline draws: parameter gathers at the step's start, per micro-batch
    // traffic (FSDP, ZeRO-2/3) inside each micro-batch, the rest after the last backward.
    double dpLeadSeconds = 0;           // before the first forward can start (the first gather)
    double dpPerMicroExposedSeconds = 0;   // per micro-batch traffic longer than its compute, whole step
    double dpTailSeconds = 0;           // after the last backward (the last buckets, unhidden traffic)
    double dpGatherSeconds = 0;         // one gather of the stage's parameters (ZeRO >= 1, FSDP), else 0
    int dpGathersPerMicro = 0;          // 0: once per step; 1: before each forward; 2: and each backward
    double dpBackwardGatherShare = 1;   // of the gathered bytes gathered again for backward (FSDP keeps embedding, final norm and LM head)
    bool dpGatherPrefetched = false;    // the per-step gather runs under the first forward (Megatron, FSDP + PP)
    double dpReducePerMicroSeconds = 0; // gradient reduction after each micro-batch's backward (ZeRO-2, FSDP)
    double stageWeightGradSeconds = 0;  // the W part of backward (zero-bubble schedules)
    double p2pSecondsPerTransfer = 0;   // at the slowest boundary
    // A boundary inside a node and one across nodes; a node holds ppStagesPerNode consecutive
    // stages (>= pp: all of them), so stageBoundaryLeavesNode (pipeline.h) says which is which.
    double p2pIntraSecondsPerTransfer = 0;
    double p2pInterSecondsPerTransfer = 0;
    int ppStagesPerNode = 1;
    // Per layer and head, from which every stage's times follow (pipelineStageTimes, schedules.h).
    LayerTimesPerStage perLayer;
    double ppBoundaryBytes = 0;         // activation per boundary per micro-batch, one way
    double ppTransferBytesPerStep = 0;  // per boundary, forward + backward, all micro-batches
    double ppStashedBoundaryBytes = 0;  // boundary activations kept on stage 1
    double cpGatherBytes = 0;           // cp_comm allgather: whole-sequence K, V, dK, dV held in a layer's backward
    // Mixture of experts: one all-to-all's buffer per rank (its tokens' k copies; with the flex
    // dispatcher the copies it sends to other GPUs) and time.
    double epA2aBytes = 0;
    double epA2aSeconds = 0;
    // The GPU's wait for the host after the dispatcher's sync, per sync (kernels.h
    // moeDispatchSyncSeconds): every MoE layer forward pays it in the open, only the forwards that
    // run alone under ep_overlap; in the EP communication time.
    double epSyncSeconds = 0;
    // Flex dispatcher (DeepEP, HybridEP): the other nodes and other GPUs one token is sent to.
    double epRemoteNodesPerToken = 0;
    double epGpuCopiesPerToken = 0;
    double activeParameters = 0;        // per token: k of the E experts (= parameters when dense)
    double expertParamsPerGpu = 0;      // the experts this GPU holds on its fullest stage
    double tpBytesPerCollective = 0;
    double tpCollectivesPerLayer = 0;   // per micro-batch, fwd + bwd (+ recompute), in 16-bit all-reduces (fractional: FP8 gathers, partial recompute)
    bool tpFp8Gathers = false;          // SP under FP8: the all-gathers move FP8, the reduce-scatters 16-bit
    double gradientBytesPerGpu = 0;     // DP sync volume per GPU per sync
    double gradBufferSeconds = 0;       // Megatron's per-step passes over the gradient buffer (in optimizer_s)
    double gradAccumulateSeconds = 0;   // other frameworks' gradient accumulation across micro-batches (in optimizer_s)
    double hpGradSecondsPerMicroBatch = 0;   // DeepSpeed's BF16 optimizer: fp32 gradient accumulation after each backward (in compute_s)
    double fsdpCopySeconds = 0;         // FSDP2's copies through its all-gather and reduce-scatter buffers (in optimizer_s)
    int dpBuckets = 0;
    double dpBucketBytes = 0;           // the bucket the plan runs with (plan.bucket or the framework's)
    double dpBucketSeconds = 0;
    double dpBucketLatencySeconds = 0;   // the latency (alpha) part of dpBucketSeconds
    Algorithm dpAlgorithm = Algorithm::Ring;
    Algorithm tpAlgorithm = Algorithm::Ring;
    Protocol dpProtocol = Protocol::Simple;   // NCCL's protocol for one DP bucket
    Protocol tpProtocol = Protocol::Simple;   // and for one TP collective
    double tpCollectiveSeconds = 0;           // one TP all-reduce
    double tpPipelineFillSeconds = 0;         // of which NVLS's pipeline fill (0 for a ring or tree)
    double kernelEfficiency = 0;        // achieved fraction of peak of the layer's forward GEMMs
    double recomputedLayerShare = 0;    // layers whose activations are recomputed (training.recompute_layers)
    // Activation offloading (training.offload_layers; pp 1): one layer's activations of one
    // micro-batch (set without offloading too: what one offloaded layer would move), the host
    // link's bandwidth per direction, the copy of one layer each way, and what the forward and
    // the backward of one micro-batch wait for the copies.
    double offloadLayerBytes = 0;
    double hostBytesPerSecond = 0;
    double offloadLayerSeconds = 0;
    double offloadForwardStallSeconds = 0;
    double offloadBackwardStallSeconds = 0;
    Kernels kernels = Kernels::Fused;   // how the memory-bound kernels ran (training.kernels resolved)
    double layerGemmSeconds = 0;        // one layer, one micro-batch, forward + backward: GEMMs
    double layerAttentionSeconds = 0;   // ... core attention
    double layerElementwiseSeconds = 0; // ... memory-bound kernels and FP8 casts
    int criticalStage = 0;              // the slowest pipeline stage
    int criticalStageLayers = 0;
    double memoryFirstStageBytes = 0;
    double memoryLastStageBytes = 0;

    std::array<Warning, kMaxWarnings> warnings{};
    int warningCount = 0;
};

} // namespace ts
