// SPDX-License-Identifier: MIT
// Explicit schedules for the views to replay: collective algorithms as lists of transfers, the
// activation memory a pipeline stage holds over time, and one GPU's step as streams of intervals.
// The views never re-derive timings; everything here comes from the same formulas as evaluate().
#pragma once

#include "collectives.h"
#include "evaluation.h"
#include "inputs.h"
#include "pipeline.h"

#include <string>
#include <vector>

namespace ts {

/// One transfer of a collective. `receiver` (or `sender`) is kSwitch for in-network reduction.
struct Transfer
{
    int phase = 0;          // index into CollectiveSchedule::phases
    int step = 0;           // global step number (transfers of one step run concurrently)
    int sender = 0;
    int receiver = 0;
    int chunk = 0;          // which 1/n of the buffer (ring, hierarchical) or 0 (whole buffer)
    double bytes = 0;
    double startSeconds = 0;
    double endSeconds = 0;
    int contributors = 1;   // how many ranks' data the sent chunk already sums (partial sums)
};

inline constexpr int kSwitch = -1;

struct CollectiveSchedule
{
    Algorithm algorithm = Algorithm::Ring;
    int ranks = 0;
    int ranksPerNode = 1;
    double bytes = 0;
    int chunks = 1;                     // the buffer is drawn as this many chunks
    std::vector<std::string> phases;    // "reduce-scatter", "all-gather", "intra-node reduce-scatter", ...
    std::vector<Transfer> transfers;    // ordered by step, then sender
    int steps = 0;
    double totalSeconds = 0;
    double bytesSentPerRank = 0;        // by the end of the schedule (rank 0)
    std::string error;                  // set when no schedule (too many ranks, not applicable)
};

inline constexpr int kMaxScheduleRanks = 1024;

/// All-reduce of `bytes` on `group` over `fabric` with the given algorithm (not Auto). Its total time
/// equals collectiveTime() for the same inputs.
CollectiveSchedule allReduceSchedule(Algorithm algorithm, double bytes, const Group &group, const Fabric &fabric);

/// Bytes rank `rank` has sent by time `seconds` (for the "so far" counter).
double bytesSentBy(const CollectiveSchedule &schedule, int rank, double seconds);

/// Activation micro-batches a stage holds over time: (time, count) steps from a simulation.
struct InFlightPoint
{
    double seconds;
    int microBatches;
};
std::vector<InFlightPoint> inFlightProfile(const PipelineSimulation &simulation, int stage);

/// One GPU's step (first pipeline stage) as intervals on streams, with the DDP lifecycle phases.
enum class Stream { Compute, TpComm, PpP2p, DpComm, Optimizer };
struct StreamInterval
{
    Stream stream = Stream::Compute;
    std::string label;      // "F3", "B3", "bucket 12", "optimizer"
    int microBatch = -1;
    double startSeconds = 0;
    double endSeconds = 0;
};
struct LifecyclePhase
{
    std::string name;       // "Shard data", "Forward", "Backward" (or "Forward and backward"), "All-reduce", "Optimizer step"
    double startSeconds = 0;
    double endSeconds = 0;
};
struct StepTimeline
{
    std::vector<StreamInterval> intervals;
    std::vector<LifecyclePhase> phases;
    double stepSeconds = 0;
    std::string error;
};

inline constexpr long long kMaxTimelineMicroBatches = 4096;
inline constexpr int kMaxTimelineBuckets = 2000;

/// Every stage's forward, backward and W times per micro-batch (all v chunks) and the p2p time,
/// from the evaluation's per-layer and head times and the plan's (possibly uneven) split.
std::vector<StageTimes> pipelineStageTimes(const Scenario &scenario, const Evaluation &evaluation);

/// The step of one GPU of the first stage for a feasible evaluation (stragglers excluded).
StepTimeline stepTimeline(const Scenario &scenario, const Evaluation &evaluation);

} // namespace ts
