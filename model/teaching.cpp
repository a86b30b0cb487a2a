// SPDX-License-Identifier: MIT
#include "teaching.h"

#include "evaluate.h"

#include <algorithm>

namespace ts {

RingDemo ringDemo(const Scenario &sc, const Evaluation &e, const RingRequest &request)
{
    RingDemo out;
    if (!e.feasible) {
        out.error = "the plan is infeasible";
        return out;
    }
    const Cluster &cl = sc.cluster;
    // The group's placement follows the plan's DP group: GPUs per node as in the cluster, at the
    // DP stride (TP x CP ranks apart), as evaluate() places it.
    const int ranks = std::max(2, request.ranks), stride = rankStride(sc.plan, ParallelDim::Dp);
    // The demo may draw more ranks than the job has: its job is then as large as the group.
    const long long jobGpus = std::max<long long>(cl.gpus, (long long)ranks * stride);
    out.group = groupOf(ranks, stride, cl.gpusPerNode, int(std::min<long long>(jobGpus, 2000000000)));
    Fabric fabric = fabricOf(cl);
    if (request.algorithm == Algorithm::InNetwork)
        fabric.inNetworkReduction = true;   // show what SHARP would do on this fabric
    out.bytes = !request.wholeGradient && e.dpBucketBytes > 0 ? std::min(e.dpBucketBytes, e.gradientBytesPerGpu)
                                                              : e.gradientBytesPerGpu;
    const Algorithm drawn = request.algorithm == Algorithm::Auto ? Algorithm::Ring : request.algorithm;
    out.schedule = allReduceSchedule(drawn, out.bytes, out.group, fabric);
    out.nccl = collectiveTime(Collective::AllReduce, Algorithm::Auto, out.bytes, out.group, fabricOf(cl));
    return out;
}

PipelineDemo pipelineDemo(const Scenario &sc, const Evaluation &e, std::optional<Schedule> schedule)
{
    PipelineDemo out;
    const Plan &pl = sc.plan;
    out.schedule = schedule.value_or(pl.schedule);
    // Comparing against interleaving on a plan without it: two chunks per stage.
    out.virtualStages = out.schedule == Schedule::Interleaved
                            ? (pl.schedule == Schedule::Interleaved ? pl.virtualStages : std::max(2, pl.virtualStages))
                            : out.schedule == Schedule::DualPipeV ? 2   // the V's two chunks a rank
                                                                  : 1;
    out.stages = pl.pp;
    out.microBatches = e.microBatches;
    const int p = out.stages, v = out.virtualStages;
    const long long m = out.microBatches;
    if (!e.feasible) {
        out.error = e.problem.message.empty() ? "the plan is infeasible" : e.problem.message;
        return out;
    }
    if (p < 2) {
        out.error = "No pipeline: PP = 1. Set more pipeline stages to see the schedule.";
        return out;
    }
    if (double(p) * double(m) * v > double(kMaxDrawnPipelineOps)) {
        out.error = std::to_string(p) + " stages x " + std::to_string(m)
                    + " micro-batches is too many to draw; lower the global batch or PP.";
        return out;
    }
    if (std::string problem = pipelineProblem(out.schedule, p, m, v); !problem.empty()) {
        out.error = problem;
        return out;
    }
    // The stages as the drawn schedule splits the model: a compared schedule other than the plan's
    // takes the plan's split where that schedule accepts it, else an even one, and puts the LM head
    // where that schedule runs it (DualPipeV: on rank 0).
    Scenario drawn = sc;
    if (out.schedule != pl.schedule) {
        drawn.plan.schedule = out.schedule;
        drawn.plan.virtualStages = out.schedule == Schedule::Interleaved ? v : 1;
        if (validate(drawn)) {
            drawn.plan.firstStageLayers = drawn.plan.lastStageLayers = 0;
            drawn.plan.embeddingInSplit = drawn.plan.lossInSplit = false;
        }
    }
    const std::vector<StageTimes> stages = pipelineStageTimes(drawn, e);
    out.simulation = simulatePipeline(out.schedule, p, int(m), v, stages);
    if (!out.simulation.ok) {
        out.error = out.simulation.error;
        return out;
    }
    out.slowestStage = slowestStage(stages);
    out.slowest = stages[size_t(out.slowestStage)];
    out.uneven = std::any_of(stages.begin(), stages.end(), [&](const StageTimes &t) {
        return t.forwardSeconds != out.slowest.forwardSeconds || t.backwardSeconds != out.slowest.backwardSeconds;
    });
    const double closed = pipelineBubbleSeconds(out.schedule, v, stages, m);
    const double busy = double(m) * (out.slowest.forwardSeconds + out.slowest.backwardSeconds);
    out.closedFormBubbleFraction = busy + closed > 0 ? closed / (busy + closed) : 0.0;
    return out;
}

StepTimelinePair stepTimelinePair(const Scenario &sc, const Evaluation &e)
{
    StepTimelinePair out;
    Scenario on = sc, off = sc;
    on.plan.overlapDp = true;
    off.plan.overlapDp = false;
    out.overlapped = stepTimeline(on, on == sc ? e : evaluateForSearch(on));
    out.serial = stepTimeline(off, off == sc ? e : evaluateForSearch(off));
    out.savedSeconds = out.serial.stepSeconds - out.overlapped.stepSeconds;
    const StepTimeline &current = sc.plan.overlapDp ? out.overlapped : out.serial;
    out.replayedSeconds = current.error.empty() ? current.stepSeconds : 0.0;
    out.evaluatedSeconds = e.breakdown.stepSeconds - e.breakdown.stragglerSeconds;
    return out;
}

} // namespace ts
