// SPDX-License-Identifier: MIT
#include "scaling.h"

#include "evaluate.h"

#include <cmath>

namespace ts {

double gustafsonSpeedup(double s, double P) { return P - (P - 1) * s; }
double gustafsonEfficiency(double s, double P) { return 1.0 - (P - 1) / P * s; }
double amdahlSpeedup(double s, double P) { return 1.0 / (s + (1 - s) / P); }

std::vector<int> gpuCountsBetween(int first, int last)
{
    std::vector<int> out;
    if (first < 1 || last < first)
        return out;
    out.push_back(first);
    long long x = 1;
    while (x <= first)
        x *= 2;
    for (; x < last; x *= 2)
        out.push_back(int(x));
    if (last != first)
        out.push_back(last);
    return out;
}

std::vector<ScalingPoint> scalingSweep(const Scenario &base, const std::vector<int> &gpuCounts, ScalingMode mode)
{
    std::vector<ScalingPoint> out;
    const KernelTimesReuse reuse;   // the points keep the per-GPU shapes (weak) or share them (strong)
    const int modelParallel = base.plan.tp * base.plan.pp * base.plan.cp;
    const long long perReplicaBatch = base.plan.dp > 0 ? base.training.globalBatch / base.plan.dp : 0;
    double referenceThroughputPerGpu = 0;
    for (int gpus : gpuCounts) {
        ScalingPoint pt;
        pt.gpus = gpus;
        if (modelParallel <= 0 || gpus % modelParallel != 0) {
            pt.problem = {"", "gpus must be a multiple of tp x pp x cp = " + std::to_string(modelParallel)};
            out.push_back(pt);
            continue;
        }
        Scenario s = base;
        s.cluster.gpus = gpus;
        s.plan.dp = gpus / modelParallel;
        if (mode == ScalingMode::Weak)
            s.training.globalBatch = perReplicaBatch * s.plan.dp;
        pt.dp = s.plan.dp;
        const Evaluation e = evaluateForSearch(s);
        if (!e.feasible) {
            pt.problem = e.problem;
            out.push_back(pt);
            continue;
        }
        pt.feasible = true;
        pt.stepSeconds = e.breakdown.stepSeconds;
        pt.tokensPerSecond = e.tokensPerSecond;
        pt.communicationFraction = e.communicationFraction;
        pt.mfu = e.mfu;
        pt.memoryPerGpuBytes = e.memory.totalBytes;
        pt.fitsInMemory = e.memory.fits;
        if (referenceThroughputPerGpu == 0)
            referenceThroughputPerGpu = e.tokensPerSecond / gpus;
        // Speedup against perfect per-GPU throughput of the first feasible point.
        pt.speedup = e.tokensPerSecond / referenceThroughputPerGpu;
        pt.efficiency = pt.speedup / gpus;
        out.push_back(pt);
    }
    return out;
}

BandwidthRequirement requiredBandwidth(const Scenario &scenario, double target)
{
    BandwidthRequirement r;
    const KernelTimesReuse reuse;   // the bisection moves a link's bandwidth only
    const bool inter = scenario.cluster.gpus > scenario.cluster.gpusPerNode;
    r.tier = inter ? "inter_node" : "intra_node";
    const Link &link = inter ? scenario.cluster.interNode : scenario.cluster.intraNode;
    r.currentBytesPerSecond = link.bytesPerSecond;
    if (!(target > 0 && target < 1)) {
        r.reason = "the target communication fraction must be between 0 and 1";
        return r;
    }
    auto fractionAt = [&](double bytesPerSecond) {
        Scenario s = scenario;
        (inter ? s.cluster.interNode : s.cluster.intraNode).bytesPerSecond = bytesPerSecond;
        const Evaluation e = evaluateForSearch(s);   // bisection needs the numbers, not the warnings
        return e.feasible ? e.communicationFraction : 2.0;
    };
    // Communication time falls monotonically with bandwidth: bisect on log(bandwidth).
    double lo = 1e3, hi = 1e15;
    if (fractionAt(hi) > target) {
        r.reason = "latency alone keeps communication above the target; faster links cannot reach it";
        return r;
    }
    if (fractionAt(lo) <= target) {
        r.reachable = true;
        r.bytesPerSecond = lo;
        return r;
    }
    for (int i = 0; i < 100 && hi / lo > 1 + 1e-12; ++i) {
        const double mid = std::sqrt(lo * hi);
        (fractionAt(mid) > target ? lo : hi) = mid;
    }
    r.reachable = true;
    r.bytesPerSecond = hi;
    return r;
}

} // namespace ts
