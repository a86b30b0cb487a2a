// SPDX-License-Identifier: MIT
// Text of the warnings and how their recommended changes apply to a scenario.
#include "evaluate.h"
#include "units.h"

#include <cmath>
#include <cstdio>

namespace ts {

namespace {

template<typename... Args>
std::string format(const char *fmt, Args... args)
{
    char text[512];
    std::snprintf(text, sizeof text, fmt, args...);
    return text;
}

// "set TP to 8": the field's words, lower-case inside a sentence.
std::string describeChange(const Change &c)
{
    std::string text = describeFieldChange(c.field, c.value);
    if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z')
        text[0] = char(text[0] - 'A' + 'a');
    return text;
}

std::string changesText(const Warning &w)
{
    std::string out;
    for (int i = 0; i < w.changeCount; ++i) {
        if (i)
            out += " and ";
        out += describeChange(w.changes[size_t(i)]);
    }
    return out;
}

} // namespace

Scenario applyChange(const Scenario &scenario, const Change &c) { return withField(scenario, c.field, c.value).scenario; }

Scenario applyWarning(const Scenario &scenario, const Warning &warning)
{
    Scenario s = scenario;
    for (int i = 0; i < warning.changeCount; ++i)
        s = applyChange(s, warning.changes[size_t(i)]);
    return s;
}

namespace {
// A warning's threshold carries the named framework (Framework's order).
const char *frameworkName(double threshold)
{
    static const char *const names[] = {"the derived framework", "Megatron-LM", "DeepSpeed", "PyTorch FSDP"};
    const int f = int(threshold);
    return f >= 0 && f < 4 ? names[f] : "The framework";
}
} // namespace

WarningText describe(const Warning &w, const Scenario &sc)
{
    WarningText t;
    const std::string fix = changesText(w);
    // "Lead: the change." or, where no change runs here (a fix another input rules out), "Lead."
    const auto withFix = [&](const std::string &lead) { return w.changeCount ? lead + ": " + fix + "." : lead + "."; };
    switch (w.code) {
    case WarningCode::CommunicationDominates:
        t.code = "communication_dominates";
        t.message = format("Communication is %.1f%% of the step (over %.0f%%): GPUs wait on the network.",
                           100 * w.value, 100 * w.threshold);
        t.recommendation = withFix("Hide or shrink it");
        break;
    case WarningCode::LowPipelineEfficiency:
        t.code = "low_pipeline_efficiency";
        t.message = format("Pipeline efficiency is %.1f%% (under %.0f%%): the fill and drain bubble idles every stage.",
                           100 * w.value, 100 * w.threshold);
        t.recommendation = w.changeCount ? "Use more micro-batches per step: " + fix
                                               + " (or fewer stages, or the interleaved / zero-bubble schedule)."
                                         : "Use more micro-batches per step, fewer stages, or the interleaved / zero-bubble "
                                           "schedule.";
        break;
    case WarningCode::FewMicroBatches:
        t.code = "few_micro_batches";
        t.message = format("Only %.0f micro-batches for %.0f pipeline stages (m < p): most stages idle most of the step.",
                           w.value, w.threshold);
        t.recommendation = w.changeCount ? "Give every stage work: " + fix + "."
                                         : "Give every stage work: more micro-batches per step (a larger batch does not run "
                                           "or does not fit as the plan stands: recompute or shard to make room), or fewer stages.";
        break;
    case WarningCode::TpSpansNodes:
        t.code = "tp_spans_nodes";
        t.message = format("Tensor parallelism of %.0f spans nodes of %.0f GPUs: its per-layer all-reduces run over "
                           "the inter-node network instead of NVLink.",
                           w.value, w.threshold);
        t.recommendation = w.changeCount ? "Keep TP inside a node, the other GPUs to pipeline, data or context parallelism: "
                                               + fix + "."
                                         : "Keep TP inside a node; no such plan runs here as it stands (the batch, the layers "
                                           "or the memory rule out the in-node TP with PP, DP or CP taking the rest): change "
                                           "the global batch or the GPU count so one does.";
        break;
    case WarningCode::TpStraddlesNodes:
        t.code = "tp_straddles_nodes";
        t.message = format("Tensor-parallel groups of %.0f do not tile nodes of %.0f GPUs (or the rank order puts TP "
                           "across nodes): some groups are split over two nodes, and their all-reduces are charged at "
                           "the network's rate.",
                           w.value, w.threshold);
        if (w.changeCount)
            t.recommendation = "Use a TP degree that divides the GPUs per node: " + fix + ".";
        else if (w.threshold > 0 && std::fmod(w.threshold, w.value) == 0)   // TP divides the node: the order splits it
            t.recommendation = "Keep each TP group on one node: put tp first in plan.rank_order (tp-cp-dp-pp, Megatron's order).";
        else
            t.recommendation = "Use a TP degree that divides the GPUs per node (none runs here as the plan stands: change the "
                               "global batch or the GPU count so DP, PP or CP can take the rest).";
        break;
    case WarningCode::TpOverSlowLink:
        t.code = "tp_over_slow_link";
        t.message = format("Tensor parallelism runs over a %.0f GB/s intra-node link (below %.0f GB/s, PCIe class).",
                           w.value / units::kBytesPerGB, w.threshold / units::kBytesPerGB);
        t.recommendation = w.changeCount ? "Use data or pipeline parallelism instead: " + fix + "."
                                         : "Use data or pipeline parallelism instead of TP (TP 1 runs here with neither as the "
                                           "plan stands: change the global batch or the layer split so one does).";
        break;
    case WarningCode::CpSpansNodes:
        t.code = "cp_spans_nodes";
        t.message = format("The context-parallel K/V exchange (%s) crosses nodes and %.1f%% of the step waits for it (over %.0f%%).",
                           nameOf(sc.plan.cpComm), 100 * w.value, 100 * w.threshold);
        t.recommendation = !w.changeCount ? "No split that keeps TP x CP inside a node, and no other K/V exchange, runs faster "
                                            "per token here: use a faster network or a shorter sequence per rank."
                           : w.changes[0].field == Field::CpComm ? "Move K and V another way: " + fix + "."
                                                                 : "Keep the exchange inside a node: " + fix + ".";
        break;
    case WarningCode::DoesNotFitMemory:
        t.code = "does_not_fit_memory";
        t.message = format("The plan needs %.1f GiB per GPU but the GPU has %.1f GiB (%.1f GB).",
                           w.value / units::kBytesPerGiB, w.threshold / units::kBytesPerGiB,
                           w.threshold / units::kBytesPerGB);
        t.recommendation = w.changeCount ? "Shard or recompute: " + fix + "."
                                         : "Use more GPUs or a GPU with more memory.";
        break;
    case WarningCode::HostMemoryExceeded:
        t.code = "host_memory_exceeded";
        t.message = format("Activation offloading keeps %.1f GiB per GPU in host memory, which has %.1f GiB per GPU.",
                           w.value / units::kBytesPerGiB, w.threshold / units::kBytesPerGiB);
        t.recommendation = withFix("Offload what host memory holds (and recompute or shard the rest)");
        break;
    case WarningCode::TcpTransport:
        t.code = "tcp_transport";
        t.message = "Inter-node traffic uses TCP: the kernel stack halves achievable bandwidth and adds latency.";
        t.recommendation = withFix("Use RDMA (InfiniBand or RoCEv2 with GPUDirect)");
        break;
    case WarningCode::DpNotOverlapped:
        t.code = "dp_not_overlapped";
        t.message = format("Gradient sync (%.1f%% of the step) waits for the whole backward pass.", 100 * w.value);
        t.recommendation = withFix("Overlap bucketed all-reduce with backward");
        break;
    case WarningCode::GradientSyncExposed:
        t.code = "gradient_sync_exposed";
        t.message = format("Gradient sync is overlapped but still exposed for %.1f%% of the step (over %.0f%%): only "
                           "the last micro-batch's backward, and the first forward for a parameter gather, can hide a "
                           "sync that runs once per step.",
                           100 * w.value, 100 * w.threshold);
        t.recommendation = w.changeCount ? "Shrink it, hide it behind a longer last backward or spread it over more tokens: "
                                               + fix + "."
                                         : "Shrink it: reduce gradients in 16 bits, run larger micro-batches, put more tokens "
                                           "in a step, or hold fewer parameters per GPU (more TP or PP).";
        break;
    case WarningCode::TpCommExposed:
        t.code = "tp_comm_exposed";
        if (!sc.plan.tpOverlap) {   // the fix is TP overlap (or none where it cannot run)
            t.message = format("Tensor-parallel collectives run in the open for %.1f%% of the step (over %.0f%%): each "
                               "layer's GEMMs wait for them.",
                               100 * w.value, 100 * w.threshold);
            t.recommendation = w.changeCount ? "Hide them behind the GEMMs: " + fix + " (or lower TP)."
                                             : "Lower TP: TP communication overlap does not run with this plan (NVFP4, or latent "
                                               "attention under Megatron-Core).";
        } else {
            t.message = format("Tensor-parallel collectives still run in the open for %.1f%% of the step (over %.0f%%) "
                               "with TP overlap on: the node's links are too slow for this TP for the GEMMs to hide them.",
                               100 * w.value, 100 * w.threshold);
            t.recommendation = w.changeCount ? "Lower TP: " + fix + "."
                                             : "Lower TP where the memory allows it; no halving of TP evaluated here "
                                               "gives a shorter step per token.";
        }
        break;
    case WarningCode::EpCommExposed:
        t.code = "ep_comm_exposed";
        t.message = format("Expert dispatch and combine run in the open for %.1f%% of the step (over %.0f%%): each MoE "
                           "layer waits for its tokens to reach their experts and come back, and for the host after the dispatcher's "
                           "sync on the token counts.",
                           100 * w.value, 100 * w.threshold);
        t.recommendation = w.changeCount ? "Send fewer copies or hide them: " + fix + "."
                                         : "Keep EP inside a node's NVLink (a lower ep), give each micro-batch more "
                                           "work to hide them behind, or run an interleaved schedule with ep_overlap, which "
                                           "hides the exchanges and the host's wait behind another micro-batch.";
        break;
    case WarningCode::LatencyBoundBuckets:
        t.code = "latency_bound_buckets";
        t.message = format("Per-message latency is %.0f%% of each gradient bucket's all-reduce: buckets are too small.",
                           100 * w.value);
        t.recommendation = withFix("Send fewer, larger buckets");
        break;
    case WarningCode::OversubscribedFabric:
        t.code = "oversubscribed_fabric";
        t.message = format("Gradient sync crosses a %.0f:1 oversubscribed fabric and is exposed.", w.value);
        t.recommendation = withFix("Keep DP rings on rails or buy bisection");
        break;
    case WarningCode::ZeroThreeOnSlowFabric:
        t.code = "zero3_on_slow_fabric";
        t.message = format("ZeRO-3 gathers parameters every micro-batch over a %.1f GB/s per-GPU inter-node link.",
                           w.value / units::kBytesPerGB);
        t.recommendation = w.changeCount ? "Gather the parameters once a step instead of every micro-batch: " + fix + "."
                                         : "Gather the parameters once a step instead of every micro-batch (ZeRO 1 or 2); "
                                           "neither fits this plan as it stands: recompute or add GPUs to make room.";
        break;
    case WarningCode::Stragglers:
        t.code = "stragglers";
        t.message = format("With %d GPUs and the given jitter the p99 step is %.1f%% above the median step.",
                           sc.cluster.gpus, 100 * w.value);
        t.recommendation = "Find the slow GPUs (thermal, OS jitter, background work); synchronous training runs at "
                           "the pace of the slowest.";
        break;
    case WarningCode::ComputeAbovePeak:
        t.code = "compute_above_peak";
        t.message = format("The given compute time implies %.1fx the GPUs' peak FLOP/s for this shape: it cannot be "
                           "right for this model, so MFU and time-to-train are not meaningful.",
                           w.value);
        t.recommendation = withFix("Check training.compute_time or the model shape");
        break;
    case WarningCode::Count: break;
    case WarningCode::CpCommNotInFramework: {
        t.code = "cp_comm_not_in_framework";
        t.message = format("%s does not move K and V by %s under context parallelism, so this plan cannot run as described.",
                           frameworkName(w.threshold), nameOf(CpComm(int(w.value))));
        t.recommendation = "Use the exchange the framework runs (Megatron-LM: p2p, allgather or a2a; DeepSpeed: a2a, "
                           "Ulysses; PyTorch FSDP: p2p, ring attention, whichever torchtitan rotate method)" + (w.changeCount ? ": " + fix + "." : std::string("; none runs this plan as it stands: change the batch or the split so CP 1 does."));
        break;
    }
    case WarningCode::ScheduleNotInFramework: {
        t.code = "schedule_not_in_framework";
        t.message = format("%s has no %s pipeline schedule, so this plan cannot run as described.",
                           frameworkName(w.threshold), nameOf(Schedule(int(w.value))));
        t.recommendation = "Use a schedule the framework runs (Megatron-LM: 1F1B or interleaved; DeepSpeed: 1F1B; "
                           "torchtitan with FSDP: all), or name framework fsdp" + (w.changeCount ? ": " + fix + "." : std::string("."));
        break;
    }
    }
    return t;
}

} // namespace ts
