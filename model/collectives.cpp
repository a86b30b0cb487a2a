// SPDX-License-Identifier: MIT
#include "collectives.h"

#include <algorithm>
#include <cmath>

namespace ts {

namespace {

// TCP moves every byte through the kernel stack: NCCL's socket transport reaches roughly half
// of what RDMA reaches on the same NIC and adds tens of microseconds per message (seed 000's case
// study; NCCL socket transport vs IB verbs measurements).
constexpr double kTcpBandwidthFactor = 0.5;
constexpr double kTcpExtraLatencySeconds = 20e-6;

int ceilLog2(int n)
{
    int steps = 0;
    while ((1 << steps) < n)
        ++steps;
    return steps;
}

// Bandwidth of the slowest hop and alpha of a flat algorithm over the whole group.
Tier flatTier(const Group &group, const Fabric &fabric)
{
    if (group.nodes() > 1 && group.ranksPerNode <= 1)
        return fabric.inter;   // every hop leaves the node
    if (group.nodes() > 1)
        return {std::min(fabric.intra.bytesPerSecond, fabric.inter.bytesPerSecond),
                std::max(fabric.intra.latencySeconds, fabric.inter.latencySeconds)};
    return fabric.intra;
}

struct Cost
{
    double seconds;
    int latencySteps;
};

// alpha-beta terms: steps * alpha + bytes / beta.
Cost ab(int steps, const Tier &tier, double bytes)
{
    return {steps * tier.latencySeconds + bytes / tier.bytesPerSecond, steps};
}
Cost operator+(Cost a, Cost b) { return {a.seconds + b.seconds, a.latencySteps + b.latencySteps}; }

Cost ringCost(Collective c, double S, int n, const Tier &t)
{
    switch (c) {
    case Collective::AllReduce:      // 2(n-1) steps of S/n each
        return ab(2 * (n - 1), t, 2.0 * (n - 1) / n * S);
    case Collective::AllGather:
    case Collective::ReduceScatter:  // n-1 steps of S/n each
        return ab(n - 1, t, double(n - 1) / n * S);
    case Collective::Broadcast:
    case Collective::Reduce:         // pipelined chain: fill n-1 hops, then S at link rate
        return ab(n - 1, t, S);
    case Collective::AllToAll:
        return ab(n - 1, t, double(n - 1) / n * S);
    case Collective::SendRecv:
        return ab(1, t, S);
    }
    return {0, 0};
}

} // namespace

Tier flatTierOf(const Group &group, const Fabric &fabric) { return flatTier(group, fabric); }

const char *nameOf(Collective c)
{
    switch (c) {
    case Collective::AllReduce: return "all_reduce";
    case Collective::AllGather: return "all_gather";
    case Collective::ReduceScatter: return "reduce_scatter";
    case Collective::Broadcast: return "broadcast";
    case Collective::Reduce: return "reduce";
    case Collective::AllToAll: return "alltoall";
    case Collective::SendRecv: return "sendrecv";
    }
    return "?";
}

const char *nameOf(Algorithm a)
{
    switch (a) {
    case Algorithm::Ring: return "ring";
    case Algorithm::Tree: return "tree";
    case Algorithm::Hierarchical: return "hierarchical";
    case Algorithm::InNetwork: return "in_network";
    case Algorithm::Auto: return "auto";
    }
    return "?";
}

Fabric fabricOf(const Cluster &cluster)
{
    Fabric f;
    f.intra.bytesPerSecond = cluster.intraNode.bytesPerSecond * cluster.intraNode.efficiency;
    f.intra.latencySeconds = cluster.intraNode.latencySeconds;
    // Each GPU's share of the node's NICs; traffic above the leaf is slowed by oversubscription.
    const double railShare = std::min(1.0, double(cluster.rails) / std::max(1, cluster.gpusPerNode));
    double inter = cluster.interNode.bytesPerSecond * cluster.interNode.efficiency * railShare
                   / std::max(1.0, cluster.oversubscription);
    double alpha = cluster.interNode.latencySeconds;
    if (cluster.transport == Transport::Tcp) {
        inter *= kTcpBandwidthFactor;
        alpha += kTcpExtraLatencySeconds;
    }
    f.inter = {inter, alpha};
    f.inNetworkReduction = cluster.inNetworkReduction;
    return f;
}

Group groupOf(int size, int stride, int gpusPerNode)
{
    Group g;
    g.ranks = std::max(1, size);
    if (stride >= gpusPerNode)
        g.ranksPerNode = 1;
    else
        g.ranksPerNode = std::max(1, std::min(g.ranks, gpusPerNode / std::max(1, stride)));
    // Members per node must divide the group; otherwise treat the group as flat across nodes.
    if (g.ranks % g.ranksPerNode != 0)
        g.ranksPerNode = 1;
    return g;
}

double busBandwidthFactor(Collective c, int n)
{
    if (n <= 1)
        return c == Collective::AllReduce || c == Collective::AllGather
                       || c == Collective::ReduceScatter || c == Collective::AllToAll
                   ? 0.0
                   : 1.0;
    switch (c) {
    case Collective::AllReduce: return 2.0 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return double(n - 1) / n;
    case Collective::Broadcast:
    case Collective::Reduce:
    case Collective::SendRecv: return 1.0;
    }
    return 1.0;
}

CollectiveTime collectiveTime(Collective c, Algorithm algorithm, double S, const Group &group,
                              const Fabric &fabric)
{
    CollectiveTime out;
    out.algorithm = algorithm;
    const int n = group.ranks;
    const int g = std::max(1, group.ranksPerNode);
    const int k = group.nodes();
    if (algorithm == Algorithm::Auto) {
        CollectiveTime best;
        bool have = false;
        for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::Hierarchical, Algorithm::InNetwork}) {
            CollectiveTime t = collectiveTime(c, a, S, group, fabric);
            if (t.applicable && (!have || t.seconds < best.seconds)) {
                best = t;
                have = true;
            }
        }
        return best;
    }
    if (n <= 1 && c != Collective::SendRecv) {
        out.seconds = 0;   // nothing to exchange within a group of one
        return out;
    }

    Cost cost{0, 0};
    const Tier flat = flatTier(group, fabric);
    switch (algorithm) {
    case Algorithm::Ring:
        cost = ringCost(c, S, std::max(n, 2), flat);
        break;
    case Algorithm::Tree: {
        // NCCL double binary tree (Sanders et al. 2009): log2(n) hops up and down, pipelined,
        // each rank moves about S each way.
        const int depth = ceilLog2(n);
        if (c == Collective::AllReduce)
            cost = ab(2 * depth, flat, 2.0 * S);
        else if (c == Collective::Broadcast || c == Collective::Reduce)
            cost = ab(depth, flat, S);
        else
            out.applicable = false;
        break;
    }
    case Algorithm::Hierarchical: {
        // Two levels: inside each node over NVLink, then across nodes per rail with 1/g of the data.
        if (k <= 1 || g <= 1) {
            out.applicable = false;
            break;
        }
        const double nodeShare = S / g;
        switch (c) {
        case Collective::AllReduce:
            cost = ringCost(Collective::ReduceScatter, S, g, fabric.intra)
                   + ringCost(Collective::AllReduce, nodeShare, k, fabric.inter)
                   + ringCost(Collective::AllGather, S, g, fabric.intra);
            break;
        case Collective::ReduceScatter:
            cost = ringCost(Collective::ReduceScatter, S, g, fabric.intra)
                   + ringCost(Collective::ReduceScatter, nodeShare, k, fabric.inter);
            break;
        case Collective::AllGather:
            cost = ringCost(Collective::AllGather, nodeShare, k, fabric.inter)
                   + ringCost(Collective::AllGather, S, g, fabric.intra);
            break;
        case Collective::AllToAll: {
            // Intra-node share and inter-node share move concurrently on different links.
            const Cost intra = ab(g - 1, fabric.intra, double(g - 1) / n * S);
            const Cost inter = ab(k - 1, fabric.inter, double(n - g) / n * S);
            cost = intra.seconds > inter.seconds ? intra : inter;
            break;
        }
        default:
            out.applicable = false;
        }
        break;
    }
    case Algorithm::InNetwork: {
        // SHARP: switches reduce in flight; each node sends its 1/g share up once and receives
        // the result once, so the inter-node term is S/(g beta) instead of 2(k-1)/k * S/(g beta).
        if (!fabric.inNetworkReduction || k <= 1 || c != Collective::AllReduce) {
            out.applicable = false;
            break;
        }
        cost = ab(2, fabric.inter, S / g);
        if (g > 1)
            cost = cost + ringCost(Collective::ReduceScatter, S, g, fabric.intra)
                   + ringCost(Collective::AllGather, S, g, fabric.intra);
        break;
    }
    case Algorithm::Auto:
        break;
    }
    if (!out.applicable)
        return out;
    out.seconds = cost.seconds;
    out.latencySteps = cost.latencySteps;
    if (out.seconds > 0) {
        out.algBytesPerSecond = S / out.seconds;
        out.busBytesPerSecond = out.algBytesPerSecond * busBandwidthFactor(c, n);
    }
    return out;
}

RingSchedule ringAllReduceSchedule(int n, double bytes, const Tier &tier)
{
    RingSchedule r;
    r.ranks = n;
    r.bytes = bytes;
    if (n < 2 || n > kMaxRingScheduleRanks || !(bytes >= 0) || !(tier.bytesPerSecond > 0))
        return r;
    r.chunkBytes = bytes / n;
    r.stepSeconds = tier.latencySeconds + r.chunkBytes / tier.bytesPerSecond;
    r.steps = 2 * (n - 1);
    r.bytesSentPerRank = r.steps * r.chunkBytes;
    r.transfers.reserve(size_t(r.steps) * n);
    for (int step = 0; step < r.steps; ++step) {
        const bool reducing = step < n - 1;
        for (int sender = 0; sender < n; ++sender) {
            RingTransfer t;
            t.phase = reducing ? RingPhase::ReduceScatter : RingPhase::AllGather;
            t.step = step;
            t.sender = sender;
            t.receiver = (sender + 1) % n;
            // Rank r starts by sending its own chunk r; after n-1 steps rank r owns the fully
            // reduced chunk (r + 1) mod n, which the all-gather then passes around.
            t.chunk = ((sender - step) % n + n) % n;
            t.startSeconds = step * r.stepSeconds;
            t.endSeconds = (step + 1) * r.stepSeconds;
            r.transfers.push_back(t);
        }
    }
    return r;
}

} // namespace ts
