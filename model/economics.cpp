// SPDX-License-Identifier: MIT
// Cost, energy and goodput. Sources:
//  [L3]    Llama Team 2024, "The Llama 3 Herd of Models", arXiv:2407.21783, Sec. 3.3.4: 419
//          unexpected interruptions in a 54-day snapshot of pre-training on 16,384 H100 (the
//          default failure rate, 419 / (16,384 x 54 x 24) per GPU-hour); "higher than 90%
//          effective training time"; Sec. 3.3.1: Tectonic storage sustaining 2 TB/s.
//  [Young] Young 1974, CACM 17(9): optimum checkpoint interval sqrt(2 delta M).
//  [Daly]  Daly 2006, FGCS 22(3): tau = sqrt(2 delta M) - delta for delta < M / 2; expected waste
//          per failure tau / 2 + R; useful fraction 1 - delta / tau - (tau / 2 + R) / M (first order).
//  [DGX]   NVIDIA DGX H100 datasheet: 10.2 kW max system power with 8 x 700 W GPUs, i.e. about
//          575 W per GPU for CPUs, memory, NICs and fans.
//  [TDP]   GPU datasheets (gpus.json): H100/H200 SXM 700 W, A100 SXM 400 W, B200 1000 W,
//          MI300X 750 W.
//  The average draw (80% of TDP), network share (5%), PUE (1.2), grid intensity (0.4 kg/kWh),
//  restart time (10 minutes) and the default price are named assumptions (inputs.h), to be set
//  from the user's own facility and contract.
#include "economics.h"

#include "units.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdio>
#include <limits>

namespace ts {

const EconomicsDefaults &economicsDefaults()
{
    static const EconomicsDefaults defaults;
    return defaults;
}

double youngDalyIntervalSeconds(double delta, double mtbf)
{
    if (!(delta > 0) || !(mtbf > 0))
        return mtbf > 0 ? mtbf : 0.0;
    if (delta >= mtbf / 2)
        return mtbf;   // checkpoints as slow as failures are frequent: one per MTBF
    return std::sqrt(2 * delta * mtbf) - delta;
}

namespace {
std::optional<Problem> outOfRange(const char *field, double value, double lo, double hi, const char *what)
{
    if (std::isfinite(value) && value >= lo && value <= hi)
        return std::nullopt;
    char text[240];
    std::snprintf(text, sizeof text, "%s must be between %g and %g (got %g)", what, lo, hi, value);
    return Problem{field, text};
}
} // namespace

std::optional<Problem> validateOperations(const Scenario &s)
{
    // One table for the whole program (building it per call was a tenth of a slider step's
    // validation); the values read straight into an array, in the table's order.
    static constexpr struct
    {
        const char *field;
        double lo, hi;
        const char *what;
    } checks[] = {
        {"operations.average_power", 0.05, 1, "average_power (a GPU's draw as a fraction of its TDP)"},
        {"operations.host_power", 0, 5000, "host_power (W per GPU)"},
        {"operations.network_power", 0, 1, "network_power (a fraction of the nodes' power)"},
        {"operations.pue", 1, 3, "pue"},
        {"operations.grid_intensity", 0, 2, "grid_intensity (kg CO2 per kWh)"},
        {"operations.failure_rate", 0, 0.01, "failure_rate (interruptions per GPU-hour)"},
        {"operations.storage_bandwidth", 1e6, 1e15, "storage_bandwidth (bytes/s)"},
        {"operations.restart_time", 0, 7 * 86400, "restart_time (s)"},
        {"cluster.price_per_gpu_hour", 0, 1000, "price_per_gpu_hour (USD)"},
        {"cluster.gpu.price_per_hour", 0, 1000, "price_per_hour (USD)"},
        {"cluster.gpu.tdp", 0, 5000, "tdp (W)"},
    };
    const Operations &o = s.operations;
    const double values[] = {o.averagePowerFraction, o.hostWattsPerGpu, o.networkPowerFraction, o.pue, o.gridKgCo2PerKwh,
                             o.failuresPerGpuHour, o.storageBytesPerSecond, o.restartSeconds, s.cluster.pricePerGpuHour,
                             s.cluster.gpu.pricePerHour, s.cluster.gpu.tdpWatts};
    static_assert(std::size(values) == std::size(checks));
    for (std::size_t i = 0; i < std::size(checks); ++i)
        if (!(values[i] >= checks[i].lo && values[i] <= checks[i].hi))   // false for NaN; the bounds are finite
            return outOfRange(checks[i].field, values[i], checks[i].lo, checks[i].hi, checks[i].what);
    return std::nullopt;
}

Economics economics(const Scenario &s, const Evaluation &e)
{
    Economics out;
    if (auto p = validateOperations(s)) {
        out.problem = *p;
        return out;
    }
    if (!e.feasible) {
        out.problem = e.problem;
        return out;
    }
    const Operations &o = s.operations;
    const EconomicsDefaults &d = economicsDefaults();
    const double n = s.cluster.gpus;

    // ---- Goodput [Young], [Daly], [L3] ----
    Goodput &g = out.goodput;
    g.failuresPerGpuHour = o.failuresPerGpuHour;
    const double failuresPerSecond = n * o.failuresPerGpuHour / units::kSecondsPerHour;
    g.jobMtbfSeconds = failuresPerSecond > 0 ? 1.0 / failuresPerSecond : 0.0;
    // A checkpoint holds the weights and the optimizer states once (not per replica): 16-bit
    // weights and fp32 master + Adam moments (12 B), 16-bit moments (4 B) or fp32 master and 16-bit
    // moments (8 B); fp32 training 4 + 8.
    const bool fp32 = s.training.precision == Precision::Fp32;
    const OptimizerStates states = s.training.optimizerStates;
    const double stateBytesPerParam = fp32 ? 12.0 : 2.0 + (states == OptimizerStates::Bf16 ? 4.0 : states == OptimizerStates::Bf16Moments ? 8.0 : 12.0);
    g.checkpointBytes = e.parameters * stateBytesPerParam;
    g.checkpointWriteSeconds = g.checkpointBytes / o.storageBytesPerSecond;
    g.restoreSeconds = g.checkpointWriteSeconds;
    g.restartSeconds = o.restartSeconds;
    const double useful = e.trainSeconds;
    if (g.jobMtbfSeconds > 0) {
        g.checkpointIntervalSeconds = youngDalyIntervalSeconds(g.checkpointWriteSeconds, g.jobMtbfSeconds);
        const double tau = g.checkpointIntervalSeconds;
        // Each failure loses half an interval of work on average, then restarts and restores.
        const double lostPerFailure = tau / 2 + g.restartSeconds + g.restoreSeconds;
        const double waste = g.checkpointWriteSeconds / tau + lostPerFailure / g.jobMtbfSeconds;
        g.effectiveFraction = std::clamp(1.0 - waste, 0.0, 1.0);
        if (g.effectiveFraction > 0) {
            g.trainSeconds = useful / g.effectiveFraction;
            g.interruptions = g.trainSeconds / g.jobMtbfSeconds;
            // Pessimistic: the 90th percentile of the Poisson interruption count (normal
            // approximation), z sqrt(N) more failures than the expected N, each losing its share,
            // on top of the expected time (which already compounds checkpoints and failures during
            // the extra time: a sum of U (1 + delta/tau) + N L left out that compounding and could
            // fall below it).
            g.trainSecondsP90 = g.trainSeconds + d.pessimisticZ * std::sqrt(g.interruptions) * lostPerFailure;
        } else {
            g.trainSeconds = g.trainSecondsP90 = std::numeric_limits<double>::infinity();
        }
    } else {
        g.checkpointIntervalSeconds = 0;
        g.trainSeconds = g.trainSecondsP90 = useful;
    }
    if (!std::isfinite(g.trainSeconds)) {
        out.problem = {"operations.failure_rate", "failures come faster than checkpoints can save work: no progress"};
        return out;
    }

    // ---- Cost ----
    Cost &c = out.cost;
    c.pricePerGpuHour = s.cluster.pricePerGpuHour > 0 ? s.cluster.pricePerGpuHour
                        : s.cluster.gpu.pricePerHour > 0 ? s.cluster.gpu.pricePerHour
                                                        : d.pricePerGpuHour;
    c.gpuHours = g.trainSeconds * n / units::kSecondsPerHour;
    c.totalUsd = c.gpuHours * c.pricePerGpuHour;
    c.perMillionTokensUsd = s.training.tokens > 0 ? c.totalUsd / (s.training.tokens / 1e6) : 0.0;

    // ---- Energy [TDP], [DGX] ----
    Energy &en = out.energy;
    const double tdp = s.cluster.gpu.tdpWatts > 0 ? s.cluster.gpu.tdpWatts : d.tdpWatts;
    en.gpuWatts = tdp * o.averagePowerFraction;
    const double nodeWatts = n * (en.gpuWatts + o.hostWattsPerGpu);
    en.itKilowatts = nodeWatts * (1 + o.networkPowerFraction) / 1e3;
    en.facilityMegawatts = en.itKilowatts * o.pue / 1e3;
    en.energyMegawattHours = en.facilityMegawatts * g.trainSeconds / units::kSecondsPerHour;
    en.emissionsTonnesCo2 = en.energyMegawattHours * 1e3 * o.gridKgCo2PerKwh / 1e3;
    out.valid = true;
    return out;
}

} // namespace ts
