// SPDX-License-Identifier: MIT
// Turns a scenario and its evaluation into what the views draw: headline cards, step-time
// variants, scaling and memory series, collective rows, warnings and explanations. All numbers
// come from model/; this only chooses what to show and formats it.
#pragma once

#include "analysis.h"
#include "explain.h"
#include "chartdata.h"
#include "evaluation.h"
#include "explanationview.h"
#include "headlinecards.h"
#include "inputs.h"
#include "warningsview.h"

namespace ts {

/// `economics` adds time with failures, cost and energy when valid.
QList<CardData> headlineCards(const Scenario &scenario, const Evaluation &evaluation, const Economics &economics = {});
/// The current plan beside the analysis' variants (overlap toggled, next faster inter-node link,
/// in-network reduction, the first warning's fix), labelled.
QList<StepTimeBar> stepTimeVariants(const Analysis &analysis);
ScalingChartData scalingData(const Analysis &analysis);
QList<MemoryBar> memoryBars(const Analysis &analysis);

QList<CollectiveRow> collectiveRows(const Analysis &analysis);
QString collectivesTitle(const Analysis &analysis);
QList<WarningItem> warningItems(const Analysis &analysis);
/// "Data parallel (DP): <reason>": the input in words, then the model's reason.
QString problemInWords(const Problem &problem);
/// The Warnings tab's item for a plan that cannot run.
WarningItem invalidPlanItem(const Problem &problem, bool canRepair);
ExplanationText explanationText(const Explanation &explanation);

} // namespace ts
