// SPDX-License-Identifier: MIT
// The cost model's entry points: validate a scenario, evaluate it, explain its warnings.
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <optional>
#include <vector>

namespace ts {

/// Why the scenario cannot be evaluated (first problem found), or nothing when it is valid.
std::optional<Problem> validate(const Scenario &scenario);

/// Full evaluation. Never throws; an invalid scenario gives feasible = false and the problem.
Evaluation evaluate(const Scenario &scenario);
/// The same numbers without warnings: for callers that only read figures (plan search, sweeps,
/// variants, bisection), where the warnings' evaluated fixes would be wasted work.
Evaluation evaluateForSearch(const Scenario &scenario);
/// The same for the plan search's candidates, which only ask whether a plan runs: an infeasible
/// one names its field but carries no message.
Evaluation evaluateCandidate(const Scenario &scenario);

/// While one lives, evaluations on its thread reuse the layer and LM-head kernel times of the
/// shapes they have met: a plan search's candidates share a few (TP, CP, micro-batch, framework),
/// so each is computed once per search instead of once per plan. The times are keyed by every
/// input they depend on and dropped when the workload or GPU changes; the figures are identical.
class KernelTimesReuse
{
public:
    KernelTimesReuse();
    ~KernelTimesReuse();
    KernelTimesReuse(const KernelTimesReuse &) = delete;
    KernelTimesReuse &operator=(const KernelTimesReuse &) = delete;
    struct Cache;   // evaluate.cpp

private:
    Cache *m_cache;   // null when an outer scope on this thread holds one
};

/// Message, recommendation and a stable code for a warning, with its numbers filled in.
WarningText describe(const Warning &warning, const Scenario &scenario);

/// A scenario with a change applied (withField, model/fields.h).
Scenario applyChange(const Scenario &scenario, const Change &change);
Scenario applyWarning(const Scenario &scenario, const Warning &warning);

/// Degrees that divide the GPU count and respect the shape (heads by TP, layers by PP,
/// sequence by CP), for sliders to snap to.
struct ValidDegrees
{
    std::vector<int> tp, pp, cp, dp;
    std::vector<double> globalBatch;   // multiples of micro_batch x dp (x pp for interleaved), 1-2-3-4-6-8 per octave
    std::vector<int> ep;               // expert parallelism: divisors of the experts that divide tp x cp x dp ({1} when dense)
};
ValidDegrees validDegrees(const Workload &workload, int gpus);
/// The degrees for the scenario's shape and GPU count, and the global batches its plan accepts.
ValidDegrees validDegrees(const Scenario &scenario);

} // namespace ts
