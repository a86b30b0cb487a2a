// SPDX-License-Identifier: MIT
// One analysis per scenario: everything the views show, computed once (by the document in the
// GUI, by the report and the command line elsewhere). Views format it; they never call the model.
#pragma once

#include "economics.h"
#include "evaluate.h"
#include "evaluation.h"
#include "inputs.h"
#include "scaling.h"

#include <string>
#include <vector>

namespace ts {

/// An inter-node link the "faster network" variant may pick (the app passes its presets).
struct LinkChoice
{
    std::string name;
    Link link;
    Transport transport = Transport::Rdma;
};

struct AnalysisOptions
{
    std::vector<LinkChoice> interNodeLinks;
    int scalingOctavesDown = 5;   // GPU counts from gpus / 2^down ...
    int scalingOctavesUp = 6;     // ... to gpus x 2^up (multiples of TP x PP x CP)
};

enum class StepVariantKind { Current, OverlapToggled, FasterNetwork, InNetworkReduction, RecommendedFix };
struct StepVariant
{
    StepVariantKind kind = StepVariantKind::Current;
    std::string detail;   // the faster link's name, the fix's recommendation
    // Scaled to the current plan's tokens per step when the variant changes them (a larger batch).
    Breakdown breakdown;
};

enum class MemoryVariantKind { Current, ZeroStage, FullRecompute };
struct MemoryVariant
{
    MemoryVariantKind kind = MemoryVariantKind::Current;
    int zeroStage = 0;
    MemoryBreakdown memory;
};

/// Weak scaling around the current GPU count with Amdahl's and Gustafson's laws drawn from the
/// current communication share as the serial part, scaled from the first feasible point.
struct ScalingAnalysis
{
    std::vector<ScalingPoint> points;
    std::vector<double> amdahl, gustafson;   // speedups, one per point (ideal = the GPU count)
    double serialFraction = 0;
    double baseGpus = 1;
};

/// One row of the Collectives table: a collective with one algorithm at one size, on all the
/// scenario's GPUs, as NCCL's cost model times it (nccl-tests definitions of algbw and busbw).
struct CollectiveEntry
{
    Collective collective = Collective::AllReduce;
    Algorithm algorithm = Algorithm::Ring;
    Protocol protocol = Protocol::Simple;   // what NCCL's tuner takes for it at this size
    double bytes = 0;
    CollectiveTime time;
};

struct Analysis
{
    Scenario scenario;
    Evaluation evaluation;
    ValidDegrees degrees;
    std::vector<StepVariant> stepVariants;       // [0] is the current plan; empty when infeasible
    std::vector<MemoryVariant> memoryVariants;   // [0] is the current plan
    ScalingAnalysis scaling;         // weak: the global batch grows with DP
    ScalingAnalysis strongScaling;   // strong: the global batch is kept
    std::vector<WarningText> warnings;           // describe() of each of evaluation.warnings
    Group collectivesGroup;                      // all GPUs, GPUs per node as in the cluster
    std::vector<CollectiveEntry> collectives;    // at one DP bucket and at 1 GiB, every applicable algorithm
    Economics economics;                         // cost, energy, goodput
};

/// Evaluates the scenario and, when it is feasible, its variants and scaling sweep.
Analysis analyse(const Scenario &scenario, const AnalysisOptions &options = {});

} // namespace ts
