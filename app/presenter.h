// SPDX-License-Identifier: MIT
// Turns a scenario and its evaluation into what the views draw: headline cards, step-time
// variants, scaling and memory series, collective rows, warnings and explanations. All numbers
// come from model/; this only chooses what to show and formats it.
#pragma once

#include "chartdata.h"
#include "evaluation.h"
#include "explanationview.h"
#include "headlinecards.h"
#include "inputs.h"
#include "warningsview.h"

namespace ts {

QList<CardData> headlineCards(const Scenario &scenario, const Evaluation &evaluation);
/// The current plan beside instructive variants: overlap toggled, next faster inter-node link,
/// in-network reduction, and the first warning's recommended fix.
QList<StepTimeBar> stepTimeVariants(const Scenario &scenario, const Evaluation &evaluation);
ScalingChartData scalingData(const Scenario &scenario, const Evaluation &evaluation);
QList<MemoryBar> memoryBars(const Scenario &scenario, const Evaluation &evaluation);
QList<CollectiveRow> collectiveRows(const Scenario &scenario, const Evaluation &evaluation);
QString collectivesTitle(const Scenario &scenario);
QList<WarningItem> warningItems(const Scenario &scenario, const Evaluation &evaluation);
ExplanationText explanationText(const Scenario &scenario, const Evaluation &evaluation, const QString &id);

} // namespace ts
