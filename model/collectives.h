// SPDX-License-Identifier: MIT
// Collective communication cost: the alpha-beta model of the seven nccl-tests collectives
// for ring, tree, hierarchical two-level and in-network (SHARP) algorithms, and the ring
// all-reduce as an explicit list of steps for the views to replay.
#pragma once

#include "inputs.h"

#include <string>
#include <vector>

namespace ts {

enum class Collective { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv };
enum class Algorithm { Ring, Tree, Hierarchical, InNetwork, Auto };

inline constexpr Collective kAllCollectives[] = {
    Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::Broadcast,
    Collective::Reduce, Collective::AllToAll, Collective::SendRecv};

const char *nameOf(Collective);   // nccl-tests binary stem: "all_reduce", ...
const char *nameOf(Algorithm);

/// One tier as a collective sees it: achievable bytes/s per GPU per direction and alpha.
struct Tier
{
    double bytesPerSecond = 0;
    double latencySeconds = 0;
};

/// The two tiers of a cluster after rails, oversubscription, efficiency and transport.
struct Fabric
{
    Tier intra;
    Tier inter;
    bool inNetworkReduction = false;
};

/// Effective fabric of a cluster (see collectives.cpp for the derating rules).
Fabric fabricOf(const Cluster &cluster);

/// Placement of a communicator: `ranks` members, `ranksPerNode` of them in each node.
struct Group
{
    int ranks = 1;
    int ranksPerNode = 1;
    int nodes() const { return ranks / (ranksPerNode > 0 ? ranksPerNode : 1); }
};

/// Group of `size` ranks whose members are `stride` global ranks apart (Megatron rank order:
/// TP innermost, then CP, DP, PP), on nodes of `gpusPerNode` GPUs.
Group groupOf(int size, int stride, int gpusPerNode);

/// The tier a flat algorithm (ring, tree) runs at: the slowest hop and the largest alpha.
Tier flatTierOf(const Group &group, const Fabric &fabric);

struct CollectiveTime
{
    double seconds = 0;
    double algBytesPerSecond = 0;  // nccl-tests algbw = S / t
    double busBytesPerSecond = 0;  // nccl-tests busbw = algbw * factor
    Algorithm algorithm = Algorithm::Ring;
    int latencySteps = 0;          // alpha terms on the critical path
    bool applicable = true;        // false: the algorithm does not exist for this case
};

/// nccl-tests (doc/PERFORMANCE.md) bus-bandwidth factor for n ranks.
double busBandwidthFactor(Collective collective, int ranks);

/// Time of one collective of `bytes` (nccl-tests size convention: the full buffer; for
/// all-gather the output, for reduce-scatter the input) on `group` over `fabric`.
/// Algorithm::Auto picks the fastest applicable algorithm, as NCCL's tuner does.
CollectiveTime collectiveTime(Collective collective, Algorithm algorithm, double bytes,
                              const Group &group, const Fabric &fabric);

enum class RingPhase { ReduceScatter, AllGather };

/// One transfer of the ring all-reduce: at `step` rank `sender` sends chunk `chunk` to `receiver`.
struct RingTransfer
{
    RingPhase phase = RingPhase::ReduceScatter;
    int step = 0;
    int sender = 0;
    int receiver = 0;
    int chunk = 0;
    double startSeconds = 0;
    double endSeconds = 0;
};

struct RingSchedule
{
    int ranks = 0;
    double bytes = 0;
    double chunkBytes = 0;
    double stepSeconds = 0;        // alpha + chunk / bandwidth
    int steps = 0;                 // 2 (n - 1)
    double bytesSentPerRank = 0;   // 2 (n - 1) / n * S
    std::vector<RingTransfer> transfers;  // steps * ranks entries, ordered by step then sender
};

inline constexpr int kMaxRingScheduleRanks = 1024;

/// Explicit ring all-reduce (Patarasuk & Yuan 2009; Baidu 2017): reduce-scatter in n-1 steps,
/// then all-gather in n-1 steps. ranks in [2, kMaxRingScheduleRanks].
RingSchedule ringAllReduceSchedule(int ranks, double bytes, const Tier &tier);

} // namespace ts
