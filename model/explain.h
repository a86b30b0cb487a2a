// SPDX-License-Identifier: MIT
// Every number the app shows can be traced: its formula, the formula with this scenario's values
// substituted, the result with its unit, and the source of the formula.
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <string>
#include <vector>

namespace ts {

struct Explanation
{
    std::string id;           // the eval JSON key it explains ("step_time_s", "memory.weights_bytes")
    std::string title;
    std::string formula;      // symbolic
    std::string substituted;  // with this scenario's values and units
    std::string result;       // value with unit
    std::string source;       // paper, equation, or documented model default
};

/// Explanations of all headline and breakdown numbers of a feasible evaluation.
std::vector<Explanation> explainAll(const Scenario &scenario, const Evaluation &evaluation);

/// The explanation with this id, or one whose id is empty when there is none.
Explanation explain(const Scenario &scenario, const Evaluation &evaluation, const std::string &id);

} // namespace ts
