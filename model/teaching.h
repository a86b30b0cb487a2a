// SPDX-License-Identifier: MIT
// What the teaching tabs replay for one scenario: an all-reduce as transfers, the pipeline schedule
// as events, and one GPU's step with and without DP overlap. The views ask through the document
// and only draw what comes back; every number here comes from the same formulas as evaluate().
#pragma once

#include "collectives.h"
#include "evaluation.h"
#include "inputs.h"
#include "pipeline.h"
#include "schedules.h"

#include <optional>
#include <string>

namespace ts {

/// What the All-reduce tab asks for.
struct RingRequest
{
    Algorithm algorithm = Algorithm::Ring;   // not Auto
    int ranks = 8;
    bool wholeGradient = false;              // all of a GPU's gradients, not one DP bucket
};

struct RingDemo
{
    CollectiveSchedule schedule;   // the chosen algorithm, transfer by transfer
    CollectiveTime nccl;           // what NCCL's tuner would run for this buffer here
    Group group;                   // placed as the plan's DP group (DP stride, GPUs per node)
    double bytes = 0;
    std::string error;             // the scenario is not feasible
};
RingDemo ringDemo(const Scenario &scenario, const Evaluation &evaluation, const RingRequest &request);

/// Largest pipeline the tab draws (stages x micro-batches x chunks).
inline constexpr long long kMaxDrawnPipelineOps = 20000;

struct PipelineDemo
{
    Schedule schedule = Schedule::OneFOneB;
    int stages = 1;
    long long microBatches = 1;
    int virtualStages = 1;
    PipelineSimulation simulation;       // every stage at its own times
    StageTimes slowest;                  // the stage that sets the pace
    int slowestStage = 0;
    bool uneven = false;                 // stages differ (uneven split, the head on the last)
    double closedFormBubbleFraction = 0; // bubble / (busy + bubble) from the closed form
    std::string error;                   // why there is nothing to draw
};
/// schedule: empty = the plan's own; another one compares schedules on the same stage times.
PipelineDemo pipelineDemo(const Scenario &scenario, const Evaluation &evaluation, std::optional<Schedule> schedule);

struct StepTimelinePair
{
    StepTimeline overlapped;   // plan.overlap_dp on
    StepTimeline serial;       // off
    double savedSeconds = 0;   // serial - overlapped
    // The scenario's own plan: its replayed step (0 when it could not be drawn) and its step as
    // the evaluation gives it (closed forms, stragglers left out), which the replay can differ from.
    double replayedSeconds = 0;
    double evaluatedSeconds = 0;
};
StepTimelinePair stepTimelinePair(const Scenario &scenario, const Evaluation &evaluation);

} // namespace ts
