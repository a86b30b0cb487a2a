// SPDX-License-Identifier: MIT
// Scenarios shared by the model tests.
#pragma once

#include "inputs.h"
#include "units.h"

namespace ts::fixtures {

/// 64 H100 in 8 nodes (NVLink 4, NDR), a GPT-style 13B (L 40, h 5120, MHA, GeLU), TP 8, PP 2, DP 4,
/// global batch 256, micro-batch 1.
inline Scenario gpt13bOn64H100()
{
    Scenario s;
    s.workload = {"13b", 40, 5120, 40, 40, 4 * 5120, MlpKind::Gelu, true, false, 51200, 2048};
    s.training.globalBatch = 256;
    s.training.microBatch = 1;
    s.cluster.gpu = {"h100", 989e12, 1979e12, 0, 80.0 * units::kBytesPerGiB, 3.35e12};
    s.cluster.gpus = 64;
    s.cluster.gpusPerNode = 8;
    s.cluster.intraNode = {"nvlink4", 450e9, 3e-6, 0.82};
    s.cluster.interNode = {"ib-ndr", 50e9, 5e-6, 0.9};
    s.plan.tp = 8;
    s.plan.pp = 2;
    s.plan.dp = 4;
    return s;
}

} // namespace ts::fixtures
