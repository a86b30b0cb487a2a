// SPDX-License-Identifier: MIT
// Collective communication cost as NCCL runs it: rings over channels that use every NIC of a
// node, double binary trees, NVLink SHARP (NVLS), in-network reduction, each with NCCL's three
// protocols (LL, LL128, Simple) and their latency and bandwidth share (NCCL src/graph/tuning.cc);
// the textbook pipelined hierarchical all-reduce; and the ring all-reduce as an explicit list of
// steps for the views to replay.
#pragma once

#include "inputs.h"

#include <string>
#include <vector>

namespace ts {

enum class Collective { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv };
// Pat: NCCL's Parallel Aggregated Trees (2.23+), all-gather and reduce-scatter with one GPU a node.
enum class Algorithm { Ring, Tree, Hierarchical, InNetwork, Nvls, Pat, Auto };
enum class Protocol { LL, LL128, Simple };
/// How a reduction combines: a plain sum, or an average NCCL computes itself (ncclAvg, which it runs
/// on floats as a pre-multiplied sum and for which it skips PAT's reduce-scatter, enqueue.cc).
enum class ReduceOp { Sum, Average };

/// Every algorithm that can be asked for by name (Auto, NCCL's pick among them, aside), in the
/// order tables list them.
inline constexpr Algorithm kNamedAlgorithms[] = {Algorithm::Ring, Algorithm::Tree,  Algorithm::Nvls,
                                                 Algorithm::InNetwork, Algorithm::Pat, Algorithm::Hierarchical};

inline constexpr Collective kAllCollectives[] = {
    Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::Broadcast,
    Collective::Reduce, Collective::AllToAll, Collective::SendRecv};

const char *nameOf(Collective);   // nccl-tests binary stem: "all_reduce", ...
const char *nameOf(Algorithm);
const char *nameOf(Protocol);     // "LL", "LL128", "Simple" as NCCL_PROTO spells them

/// What nccl-tests' busbw means for an algorithm (its factor assumes a flat ring).
const char *busBandwidthMeaning(Algorithm);

/// One tier as a collective sees it: achievable bytes/s per GPU per direction and alpha.
struct Tier
{
    double bytesPerSecond = 0;
    double latencySeconds = 0;
};

/// The fabric of a cluster after efficiency, oversubscription and transport.
struct Fabric
{
    Tier intra;                  // one GPU's intra-node links (all NVLinks, its PCIe slot, its xGMI links)
    Tier inter;                  // one GPU's share of its node's NICs when every GPU talks at once
    double nicBytesPerSecond = 0;  // one NIC, achievable, per direction
    double nicLineBytesPerSecond = 0;  // one NIC's line rate (NCCL's minNetBw tunes NVLS-tree by it)
    int nicsPerNode = 1;         // rails; may exceed the GPUs per node (e.g. 32 x 100G)
    int gpusPerNode = 1;
    IntraFabric intraFabric = IntraFabric::NvSwitch;
    bool nvls = false;           // NVLink SHARP in the NVSwitches (H100/H200/B200 nodes)
    bool inNetworkReduction = false;  // SHARP / CollNet in the network switches
    bool tcp = false;            // NCCL's socket transport: no LL128, more per-step overhead
    // NCCL corrects its NVLS-tree all-reduce bandwidth by message size on Blackwell GPUs with an
    // x86 host only (tuning.cc: minCompCap >= 100, NCCL_TOPO_CPU_ARCH_X86), in its tuner's pick.
    bool nvlsTreeCorrection = false;
    // Blackwell (NVLink 5, SM100): NCCL's NVLS channel counts and NVLS-tree chunk tuning differ from
    // Hopper's (src/transport/nvls.cc ncclNvlsTuning).
    bool blackwell = false;
    double nvlsEfficiency = 0.85;  // NCCL's nvlsEfficiency (Hopper 0.85, Blackwell 0.74)
    double llMaxBusBytesPerSecond = 141e9;  // NCCL's llMaxBws for one node, by GPU generation
};

/// Effective fabric of a cluster (see collectives.cpp for the derating rules).
Fabric fabricOf(const Cluster &cluster);

/// Placement of a communicator: `ranks` members, `ranksPerNode` of them in each node.
struct Group
{
    int ranks = 1;
    int ranksPerNode = 1;
    bool straddles = false;      // the group's members are split unevenly across a node boundary
    int nodes() const { return ranks / (ranksPerNode > 0 ? ranksPerNode : 1); }
};

/// Group of `size` ranks whose members are `stride` global ranks apart, on nodes of
/// `gpusPerNode` GPUs. A group whose span does not tile the nodes (TP=4 with 6 GPUs per node)
/// straddles: its worst member group is charged as crossing the boundary. A job of `jobGpus`
/// <= gpusPerNode (64 GPUs of a 72-GPU NVLink rack) lies in one node: a group inside it crosses nothing.
Group groupOf(int size, int stride, int gpusPerNode, int jobGpus = 0);
/// The same on the cluster's nodes, the job being all of its GPUs.
Group groupOf(int size, int stride, const Cluster &cluster);

/// The tier a flat algorithm (ring, tree) runs at: the slowest hop and the largest alpha.
Tier flatTierOf(const Group &group, const Fabric &fabric);

struct CollectiveTime
{
    double seconds = 0;
    double algBytesPerSecond = 0;  // nccl-tests algbw = S / t
    double busBytesPerSecond = 0;  // nccl-tests busbw = algbw * factor
    Algorithm algorithm = Algorithm::Ring;
    Protocol protocol = Protocol::Simple;
    int latencySteps = 0;          // alpha terms on the critical path
    double latencySeconds = 0;     // the latency part of `seconds`
    bool applicable = true;        // false: the algorithm does not exist for this case
    bool interNode = false;        // the bandwidth bound is the NICs (else the intra-node links)
    double pipelineFillSeconds = 0;  // NVLS: the part of `seconds` its three-stage chunk pipeline takes to fill and drain
    double pipelineWindowBytes = 0;  // NVLS: bytes of the message one pipeline step moves (channels x heads x chunk)
};

/// nccl-tests (doc/PERFORMANCE.md) bus-bandwidth factor for n ranks.
double busBandwidthFactor(Collective collective, int ranks);

/// Time of one collective of `bytes` (nccl-tests size convention: the full buffer; for
/// all-gather the output, for reduce-scatter the input) on `group` over `fabric`.
/// Algorithm::Auto picks the fastest of NCCL's algorithms and protocols, as NCCL's tuner does
/// (the textbook hierarchical all-reduce is not one of them and is only timed when asked for);
/// a named algorithm gets its fastest protocol. A reduction that averages (`op` Average) never
/// runs PAT's reduce-scatter.
CollectiveTime collectiveTime(Collective collective, Algorithm algorithm, double bytes,
                              const Group &group, const Fabric &fabric, ReduceOp op = ReduceOp::Sum);
/// One protocol (NCCL_PROTO forced): with Algorithm::Auto the fastest of NCCL's algorithms that
/// has it, else that algorithm alone.
CollectiveTime collectiveTime(Collective collective, Algorithm algorithm, Protocol protocol, double bytes,
                              const Group &group, const Fabric &fabric);
/// [DeepEP], [HybridEP] One expert dispatch (or combine) that sends each token once per
/// destination node over the network and once per destination GPU inside a node, on `group` (the
/// EP ranks): `tokenBytes` = this rank's tokens once (Tin x h x bytes), `remoteNodes` and
/// `gpuCopies` = the expected other nodes and other GPUs a token's experts sit on. A node's NICs
/// carry its ranks' remote copies; each GPU's NVLinks its GPU copies; the two pipeline.
CollectiveTime dedupDispatchTime(double tokenBytes, double remoteNodes, double gpuCopies, const Group &group, const Fabric &fabric);
/// Expected number of the `groups` equal groups of `experts` experts (the first one excluded:
/// this rank's own GPU or node) that hold at least one of a token's `k` distinct experts, chosen
/// uniformly: (groups - 1)(1 - C(E - E/groups, k) / C(E, k)) (hypergeometric).
double expectedOtherGroupsHit(int experts, int k, int groups);
/// The same under group-limited routing (Megatron-Core group_limited_topk, DeepSeek-V3's
/// node-limited routing): the experts in `routerGroups` G equal groups of n, a token's M =
/// `routerGroupTopk` groups uniform (forced balanced routing: random logits); a picked group gets
/// m of the k experts with the router's own distribution p[m] (a group wins on its top k/M scores,
/// so nearly always some: read from a fixed-seed run of the router), uniform within it. A host
/// overlapping o groups by c experts each (E/hosts = o c when the two partitions nest; else the
/// mean c) is missed with probability sum_j Hyp(j; G, o, M) (sum_m p[m] C(n - c, m) / C(n, m))^j.
/// routerGroups 0 (or all groups picked) is expectedOtherGroupsHit.
double expectedOtherGroupsHitLimited(int experts, int k, int hosts, int routerGroups, int routerGroupTopk);
/// Both are memoized per thread on all their arguments (memo.h); this empties this thread's memo
/// (trainscope-bench's cold figure; tests).
void clearCollectiveMemo();

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
