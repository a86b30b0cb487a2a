// SPDX-License-Identifier: MIT
// The plan map: time to train (or MFU, step time, memory) over two plan inputs at once, every
// cell a full evaluation of the scenario with those two inputs changed (DP follows TP, PP, CP and
// the GPU count, as a slider would move it). Cheap enough to recompute while a slider is dragged.
#pragma once

#include "fields.h"
#include "inputs.h"

#include <string>
#include <vector>

namespace ts {

enum class PlanMapMetric { TimeToTrain, Mfu, StepTime, MemoryPerGpu };

struct PlanMapRequest
{
    Field x = Field::Tp;
    Field y = Field::Pp;
    PlanMapMetric metric = PlanMapMetric::TimeToTrain;
    int maxValuesPerAxis = 64;
};

struct PlanMapCell
{
    bool feasible = false;    // the plan runs (valid degrees, batch ...)
    bool fits = false;        // ... and fits in HBM
    double value = 0;         // the metric, SI units (seconds, fraction, bytes)
    std::string problem;      // why it does not run
};

struct PlanMap
{
    PlanMapRequest request;
    std::vector<double> xs, ys;        // axis values, SI units, ascending
    std::vector<PlanMapCell> cells;    // row-major: cells[iy * xs.size() + ix]
    int currentX = -1, currentY = -1;  // the scenario's own cell, -1 when off the axes
    double minValue = 0, maxValue = 0; // over the feasible cells that fit
    bool lowerIsBetter = true;         // time and memory: yes; MFU: no
    const PlanMapCell &at(int ix, int iy) const { return cells[size_t(iy) * xs.size() + size_t(ix)]; }
};

/// The inputs a map axis can take: TP, PP, CP, GPUs, global batch, micro-batch, recompute, ZeRO.
const std::vector<Field> &planMapAxes();
/// The values of `field` an axis spans for this scenario: valid degrees for TP, PP and CP; GPU
/// counts and global batches from 1/32 to 32 times the current, evenly spaced in log, at multiples
/// of TP x PP x CP (GPUs) and of micro-batch x DP (batches); micro-batches 1 to 64; every
/// recompute policy and ZeRO stage. Ascending, at most `maxValues` (thinned evenly, keeping the
/// current value), always including the current value.
std::vector<double> planMapAxisValues(const Scenario &scenario, Field field, int maxValues = 64);
/// Evaluates every cell.
PlanMap planMap(const Scenario &scenario, const PlanMapRequest &request);
/// The scenario of cell (ix, iy): both inputs changed the way the sliders change them.
Scenario planMapScenario(const Scenario &scenario, const PlanMap &map, int ix, int iy);

} // namespace ts
