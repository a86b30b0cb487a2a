// SPDX-License-Identifier: MIT
// What a plan costs to run: money, energy and emissions, and the time lost to failures and
// checkpoints (goodput). Computed from an evaluation and the scenario's operations inputs.
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <optional>
#include <string>

namespace ts {

/// Defaults used when the GPU does not say (a custom GPU).
struct EconomicsDefaults
{
    double tdpWatts = 700;         // H100 SXM (the most common training GPU)
    double pricePerGpuHour = 2.5;  // USD, of the order of 2024 on-demand H100 prices (assumed)
    double pessimisticZ = 1.2816;  // the 90th percentile of the interruption count (normal approximation)
};
const EconomicsDefaults &economicsDefaults();

struct Cost
{
    double pricePerGpuHour = 0;    // USD
    double gpuHours = 0;           // with failures (median)
    double totalUsd = 0;
    double perMillionTokensUsd = 0;
};

struct Energy
{
    double gpuWatts = 0;           // average draw of one GPU
    double itKilowatts = 0;        // GPUs, hosts and network, average
    double facilityMegawatts = 0;  // with PUE
    double energyMegawattHours = 0;
    double emissionsTonnesCo2 = 0;
};

struct Goodput
{
    double failuresPerGpuHour = 0;
    double jobMtbfSeconds = 0;         // mean time between interruptions of the whole job
    double checkpointBytes = 0;        // model states across all GPUs
    double checkpointWriteSeconds = 0;
    double restoreSeconds = 0;
    double restartSeconds = 0;
    double checkpointIntervalSeconds = 0;   // Young/Daly optimum
    double interruptions = 0;          // expected over the run
    double effectiveFraction = 1;      // useful training time / wall time
    double trainSeconds = 0;           // wall time with failures (median)
    double trainSecondsP90 = 0;        // a pessimistic run (90th percentile of interruptions)
};

struct Economics
{
    bool valid = false;
    Problem problem;                   // why not (a bad operations input, an infeasible plan)
    Cost cost;
    Energy energy;
    Goodput goodput;
};

/// The time to train and GPU-hours a user plans a calendar with, as the headline shows them: with
/// failures and checkpoints when the economics are valid, else the evaluation's failure-free ones.
inline double calendarTrainSeconds(const Evaluation &e, const Economics &x) { return x.valid ? x.goodput.trainSeconds : e.trainSeconds; }
inline double calendarGpuHours(const Evaluation &e, const Economics &x) { return x.valid ? x.cost.gpuHours : e.gpuHours; }

/// Young's first-order optimum (Young 1974): tau = sqrt(2 delta M), with Daly's (2006) correction
/// tau = sqrt(2 delta M) - delta when delta < M / 2, else M. delta: checkpoint write time; M: MTBF.
double youngDalyIntervalSeconds(double checkpointSeconds, double mtbfSeconds);

/// The inputs out of range, with the field named ("operations.pue must be between 1 and 3").
std::optional<Problem> validateOperations(const Scenario &scenario);

Economics economics(const Scenario &scenario, const Evaluation &evaluation);

} // namespace ts
