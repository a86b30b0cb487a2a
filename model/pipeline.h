// SPDX-License-Identifier: MIT
// Pipeline schedules: closed-form bubbles and a discrete-event simulation that lists who runs
// the forward (F), backward (B) and weight-gradient (W) work of which micro-batch, and when.
// The event list is the ground truth; the closed forms are its tests and the fast path.
#pragma once

#include "inputs.h"

#include <span>
#include <string>
#include <vector>

namespace ts {

enum class PipelineOp { Forward, Backward, WeightGrad };

/// Per micro-batch, per stage (all v chunks together), in seconds.
struct StageTimes
{
    double forwardSeconds = 1;
    double backwardSeconds = 2;     // full backward, including the weight-gradient part W
    double weightGradSeconds = 1;   // W: used by zero-bubble schedules, which run it separately
    // One boundary transfer (activation or its gradient): the slowest boundary's in the closed
    // forms; per stage (simulatePipeline), this stage's boundary to the next (the last stage's:
    // the wrap back to the first).
    double p2pSeconds = 0;
    // The mean transfer along the fill and drain chain when the boundaries differ (a pipeline whose
    // stages fill part of a node crosses the network only between nodes); < 0: p2pSeconds.
    double p2pChainSeconds = -1;
    // DualPipeV: the share of this rank's F, B and W that its down chunk (stage i) runs, the rest
    // its up chunk (stage 2p - 1 - i: on rank 0 the LM head and loss); 0: the chunks run 1/v each.
    double firstChunkShare = 0;
};

/// Per layer and for the last stage's head (LM head + loss), per micro-batch: compute, then the
/// exposed TP/CP communication inside it; every stage's times follow from its layer count.
struct LayerTimesPerStage
{
    double forwardSeconds = 0;
    double backwardSeconds = 0;        // includes recompute
    double weightGradSeconds = 0;
    double forwardCommSeconds = 0;
    double backwardCommSeconds = 0;
    double headForwardSeconds = 0;
    double headBackwardSeconds = 0;
    double headWeightGradSeconds = 0;
    double embeddingGradSeconds = 0;   // the first stage's dense embedding gradient (weight-gradient work)
    double p2pSeconds = 0;
    bool headOnFirstStage = false;     // DualPipeV: rank 0 holds the last stage (head and loss) too

    bool operator==(const LayerTimesPerStage &) const = default;
};
/// Each stage's StageTimes: layers x per-layer times, plus the head on the last stage.
std::vector<StageTimes> stageTimesOf(std::span<const int> stageLayers, const LayerTimesPerStage &perLayer);

struct PipelineEvent
{
    int stage = 0;
    int microBatch = 0;
    int chunk = 0;                  // model chunk (0..v-1) for interleaved schedules
    PipelineOp op = PipelineOp::Forward;
    double startSeconds = 0;
    double endSeconds = 0;
};

struct PipelineSimulation
{
    bool ok = false;
    std::string error;
    std::vector<PipelineEvent> events;  // in order of start time
    double makespanSeconds = 0;
    double busySecondsPerStage = 0;     // m * (F + B)
    double bubbleFraction = 0;          // measured idle share: 1 - busy / makespan (per stage)
    std::vector<int> peakInFlight;      // per stage, micro-batch chunks whose activations are held
};

/// Why (schedule, p, m, v) is not a valid pipeline, or empty when it is.
std::string pipelineProblem(Schedule schedule, int stages, long long microBatches, int virtualStages);

/// Simulated schedule. Cost grows as p * m * v; intended for views and tests (p * m * v <= 4e6).
PipelineSimulation simulatePipeline(Schedule schedule, int stages, int microBatches, int virtualStages,
                                    const StageTimes &times);
/// The same with each stage's own times (uneven splits; the head on the last stage). `perStage`
/// has one entry per stage; p2p is taken from the first. busySecondsPerStage is the busiest stage's.
PipelineSimulation simulatePipeline(Schedule schedule, int stages, int microBatches, int virtualStages,
                                    const std::vector<StageTimes> &perStage);

/// Closed-form idle time of one stage per step, without p2p:
///   GPipe, 1F1B: (p-1)(F+B)            (Huang et al. 2019; Narayanan et al. 2021 Sec. 2.2)
///   interleaved: (p-1)(F+B)/v          (Narayanan et al. 2021 Sec. 2.2.2)
///   DualPipeV:   (p-1) max(F/2 + B - 1.5 W, F) per rank of the V: DeepSeek's (PP/2-1)(F&B + B - 3W)
///                per chunk (arXiv:2412.19437 Table 2, deepseek-ai/DualPipe), within F/2 of the
///                simulation of its order;
///   ZB-H1:       (p-1)(F+B_in-W), B_in = B - W (Qi et al. 2023, arXiv:2401.10241 Sec. 3),
///                and never below (p-1) B_in, the wait for the first input gradient; with fewer
///                micro-batches than stages (m < p) each missing one leaves a deferred W's slot
///                of the drain empty: + (p - m) min(F, W) (the event simulation's schedule,
///                tst_pipeline). microBatches 0: at least p.
double pipelineBubbleSeconds(Schedule schedule, int stages, int virtualStages, const StageTimes &times,
                             long long microBatches = 0);
/// The same for stages with their own times: fill and drain pass once through every stage but the
/// slowest (the one with the largest F + B), so the closed form at the slowest stage's times is
/// scaled by (sum of the other stages' F + B) / ((p - 1)(F + B) of the slowest). GPipe, whose
/// forward and backward phases are each paced by their own slowest stage, adds
/// (m - 1)(max F + max B - (F + B) of the slowest). Exact for even splits; checked against
/// simulatePipeline for uneven ones (tst_pipeline).
double pipelineBubbleSeconds(Schedule schedule, int virtualStages, const std::vector<StageTimes> &perStage,
                             long long microBatches = 0);
/// The same from the stages' layer counts, without building the stage list (evaluate()'s path).
double pipelineBubbleSeconds(Schedule schedule, int virtualStages, std::span<const int> stageLayers,
                             const LayerTimesPerStage &perLayer, long long microBatches = 0);
/// Index of the stage with the largest F + B (the first of equals).
int slowestStage(const std::vector<StageTimes> &perStage);

/// Whether the boundary from `stage` to the next (the last stage's: the wrap to the first) leaves
/// the node, when a node holds `stagesPerNode` consecutive stages (>= p: all in one node).
bool stageBoundaryLeavesNode(int stage, int p, int stagesPerNode);
/// How many of the p - 1 boundaries between consecutive stages leave the node.
int boundariesLeavingNode(int p, int stagesPerNode);

/// Boundaries of two kinds: the ones inside a node (`inNodeSeconds` each) and the ones that leave
/// it (StageTimes::p2pSeconds), a node holding `stagesPerNode` consecutive stages. Default: all
/// boundaries alike.
struct BoundaryMix
{
    double inNodeSeconds = -1;
    int stagesPerNode = 0;
    // The critical stage's F + B over the next slowest stage's: each cycle the other stages wait
    // that long for it, and 1F1B's transfers to and from it run in that wait.
    double slackSeconds = 0;
    // The slower transfer over the critical stage's own boundaries (-1: StageTimes::p2pSeconds).
    // Its round trip is what the slack has to cover; farther boundaries are buffered by the
    // micro-batches 1F1B keeps in flight on the stages before it.
    double criticalBoundarySeconds = -1;
};

/// Closed-form p2p time on the critical path (exact for GPipe and interleaved, within a few
/// percent of the simulation for 1F1B and zero-bubble when m >= 2p with boundaries alike; with a
/// BoundaryMix, 1F1B errs long by 10-25%).
double pipelineP2pExposedSeconds(Schedule schedule, int stages, int virtualStages, long long microBatches,
                                 const StageTimes &times, const BoundaryMix &mix = {});

/// Micro-batches whose activations stage `stage` (0-based) holds at its peak, in units of a whole
/// stage's layers: GPipe m; 1F1B and ZB-H1 min(m, p - stage); DualPipeV (2p + 1) / 2 for even
/// halves (rank i holds 2p - i chunks of its down stage and i + 1 of its up one); interleaved (warm-up forwards + 1) / v
/// with warm-up 2 (p - stage - 1) + (v - 1) p (Megatron-LM schedules.py), which is
/// p (1 + (p - 1)/(p v)) on the first stage (Korthikanti 2022, Sec. 4.2.3).
double inFlightMicroBatches(Schedule schedule, int stages, int stage, long long microBatches, int virtualStages);

/// Decoder layers held by each of plan.pp stages: an even split, or Megatron-LM's uneven one
/// (decoder_first/last_pipeline_num_layers; embedding and loss counted as layer slots when the plan
/// says so). Layers that do not divide evenly go to the middle stages first, then the last, then
/// the first (which carry the embedding and the LM head). Validate before trusting the counts.
std::vector<int> stageLayerCounts(int layers, const Plan &plan);
/// DualPipeV's 2 pp stages (stage i and 2 pp - 1 - i on rank i), the MTP layers on the last.
std::vector<int> dualPipeVStageLayers(const Workload &workload, const Plan &plan);
/// The layers each stage runs: stageLayerCounts, with the multi-token-prediction layers on the
/// last stage (Megatron-Core places them there); DualPipeV: each rank's two stages together.
std::vector<int> stageLayersOf(const Workload &workload, const Plan &plan);
/// The same in `buffer` when it holds the stages (no allocation), else in `heap` (DualPipeV, deeper pipelines).
std::span<const int> stageLayersOf(const Workload &workload, const Plan &plan, std::span<int> buffer, std::vector<int> &heap);
/// The model chunks each pipeline rank holds: v when interleaved, DualPipeV's 2 (the V's down and
/// up stage) when pipelined, else 1.
int chunksPerStage(const Plan &plan);
/// Each DualPipeV rank's share of its work in its down chunk (StageTimes::firstChunkShare), from
/// the V's stage layers and the head and embedding on rank 0; empty for other schedules.
std::vector<double> dualPipeVFirstChunkShares(const Workload &workload, const Plan &plan, const LayerTimesPerStage &perLayer);

/// Smallest m with pipeline efficiency m/(m + bubble) >= target (1F1B: m >= (p-1) e / (1-e)).
long long requiredMicroBatches(Schedule schedule, int stages, int virtualStages, double targetEfficiency,
                               const StageTimes &times);

/// Largest p with efficiency >= target at m micro-batches (1F1B: p <= 1 + m (1-e)/e).
int maxStagesForEfficiency(Schedule schedule, long long microBatches, int virtualStages,
                           double targetEfficiency, const StageTimes &times);

} // namespace ts
