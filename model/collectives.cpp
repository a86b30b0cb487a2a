// SPDX-License-Identifier: MIT
#include "collectives.h"
#include "memo.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <span>
#include <tuple>
#include <vector>

namespace ts {

namespace {

// TCP moves every byte through the kernel stack: NCCL's socket transport reaches roughly half
// of what RDMA reaches on the same NIC and adds tens of microseconds per message (seed 000's case
// study; NCCL socket transport vs IB verbs measurements).
constexpr double kTcpBandwidthFactor = 0.5;
constexpr double kTcpExtraLatencySeconds = 20e-6;

// ---- NCCL's tuning model (NVIDIA/nccl src/graph/tuning.cc, v2.30.7; the same tables since 2.18) ----
// Latencies in microseconds, indexed [protocol] = {LL, LL128, Simple}.
constexpr double kBaseLatencyRingUs[3] = {6.6, 14.0, 8.4};
constexpr double kBaseLatencyTreeUs[3] = {6.8, 14.0, 8.4};
// Per-step (hop) latencies per hardware tier. Trainscope keeps each tier's Ring/Simple value in the
// link preset (Link::latencySeconds, so calibration can refit it) and scales the other entries of
// NCCL's table by their ratio to it.
struct HopTable
{
    double ring[3], tree[3], collNet, nvls, nvlsTree;
};
constexpr HopTable kNvlinkHopUs{{0.6, 1.9, 3.4}, {0.6, 1.25, 4.0}, 3.7, 25.0, 25.0};
constexpr HopTable kPcieHopUs{{1.0, 2.5, 5.7}, {1.0, 1.9, 4.0}, 3.7, 0.0, 0.0};
constexpr HopTable kNetHopUs{{2.7, 4.0, 14.0}, {5.0, 8.5, 14.0}, 31.0, 18.0, 20.9};
// getNetOverhead(): a floor on the intra-node step of an inter-node ring (x86 Intel host), x3 for Simple.
constexpr double kNetOverheadUs = 1.0;
// "Plateau effect of ring": Ring/Simple all-reduce across nodes, latency x1.4 (SM80 and newer).
constexpr double kRingPlateauFactor = 1.4;
// Protocol bandwidth shares: LL sends 8-byte lines with a 4-byte flag (half the wire), LL128
// 120 of every 128 bytes (NCCL uses 0.92); tree LL moves a third as much (1/3.8).
constexpr double kLlShare = 0.5;
constexpr double kLl128Share = 0.92;
// A ring chunk's last step receives without sending (all_gather.h directRecv, reduce_scatter.h
// recvReduceCopy, all_reduce.h's final directRecv; NCCL 2.30), run in turn by the channel's one
// thread block after its k(n - 1) send steps. Inside a node the channels just saturate NVLink, so
// the link idles during it: busBw = link x k(n - 1) / (k(n - 1) + r), r the local step's cost in send
// steps: an empirical correction, fitted row by row to XLA's measured single-host tables
// (tests/data/collectives, H100 and B200, 2/4/8 GPUs) with the link at NCCL's own figure, r = 0.25-1.0
// by collective and GPU; 0.5 is used. NVSwitch nodes only (PCIe's transport sets what that step costs;
// AMD's xGMI is not measured); across nodes the proxy's buffered NIC sends drain meanwhile.
constexpr double kRingLocalStepShare = 0.5;
constexpr double kTreeShare = 0.92;
constexpr double kTreeLlShare = 1.0 / 3.8;
constexpr double kTreeLl128ShareOneNode = 7.0 / 9.0;
constexpr double kTreeLl128ShareNodes = 120.0 / 128.0;
// NCCL's size correction of tree all-reduce bandwidth (tuning.cc treeCorrectionFactor, indexed
// [protocol][log2(bytes / 64)], sizes from 64 B to 512 MiB): the double binary tree's pipeline does not
// fill at mid sizes, down to half its bandwidth around 128 KiB-2 MiB (Simple). NCCL applies it to
// Tree all-reduce everywhere and, from 2.29.2, to NVLS-tree on Blackwell x86 hosts
// (Fabric::nvlsTreeCorrection, up to 1 GiB). For NVLS-tree it enters the pick only: the time
// NVLS takes carries its pipeline fill instead (kNvlsPipelineStages).
constexpr double kTreeCorrection[3][24] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};
// The largest ratio of LL's or LL128's correction to Simple's at one size (LL 1.0 against .7 at
// 32 MiB; LL128's largest is .9 / .7): fastest() widens its pruning bound by it for the tree.
constexpr double kTreeCorrectionMaxRatio = 1.0 / 0.7;
// The most LL128 and LL keep of the same ring's or tree's Simple bandwidth (ring 0.92 and 0.5, tree
// 7/9 or 120/128 and 1/3.8): fastest() skips them when even that could not win.
constexpr double kLl128MaxShareOfSimple = std::max(kLl128Share, kTreeLl128ShareNodes);
constexpr double kLlMaxShareOfSimple = std::max(kLlShare, kTreeLlShare);
// llMaxBws (GB/s of bus bandwidth): LL's ceiling. One node: per GPU generation (Ampere 87.7,
// Hopper 141, Blackwell 282); across nodes: per host CPU (x86 Intel row: 2 nodes 39, more 20.4).
constexpr double kLlMaxBusTwoNodes = 39.0e9;
constexpr double kLlMaxBusManyNodes = 20.4e9;

// ---- NVLS as NCCL runs it (v2.30, src/device/all_reduce.h, src/enqueue.cc, src/transport/nvls.cc) ----
// Each NVLS channel runs three warp groups as a pipeline over loops of `heads` chunks: scatter (the
// user buffer into the heads' NVLS buffers), reduce (multimem.ld_reduce and multicast store; across
// nodes it also feeds the tree and the broadcast takes its result back), gather (into the output).
// A message of L loops takes L + 2 loop times: the first loop passes all three stages before the
// last one starts, the last loop leaves the first two idle. NCCL's tuner has no such term (it
// shrinks the chunk for smaller messages instead, nvlsWindowBytes), so NCCL picks NVLS by its
// tuner's time and the fill is charged on the time it then takes.
constexpr int kNvlsPipelineStages = 3;
constexpr double kKiB = 1024.0;
// NVLS channels: NVLS_NCHANNELS_SM90 16, SM100 24 in one node and 32 across nodes (nvls.cc).
constexpr int kNvlsChannelsHopper = 16;
constexpr int kNvlsChannelsBlackwellOneNode = 24;
constexpr int kNvlsChannelsBlackwellNodes = 32;
constexpr double kNvlsChunkBytes = 128 * kKiB;   // NCCL_NVLS_CHUNKSIZE default
// ncclNvlsTreeSm100Tuning keys on the NIC's line rate (comm->minNetBw, GB/s): 48 and 96.
constexpr double kNic400gBytesPerSecond = 48e9;
constexpr double kNic800gBytesPerSecond = 96e9;
// NVLS heads are at most NCCL_MAX_NVLS_ARITY (device.h; graph search.cc caps the NVLS graph there).
constexpr int kMaxNvlsHeads = 32;

int ceilLog2(int n)
{
    return n <= 1 ? 0 : int(std::bit_width(unsigned(n - 1)));   // no shift past the int's width for any n
}
int floorLog2(int n)   // NCCL's log2i
{
    int l = 0;
    while (n >>= 1)
        ++l;
    return l;
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

const HopTable &intraTable(const Fabric &f) { return f.intraFabric == IntraFabric::Pcie ? kPcieHopUs : kNvlinkHopUs; }

// One hop of table entry `entryUs` on a tier whose Ring/Simple hop is `tierSimpleUs` in NCCL's
// table and `tier.latencySeconds` in this fabric.
double hop(const Tier &tier, double entryUs, double tierSimpleUs)
{
    return tier.latencySeconds * entryUs / tierSimpleUs;
}
double netHop(const Fabric &f, double entryUs) { return hop(f.inter, entryUs, kNetHopUs.ring[2]); }
// NCCL's fixed per-collective cost (baseLatencies) on this fabric: scaled like the hops, by the
// outermost tier's latency against NCCL's table, so a fabric entered with zero latency (the seeds'
// bandwidth-only examples) has none.
double base(const Group &g, const Fabric &f, double baseUs)
{
    return g.nodes() > 1 ? netHop(f, baseUs) : hop(f.intra, baseUs, intraTable(f).ring[2]);
}

// What the node's NICs give one communicator: every NIC of the node, in the share of the node's
// GPUs this communicator holds (the node's other GPUs run their own groups at the same time, as in
// training). NCCL stripes a ring's channels over all NICs (one ring per NIC at least), so a ring
// with all G GPUs of a node in it gets R NICs, not one GPU's 1/G of them (nccl-tests#309).
double nodeNicBytesPerSecond(const Group &g, const Fabric &f)
{
    return f.nicBytesPerSecond * f.nicsPerNode * double(std::max(1, g.ranksPerNode)) / std::max(1, f.gpusPerNode);
}

bool ll128Allowed(const Group &g, const Fabric &f)
{
    // NCCL enables LL128 by default only over NVLink inside the node (typeIntra <= PATH_NVB) and,
    // across nodes, only when each GPU reaches its NIC through a PCIe switch (PXB, or PXN on
    // Hopper) with GPUDirect RDMA. Trainscope does not know the PCIe path, so it keeps LL128 inside
    // NVLink domains: the forced-ring 2-node H100 log (nccl-tests#309) runs at Simple/LL times.
    return f.intraFabric != IntraFabric::Pcie && g.nodes() <= 1 && !f.tcp;
}

struct Candidate
{
    bool ok = false;
    double latencySeconds = 0;
    double algBytesPerSecond = 0;   // bytes of the nccl-tests size per second after latency
    int latencySteps = 0;
    bool interNode = false;
};

// Ring over channels (all collectives but all-to-all and send/receive).
Candidate ring(Collective c, Protocol p, const Group &g, const Fabric &f)
{
    Candidate out;
    const int n = std::max(2, g.ranks), k = g.nodes(), perNode = std::max(1, g.ranksPerNode);
    const int pi = int(p);
    double busBw = std::numeric_limits<double>::infinity();
    // Across nodes, each channel enters a node through one of its GPUs' NICs (GPUDirect RDMA over
    // PCIe) and leaves through another's, so only (g-1)/g of a GPU's ring sends cross NVLink: the
    // NVLink bound is g/(g-1) x its rate, and the NICs bind (the public 2-node H100 ring log reaches
    // 392.7 GB/s busbw, above NVLink 4's 369 GB/s effective).
    if (k <= 1)
        busBw = f.intra.bytesPerSecond;
    else if (perNode > 1)
        busBw = f.intra.bytesPerSecond * perNode / (perNode - 1.0);
    if (k > 1) {
        const double net = nodeNicBytesPerSecond(g, f);
        out.interNode = net < busBw;
        busBw = std::min(busBw, net);
    }
    // [kRingLocalStepShare] Inside an NVSwitch node the link idles for the chunk's silent step: the
    // link's rate, before the protocol's share (LL's cap stays). NCCL's tuner does not know it; the
    // model's pick does, so that its pick and its time stay one estimate and a step never slows
    // with more bandwidth (tst_properties).
    const int sendSteps = c == Collective::AllReduce                                          ? 2 * (n - 1)
                          : c == Collective::AllGather || c == Collective::ReduceScatter ? n - 1
                                                                                         : 0;
    if (k <= 1 && sendSteps > 0 && f.intraFabric == IntraFabric::NvSwitch)
        busBw *= sendSteps / (sendSteps + kRingLocalStepShare);
    if (p == Protocol::LL) {
        const double cap = k <= 1 ? f.llMaxBusBytesPerSecond : (k == 2 ? kLlMaxBusTwoNodes : kLlMaxBusManyNodes);
        busBw = std::min(cap, kLlShare * busBw);
    } else if (p == Protocol::LL128) {
        if (!ll128Allowed(g, f))
            return out;
        busBw *= kLl128Share;
    }
    int nsteps = 0, nInter = 0;
    double ratio = 1;   // NCCL's busBw -> algBw
    switch (c) {
    case Collective::AllReduce:
        nsteps = 2 * (n - 1);
        nInter = k > 1 ? 2 * (k - 1) : 0;
        ratio = double(n) / nsteps;
        break;
    case Collective::AllGather:
    case Collective::ReduceScatter:
        nsteps = n - 1;
        nInter = k > 1 ? k - 1 : 0;
        ratio = double(n) / nsteps;
        break;
    case Collective::Broadcast:
    case Collective::Reduce:
        nsteps = n;
        nInter = k > 1 ? k - 1 : 0;
        ratio = 1;
        break;
    default:
        return out;
    }
    const HopTable &it = intraTable(f);
    double intraLat = hop(f.intra, it.ring[pi], it.ring[2]);
    double interLat = netHop(f, (perNode == 1 ? kNetHopUs.tree : kNetHopUs.ring)[pi]);
    if (k > 1)
        intraLat = std::max(intraLat, netHop(f, kNetOverheadUs * (p == Protocol::Simple ? 3 : 1)));
    if (k > 1 && perNode == 1)
        intraLat = interLat;   // no intra-node step: every hop is a network hop
    nInter = std::min(nInter, nsteps);
    double lat = base(g, f, kBaseLatencyRingUs[pi]) + (nsteps - nInter) * intraLat + nInter * interLat;
    if (p == Protocol::Simple && c == Collective::AllReduce && k > 1)
        lat *= kRingPlateauFactor;
    out.ok = busBw > 0;
    out.latencySeconds = lat;
    out.latencySteps = nsteps;
    out.algBytesPerSecond = busBw * ratio;
    return out;
}

// NCCL's double binary tree (Sanders et al. 2009): a chain inside each node, two complementary
// binary trees across nodes, all-reduce only. Each GPU of the chain sends S up and S down (2S on
// its links); across nodes a node moves S per direction with two nodes and 2S with more (it is an
// inner node of one of the two trees).
Candidate tree(Collective c, Protocol p, const Group &g, const Fabric &f)
{
    Candidate out;
    if (c != Collective::AllReduce)
        return out;
    const int k = g.nodes(), perNode = std::max(1, g.ranksPerNode), pi = int(p);
    double algBw = std::numeric_limits<double>::infinity();
    if (perNode > 1)
        algBw = f.intra.bytesPerSecond / 2;
    if (k > 1) {
        const double net = nodeNicBytesPerSecond(g, f) / (k == 2 ? 1.0 : 2.0);
        out.interNode = net < algBw;
        algBw = std::min(algBw, net);
    }
    algBw *= kTreeShare;
    if (p == Protocol::LL)
        algBw = std::min(algBw * kTreeLlShare, 0.5 * (k <= 1 ? f.llMaxBusBytesPerSecond : (k == 2 ? kLlMaxBusTwoNodes : kLlMaxBusManyNodes)));
    else if (p == Protocol::LL128) {
        if (!ll128Allowed(g, f))
            return out;
        algBw *= k <= 1 ? kTreeLl128ShareOneNode : kTreeLl128ShareNodes;
    }
    const HopTable &it = intraTable(f);
    const double intraLat = hop(f.intra, it.tree[pi], it.ring[2]);
    const double interLat = netHop(f, kNetHopUs.tree[pi]);
    out.ok = true;
    out.latencySeconds = base(g, f, kBaseLatencyTreeUs[pi]) + 2 * ((perNode - 1) * intraLat + floorLog2(k) * interLat);
    out.latencySteps = 2 * ((perNode - 1) + ceilLog2(k));
    out.algBytesPerSecond = algBw;
    return out;
}

// Bytes of the message one NVLS pipeline step moves: channels x heads x chunk, with the chunk NCCL
// picks for this size (enqueue.cc calcCollChunking: smaller chunks for smaller messages, so that
// every channel runs several loops) and the channels and chunk caps of nvls.cc. Heads: every GPU
// of a node (NCCL forces one-node NVLS to pull from all of them), across nodes the GPUs that own a
// NIC, at most 32. NIC and GPU under one PCIe switch (PXB) is assumed, as on HGX and DGX boards.
double nvlsWindowBytes(double S, const Group &g, const Fabric &f)
{
    const int k = g.nodes(), ppn = std::max(1, g.ranksPerNode);
    const bool tree = k > 1;
    int channels = f.blackwell ? (tree ? kNvlsChannelsBlackwellNodes : kNvlsChannelsBlackwellOneNode) : kNvlsChannelsHopper;
    double chunk = kNvlsChunkBytes, treeMax = 0;
    if (f.blackwell && tree) {   // ncclNvlsTreeSm100Tuning
        const double nic = f.nicLineBytesPerSecond;
        if (k == 2 && nic >= kNic400gBytesPerSecond) {
            channels = 32;
            treeMax = 128 * kKiB;
            if (ppn <= 4)
                chunk = treeMax = 256 * kKiB;
            else if (ppn >= 16 || (ppn <= 8 && nic < kNic800gBytesPerSecond))
                treeMax = 64 * kKiB;
        } else if (nic >= kNic800gBytesPerSecond) {
            channels = ppn <= 8 ? 24 : 32;
            if (ppn <= 8)
                chunk = treeMax = 256 * kKiB;
            else
                treeMax = ppn < 32 ? 128 * kKiB : 64 * kKiB;
        } else if (nic >= kNic400gBytesPerSecond) {
            channels = 24;
            treeMax = 64 * kKiB;
        }
    }
    if (treeMax == 0)
        treeMax = k >= 4 ? 64 * kKiB : chunk;
    const int heads = std::min(kMaxNvlsHeads, tree ? std::max(1, std::min(ppn, f.nicsPerNode)) : ppn);
    const double ops = double(channels) * heads;
    double c = chunk;
    if (tree) {
        c = std::min(chunk, treeMax);
        if (S < 32 * ops * c && c > 256 * kKiB) c = 256 * kKiB;
        if (S < 16 * ops * c && c > 128 * kKiB) c = 128 * kKiB;
        if (S < 4 * ops * c && c > 64 * kKiB) c = 64 * kKiB;
        if (S < ops * c && c > 32 * kKiB) c = 32 * kKiB;
    } else {
        if (S < 64 * ops * c && c > 64 * kKiB) c = 64 * kKiB;
        if (S < 8 * ops * c && c > 32 * kKiB) c = 32 * kKiB;
        if (S < 2 * ops * c && c > 16 * kKiB) c = 16 * kKiB;
    }
    return ops * c;
}

// NVLink SHARP: the NVSwitch reduces (multimem.ld_reduce) and multicasts (multimem.st), so each
// GPU moves S + S/g per direction instead of the ring's 2(g-1)/g S: algbw = B g/(g+1) x NCCL's
// nvlsEfficiency. Across nodes NCCL runs NVLS-tree: NVLS inside, the double binary tree across.
Candidate nvls(Collective c, const Group &g, const Fabric &f)
{
    Candidate out;
    const int k = g.nodes(), perNode = std::max(1, g.ranksPerNode);
    if (c != Collective::AllReduce || !f.nvls || perNode < 2 || g.straddles)
        return out;
    double algBw = f.intra.bytesPerSecond * f.nvlsEfficiency * perNode / (perNode + 1.0);
    double lat = hop(f.intra, kNvlinkHopUs.nvls, kNvlinkHopUs.ring[2]);
    if (k > 1) {
        if (f.inNetworkReduction) {   // NVLS + CollNet: the switches reduce across nodes too
            algBw = std::min(algBw, nodeNicBytesPerSecond(g, f));
            lat += netHop(f, kNetHopUs.nvls);
        } else {
            const double net = nodeNicBytesPerSecond(g, f) / (k == 2 ? 1.0 : 2.0);
            out.interNode = net < algBw;
            algBw = std::min(algBw, net);
            lat += 2 * floorLog2(k) * netHop(f, kNetHopUs.nvlsTree);
        }
    }
    out.ok = true;
    out.latencySeconds = lat;
    out.latencySteps = 1 + 2 * ceilLog2(k);
    out.algBytesPerSecond = algBw;
    return out;
}

// CollNet (SHARP in the network switches): reduce-scatter inside the node, each node sends its data
// up once and receives the result once (S per direction over its NICs), all-gather inside.
Candidate inNetwork(Collective c, const Group &g, const Fabric &f)
{
    Candidate out;
    const int k = g.nodes(), perNode = std::max(1, g.ranksPerNode);
    if (!f.inNetworkReduction || k <= 1 || c != Collective::AllReduce)
        return out;
    double algBw = nodeNicBytesPerSecond(g, f);
    out.interNode = true;
    if (perNode > 1) {
        const double intra = f.intra.bytesPerSecond * perNode / (2.0 * (perNode - 1));
        if (intra < algBw) {
            algBw = intra;
            out.interNode = false;
        }
    }
    const double intraLat = hop(f.intra, intraTable(f).collNet, intraTable(f).ring[2]);
    out.ok = true;
    out.latencySeconds = 2 * (std::min(1, perNode - 1) * intraLat + (perNode - 1) * 0.4e-6) + netHop(f, kNetHopUs.collNet);
    out.latencySteps = 2 + 2 * (perNode > 1);
    out.algBytesPerSecond = algBw;
    return out;
}

// NCCL's PAT (Parallel Aggregated Trees, NCCL 2.23+; src/graph/tuning.cc, v2.30.7): all-gather and
// reduce-scatter when every node holds one rank of the communicator (ncclPatEnable: nNodes ==
// nRanks), Simple protocol only. It sends each rank's share along log2(n) aggregated trees, so its
// latency grows with log2 of the nodes, not with the ranks as the ring's n - 1 network hops do:
// 8 us + log2i(nodes) x (the ppn-1 network hop, tree Simple 14 us) / 3.5 + 2.8 us a rank (the part
// NCCL still calls linear). NCCL runs it on the tree's graph, the GPU's own NIC here, and credits it
// three quarters of that bandwidth, with no (n-1)/n ring factor (busBw *= .75, and no bus-to-alg
// conversion for PAT's all-gather and reduce-scatter). NCCL skips it for a reduce-scatter that
// averages (enqueue.cc: ncclAvg on floats is PreMulSum), which the caller says (ReduceOp::Average).
// Every PAT term scales with the fabric's network hop, as the ring's hops and base latency do
// (netHop): a fabric entered with zero latency has none.
constexpr double kPatBaseUs = 8.0;
constexpr double kPatLogHopDivisor = 3.5;
constexpr double kPatPerRankUs = 2.8;
constexpr double kPatBandwidthShare = 0.75;
Candidate pat(Collective c, Protocol p, const Group &g, const Fabric &f)
{
    Candidate out;
    const int k = g.nodes();
    // One rank on each node, exactly: a group split unevenly across nodes (groupOf's straddling
    // groups, charged as one rank a node) has nNodes < nRanks in NCCL, which then offers no PAT.
    if ((c != Collective::AllGather && c != Collective::ReduceScatter) || p != Protocol::Simple || k <= 1
        || std::max(1, g.ranksPerNode) != 1 || g.straddles)
        return out;
    const double interLat = netHop(f, kNetHopUs.tree[2]);
    out.ok = true;
    out.interNode = true;
    out.latencySeconds = netHop(f, kPatBaseUs) + floorLog2(k) * interLat / kPatLogHopDivisor + g.ranks * netHop(f, kPatPerRankUs);
    out.latencySteps = ceilLog2(k);
    out.algBytesPerSecond = kPatBandwidthShare * nodeNicBytesPerSecond(g, f);
    return out;
}

// Textbook two-level all-reduce (reduce-scatter in the node, all-reduce of each 1/g shard across
// nodes on its rail, all-gather in the node). The phases are pipelined chunk by chunk, so a large
// message is bounded by the slowest phase, not their sum; each phase's steps add latency.
Candidate hierarchical(Collective c, const Group &g, const Fabric &f)
{
    Candidate out;
    const int k = g.nodes(), perNode = std::max(1, g.ranksPerNode);
    if (k <= 1 || perNode <= 1)
        return out;
    const double net = nodeNicBytesPerSecond(g, f);
    const double intraLat = f.intra.latencySeconds, netLat = f.inter.latencySeconds;
    double intraBytes = 0, netBytes = 0;   // per GPU (NVLink) and per node (NICs), for S = 1
    int intraSteps = 0, netSteps = 0;
    switch (c) {
    case Collective::AllReduce:
        intraBytes = 2.0 * (perNode - 1) / perNode;   // reduce-scatter + all-gather on the same links
        netBytes = 2.0 * (k - 1) / k;
        intraSteps = 2 * (perNode - 1);
        netSteps = 2 * (k - 1);
        break;
    case Collective::ReduceScatter:
    case Collective::AllGather:
        intraBytes = double(perNode - 1) / perNode;
        netBytes = double(k - 1) / k;
        intraSteps = perNode - 1;
        netSteps = k - 1;
        break;
    default:
        return out;
    }
    const double intraPerByte = intraBytes / f.intra.bytesPerSecond, netPerByte = netBytes / net;
    out.ok = true;
    out.interNode = netPerByte >= intraPerByte;
    out.algBytesPerSecond = 1.0 / std::max(intraPerByte, netPerByte);
    out.latencySeconds = base(g, f, kBaseLatencyRingUs[2]) + intraSteps * intraLat + netSteps * netLat;
    out.latencySteps = intraSteps + netSteps;
    return out;
}

// Send/receive and all-to-all run as NCCL point-to-point operations (no tuner protocol choice).
Candidate pointToPoint(Collective c, const Group &g, const Fabric &f)
{
    Candidate out;
    const int n = std::max(2, g.ranks), k = g.nodes(), perNode = std::max(1, g.ranksPerNode);
    const double netLat = f.inter.latencySeconds, intraLat = f.intra.latencySeconds;
    if (c == Collective::SendRecv) {
        // One peer: inside the node over NVLink, across nodes over the GPU's share of the NICs.
        const bool across = k > 1;
        out.ok = true;
        out.interNode = across;
        out.algBytesPerSecond = across ? f.inter.bytesPerSecond : f.intra.bytesPerSecond;
        out.latencySeconds = base(g, f, kBaseLatencyRingUs[2]) + (across ? netLat : intraLat);
        out.latencySteps = 1;
        return out;
    }
    // All-to-all: every rank sends (n-1)/n of S, (perNode-1)/n of it inside the node and
    // (n-perNode)/n across; a node's NICs carry perNode x (n-perNode)/n x S.
    const double intraPerByte = perNode > 1 ? double(perNode - 1) / n / f.intra.bytesPerSecond : 0.0;
    const double netPerByte = k > 1 ? double(perNode) * (n - perNode) / n / nodeNicBytesPerSecond(g, f) : 0.0;
    out.ok = true;
    out.interNode = netPerByte > intraPerByte;
    out.algBytesPerSecond = 1.0 / std::max(intraPerByte, netPerByte);
    out.latencySeconds = base(g, f, kBaseLatencyRingUs[2]) + (n - 1) * (k > 1 ? netLat : intraLat);
    out.latencySteps = n - 1;
    return out;
}

} // namespace

double expectedOtherGroupsHit(int experts, int k, int groups)
{
    if (groups <= 1 || experts < groups || k <= 0)
        return 0.0;
    const double perGroup = double(experts) / groups;
    // P(a given group holds none of the k) = prod_{i<k} (E - E/g - i) / (E - i).
    double none = 1.0;
    for (int i = 0; i < std::min(k, experts) && none > 0; ++i)
        none *= std::max(0.0, (experts - perGroup - i) / double(experts - i));
    return double(groups - 1) * (1.0 - none);
}

namespace {

// [DSv3] How many of a token's k experts one of its M picked groups receives, as Megatron-Core's
// group_limited_topk picks them under forced balancing (apply_random_logits: normal logits;
// sigmoid scores; a group scored by its top k/M; the M best groups; the top k of their experts):
// p[m], m = 0..k, from a fixed-seed run of that router over 4096 tokens, once per shape and thread.
// A group wins on its top scores, so it rarely gets none (0.8% for DeepSeek-V3's shape, against
// 9% were the k spread uniformly over the picked groups' experts).
const std::vector<double> &pickedGroupExpertCounts(int experts, int k, int groups, int groupTopk)
{
    thread_local std::map<std::tuple<int, int, int, int>, std::vector<double>> memo;
    const auto key = std::tuple{experts, k, groups, groupTopk};
    if (auto it = memo.find(key); it != memo.end())
        return it->second;
    std::vector<double> counts(size_t(k) + 1, 0.0);
    const int perGroup = experts / groups, groupTop = std::max(1, k / groupTopk);
    std::mt19937 rng(20261128u);
    std::normal_distribution<double> normal;
    std::vector<double> score(static_cast<size_t>(experts)), top(static_cast<size_t>(perGroup));
    std::vector<std::pair<double, int>> ranked(static_cast<size_t>(groups)), pool;
    std::vector<int> received(static_cast<size_t>(groups));
    const int tokens = 4096;
    for (int token = 0; token < tokens; ++token) {
        for (double &x : score)
            x = 1.0 / (1.0 + std::exp(-normal(rng)));
        for (int g = 0; g < groups; ++g) {
            std::copy(score.begin() + g * perGroup, score.begin() + (g + 1) * perGroup, top.begin());
            std::partial_sort(top.begin(), top.begin() + groupTop, top.end(), std::greater<>());
            ranked[size_t(g)] = {std::accumulate(top.begin(), top.begin() + groupTop, 0.0), g};
        }
        std::partial_sort(ranked.begin(), ranked.begin() + groupTopk, ranked.end(), std::greater<>());
        pool.clear();
        for (int i = 0; i < groupTopk; ++i)
            for (int e = 0; e < perGroup; ++e) {
                const int expert = ranked[size_t(i)].second * perGroup + e;
                pool.push_back({score[size_t(expert)], expert});
            }
        std::partial_sort(pool.begin(), pool.begin() + k, pool.end(), std::greater<>());
        std::fill(received.begin(), received.end(), 0);
        for (int i = 0; i < k; ++i)
            ++received[size_t(pool[size_t(i)].second / perGroup)];
        for (int i = 0; i < groupTopk; ++i)
            counts[size_t(received[size_t(ranked[size_t(i)].second)])] += 1.0 / (double(tokens) * groupTopk);
    }
    return memo.emplace(key, std::move(counts)).first->second;
}

} // namespace

double expectedOtherGroupsHitLimited(int experts, int k, int hosts, int routerGroups, int routerGroupTopk)
{
    const int G = routerGroups, M = routerGroupTopk;
    if (G <= 1 || M >= G || M < 1 || hosts <= 1 || experts < hosts || experts % G != 0 || k <= 0)
        return expectedOtherGroupsHit(experts, k, hosts);
    const double n = double(experts) / G, perHost = double(experts) / hosts;
    // Router groups a host's experts overlap, and its experts in each (the mean when they do not nest).
    const int o = std::clamp(int(std::ceil(perHost / n - 1e-9)), 1, G);
    const double c = perHost / o;
    // A picked group receives m of the k with the router's p[m], uniform within the group (its
    // experts are alike): all outside the host's c of its n with C(n - c, m) / C(n, m).
    const auto logChoose = [](double a, double b) { return std::lgamma(a + 1) - std::lgamma(b + 1) - std::lgamma(a - b + 1); };
    const std::vector<double> &p = pickedGroupExpertCounts(experts, k, G, M);
    double outside = 0;
    for (int m = 0; m <= k; ++m)
        if (p[size_t(m)] > 0)
            outside += p[size_t(m)] * (n - c - m < -1e-9 ? 0.0 : std::exp(logChoose(n - c, m) - logChoose(n, m)));
    // P(j of the host's o groups among the M picked of G) = C(o, j) C(G - o, M - j) / C(G, M).
    double missed = 0;
    for (int j = std::max(0, M - (G - o)); j <= std::min(o, M); ++j)
        missed += std::exp(logChoose(o, j) + logChoose(G - o, M - j) - logChoose(G, M)) * std::pow(outside, j);
    return double(hosts - 1) * (1.0 - missed);
}

CollectiveTime dedupDispatchTime(double tokenBytes, double remoteNodes, double gpuCopies, const Group &g, const Fabric &f)
{
    CollectiveTime out;
    out.algorithm = Algorithm::Auto;
    out.protocol = Protocol::Simple;
    if (g.ranks <= 1 || !(tokenBytes > 0))
        return out;
    const int k = g.nodes();
    const double netSeconds = k > 1 ? double(std::max(1, g.ranksPerNode)) * tokenBytes * remoteNodes / nodeNicBytesPerSecond(g, f) : 0.0;
    const double intraSeconds = g.ranksPerNode > 1 ? tokenBytes * gpuCopies / f.intra.bytesPerSecond : 0.0;
    out.interNode = netSeconds > intraSeconds;
    out.latencySeconds = base(g, f, kBaseLatencyRingUs[2]) + (k > 1 ? f.inter.latencySeconds : 0.0) + f.intra.latencySeconds;
    out.latencySteps = k > 1 ? 2 : 1;
    out.seconds = std::max(netSeconds, intraSeconds) + out.latencySeconds;
    out.algBytesPerSecond = out.seconds > 0 ? tokenBytes / out.seconds : 0.0;
    return out;
}

namespace {

Candidate candidate(Collective c, Algorithm a, Protocol p, const Group &g, const Fabric &f)
{
    if (c == Collective::SendRecv || c == Collective::AllToAll)
        return p == Protocol::Simple && (a == Algorithm::Ring) ? pointToPoint(c, g, f) : Candidate{};
    switch (a) {
    case Algorithm::Ring: return ring(c, p, g, f);
    case Algorithm::Tree: return g.nodes() > 1 || g.ranksPerNode > 1 ? tree(c, p, g, f) : Candidate{};
    case Algorithm::Nvls: return p == Protocol::Simple ? nvls(c, g, f) : Candidate{};
    case Algorithm::InNetwork: return p == Protocol::Simple ? inNetwork(c, g, f) : Candidate{};
    case Algorithm::Hierarchical: return p == Protocol::Simple ? hierarchical(c, g, f) : Candidate{};
    case Algorithm::Pat: return pat(c, p, g, f);
    case Algorithm::Auto: break;
    }
    return {};
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
    case Algorithm::Nvls: return "nvls";
    case Algorithm::Pat: return "pat";
    case Algorithm::Auto: return "auto";
    }
    return "?";
}

const char *nameOf(Protocol p)
{
    switch (p) {
    case Protocol::LL: return "LL";
    case Protocol::LL128: return "LL128";
    case Protocol::Simple: return "Simple";
    }
    return "?";
}

const char *busBandwidthMeaning(Algorithm a)
{
    switch (a) {
    case Algorithm::Ring:
        return "busbw = algbw x 2(n-1)/n is what each GPU's slowest link carries in a ring: compare it with the link rate";
    case Algorithm::Tree:
        return "a tree moves about 2S per GPU like a ring, so busbw still reads as link load, but only approximately";
    case Algorithm::Nvls:
        return "NVLS moves S(1 + 1/g) per GPU, not 2(n-1)/n S: busbw can exceed the NVLink rate (up to 2(n-1)/(n+1) of it)";
    case Algorithm::InNetwork:
        return "the switches reduce: each node sends S once, so busbw can reach twice the NIC rate and is not link load";
    case Algorithm::Hierarchical:
        return "busbw keeps nccl-tests' flat-ring factor; the intra-node and NIC phases each carry their own share";
    case Algorithm::Pat:
        return "PAT moves a ring's bytes through each GPU's NIC, so busbw = algbw x (n-1)/n reads as link load; NCCL credits it 3/4 of the NIC";
    case Algorithm::Auto:
        break;
    }
    return "";
}

IntraFabric resolveIntraFabric(const Cluster &cluster)
{
    if (cluster.intraFabric != IntraFabric::Auto)
        return cluster.intraFabric;
    return cluster.intraNode.name.rfind("pcie", 0) == 0 ? IntraFabric::Pcie : IntraFabric::NvSwitch;
}

int nvlinkGeneration(const Link &intraNode)
{
    // A named preset says its generation (nvlink4-h800: Hopper's NVLink 4 on 8 of its 18 links);
    // a custom link is read by its rate: 900 GB/s a direction is NVLink 5, 450 NVLink 4.
    if (intraNode.name.starts_with("nvlink3"))
        return 3;
    if (intraNode.name.starts_with("nvlink4"))
        return 4;
    if (intraNode.name.starts_with("nvlink5"))
        return 5;
    return intraNode.bytesPerSecond >= 900e9 ? 5 : intraNode.bytesPerSecond >= 450e9 ? 4 : 3;
}

bool nvlsAvailable(const Cluster &cluster)
{
    if (cluster.nvls != Nvls::Auto)
        return cluster.nvls == Nvls::On;
    // Third-generation NVSwitch (NVLink 4, H100/H200, and H800's fewer links) and later carry the SHARP engines.
    return resolveIntraFabric(cluster) == IntraFabric::NvSwitch && nvlinkGeneration(cluster.intraNode) >= 4;
}

Fabric fabricOf(const Cluster &cluster)
{
    Fabric f;
    f.intra.bytesPerSecond = cluster.intraNode.bytesPerSecond * cluster.intraNode.efficiency;
    f.intra.latencySeconds = cluster.intraNode.latencySeconds;
    f.gpusPerNode = std::max(1, cluster.gpusPerNode);
    f.nicsPerNode = std::max(1, cluster.rails);
    // One NIC after efficiency; traffic above the leaf is slowed by oversubscription.
    double nic = cluster.interNode.bytesPerSecond * cluster.interNode.efficiency / std::max(1.0, cluster.oversubscription);
    double alpha = cluster.interNode.latencySeconds;
    f.tcp = cluster.transport == Transport::Tcp;
    if (f.tcp) {
        nic *= kTcpBandwidthFactor;
        alpha += kTcpExtraLatencySeconds;
    }
    f.nicBytesPerSecond = nic;
    f.nicLineBytesPerSecond = cluster.interNode.bytesPerSecond;
    // One GPU's share when all GPUs of the node talk at once (rails may exceed the GPUs).
    f.inter = {nic * f.nicsPerNode / f.gpusPerNode, alpha};
    f.intraFabric = resolveIntraFabric(cluster);
    f.nvls = nvlsAvailable(cluster);
    // NVLink 5 marks Blackwell. NCCL's nvlsEfficiency: Hopper 0.85, Blackwell 0.74 (tuning.cc).
    const int generation = nvlinkGeneration(cluster.intraNode);
    f.blackwell = generation >= 5;
    f.nvlsEfficiency = f.blackwell ? 0.74 : 0.85;
    // llMaxBws for one node by GPU generation (tuning.cc): Ampere 87.7, Hopper 141, Blackwell 282 GB/s.
    f.llMaxBusBytesPerSecond = f.blackwell ? 282e9 : generation == 4 ? 141e9 : 87.7e9;
    f.inNetworkReduction = cluster.inNetworkReduction;
    // Blackwell with an x86 host: a GPU whose host link is PCIe rather than NVLink-C2C to a Grace
    // CPU (the presets' GB200 and GB300 carry 173 GB/s, PCIe Gen5 hosts 52.8).
    f.nvlsTreeCorrection = f.blackwell && cluster.gpu.hostBytesPerSecond < 100e9;
    return f;
}

Group groupOf(int size, int stride, int gpusPerNode, int jobGpus)
{
    Group g;
    g.ranks = std::max(1, size);
    stride = std::max(1, stride);
    const int G = std::max(1, gpusPerNode);
    if (g.ranks == 1)
        return g;
    if (jobGpus > 0 && jobGpus <= G && (long long)(g.ranks - 1) * stride < jobGpus) {
        g.ranksPerNode = g.ranks;   // the whole job, this group with it, inside one node
        return g;
    }
    if (stride >= G) {
        g.ranksPerNode = 1;   // one member per node (members in the same node only if stride < G)
        return g;
    }
    const long long span = (long long)g.ranks * stride;
    if (span <= G) {
        if (G % span == 0) {
            g.ranksPerNode = g.ranks;   // every group inside one node
            return g;
        }
        // Some groups cross a node boundary (TP=4 with 6 GPUs per node): charge the worst one,
        // split over two nodes.
        g.straddles = true;
        g.ranksPerNode = g.ranks % 2 == 0 ? g.ranks / 2 : 1;
        return g;
    }
    if (G % stride == 0 && g.ranks % (G / stride) == 0) {
        g.ranksPerNode = G / stride;
        return g;
    }
    g.straddles = true;
    g.ranksPerNode = 1;
    return g;
}

Group groupOf(int size, int stride, const Cluster &cluster)
{
    return groupOf(size, stride, cluster.gpusPerNode, cluster.gpus);
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

namespace {

// One algorithm with one protocol: the time it takes (`time.seconds`) and the time NCCL's tuner
// predicts for it (`tunerSeconds`), which is what NCCL picks by.
struct Timed
{
    CollectiveTime time;
    double tunerSeconds = 0;
};
Timed timeOne(Collective c, Algorithm algorithm, Protocol protocol, double S, const Group &group, const Fabric &fabric)
{
    Timed out;
    CollectiveTime &t = out.time;
    t.algorithm = algorithm;
    t.protocol = protocol;
    const Candidate k = candidate(c, algorithm, protocol, group, fabric);
    if (!k.ok || !(k.algBytesPerSecond > 0)) {
        t.applicable = false;
        return out;
    }
    t.latencySeconds = k.latencySeconds;
    t.latencySteps = k.latencySteps;
    t.interNode = k.interNode;
    const bool nvlsTree = algorithm == Algorithm::Nvls && group.nodes() > 1 && !fabric.inNetworkReduction;
    double bytesPerSecond = k.algBytesPerSecond;
    if (c == Collective::AllReduce && S >= 64 && (algorithm == Algorithm::Tree || (nvlsTree && fabric.nvlsTreeCorrection))) {
        // NCCL's log2i(nBytes >> 6), which is -1 (no correction) below 64 bytes; Tree's table covers
        // 23 sizes, NVLS-tree's 24.
        const int logSize = floorLog2(int(std::min(S / 64.0, double(std::numeric_limits<int>::max()))));
        if (logSize < (algorithm == Algorithm::Tree ? 23 : 24))
            bytesPerSecond *= kTreeCorrection[int(protocol)][logSize];
    }
    out.tunerSeconds = t.seconds = k.latencySeconds + S / bytesPerSecond;
    if (algorithm == Algorithm::Nvls && (group.nodes() <= 1 || nvlsTree)) {
        // The time NVLS takes: its bandwidth and its pipeline fill, which stands in for NVLS-tree's
        // tree correction (NCCL's estimate of the same shortfall, kept in the tuner's pick). Tree
        // keeps the correction in its time: Trainscope has no fill model of NCCL's tree.
        t.pipelineWindowBytes = nvlsWindowBytes(S, group, fabric);
        t.pipelineFillSeconds = (kNvlsPipelineStages - 1) * std::min(S, t.pipelineWindowBytes) / k.algBytesPerSecond;
        t.seconds = k.latencySeconds + S / k.algBytesPerSecond + t.pipelineFillSeconds;
    }
    return out;   // the nccl-tests bandwidths are set on the chosen candidate only (fastest)
}

// The fastest of `algorithms` x `protocols`, as NCCL's tuner takes the minimum predicted time.
CollectiveTime fastest(Collective c, std::span<const Algorithm> algorithms, std::span<const Protocol> protocols, double S,
                       const Group &group, const Fabric &fabric, bool averaging)
{
    CollectiveTime best;
    best.applicable = false;
    best.algorithm = algorithms.size() == 1 ? algorithms.front() : Algorithm::Auto;
    if (group.ranks <= 1 && c != Collective::SendRecv) {
        best.applicable = true;   // nothing to exchange within a group of one
        return best;
    }
    double bestTunerSeconds = 0;
    const bool pointToPoint = c == Collective::SendRecv || c == Collective::AllToAll;
    for (Algorithm a : algorithms) {
        if ((a == Algorithm::Nvls && !fabric.nvls) || (a == Algorithm::InNetwork && !fabric.inNetworkReduction)
            || (a == Algorithm::Pat && averaging && c == Collective::ReduceScatter))
            continue;
        // NVLS, CollNet, the hierarchical ring and point-to-point run Simple only.
        const bool simpleOnly = pointToPoint || (a != Algorithm::Ring && a != Algorithm::Tree);
        double simpleBytesPerSecond = 0;   // this algorithm's Simple bandwidth, after latency
        for (Protocol p : protocols) {
            if (simpleOnly && p != Protocol::Simple)
                continue;
            // LL128 and LL run the same ring or tree at most 120/128 and 1/2 of Simple's bandwidth
            // (ring(), tree()), so a message that Simple's bandwidth alone keeps above the best time
            // cannot do better with them: skipping them changes no choice, only the work.
            const double bound = (p == Protocol::LL128 ? kLl128MaxShareOfSimple : kLlMaxShareOfSimple)
                                 * (a == Algorithm::Tree ? kTreeCorrectionMaxRatio : 1.0);
            if (p != Protocol::Simple && simpleBytesPerSecond > 0 && best.applicable
                && S / (simpleBytesPerSecond * bound) >= bestTunerSeconds)
                continue;
            const Timed t = timeOne(c, a, p, S, group, fabric);
            if (p == Protocol::Simple && t.time.applicable && t.tunerSeconds > t.time.latencySeconds)
                simpleBytesPerSecond = S / (t.tunerSeconds - t.time.latencySeconds);
            if (t.time.applicable && (!best.applicable || t.tunerSeconds < bestTunerSeconds)) {
                best = t.time;
                bestTunerSeconds = t.tunerSeconds;
            }
        }
    }
    if (best.applicable && best.seconds > 0) {
        best.algBytesPerSecond = S / best.seconds;
        best.busBytesPerSecond = best.algBytesPerSecond * busBandwidthFactor(c, group.ranks);
    }
    return best;
}

constexpr Algorithm kNcclAlgorithms[] = {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::InNetwork, Algorithm::Pat};
constexpr Protocol kAllProtocols[] = {Protocol::Simple, Protocol::LL128, Protocol::LL};

} // namespace

namespace {
// The arguments of collectiveTime as the memo's key: every field of the group and the fabric, in
// whole 64-bit words. `protocol` is a Protocol, or kEveryProtocol when NCCL's tuner picks it.
constexpr int kEveryProtocol = 3;
struct CollectiveKey
{
    std::uint64_t kinds = 0;   // collective, algorithm, protocol, straddles, averaging, Blackwell
    double bytes = 0;
    std::uint64_t group = 0;   // ranks, ranks per node
    std::uint64_t fabricKinds = 0;   // intra-node fabric, NVLS, SHARP, TCP, NVLS-tree correction (their bytes)
    double interBytesPerSecond = 0, intraBytesPerSecond = 0, intraLatencySeconds = 0, interLatencySeconds = 0;
    double nicBytesPerSecond = 0, nicLineBytesPerSecond = 0;
    std::uint64_t topology = 0;   // NICs and GPUs per node
    double nvlsEfficiency = 0, llMaxBusBytesPerSecond = 0;
};
// A field added to Group or Fabric must be added to the key above. The structured bindings compile
// only while the two have exactly these members (a new bool would fit in padding, past a sizeof check).
[[maybe_unused]] void keyHoldsEveryField(const Group &g, const Fabric &f)
{
    [[maybe_unused]] const auto &[ranks, ranksPerNode, straddles] = g;
    [[maybe_unused]] const auto &[intra, inter, nic, nicLine, nics, gpus, intraFabric, nvls, sharp, tcp, treeCorrection, blackwell,
                                  nvlsEfficiency, llMax] = f;
}
// The intra-node fabric and the four flags after it are read as one word: eight bytes, no padding.
static_assert(sizeof(IntraFabric) == 4 && offsetof(Fabric, nvls) == offsetof(Fabric, intraFabric) + 4
              && offsetof(Fabric, inNetworkReduction) == offsetof(Fabric, nvls) + 1 && offsetof(Fabric, tcp) == offsetof(Fabric, nvls) + 2
              && offsetof(Fabric, nvlsTreeCorrection) == offsetof(Fabric, nvls) + 3);

CollectiveKey collectiveKey(Collective c, Algorithm a, int protocol, double S, const Group &g, const Fabric &f, bool averaging)
{
    const auto u = [](auto v) { return std::uint64_t(unsigned(v)); };
    std::uint64_t fabricKinds;
    std::memcpy(&fabricKinds, reinterpret_cast<const unsigned char *>(&f) + offsetof(Fabric, intraFabric), sizeof fabricKinds);
    return {u(c) << 16 | u(a) << 8 | u(protocol) | u(g.straddles) << 24 | u(f.blackwell) << 32 | u(averaging) << 33,
            S,
            u(g.ranks) << 32 | u(g.ranksPerNode),
            fabricKinds,
            f.inter.bytesPerSecond,
            f.intra.bytesPerSecond,
            f.intra.latencySeconds,
            f.inter.latencySeconds,
            f.nicBytesPerSecond,
            f.nicLineBytesPerSecond,
            u(f.nicsPerNode) << 32 | u(f.gpusPerNode),
            f.nvlsEfficiency,
            f.llMaxBusBytesPerSecond};
}

// An evaluation times about 8 collectives (TP, pipeline, data-parallel, context-parallel), which
// a plan search's plans and a slider drag's steps mostly share. The slot is picked by what varies
// between them: the kinds, the size and the group (plans that differ only in the fabric, rarer,
// share a set and recompute on a collision).
using CollectiveMemo = detail::Memo<CollectiveKey, CollectiveTime, 256, 3>;
CollectiveMemo &collectiveMemo()
{
    thread_local CollectiveMemo memo;
    return memo;
}

CollectiveTime memoized(Collective c, Algorithm algorithm, int protocol, double S, const Group &group, const Fabric &fabric,
                        bool averaging = false)
{
    const CollectiveKey key = collectiveKey(c, algorithm, protocol, S, group, fabric, averaging);
    CollectiveMemo &memo = collectiveMemo();
    if (const CollectiveTime *t = memo.find(key))
        return *t;
    const Algorithm one[] = {algorithm};
    const Protocol only[] = {Protocol(protocol)};
    const CollectiveTime t = fastest(c, algorithm == Algorithm::Auto ? std::span<const Algorithm>(kNcclAlgorithms) : std::span<const Algorithm>(one),
                                     protocol == kEveryProtocol ? std::span<const Protocol>(kAllProtocols) : std::span<const Protocol>(only), S, group,
                                     fabric, averaging);
    memo.store(key, t);
    return t;
}
} // namespace

CollectiveTime collectiveTime(Collective c, Algorithm algorithm, Protocol protocol, double S, const Group &group,
                              const Fabric &fabric)
{
    return memoized(c, algorithm, int(protocol), S, group, fabric);
}

CollectiveTime collectiveTime(Collective c, Algorithm algorithm, double S, const Group &group, const Fabric &fabric, ReduceOp op)
{
    return memoized(c, algorithm, kEveryProtocol, S, group, fabric, op == ReduceOp::Average);
}

void clearCollectiveMemo()
{
    collectiveMemo().clear();
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
