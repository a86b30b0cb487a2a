// SPDX-License-Identifier: MIT
// Scaling curves and requirements derived from repeated evaluations.
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <string>
#include <vector>

namespace ts {

/// Gustafson's scaled speedup with serial (communication) share s: S(P) = P - (P-1) s (seed 001).
double gustafsonSpeedup(double serialFraction, double processors);
/// Its efficiency eta = S(P)/P = 1 - (P-1)/P * s.
double gustafsonEfficiency(double serialFraction, double processors);
/// Amdahl's fixed-size speedup: 1 / (s + (1-s)/P).
double amdahlSpeedup(double serialFraction, double processors);

enum class ScalingMode {
    Weak,    // keep micro-batches per DP replica: global batch grows with DP (seeds' "per replica")
    Strong,  // keep the global batch: micro-batches per replica shrink as DP grows
};

struct ScalingPoint
{
    int gpus = 0;
    int dp = 0;
    bool feasible = false;
    Problem problem;             // why this point has no evaluation (no field: no layout divides the count)
    double stepSeconds = 0;
    double tokensPerSecond = 0;
    double speedup = 0;          // throughput relative to the first feasible point, times its GPU count
    double efficiency = 0;       // speedup / GPUs
    double communicationFraction = 0;
    double mfu = 0;
    double memoryPerGpuBytes = 0;
    bool fitsInMemory = false;
};

/// Evaluates the scenario at each GPU count, keeping TP, PP and CP and scaling DP.
std::vector<ScalingPoint> scalingSweep(const Scenario &scenario, const std::vector<int> &gpuCounts, ScalingMode mode);

/// Powers of two from `first` to `last` (inclusive of both ends when they are not powers of two).
std::vector<int> gpuCountsBetween(int first, int last);

struct BandwidthRequirement
{
    bool reachable = false;
    std::string tier;                 // "inter_node" or "intra_node": the link that was scaled
    double bytesPerSecond = 0;        // nominal per-direction bandwidth of that link
    double currentBytesPerSecond = 0;
    std::string reason;               // when not reachable
};

/// Nominal bandwidth of the slowest link the plan uses at which exposed communication is at most
/// `targetFraction` of the step (seed 000's "min bandwidth"; 0.5 = communication <= compute).
BandwidthRequirement requiredBandwidth(const Scenario &scenario, double targetFraction);

} // namespace ts
