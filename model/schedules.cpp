// SPDX-License-Identifier: MIT
#include "schedules.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ts {

namespace {

int ceilLog2(int n)
{
    int d = 0;
    while ((1 << d) < n)
        ++d;
    return d;
}

// A ring of `members` (global rank ids) running `steps` steps of `chunkBytes` each from `start`.
// reduce = true: reduce-scatter (member i sends chunk (i - s) mod g); false: all-gather (chunk
// (i + 1 - s) mod g, the one it owns after a reduce-scatter).
double addRing(CollectiveSchedule &out, int phase, const std::vector<int> &members, bool reduce, double chunkBytes,
               const Tier &tier, double start, int firstStep, int contributorsBefore, int contributorsAfter,
               const std::vector<int> &chunkOf)
{
    const int g = int(members.size());
    const double stepSeconds = tier.latencySeconds + chunkBytes / tier.bytesPerSecond;
    for (int s = 0; s < g - 1; ++s) {
        for (int i = 0; i < g; ++i) {
            Transfer t;
            t.phase = phase;
            t.step = firstStep + s;
            t.sender = members[size_t(i)];
            t.receiver = members[size_t((i + 1) % g)];
            const int local = reduce ? ((i - s) % g + g) % g : ((i + 1 - s) % g + g) % g;
            t.chunk = chunkOf.empty() ? local : chunkOf[size_t(local)];
            t.bytes = chunkBytes;
            t.startSeconds = start + s * stepSeconds;
            t.endSeconds = t.startSeconds + stepSeconds;
            t.contributors = reduce ? contributorsBefore * (s + 1) : contributorsAfter;
            out.transfers.push_back(t);
        }
    }
    return start + (g - 1) * stepSeconds;
}

// Ranks of one node (node * g .. node * g + g - 1), and the ranks of rail l across k nodes.
std::vector<int> nodeMembers(int node, int g)
{
    std::vector<int> out;
    for (int l = 0; l < g; ++l)
        out.push_back(node * g + l);
    return out;
}
std::vector<int> railMembers(int l, int g, int k)
{
    std::vector<int> out;
    for (int node = 0; node < k; ++node)
        out.push_back(node * g + l);
    return out;
}

void finish(CollectiveSchedule &out)
{
    std::stable_sort(out.transfers.begin(), out.transfers.end(), [](const Transfer &a, const Transfer &b) {
        return a.step != b.step ? a.step < b.step : a.sender < b.sender;
    });
    out.steps = out.transfers.empty() ? 0 : out.transfers.back().step + 1;
    for (const Transfer &t : out.transfers) {
        out.totalSeconds = std::max(out.totalSeconds, t.endSeconds);
        if (t.sender == 0)
            out.bytesSentPerRank += t.bytes;
    }
}

} // namespace

CollectiveSchedule allReduceSchedule(Algorithm algorithm, double S, const Group &group, const Fabric &fabric)
{
    CollectiveSchedule out;
    out.algorithm = algorithm;
    out.ranks = group.ranks;
    out.ranksPerNode = std::max(1, group.ranksPerNode);
    out.bytes = S;
    const int n = group.ranks, g = out.ranksPerNode, k = group.nodes();
    if (n < 2 || n > kMaxScheduleRanks) {
        out.error = "schedules are drawn for 2 to 1024 ranks";
        return out;
    }
    if (!(S >= 0) || !std::isfinite(S)) {
        out.error = "the buffer size must be finite and non-negative";
        return out;
    }
    switch (algorithm) {
    case Algorithm::Ring: {
        // Patarasuk & Yuan 2009: n-1 reduce-scatter steps, then n-1 all-gather steps, S/n each.
        out.phases = {"reduce-scatter", "all-gather"};
        out.chunks = n;
        const std::vector<int> members = nodeMembers(0, n);
        const Tier tier = flatTierOf(group, fabric);
        const double t = addRing(out, 0, members, true, S / n, tier, 0, 0, 1, n, {});
        addRing(out, 1, members, false, S / n, tier, t, n - 1, 1, n, {});
        break;
    }
    case Algorithm::Hierarchical: {
        if (k <= 1 || g <= 1) {
            out.error = "hierarchical all-reduce needs several nodes with several ranks each";
            return out;
        }
        // Reduce-scatter inside each node, all-reduce each 1/g shard across nodes on its rail,
        // all-gather inside each node.
        out.phases = {"intra-node reduce-scatter", "inter-node all-reduce (per rail)", "intra-node all-gather"};
        out.chunks = g;
        double t1 = 0;
        for (int node = 0; node < k; ++node) {
            const std::vector<int> members = nodeMembers(node, g);
            t1 = addRing(out, 0, members, true, S / g, fabric.intra, 0, 0, 1, g, {});
        }
        double t2 = t1;
        if (k > 1) {
            const double shard = S / g;
            for (int l = 0; l < g; ++l) {
                const std::vector<int> rail = railMembers(l, g, k);
                const int owned = (l + 1) % g;   // the shard this rail member reduced inside its node
                const std::vector<int> chunkOf(static_cast<size_t>(k), owned);
                double t = addRing(out, 1, rail, true, shard / k, fabric.inter, t1, g - 1, g, n, chunkOf);
                t2 = addRing(out, 1, rail, false, shard / k, fabric.inter, t, g - 1 + k - 1, g, n, chunkOf);
            }
        }
        for (int node = 0; node < k; ++node) {
            const std::vector<int> members = nodeMembers(node, g);
            addRing(out, 2, members, false, S / g, fabric.intra, t2, g - 1 + 2 * (k - 1), n, n, {});
        }
        break;
    }
    case Algorithm::Tree: {
        // Binomial tree reduce to rank 0, then broadcast back, pipelined in chunks so each level's
        // hop shows alpha + S/(depth beta): total 2 depth alpha + 2 S / beta, as collectiveTime().
        out.phases = {"reduce (up the tree)", "broadcast (down the tree)"};
        out.chunks = 1;
        const int depth = ceilLog2(n);
        const Tier tier = flatTierOf(group, fabric);
        const double hop = tier.latencySeconds + S / (depth * tier.bytesPerSecond);
        for (int level = 0; level < depth; ++level) {
            const int span = 1 << level;
            for (int r = span; r < n; r += 2 * span)
                out.transfers.push_back({0, level, r, r - span, 0, S, level * hop, (level + 1) * hop, std::min(span, n - r)});   // r sends its subtree's sum
        }
        for (int level = depth - 1, step = depth; level >= 0; --level, ++step) {
            const int span = 1 << level;
            for (int r = span; r < n; r += 2 * span)
                out.transfers.push_back({1, step, r - span, r, 0, S, step * hop, (step + 1) * hop, n});
        }
        break;
    }
    case Algorithm::InNetwork: {
        if (!fabric.inNetworkReduction || k <= 1) {
            out.error = "in-network reduction needs SHARP switches and several nodes";
            return out;
        }
        // SHARP: each node's 1/g shard goes up once and comes back reduced; the switch streams the
        // result while receiving, so the two halves of 2 alpha + S/(g beta) are drawn as up and down.
        out.phases = {"intra-node reduce-scatter", "up to the switch", "down from the switch", "intra-node all-gather"};
        out.chunks = g;
        double t1 = 0;
        if (g > 1)
            for (int node = 0; node < k; ++node) {
                const std::vector<int> members = nodeMembers(node, g);
                t1 = addRing(out, 0, members, true, S / g, fabric.intra, 0, 0, 1, g, {});
            }
        const int base = g - 1;
        const double half = fabric.inter.latencySeconds + S / (2.0 * g * fabric.inter.bytesPerSecond);
        for (int r = 0; r < n; ++r) {
            const int shard = (r % g + 1) % g;
            out.transfers.push_back({1, base, r, kSwitch, g > 1 ? shard : 0, S / g, t1, t1 + half, g});
            out.transfers.push_back({2, base + 1, kSwitch, r, g > 1 ? shard : 0, S / g, t1 + half, t1 + 2 * half, n});
        }
        if (g > 1)
            for (int node = 0; node < k; ++node) {
                const std::vector<int> members = nodeMembers(node, g);
                addRing(out, 3, members, false, S / g, fabric.intra, t1 + 2 * half, base + 2, n, n, {});
            }
        break;
    }
    case Algorithm::Nvls: {
        if (!fabric.nvls || k > 1) {
            out.error = "NVLS is drawn inside one node whose NVSwitches reduce (H100, H200, B200)";
            return out;
        }
        // NVLink SHARP: every GPU's buffer is reduced in the switch as it is read (multimem.ld_reduce)
        // and the result multicast back (multimem.st): S(1 + 1/g) per GPU each way, timed as
        // collectiveTime() does, drawn as the trip up and the trip down.
        out.phases = {"reduce in the NVSwitch", "multicast from the NVSwitch"};
        out.chunks = 1;
        const CollectiveTime total = collectiveTime(Collective::AllReduce, Algorithm::Nvls, Protocol::Simple, S, group, fabric);
        const double half = total.seconds / 2;
        for (int r = 0; r < n; ++r) {
            out.transfers.push_back({0, 0, r, kSwitch, 0, S, 0, half, 1});
            out.transfers.push_back({1, 1, kSwitch, r, 0, S, half, 2 * half, n});
        }
        break;
    }
    case Algorithm::Pat:
        out.error = "PAT runs all-gather and reduce-scatter only, not all-reduce";
        return out;
    case Algorithm::Auto:
        out.error = "choose an algorithm";
        return out;
    }
    finish(out);
    // The replay draws the algorithm's steps one after another; the step time uses NCCL's
    // pipelined channels and protocols (collectiveTime). Scale the drawing to that time so the
    // animation and the numbers agree; the steps keep their proportions.
    const CollectiveTime model = collectiveTime(Collective::AllReduce, algorithm, S, group, fabric);
    if (model.applicable && out.totalSeconds > 0 && model.seconds > 0) {
        const double scale = model.seconds / out.totalSeconds;
        for (Transfer &t : out.transfers) {
            t.startSeconds *= scale;
            t.endSeconds *= scale;
        }
        out.totalSeconds = model.seconds;
    }
    return out;
}

double bytesSentBy(const CollectiveSchedule &s, int rank, double seconds)
{
    double sent = 0;
    for (const Transfer &t : s.transfers) {
        if (t.sender != rank || seconds <= t.startSeconds)
            continue;
        const double span = t.endSeconds - t.startSeconds;
        sent += span > 0 ? t.bytes * std::min(1.0, (seconds - t.startSeconds) / span) : t.bytes;
    }
    return sent;
}

std::vector<InFlightPoint> inFlightProfile(const PipelineSimulation &sim, int stage)
{
    // +1 when a forward starts (it begins storing activations), -1 when its backward ends.
    std::vector<std::pair<double, int>> deltas;
    for (const PipelineEvent &e : sim.events) {
        if (e.stage != stage)
            continue;
        if (e.op == PipelineOp::Forward)
            deltas.push_back({e.startSeconds, +1});
        else if (e.op == PipelineOp::Backward)
            deltas.push_back({e.endSeconds, -1});
    }
    std::sort(deltas.begin(), deltas.end());
    std::vector<InFlightPoint> out{{0.0, 0}};
    int count = 0;
    for (const auto &[time, delta] : deltas) {
        count += delta;
        if (!out.empty() && out.back().seconds == time)
            out.back().microBatches = count;
        else
            out.push_back({time, count});
    }
    return out;
}

std::vector<StageTimes> pipelineStageTimes(const Scenario &sc, const Evaluation &e)
{
    // The head where this plan's schedule runs it (DualPipeV: rank 0), so a schedule drawn for
    // comparison on another plan's evaluation places it right too.
    LayerTimesPerStage perLayer = e.perLayer;
    perLayer.headOnFirstStage = sc.plan.schedule == Schedule::DualPipeV && sc.plan.pp > 1;
    std::vector<StageTimes> stages = stageTimesOf(stageLayersOf(sc.workload, sc.plan), perLayer);
    const std::vector<double> shares = dualPipeVFirstChunkShares(sc.workload, sc.plan, perLayer);
    for (size_t s = 0; s < shares.size() && s < stages.size(); ++s)
        stages[s].firstChunkShare = shares[s];
    // Each stage's own boundary: NVLink inside a node, the network where the next stage (or, for
    // the last, the first) sits on another node.
    const int p = int(stages.size());
    for (int s = 0; s < p && p > 1; ++s)
        stages[size_t(s)].p2pSeconds = stageBoundaryLeavesNode(s, p, e.ppStagesPerNode) ? e.p2pInterSecondsPerTransfer
                                                                                          : e.p2pIntraSecondsPerTransfer;
    return stages;
}

StepTimeline stepTimeline(const Scenario &sc, const Evaluation &e)
{
    StepTimeline out;
    if (!e.feasible) {
        out.error = "the plan is infeasible";
        return out;
    }
    const Plan &pl = sc.plan;
    const Breakdown &b = e.breakdown;
    const int p = pl.pp;
    const int v = chunksPerStage(pl);
    const long long m = e.microBatches;
    if (m * v > kMaxTimelineMicroBatches) {
        out.error = "too many micro-batches to draw (" + std::to_string(m) + ")";
        return out;
    }
    // The stages as the step runs them, with the DP sync where the evaluation puts it. With
    // overlap, per micro-batch traffic that outlasts its micro-batch's compute waits before the
    // forward; without, a micro-batch waits for its gathers before its forward (and, ZeRO-3, its
    // backward) and for its reduction after its backward. Compute beside hidden DP collectives
    // runs on the SMs NCCL leaves (dpInterferenceSeconds, spread over all of it).
    const double gather = e.dpGatherSeconds, reducePerMicro = e.dpReducePerMicroSeconds;
    const bool serialPerMicro = !pl.overlapDp && e.dpPerMicroExposedSeconds > 0;
    const double forwardWait = serialPerMicro ? (e.dpGathersPerMicro >= 1 ? gather : 0.0)
                               : m > 0       ? e.dpPerMicroExposedSeconds / double(m)
                                             : 0.0;
    const double backwardGather = gather * e.dpBackwardGatherShare;
    const double backwardGatherWait = serialPerMicro && e.dpGathersPerMicro >= 2 ? backwardGather : 0.0;
    const double backwardReduceWait = serialPerMicro ? reducePerMicro : 0.0;
    std::vector<StageTimes> stages = pipelineStageTimes(sc, e);
    {
        // The evaluation adds the slowed compute to the critical stage's busy time.
        const double busy = double(m) * (e.stageForwardSeconds - e.offloadForwardStallSeconds + e.stageBackwardSeconds
                                         - e.offloadBackwardStallSeconds);
        const double stretch = busy > 0 ? 1 + e.dpInterferenceSeconds / busy : 1.0;
        // Activation offloading (pp 1) makes each op wait for its host copies: drawn inside the op.
        for (StageTimes &st : stages) {
            st.forwardSeconds = st.forwardSeconds * stretch + forwardWait + e.offloadForwardStallSeconds;
            st.backwardSeconds = st.backwardSeconds * stretch + backwardGatherWait + backwardReduceWait
                                 + e.offloadBackwardStallSeconds;
            st.weightGradSeconds *= stretch;
        }
    }
    const PipelineSimulation sim = simulatePipeline(pl.schedule, p, int(m), v, stages);
    if (!sim.ok) {
        out.error = sim.error;
        return out;
    }
    // The first gather (of the step's parameters, or of the first micro-batch's) comes before
    // the first forward.
    const double lead = e.dpLeadSeconds;
    const int layers = std::max(1, stageLayersOf(sc.workload, pl).front() / v);
    double firstBackward = -1, lastBackwardEnd = lead;
    bool forwardAfterBackward = false;   // micro-batches alternate (gradient accumulation, 1F1B's steady state)
    for (const PipelineEvent &ev : sim.events) {
        if (ev.stage != 0)
            continue;
        const double start = lead + ev.startSeconds, end = lead + ev.endSeconds;
        const bool forward = ev.op == PipelineOp::Forward, backward = ev.op == PipelineOp::Backward;
        const char *letter = forward ? "F" : backward ? "B" : "W";
        // Micro-batches numbered from 1, as the Pipeline tab numbers them.
        const std::string number = std::to_string(ev.microBatch + 1);
        // The compute itself, inside the waits for DP traffic the op's time includes.
        const double computeStart = start + (forward ? forwardWait : backward ? backwardGatherWait : 0.0);
        const double computeEnd = end - (backward ? backwardReduceWait : 0.0);
        out.intervals.push_back({Stream::Compute, letter + number, ev.microBatch, computeStart, computeEnd});
        // Exposed TP/CP collectives sit inside each layer of the op: one slice per layer at its end.
        const double tp = ev.op == PipelineOp::Forward ? layers * e.perLayer.forwardCommSeconds
                          : ev.op == PipelineOp::Backward ? layers * e.perLayer.backwardCommSeconds : 0.0;
        if (tp > 0) {
            const double layerSpan = (computeEnd - computeStart) / layers, slice = tp / layers;
            for (int l = 1; l <= layers; ++l)
                out.intervals.push_back({Stream::TpComm, "TP", ev.microBatch, computeStart + l * layerSpan - slice,
                                         computeStart + l * layerSpan});
        }
        // The first stage sends to the second and receives from it over their own boundary.
        const double hop = stages.front().p2pSeconds;
        if (p > 1 && ev.op == PipelineOp::Forward)
            out.intervals.push_back({Stream::PpP2p, "send F" + number, ev.microBatch, end, end + hop});
        if (p > 1 && ev.op == PipelineOp::Backward)
            out.intervals.push_back({Stream::PpP2p, "recv B" + number, ev.microBatch, std::max(0.0, start - hop), start});
        // FSDP and ZeRO-3 gather the parameters for each micro-batch's forward (and backward); ZeRO-2
        // and FSDP reduce its gradients behind its backward, the last buckets trailing it.
        if (forward && e.dpGathersPerMicro >= 1 && gather > 0) {
            const double gatherStart = serialPerMicro ? start : std::max(0.0, start - lead);
            out.intervals.push_back({Stream::DpComm, "gather F" + number, ev.microBatch, gatherStart, gatherStart + gather});
        }
        if (backward && e.dpGathersPerMicro >= 2 && backwardGather > 0)
            out.intervals.push_back({Stream::DpComm, "gather B" + number, ev.microBatch, start, start + backwardGather});
        if (backward && reducePerMicro > 0) {
            const double reduceEnd = serialPerMicro ? end : end + e.dpTailSeconds;
            out.intervals.push_back({Stream::DpComm, "reduce B" + number, ev.microBatch, reduceEnd - reducePerMicro, reduceEnd});
        }
        forwardAfterBackward = forwardAfterBackward || (forward && firstBackward >= 0);
        if (ev.op == PipelineOp::Backward) {
            if (firstBackward < 0)
                firstBackward = start;
            lastBackwardEnd = std::max(lastBackwardEnd, end);
        }
    }
    const double pipelineEnd = lead + sim.makespanSeconds;
    // Once-per-step traffic: the parameter gather, under the first forward when prefetched (else
    // after the reduction), and the gradient buckets, which leave dpTailSeconds exposed after the
    // pipeline drains.
    const double stepGather = e.dpGathersPerMicro == 0 ? gather : 0.0;
    const double perMicroTraffic = (e.dpGathersPerMicro >= 1 ? gather : 0.0) + (e.dpGathersPerMicro >= 2 ? backwardGather : 0.0) + reducePerMicro;
    const double stepReduce = std::max(0.0, b.dpCommSeconds - stepGather - double(m) * perMicroTraffic);
    const double dpEnd = pipelineEnd + e.dpTailSeconds;
    if (stepGather > 0 && e.dpGatherPrefetched)
        out.intervals.push_back({Stream::DpComm, "parameter gather", -1, 0, stepGather});
    const double reduceEnd = stepGather > 0 && !e.dpGatherPrefetched ? dpEnd - stepGather : dpEnd;
    double dpStart = reduceEnd - stepReduce;
    if (stepReduce > 0) {
        const int buckets = std::max(1, e.dpBuckets);
        const int drawn = std::min(buckets, kMaxTimelineBuckets);
        const double perDrawn = stepReduce / drawn;
        for (int i = 0; i < drawn; ++i) {
            const std::string label = drawn == buckets ? "bucket " + std::to_string(i + 1)
                                                       : "buckets " + std::to_string((long long)i * buckets / drawn + 1) + "-"
                                                             + std::to_string((long long)(i + 1) * buckets / drawn);   // up to 2^30 buckets
            out.intervals.push_back({Stream::DpComm, label, -1, dpStart + i * perDrawn, dpStart + (i + 1) * perDrawn});
        }
    } else if (reducePerMicro > 0) {   // the last micro-batch's reduction
        dpStart = serialPerMicro ? lastBackwardEnd - reducePerMicro : lastBackwardEnd + e.dpTailSeconds - reducePerMicro;
    }
    if (stepGather > 0 && !e.dpGatherPrefetched)
        out.intervals.push_back({Stream::DpComm, "parameter gather", -1, reduceEnd, dpEnd});
    const double optStart = dpEnd;
    if (b.optimizerSeconds > 0)
        out.intervals.push_back({Stream::Optimizer, "optimizer", -1, optStart, optStart + b.optimizerSeconds});
    out.stepSeconds = optStart + b.optimizerSeconds;
    // ZeRO and FSDP reduce-scatter the gradients (each rank keeps its shard); DDP all-reduces them.
    const bool sharded = pl.zeroStage >= 1 || e.framework == Framework::Fsdp;
    const bool synced = b.dpCommSeconds > 0;
    out.phases = {{"Shard data", 0, 0},
                  {"Forward", lead, std::max(lead, firstBackward)},
                  {forwardAfterBackward ? "Forward and backward" : "Backward", std::max(lead, firstBackward), lastBackwardEnd},
                  {sharded ? "Reduce-scatter" : "All-reduce", synced ? std::min(std::max(0.0, dpStart), pipelineEnd) : pipelineEnd,
                   synced ? dpEnd : pipelineEnd},
                  {"Optimizer step", optStart, out.stepSeconds}};
    return out;
}

} // namespace ts
