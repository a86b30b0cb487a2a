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

/// Qwen3-32B (Hugging Face Qwen/Qwen3-32B config.json): hidden 5120, 64 layers, 64 query and 8 KV
/// heads of 128 (the head width decoupled from 5120 / 64), SwiGLU 25600, vocabulary 151936, untied,
/// QK norm; sequence 4096.
inline Workload qwen3_32b()
{
    Workload w{"qwen3-32b", 64, 5120, 64, 8, 25600, MlpKind::SwiGlu, false, false, 151936, 4096};
    w.headDim = 128;
    w.qkNorm = true;
    return w;
}

/// Llama 3 70B on H100 at TP 8 with sequence parallelism, PP and DP given, micro-batch 1,
/// selective recompute; the rest of the plan at its defaults.
inline Scenario llama3_70bOnH100(int gpus, int pp, int dp, long long globalBatch)
{
    Scenario s = gpt13bOn64H100();
    s.workload = {"llama3-70b", 80, 8192, 64, 8, 28672, MlpKind::SwiGlu, false, false, 128256, 8192};
    s.cluster.gpus = gpus;
    s.plan = {};
    s.plan.tp = 8;
    s.plan.pp = pp;
    s.plan.dp = dp;
    s.plan.sequenceParallel = true;
    s.training.globalBatch = globalBatch;
    s.training.microBatch = 1;
    s.training.recompute = Recompute::Selective;
    return s;
}

/// Llama 3 405B pre-training as the Llama 3 paper describes it (Sec. 3.3): 16,384 H100, TP 8,
/// PP 16 interleaved (v 2, 7 layers on the first and last stage), DP 128, sequence 8192, BF16.
inline Scenario llama3_405bOn16kH100()
{
    Scenario s = gpt13bOn64H100();
    s.workload = {"llama3-405b", 126, 16384, 128, 8, 53248, MlpKind::SwiGlu, false, false, 128256, 8192};
    s.training.globalBatch = 2048;
    s.training.microBatch = 1;
    s.training.recompute = Recompute::None;
    s.training.tokens = 15.6e12;
    s.cluster.gpus = 16384;
    s.plan.tp = 8;
    s.plan.pp = 16;
    s.plan.dp = 128;
    s.plan.sequenceParallel = true;
    s.plan.zeroStage = 1;
    s.plan.schedule = Schedule::Interleaved;
    s.plan.virtualStages = 2;
    s.plan.firstStageLayers = 7;
    s.plan.lastStageLayers = 7;
    return s;
}

/// DeepSeek-V3 (arXiv:2412.19437 Sec. 4.2, the released config.json) as Megatron-Core builds it:
/// MLA, 3 dense layers then 58 MoE layers of 256 experts (8 a token) and a shared expert, one MTP layer.
inline Workload deepSeekV3()
{
    Workload w{"deepseek-v3", 61, 7168, 128, 128, 18432, MlpKind::SwiGlu, false, false, 129280, 4096};
    w.headDim = 128;
    w.qLoraRank = 1536;
    w.kvLoraRank = 512;
    w.ropeHeadDim = 64;
    w.vHeadDim = 128;
    w.experts = 256;
    w.expertsPerToken = 8;
    w.moeFfnHidden = 2048;
    w.sharedExpertFfn = 2048;
    w.firstDenseLayers = 3;
    w.mtpLayers = 1;
    w.moeRouterGroups = 8;   // node-limited routing: 4 of 8 groups (config.json n_group, topk_group)
    w.moeRouterGroupTopk = 4;
    return w;
}

} // namespace ts::fixtures
