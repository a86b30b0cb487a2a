// SPDX-License-Identifier: MIT
// Plain data the chart adapters draw. The app fills these from model results; the charts never
// compute physics themselves.
#pragma once

#include "evaluation.h"

#include <QList>
#include <QString>

#include <vector>

class QWidget;

namespace ts {

/// One view for a slide: what it shows (the caption), and the widget drawn under it.
struct SlideView
{
    QString caption;    // "Where a step's time goes"
    QString fileTag;    // appended to the file name when several views are exported: "step-time"
    QWidget *widget = nullptr;
};

/// One bar of the step-time chart: a plan (the current one or a variant) and its breakdown.
struct StepTimeBar
{
    QString label;        // "Current plan", "Overlap off", ...
    QString tooltip;      // what the variant changes
    Breakdown breakdown;  // seconds
    bool current = false;
};

/// Speedup and efficiency against GPU count, with reference curves, all from model/scaling.h.
struct ScalingCurves
{
    std::vector<double> gpus;        // x, GPU counts (log axis)
    std::vector<double> speedup;     // model's speedup at each count (NaN where infeasible)
    std::vector<double> efficiency;  // model's efficiency (0..1)
    std::vector<double> ideal;       // = gpus
    std::vector<double> amdahl;      // Amdahl speedup for the current communication share
    std::vector<double> gustafson;   // Gustafson speedup for the current communication share
    std::vector<Problem> problems;   // why a count cannot run (empty message where it runs)
    double currentSpeedup = 0;
    double currentEfficiency = 0;
};
struct ScalingChartData
{
    ScalingCurves weak;              // global batch grows with the GPUs (micro-batches per replica kept)
    ScalingCurves strong;            // global batch kept
    double currentGpus = 0;
    double serialFraction = 0;       // the communication share the reference curves use
};

/// One bar of the memory chart.
struct MemoryBar
{
    QString label;
    MemoryBreakdown memory;   // bytes
    bool current = false;
};

/// One row of the collectives table.
struct CollectiveRow
{
    QString collective;   // nccl-tests name
    QString algorithm;
    double bytes = 0;
    double seconds = 0;
    double algBytesPerSecond = 0;
    double busBytesPerSecond = 0;
    QString busBandwidthMeaning;   // what nccl-tests' busbw says for this row's algorithm
};

} // namespace ts
