// SPDX-License-Identifier: MIT
// The inputs a user (or a warning's fix) can change, defined once: the scenario key, the words and
// the display unit the panel shows, the factor from display to SI, the kind, the range, and the
// rule that keeps a plan consistent when a degree moves. The panel, the warnings' fixes, the undo
// text and the scenario-file keys all read this table.
#pragma once

#include "inputs.h"

#include <string>

namespace ts {

enum class Field {
    None,
    // workload and training
    Parameters, SeqLen, GlobalBatch, MicroBatch, Precision, Recompute, RecomputeLayers, OffloadLayers, Fp8Params, Fp8Recipe, Fp8Attention, Tokens, ComputeTime,
    // cluster
    Gpus, GpusPerNode, Rails, Oversubscription, InNetworkReduction, Transport,
    IntraLatency, InterLatency, IntraEfficiency, InterEfficiency, IntraBandwidth, InterBandwidth,
    // plan
    Tp, Pp, Dp, Cp, CpComm, SequenceParallel, Schedule, VirtualStages, Zero, OverlapDp, TpOverlap, TpAsyncGrad,
    Bucket, Compression, Jitter, LocalSgd, Framework,
    // kernels
    Attention, CrossEntropy, Norm, Kernels,
    // gradient sync
    GradReduce, FsdpVersion,
    // mixture of experts
    Ep, EpOverlap, EpDispatcher,
    // Megatron's selective recompute: the RecomputeModule flags as an integer (0..127)
    RecomputeModules,
    Count
};

enum class FieldKind { Integer, Real, Bool, Choice };

struct FieldInfo
{
    Field field = Field::None;
    const char *key = "";          // scenario key, "plan.tp"
    const char *name = "";         // words for undo and fixes, "TP"
    const char *unit = "";         // display unit, "GB/s"; empty for counts and choices
    double siPerDisplay = 1;       // SI value = display value x this
    FieldKind kind = FieldKind::Real;
    double minimum = 0, maximum = 0;   // allowed display values
};

/// The row of a field (Field::None and Count give an empty row).
const FieldInfo &fieldInfo(Field field);
/// The field a scenario key names ("plan.tp"), or Field::None.
Field fieldForKey(const std::string &key);

/// SI value of a field in a scenario (enums and bools as their integer value; Parameters as the
/// parameter count; Bucket as bytes, kFrameworkBucket for the framework's own).
double fieldValue(const Scenario &scenario, Field field);

struct FieldEdit
{
    Scenario scenario;
    std::string note;   // what was derived (a shape from a parameter count), or why nothing changed
};
/// The scenario with one field set to an SI value, and the rule that keeps the plan consistent:
/// TP, PP, CP and the GPU count keep the GPUs and move DP (when it divides); DP moves the GPU count;
/// GPUs per node carries the NICs with it; a parameter count derives a shape (model/shape.h).
FieldEdit withField(const Scenario &scenario, Field field, double si);

/// "8", "1F1B", "25 MB", "on": a value in the words of the panel.
std::string formatFieldValue(Field field, double si);
/// "Set TP to 8", "Turn sequence parallel on": undo text and the fixes of warnings.
std::string describeFieldChange(Field field, double si);

} // namespace ts
