// SPDX-License-Identifier: MIT
// Plan search: every valid plan (TP, PP, DP, CP, micro-batch size, schedule and v, ZeRO stage,
// recompute, overlap) for a workload, cluster and global batch, ranked by time to train the token
// budget, keeping the plans that fit in memory. Runs on several threads and can be cancelled.
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <atomic>
#include <functional>
#include <vector>

namespace ts {

struct PlanCandidate
{
    Scenario scenario;       // the base scenario with this plan (and micro-batch, recompute) applied
    Breakdown breakdown;
    double trainSeconds = 0;
    double mfu = 0;
    double memoryBytes = 0;
    double communicationFraction = 0;
    double pipelineEfficiency = 1;
    bool fits = true;              // within HBM less the plan margin
    double trainSecondsWithFailures = 0;   // economics(): failures and checkpoints included
    /// The time to train the headline shows (calendarTrainSeconds): with failures and checkpoints
    /// when they are known, else failure-free. The search's GPU count is fixed, so this keeps its order.
    double calendarTrainSeconds() const { return trainSecondsWithFailures > 0 ? trainSecondsWithFailures : trainSeconds; }
    double costUsd = 0;                    // of the token budget, with failures
    Problem economicsProblem;              // why the two above are 0 (failures outpace checkpoints), if they are
    int equivalentPlans = 0;       // other plans with the same time and memory, folded into this row
};

struct PlanSearchResult
{
    std::vector<PlanCandidate> best;   // fastest first
    long long evaluated = 0;           // plans evaluated by the model
    long long feasible = 0;            // ... that are valid
    long long fitting = 0;             // ... that also fit in HBM
    double seconds = 0;                // wall time of the search
    bool cancelled = false;
    /// The base scenario's own plan, evaluated the same way (feasible = false when it is not), and
    /// how many fitting plans are faster than it (its rank is that + 1).
    bool currentFeasible = false;
    PlanCandidate current;
    long long fasterThanCurrent = 0;
};

struct PlanSearchOptions
{
    int top = 20;
    int threads = 2;
    int maxVirtualStages = 8;
    bool requireFit = true;
};

/// progress(fraction done) is called from worker threads; return false from it to cancel.
/// The candidates (and `current`) carry the scenario's training.kernels and cross_entropy resolved
/// under its own framework: a plan that derives another framework keeps the user's kernels.
PlanSearchResult searchPlans(const Scenario &base, const PlanSearchOptions &options = {},
                             const std::function<bool(double)> &progress = {});

} // namespace ts
