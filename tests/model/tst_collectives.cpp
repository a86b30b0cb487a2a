// SPDX-License-Identifier: MIT
// Collective costs: nccl-tests bus-bandwidth factors, alpha-beta terms per algorithm, and the
// explicit ring all-reduce schedule.
#include "collectives.h"
#include "memo.h"

#include <QTest>

#include <functional>
#include <map>
#include <set>

using namespace ts;

Q_DECLARE_METATYPE(ts::Collective)

namespace {
// H100 nodes as NCCL sees them: NVLink 4 at 369 GB/s per GPU per direction (450 x 0.82; NCCL's
// own figure is 18 x 20.6 = 370.8), 8 NDR NICs of 45 GB/s (400 Gb/s x 0.9), NCCL's latencies.
Fabric h100(bool nvls = true)
{
    Cluster c;
    c.gpusPerNode = 8;
    c.rails = 8;
    c.intraNode = {"nvlink4", 450e9, 3.4e-6, 0.82};
    c.interNode = {"ib-ndr", 50e9, 14e-6, 0.9};
    c.nvls = nvls ? Nvls::On : Nvls::Off;
    return fabricOf(c);
}
// B200 HGX nodes: NVLink 5 (900 GB/s x 0.8), 8 NDR NICs, a PCIe (x86) host.
Cluster b200Nodes()
{
    Cluster c;
    c.gpusPerNode = 8;
    c.rails = 8;
    c.intraNode = {"nvlink5", 900e9, 3.4e-6, 0.8};
    c.interNode = {"ib-ndr", 50e9, 14e-6, 0.9};
    c.nvls = Nvls::On;
    return c;
}
constexpr double kUs = 1e-6;
constexpr double MiB = 1024.0 * 1024.0;
} // namespace

class TestCollectives : public QObject
{
    Q_OBJECT
private slots:
    // The memo keeps two messages of one set: a third evicts the least recently used, and what it
    // returns is always what was stored for that exact key.
    void memoKeepsTwoWaysLeastRecentlyUsedOut()
    {
        struct Key { std::uint64_t word; };
        detail::Memo<Key, double, 2, 1> memo;   // one set of two ways
        QVERIFY(memo.find({1}) == nullptr);
        memo.store({1}, 10.0);
        memo.store({2}, 20.0);
        QCOMPARE(*memo.find({1}), 10.0);   // 1 is now the more recently used
        memo.store({3}, 30.0);             // evicts 2
        QVERIFY(memo.find({2}) == nullptr);
        QCOMPARE(*memo.find({1}), 10.0);
        QCOMPARE(*memo.find({3}), 30.0);
        memo.clear();
        QVERIFY(memo.find({1}) == nullptr && memo.find({3}) == nullptr);
        memo.store({4}, 40.0);
        QCOMPARE(*memo.find({4}), 40.0);
    }

    // The per-thread memo (memo.h) only saves work: arguments that differ from others in any one
    // field of the group or fabric, timed right after those others, give what they give fresh. A
    // field missing from the memo's key would return the others' time here.
    void memoizedTimesEqualFreshOnes()
    {
        const Fabric base = h100();
        std::vector<std::function<void(Group &, Fabric &)>> changes = {
            [](Group &, Fabric &) {},
            [](Group &g, Fabric &) { g.ranks = 16; },
            [](Group &g, Fabric &) { g.ranksPerNode = 1; },
            [](Group &g, Fabric &) { g.straddles = true; },
            [](Group &, Fabric &f) { f.intra.bytesPerSecond /= 3; },
            [](Group &, Fabric &f) { f.intra.latencySeconds *= 20; },
            [](Group &, Fabric &f) { f.inter.bytesPerSecond /= 4; },
            [](Group &, Fabric &f) { f.inter.latencySeconds *= 20; },
            [](Group &, Fabric &f) { f.nicBytesPerSecond /= 4; },
            [](Group &, Fabric &f) { f.nicsPerNode = 2; },
            [](Group &, Fabric &f) { f.gpusPerNode = 4; },
            [](Group &, Fabric &f) { f.intraFabric = IntraFabric::Pcie; },
            [](Group &, Fabric &f) { f.nvls = false; },
            [](Group &, Fabric &f) { f.inNetworkReduction = true; },
            [](Group &, Fabric &f) { f.tcp = true; },
            [](Group &, Fabric &f) { f.nvlsEfficiency = 0.5; },
            [](Group &, Fabric &f) { f.llMaxBusBytesPerSecond = 20e9; },
            [](Group &, Fabric &f) { f.blackwell = true; },
            [](Group &, Fabric &f) { f.blackwell = f.nvlsTreeCorrection = true; },
            [](Group &, Fabric &f) { f.blackwell = true; f.nicLineBytesPerSecond = 100e9; },
        };
        const auto same = [](const CollectiveTime &a, const CollectiveTime &b) {
            return a.seconds == b.seconds && a.algBytesPerSecond == b.algBytesPerSecond && a.busBytesPerSecond == b.busBytesPerSecond
                   && a.algorithm == b.algorithm && a.protocol == b.protocol && a.latencySteps == b.latencySteps
                   && a.latencySeconds == b.latencySeconds && a.applicable == b.applicable && a.interNode == b.interNode;
        };
        int differing = 0;
        for (const Group start : {Group{32, 8}, Group{8, 8}})
        for (const Collective c : kAllCollectives)
            for (const Algorithm a : {Algorithm::Auto, Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::InNetwork})
                for (const double bytes : {4e3, 64e6})
                    for (int proto = 0; proto <= 3; ++proto) {
                        std::vector<CollectiveTime> fresh;
                        for (const auto &change : changes) {
                            Group g = start;
                            Fabric f = base;
                            change(g, f);
                            clearCollectiveMemo();
                            fresh.push_back(proto == 3 ? collectiveTime(c, a, bytes, g, f) : collectiveTime(c, a, Protocol(proto), bytes, g, f));
                        }
                        for (size_t i = 0; i < changes.size(); ++i) {
                            // The unchanged arguments' time in the memo, then the changed ones'.
                            clearCollectiveMemo();
                            proto == 3 ? collectiveTime(c, a, bytes, start, base) : collectiveTime(c, a, Protocol(proto), bytes, start, base);
                            Group g = start;
                            Fabric f = base;
                            changes[i](g, f);
                            const CollectiveTime warm = proto == 3 ? collectiveTime(c, a, bytes, g, f) : collectiveTime(c, a, Protocol(proto), bytes, g, f);
                            QVERIFY2(same(warm, fresh[i]), qPrintable(QStringLiteral("%1 %2 proto %3 change %4").arg(QString::fromLatin1(nameOf(c)), QString::fromLatin1(nameOf(a))).arg(proto).arg(i)));
                            differing += i > 0 && !same(fresh[i], fresh[0]);
                        }
                    }
        QVERIFY(differing > 1000);   // the changes do change the times the memo must tell apart
    }

    void busBandwidthFactors_data()
    {
        QTest::addColumn<Collective>("collective");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("factor");
        for (int n : {2, 3, 8}) {
            QTest::addRow("all_reduce n%d", n) << Collective::AllReduce << n << 2.0 * (n - 1) / n;
            QTest::addRow("all_gather n%d", n) << Collective::AllGather << n << double(n - 1) / n;
            QTest::addRow("reduce_scatter n%d", n) << Collective::ReduceScatter << n << double(n - 1) / n;
            QTest::addRow("alltoall n%d", n) << Collective::AllToAll << n << double(n - 1) / n;
            QTest::addRow("broadcast n%d", n) << Collective::Broadcast << n << 1.0;
            QTest::addRow("reduce n%d", n) << Collective::Reduce << n << 1.0;
            QTest::addRow("sendrecv n%d", n) << Collective::SendRecv << n << 1.0;
        }
    }
    void busBandwidthFactors()
    {
        QFETCH(Collective, collective);
        QFETCH(int, n);
        QFETCH(double, factor);
        QCOMPARE(busBandwidthFactor(collective, n), factor);
        // A huge message inside one node with Simple: latency vanishes and busbw is the NVLink rate
        // for the ring collectives (nccl-tests' definition of busbw), less the chunk's last,
        // local-only step: k(n - 1) send steps of k(n - 1) + 1/2 (k = 2 for all-reduce).
        Fabric f = h100(false);
        const CollectiveTime t = collectiveTime(collective, Algorithm::Ring, Protocol::Simple, 1e15, {n, n}, f);
        QVERIFY(t.applicable);
        QCOMPARE(t.algBytesPerSecond, 1e15 / t.seconds);
        QCOMPARE(t.busBytesPerSecond, t.algBytesPerSecond * factor);
        if (collective == Collective::AllReduce || collective == Collective::AllGather || collective == Collective::ReduceScatter) {
            const double sendSteps = (collective == Collective::AllReduce ? 2.0 : 1.0) * (n - 1);
            QVERIFY2(qAbs(t.busBytesPerSecond / (369e9 * sendSteps / (sendSteps + 0.5)) - 1) < 1e-6,
                     qPrintable(QString::number(t.busBytesPerSecond / 1e9)));
            // Only NVSwitch nodes take the silent step: a PCIe node's and an xGMI mesh's ring keep the link.
            for (IntraFabric fabric : {IntraFabric::Pcie, IntraFabric::Mesh}) {
                Fabric other = f;
                other.intraFabric = fabric;
                const CollectiveTime o = collectiveTime(collective, Algorithm::Ring, Protocol::Simple, 1e15, {n, n}, other);
                QVERIFY2(qAbs(o.busBytesPerSecond / 369e9 - 1) < 1e-6, qPrintable(QString::number(o.busBytesPerSecond / 1e9)));
            }
        }
    }

    // NCCL's ring latency (tuning.cc): base + (nsteps - nInter) x intra hop + nInter x net hop.
    void ringLatencyAsNcclTuner()
    {
        const Fabric f = h100();
        // One node, 8 ranks, all-reduce: 14 steps. Simple 8.4 + 14 x 3.4; LL 6.6 + 14 x 0.6; LL128 14 + 14 x 1.9.
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, 0, {8, 8}, f).seconds - 56.0 * kUs) < 1e-9);
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::LL, 0, {8, 8}, f).seconds - 15.0 * kUs) < 1e-9);
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::LL128, 0, {8, 8}, f).seconds - 40.6 * kUs) < 1e-9);
        // Two nodes of 8, Simple: 30 steps, 2 of them across nodes, plateau x1.4:
        // (8.4 + 28 x 3.4 + 2 x 14) x 1.4 = 184.24 us.
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, 0, {16, 8}, f).seconds - 184.24 * kUs) < 1e-9);
        // LL across nodes: the intra step is floored at NCCL's net overhead (1 us): 6.6 + 28 x 1 + 2 x 2.7 = 40 us.
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::LL, 0, {16, 8}, f).seconds - 40.0 * kUs) < 1e-9);
        // LL128 is kept inside NVLink domains.
        QVERIFY(!collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::LL128, 1e6, {16, 8}, f).applicable);
    }

    // NCCL's treeCorrectionFactor: tree all-reduce bandwidth scaled by message size (Simple: 0.5 at
    // 1 MiB, log2(2^20 / 64) = 14; 0.8 at 8 MiB, index 17; none from 512 MiB, index 23 on). NVLS-tree
    // takes it on Blackwell with an x86 host, in NCCL's pick only: its time carries its pipeline
    // fill instead (nvlsPipelineFill).
    void treeBandwidthCorrectedBySize()
    {
        const Fabric f = h100();
        const Group two{16, 8};
        const auto bandwidth = [&](Algorithm a, double bytes, const Fabric &fabric) {
            const CollectiveTime t = collectiveTime(Collective::AllReduce, a, Protocol::Simple, bytes, two, fabric);
            return bytes / (t.seconds - t.latencySeconds - t.pipelineFillSeconds);
        };
        const double full = bandwidth(Algorithm::Tree, 1024.0 * MiB, f);
        QVERIFY(qAbs(bandwidth(Algorithm::Tree, 1.0 * MiB, f) / full - 0.5) < 1e-9);
        QVERIFY(qAbs(bandwidth(Algorithm::Tree, 8.0 * MiB, f) / full - 0.8) < 1e-9);
        QVERIFY(qAbs(bandwidth(Algorithm::Tree, 32.0 * MiB, f) / full - 0.7) < 1e-9);   // Simple's row: LL's is 1.0 there
        QVERIFY(qAbs(bandwidth(Algorithm::Tree, 32.0, f) / bandwidth(Algorithm::Tree, 64.0, f) - 1 / 0.9) < 1e-9);   // none below 64 B
        QVERIFY(qAbs(bandwidth(Algorithm::Tree, 512.0 * MiB, f) / full - 1.0) < 1e-9);
        QVERIFY(qAbs(bandwidth(Algorithm::Nvls, 1.0 * MiB, f) / bandwidth(Algorithm::Nvls, 2048.0 * MiB, f) - 1.0) < 1e-9);
        QVERIFY(collectiveTime(Collective::AllReduce, Algorithm::Tree, Protocol::Simple, 1.0 * MiB, two, f).pipelineFillSeconds == 0);
        // B200 HGX (PCIe to an x86 host) takes the correction, GB200 (C2C to Grace) does not. At
        // 512 MiB (NVLS-tree's last corrected size, 0.9) on two B200 nodes of 400G NICs the tree,
        // 4% slower by its own time, wins NCCL's pick against NVLS-tree's corrected time.
        Cluster blackwell = b200Nodes();
        const Fabric hgx = fabricOf(blackwell);
        QVERIFY(hgx.nvlsTreeCorrection);
        QVERIFY(qAbs(bandwidth(Algorithm::Nvls, 1.0 * MiB, hgx) / bandwidth(Algorithm::Nvls, 2048.0 * MiB, hgx) - 1.0) < 1e-9);
        const auto simple = [&](Algorithm a, const Fabric &fabric) {
            return collectiveTime(Collective::AllReduce, a, Protocol::Simple, 512.0 * MiB, two, fabric);
        };
        QVERIFY(simple(Algorithm::Tree, hgx).seconds > simple(Algorithm::Nvls, hgx).seconds);
        QCOMPARE(simple(Algorithm::Auto, hgx).algorithm, Algorithm::Tree);
        blackwell.gpu.hostBytesPerSecond = 173e9;
        const Fabric grace = fabricOf(blackwell);
        QVERIFY(!grace.nvlsTreeCorrection);
        QCOMPARE(simple(Algorithm::Auto, grace).algorithm, Algorithm::Nvls);
    }

    // NVLS runs scatter, switch reduce and gather as a three-stage pipeline over loops of
    // channels x heads x chunk bytes (NCCL all_reduce.h; enqueue.cc calcCollChunking; nvls.cc), so a
    // message takes 2 loops more than its own: fill = 2 x min(S, window) / algbw. The window follows
    // NCCL's chunk ladder. Worked on one 8 x H100 node (16 channels, 8 heads, 128 ops): 16 KiB chunks
    // below 8 MiB (window 2 MiB), 32 KiB to 64 MiB, 64 KiB to 1 GiB, then 128 KiB (16 MiB). Measured on
    // a p5.48xlarge (tests/data/validation/nccl-logs/heldout): 8 MiB 84.3 us, 64 MiB 326.6 us.
    void nvlsPipelineFill()
    {
        const Fabric f = h100();
        const double algbw = 369e9 * 8 / 9 * 0.85;
        const auto check = [&](double S, double window, double microseconds) {
            const CollectiveTime t = collectiveTime(Collective::AllReduce, Algorithm::Nvls, S, {8, 8}, f);
            QCOMPARE(t.pipelineWindowBytes, window);
            QVERIFY2(qAbs(t.pipelineFillSeconds - 2 * std::min(S, window) / algbw) < 1e-12, qPrintable(QString::number(S)));
            QVERIFY(qAbs(t.seconds - (25e-6 + S / algbw + t.pipelineFillSeconds)) < 1e-12);
            if (microseconds > 0)   // within 3% of the measured time
                QVERIFY2(qAbs(t.seconds / (microseconds * kUs) - 1) < 0.03, qPrintable(QString::number(t.seconds / kUs)));
        };
        // The windows and the fill follow from NCCL's code alone; the log only checks them. At 1 MiB
        // NCCL (and Auto) run a ring with LL, so that size has no NVLS measurement.
        check(1.0 * MiB, 2.0 * MiB, 0);         // a partial loop: every stage, once, on S
        check(4.0 * MiB, 2.0 * MiB, 55.4);
        check(8.0 * MiB, 4.0 * MiB, 84.3);
        check(63.0 * MiB, 4.0 * MiB, 0);
        check(64.0 * MiB, 8.0 * MiB, 326.6);
        check(1024.0 * MiB, 16.0 * MiB, 0);
        // Two H100 nodes, NVLS-tree: Hopper's 16 channels and a 128 KiB chunk cap (fewer than 4 nodes),
        // 64 KiB below 64 MiB, 32 KiB below 8 MiB (ops x chunk ladder, 32/16/4/1); 8 heads (NICs).
        const auto window = [&](double S, const Group &g, const Fabric &fabric) {
            return collectiveTime(Collective::AllReduce, Algorithm::Nvls, S, g, fabric).pipelineWindowBytes;
        };
        QCOMPARE(window(4.0 * MiB, {16, 8}, f), 128 * 32 * 1024.0);
        QCOMPARE(window(8.0 * MiB, {16, 8}, f), 128 * 64 * 1024.0);
        QCOMPARE(window(64.0 * MiB, {16, 8}, f), 128 * 128 * 1024.0);
        QCOMPARE(window(64.0 * MiB, {32, 8}, f), 128 * 64 * 1024.0);   // 4 nodes: 64 KiB cap
        Fabric fourRails = f;
        fourRails.nicsPerNode = 4;   // heads are the GPUs that own a NIC
        QCOMPARE(window(64.0 * MiB, {16, 8}, fourRails), 64 * 128 * 1024.0);
        // B200, two nodes of 400G NICs, NIC and GPU under one PCIe switch: ncclNvlsTreeSm100Tuning
        // gives 32 channels and a 64 KiB cap; with 800G NICs 128 KiB; 3 nodes of 400G NICs, 24 channels.
        Cluster b200 = b200Nodes();
        const Fabric hgx = fabricOf(b200);
        QVERIFY(hgx.blackwell && !f.blackwell);
        QCOMPARE(window(64.0 * MiB, {16, 8}, hgx), 256 * 64 * 1024.0);
        QCOMPARE(window(8.0 * MiB, {16, 8}, hgx), 256 * 32 * 1024.0);
        QCOMPARE(window(64.0 * MiB, {24, 8}, hgx), 192 * 64 * 1024.0);
        QCOMPARE(window(64.0 * MiB, {8, 8}, hgx), 192 * 32 * 1024.0);   // one node: 24 channels, the one-node ladder
        b200.interNode = {"xdr", 100e9, 14e-6, 0.9};
        QCOMPARE(window(512.0 * MiB, {16, 8}, fabricOf(b200)), 256 * 128 * 1024.0);
        // NCCL reads the NIC's line rate: 800G NICs behind a 2:1 oversubscribed spine stay 800G.
        b200.oversubscription = 2;
        QCOMPARE(window(512.0 * MiB, {16, 8}, fabricOf(b200)), 256 * 128 * 1024.0);
        // A GB200 NVL72 domain: 72 GPUs in one NVLink node, at most 32 heads (NCCL_MAX_NVLS_ARITY):
        // 24 x 32 ops, 16 KiB chunks below 2 x 768 x 32 KiB = 48 MiB.
        QCOMPARE(window(32.0 * MiB, {72, 72}, hgx), 24 * 32 * 16 * 1024.0);
        // In-network reduction across nodes (NVLS + CollNet) is not timed with a fill.
        Fabric sharp = f;
        sharp.inNetworkReduction = true;
        QCOMPARE(collectiveTime(Collective::AllReduce, Algorithm::Nvls, 64.0 * MiB, {16, 8}, sharp).pipelineFillSeconds, 0.0);
    }

    // A ring across nodes runs one channel per NIC at least, so it uses all NICs of the node
    // (nccl-tests#309: 8 x 400G NICs give about 400 GB/s busbw), not one GPU's 1/8 of them.
    void channelsOverNics()
    {
        const Fabric f = h100();
        const double S = 8e9;
        const CollectiveTime t = collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, S, {16, 8}, f);
        // busbw -> min(NVLink 369, 8 NICs x 45 = 360) GB/s.
        QVERIFY(qAbs(t.busBytesPerSecond / 360e9 - 1) < 0.01);
        QVERIFY(t.interNode);
        // DP with TP 8: one rank per node; the node's 8 NICs are shared by the 8 concurrent groups.
        const CollectiveTime dp = collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, S, {16, 1}, f);
        QVERIFY(qAbs(dp.busBytesPerSecond / 45e9 - 1) < 0.01);
        // Rails may exceed the GPUs: 32 x 100G NICs (11.25 GB/s each) on 8 GPUs give 360 GB/s.
        Fabric many = f;
        many.nicsPerNode = 32;
        many.nicBytesPerSecond = 11.25e9;
        many.inter.bytesPerSecond = 45e9;
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, S, {16, 8}, many).busBytesPerSecond / 360e9 - 1) < 0.01);
        // NICs faster than NVLink's effective 369 GB/s (8 x 49.1 GB/s, the public 2-node log's
        // 392.7): a channel enters and leaves each node through NICs, so NVLink carries 7/8 of a
        // GPU's ring sends and binds only at 369 x 8/7 = 422 GB/s; the NICs bind.
        Fabric fast = f;
        fast.nicBytesPerSecond = 49.1e9;
        fast.inter.bytesPerSecond = 49.1e9;
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, S, {16, 8}, fast).busBytesPerSecond / 392.8e9 - 1) < 0.01);
        fast.nicBytesPerSecond = fast.inter.bytesPerSecond = 60e9;   // 480 GB/s of NICs: NVLink's 422 binds
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, S, {16, 8}, fast).busBytesPerSecond / (369e9 * 8 / 7) - 1) < 0.01);
        // Inside one node every hop is NVLink, and a chunk's last step is local (14 send steps of 14.5).
        QVERIFY(qAbs(collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, S, {8, 8}, fast).busBytesPerSecond / (369e9 * 14 / 14.5) - 1) < 0.01);
    }

    // The textbook two-level all-reduce pipelines its phases: a large message is bounded by the
    // slowest phase (here the NICs: 2(k-1)/k S over 8 x 45 GB/s), not by the sum of the three.
    void pipelinedHierarchy()
    {
        const Fabric f = h100();
        const Group g{32, 8};   // 4 nodes
        const double S = 1e9;
        const CollectiveTime h = collectiveTime(Collective::AllReduce, Algorithm::Hierarchical, S, g, f);
        const double latency = 8.4e-6 + 14 * 3.4e-6 + 6 * 14e-6;
        const double slowest = std::max(2.0 * 7 / 8 * S / 369e9, 2.0 * 3 / 4 * S / 360e9);
        QVERIFY(qAbs(h.seconds - (latency + slowest)) < 1e-12);
        const double sum = 7.0 / 8 * S / 369e9 + 2.0 * 3 / 4 * S / 360e9 + 7.0 / 8 * S / 369e9;
        QVERIFY(h.seconds < sum);
        QVERIFY(!collectiveTime(Collective::AllReduce, Algorithm::Hierarchical, S, {8, 8}, f).applicable);
    }

    // NVLS: each GPU moves S(1 + 1/g) per direction: algbw = B g/(g+1) x 0.85 (NCCL's Hopper
    // nvlsEfficiency); 8 x H100 busbw = 369 x 8/9 x 0.85 x 14/8 = 488 GB/s (nccl-tests#290: ~480).
    void nvls()
    {
        const Fabric f = h100();
        const CollectiveTime t = collectiveTime(Collective::AllReduce, Algorithm::Nvls, 8e9, {8, 8}, f);
        QVERIFY(t.applicable);
        QCOMPARE(t.protocol, Protocol::Simple);
        const double algbw = 369e9 * 8 / 9 * 0.85;
        const double fill = 2 * 16 * MiB / algbw;   // the pipeline's fill at 128 KiB chunks (nvlsPipelineFill)
        QVERIFY(qAbs(t.seconds - (25e-6 + 8e9 / algbw + fill)) < 1e-9);
        QVERIFY(qAbs(t.busBytesPerSecond / 488e9 - 1) < 0.02);
        QVERIFY(t.busBytesPerSecond > 369e9);   // above the link rate: busbw is not link load here
        // Large all-reduce on one H100 node: NCCL picks NVLS; without NVSwitch SHARP, the ring.
        QCOMPARE(collectiveTime(Collective::AllReduce, Algorithm::Auto, 1e9, {8, 8}, f).algorithm, Algorithm::Nvls);
        QCOMPARE(collectiveTime(Collective::AllReduce, Algorithm::Auto, 1e9, {8, 8}, h100(false)).algorithm, Algorithm::Ring);
        // Two nodes: NVLS-tree, latency 25 + 2 x log2(2) x 20.9 us; the tree across two nodes moves
        // S per node each way, so the 360 GB/s of NICs do not bind before NVLS's 279 GB/s.
        const CollectiveTime two = collectiveTime(Collective::AllReduce, Algorithm::Nvls, 8e9, {16, 8}, f);
        QVERIFY(qAbs(two.latencySeconds - 66.8e-6) < 1e-9);
        QVERIFY(qAbs(two.seconds - (66.8e-6 + 8e9 / algbw + fill)) < 1e-9);
        // Four nodes: an inner tree node moves 2S each way: 360/2 = 180 GB/s binds; 64 KiB chunks.
        const CollectiveTime four = collectiveTime(Collective::AllReduce, Algorithm::Nvls, 8e9, {32, 8}, f);
        QVERIFY(qAbs(four.seconds - (25e-6 + 4 * 20.9e-6 + 8e9 / 180e9 + 2 * 8 * MiB / 180e9)) < 1e-9);
        QVERIFY(!collectiveTime(Collective::AllGather, Algorithm::Nvls, 8e9, {8, 8}, f).applicable);
    }

    // The NVLink generation comes from a preset's name, not its rate: H800's NVLink 4 on 8 links
    // (200 GB/s a direction) keeps Hopper's NVSwitch SHARP and LL ceiling, A800's NVLink 3 and a
    // custom 200 GB/s link are Ampere's; unnamed links are read by rate as before.
    void nvlinkGenerationFromThePreset()
    {
        Cluster c;
        c.gpusPerNode = 8;
        c.rails = 8;
        c.interNode = {"ib-ndr", 50e9, 14e-6, 0.9};
        const auto fabricWith = [&](Link intra) {
            c.intraNode = intra;
            return std::pair{nvlsAvailable(c), fabricOf(c)};
        };
        const auto [h800Nvls, h800] = fabricWith({"nvlink4-h800", 200e9, 3.4e-6, 0.824});
        QCOMPARE(nvlinkGeneration(c.intraNode), 4);
        QVERIFY(h800Nvls && h800.nvls && !h800.blackwell);
        QCOMPARE(h800.llMaxBusBytesPerSecond, 141e9);
        QCOMPARE(h800.nvlsEfficiency, 0.85);
        // NVLS over 8 H800: Hopper's efficiency on the narrower link, 164.8 x 8/9 x 0.85 x 14/8.
        const CollectiveTime t = collectiveTime(Collective::AllReduce, Algorithm::Nvls, 8e9, {8, 8}, h800);
        QVERIFY(t.applicable);
        QVERIFY(qAbs(t.busBytesPerSecond / (164.8e9 * 8 / 9 * 0.85 * 14 / 8) - 1) < 0.02);
        const auto [a800Nvls, a800] = fabricWith({"nvlink3-a800", 200e9, 3.4e-6, 0.8});
        QVERIFY(!a800Nvls && !a800.nvls);
        QCOMPARE(a800.llMaxBusBytesPerSecond, 87.7e9);
        const auto [customNvls, custom] = fabricWith({"", 200e9, 3.4e-6, 0.8});
        QCOMPARE(nvlinkGeneration(c.intraNode), 3);
        QVERIFY(!customNvls);
        QCOMPARE(custom.llMaxBusBytesPerSecond, 87.7e9);
        for (const auto &[rate, generation] : {std::pair{300e9, 3}, std::pair{450e9, 4}, std::pair{900e9, 5}, std::pair{1800e9, 5}})
            QCOMPARE(nvlinkGeneration(Link{"", rate, 3.4e-6, 0.8}), generation);
        QCOMPARE(nvlinkGeneration(Link{"nvlink5", 900e9, 3.4e-6, 0.8}), 5);
        QVERIFY(fabricWith({"nvlink5", 900e9, 3.4e-6, 0.8}).second.blackwell);
    }

    // Protocols: LL (half the wire, low latency) wins small messages, LL128 the middle, Simple
    // the large ones; the crossovers follow from NCCL's latencies and bandwidth shares.
    void protocolRamp()
    {
        const Fabric f = h100(false);
        const Group g{8, 8};
        QCOMPARE(collectiveTime(Collective::AllReduce, Algorithm::Ring, 4096, g, f).protocol, Protocol::LL);
        QCOMPARE(collectiveTime(Collective::AllReduce, Algorithm::Ring, 16e6, g, f).protocol, Protocol::LL128);
        QCOMPARE(collectiveTime(Collective::AllReduce, Algorithm::Ring, 4e9, g, f).protocol, Protocol::Simple);
        // LL vs LL128 crossover by hand: 15 us + S/(min(141, 184.5) x 8/14) = 40.6 us + S/(0.92 x 369 x 8/14).
        const double llAlg = 141e9 * 8 / 14, ll128Alg = 0.92 * 369e9 * 8 / 14;
        const double cross = (40.6e-6 - 15e-6) / (1 / llAlg - 1 / ll128Alg);
        QCOMPARE(collectiveTime(Collective::AllReduce, Algorithm::Ring, cross * 0.9, g, f).protocol, Protocol::LL);
        QCOMPARE(collectiveTime(Collective::AllReduce, Algorithm::Ring, cross * 1.1, g, f).protocol, Protocol::LL128);
        // PCIe: no LL128 (NCCL needs NVLink inside the node).
        Fabric pcie = f;
        pcie.intraFabric = IntraFabric::Pcie;
        pcie.intra = {51.2e9, 5.7e-6};
        QVERIFY(!collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::LL128, 16e6, g, pcie).applicable);
        // NCCL_PROTO forced, NCCL_ALGO free: the fastest algorithm that has that protocol.
        const CollectiveTime forced = collectiveTime(Collective::AllReduce, Algorithm::Auto, Protocol::LL128, 16e6, g, f);
        QVERIFY(forced.applicable);
        QCOMPARE(forced.protocol, Protocol::LL128);
        QVERIFY(forced.seconds <= collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::LL128, 16e6, g, f).seconds);
        QVERIFY(!collectiveTime(Collective::AllReduce, Algorithm::Auto, Protocol::LL128, 16e6, g, pcie).applicable);
        // Auto takes what NCCL's tuner predicts fastest, and the tuner leaves out NVLS's pipeline
        // fill: Auto is never slower than any single algorithm and protocol by more than the fill of
        // what it picked.
        int fillCounted = 0;
        for (double S : {1e3, 1e5, 1e7, 3e7, 1e9})
            for (const Group &two : {Group{32, 8}, Group{8, 8}})
                for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls})
                    for (Protocol p : {Protocol::LL, Protocol::LL128, Protocol::Simple}) {
                        const CollectiveTime one = collectiveTime(Collective::AllReduce, a, p, S, two, h100());
                        const CollectiveTime picked = collectiveTime(Collective::AllReduce, Algorithm::Auto, S, two, h100());
                        if (one.applicable)
                            QVERIFY(picked.seconds <= one.seconds + picked.pipelineFillSeconds * (1 + 1e-12));
                        fillCounted += one.applicable && picked.seconds > one.seconds;
                    }
        QVERIFY(fillCounted > 0);   // the allowance is used: one node, 30 MB, NVLS over the ring
    }

    void inNetworkReduction()
    {
        Fabric f = h100(false);
        f.inNetworkReduction = true;
        const Group g{32, 8};
        const double S = 8e9;
        // Each node sends S up once and gets S back: 360 GB/s of NICs; inside, RS + AG move
        // 2(g-1)/g S over 369 GB/s -> algbw = 369 x 8/14 = 211 GB/s binds.
        const CollectiveTime t = collectiveTime(Collective::AllReduce, Algorithm::InNetwork, S, g, f);
        QVERIFY(qAbs(S / (t.seconds - t.latencySeconds) / (369e9 * 8 / 14) - 1) < 1e-9);
        f.inNetworkReduction = false;
        QVERIFY(!collectiveTime(Collective::AllReduce, Algorithm::InNetwork, S, g, f).applicable);
    }

    // NCCL's PAT (tuning.cc, 2.23+): all-gather and reduce-scatter with one GPU a node, Simple only:
    // 8 us + log2i(nodes) x 14 / 3.5 us + 2.8 us a rank, at 3/4 of the GPU's NIC and no ring factor.
    void patForOneGpuPerNode()
    {
        const Fabric f = h100(false);   // one 45 GB/s NIC a GPU, NCCL's 14 us network hop
        const Group dp{48, 1};
        const double S = 1e9;
        for (Collective c : {Collective::ReduceScatter, Collective::AllGather}) {
            const CollectiveTime t = collectiveTime(c, Algorithm::Pat, Protocol::Simple, S, dp, f);
            QVERIFY(t.applicable);
            // 8 + 5 x 4 + 48 x 2.8 = 162.4 us.
            QVERIFY(qAbs(t.latencySeconds - 162.4 * kUs) < 1e-12);
            QVERIFY(qAbs(t.seconds - (162.4 * kUs + S / (0.75 * 45e9))) < 1e-12);
            // 1024 nodes: 8 + 10 x 4 + 1024 x 2.8 = 2915.2 us, where the ring pays 8.4 + 1023 x 14 = 14330.4 us.
            QVERIFY(qAbs(collectiveTime(c, Algorithm::Pat, Protocol::Simple, 0, {1024, 1}, f).seconds - 2915.2 * kUs) < 1e-12);
            QVERIFY(qAbs(collectiveTime(c, Algorithm::Ring, Protocol::Simple, 0, {1024, 1}, f).seconds - 14330.4 * kUs) < 1e-12);
            // NCCL's pick: PAT where the ring's 47 network hops outweigh PAT's quarter less bandwidth, the ring beyond.
            QCOMPARE(collectiveTime(c, Algorithm::Auto, 8e6, dp, f).algorithm, Algorithm::Pat);
            QCOMPARE(collectiveTime(c, Algorithm::Auto, 1e9, dp, f).algorithm, Algorithm::Ring);
            // Not with several GPUs of a node in the communicator, nor with LL or LL128.
            QVERIFY(!collectiveTime(c, Algorithm::Pat, Protocol::Simple, S, {16, 8}, f).applicable);
            QVERIFY(!collectiveTime(c, Algorithm::Pat, Protocol::LL, S, dp, f).applicable);
            QVERIFY(collectiveTime(c, Algorithm::Auto, 8e6, {16, 8}, f).algorithm != Algorithm::Pat);
        }
        // A group split unevenly across nodes (12 ranks on 8 + 4) is charged as one rank a node, but
        // NCCL sees 2 nodes for 12 ranks and offers no PAT; nor does it to an averaging reduce-scatter.
        const Group straddling{12, 1, true};
        QVERIFY(!collectiveTime(Collective::AllGather, Algorithm::Pat, Protocol::Simple, S, straddling, f).applicable);
        QVERIFY(collectiveTime(Collective::AllGather, Algorithm::Auto, 8e6, straddling, f).algorithm != Algorithm::Pat);
        QVERIFY(collectiveTime(Collective::ReduceScatter, Algorithm::Auto, 8e6, dp, f, ReduceOp::Average).algorithm != Algorithm::Pat);
        QVERIFY(!collectiveTime(Collective::ReduceScatter, Algorithm::Pat, 8e6, dp, f, ReduceOp::Average).applicable);
        QCOMPARE(collectiveTime(Collective::AllGather, Algorithm::Auto, 8e6, dp, f, ReduceOp::Average).algorithm, Algorithm::Pat);
        QCOMPARE(collectiveTime(Collective::ReduceScatter, Algorithm::Auto, 8e6, dp, f, ReduceOp::Sum).algorithm, Algorithm::Pat);
        // All-reduce has no PAT.
        QVERIFY(!collectiveTime(Collective::AllReduce, Algorithm::Pat, Protocol::Simple, S, dp, f).applicable);
        QVERIFY(collectiveTime(Collective::AllReduce, Algorithm::Auto, 8e6, dp, f).algorithm != Algorithm::Pat);
    }

    void groupPlacement()
    {
        QCOMPARE(groupOf(8, 1, 8).ranksPerNode, 8);     // TP 8 inside a node
        QCOMPARE(groupOf(16, 1, 8).ranksPerNode, 8);    // TP 16 spans 2 nodes
        QCOMPARE(groupOf(32, 8, 8).ranksPerNode, 1);    // DP with TP 8: one rank per node
        QCOMPARE(groupOf(32, 2, 8).ranksPerNode, 4);    // DP with TP 2: 4 ranks per node
        QCOMPARE(groupOf(32, 2, 8).nodes(), 8);
        QVERIFY(!groupOf(8, 1, 8).straddles);
        // TP 4 on nodes of 6 GPUs: ranks 4..7 sit on two nodes.
        const Group straddling = groupOf(4, 1, 6);
        QVERIFY(straddling.straddles);
        QCOMPARE(straddling.nodes(), 2);
        QVERIFY(!groupOf(3, 1, 6).straddles);
        QVERIFY(!groupOf(2, 1, 6).straddles);
        // 64 GPUs of a 72-GPU NVLink rack: the whole job is one node, so EP 64 and DP 8 with
        // stride 2 stay inside it; the same groups in a larger job cross node boundaries.
        QCOMPARE(groupOf(64, 1, 72, 64).nodes(), 1);
        QVERIFY(!groupOf(64, 1, 72, 64).straddles);
        QCOMPARE(groupOf(8, 2, 72, 64).ranksPerNode, 8);
        QVERIFY(groupOf(64, 1, 72).straddles);
        QVERIFY(groupOf(64, 1, 72, 144).straddles);
        // A group larger than the job (the ring demo draws up to 1024 ranks) is not inside it.
        QCOMPARE(groupOf(16, 1, 8, 8).nodes(), 2);
        QCOMPARE(groupOf(16, 1, 72, 8).ranksPerNode, 8);
        // A straddling TP group is charged at the network: slower than a group inside one node.
        Fabric f = h100(false);
        f.gpusPerNode = 6;
        QVERIFY(collectiveTime(Collective::AllReduce, Algorithm::Auto, 64e6, straddling, f).seconds
                > 1.5 * collectiveTime(Collective::AllReduce, Algorithm::Auto, 64e6, {4, 4}, f).seconds);
    }

    void ringSchedule_data()
    {
        QTest::addColumn<int>("n");
        for (int n : {2, 3, 4, 7, 8, 16, 64})
            QTest::addRow("n%d", n) << n;
    }
    // 2(n-1) steps, each GPU sends 2(n-1)/n of the data, every chunk ends fully reduced everywhere.
    void ringSchedule()
    {
        QFETCH(int, n);
        const double S = 64e6;
        const Tier tier{25e9, 5e-6};
        const RingSchedule r = ringAllReduceSchedule(n, S, tier);
        QCOMPARE(r.steps, 2 * (n - 1));
        QCOMPARE(int(r.transfers.size()), 2 * (n - 1) * n);
        QCOMPARE(r.bytesSentPerRank, 2.0 * (n - 1) / n * S);
        QCOMPARE(r.stepSeconds, 5e-6 + S / n / 25e9);
        // The textbook ring (Patarasuk & Yuan 2009): 2(n-1) steps of alpha + S/(n beta).
        QCOMPARE(r.transfers.back().endSeconds, 2.0 * (n - 1) * (5e-6 + S / n / 25e9));
        // Replay: contributions[rank][chunk] = set of ranks whose data the rank's copy of chunk holds.
        std::vector<std::vector<std::set<int>>> has(static_cast<size_t>(n), std::vector<std::set<int>>(static_cast<size_t>(n)));
        for (int r0 = 0; r0 < n; ++r0)
            for (int c = 0; c < n; ++c)
                has[size_t(r0)][size_t(c)] = {r0};
        for (int step = 0; step < r.steps; ++step) {
            std::vector<std::pair<int, std::set<int>>> arriving(static_cast<size_t>(n));
            for (const RingTransfer &t : r.transfers)
                if (t.step == step) {
                    QCOMPARE(t.receiver, (t.sender + 1) % n);
                    QVERIFY(t.phase == (step < n - 1 ? RingPhase::ReduceScatter : RingPhase::AllGather));
                    arriving[size_t(t.receiver)] = {t.chunk, has[size_t(t.sender)][size_t(t.chunk)]};
                }
            for (int rcv = 0; rcv < n; ++rcv) {
                auto &[chunk, data] = arriving[size_t(rcv)];
                auto &mine = has[size_t(rcv)][size_t(chunk)];
                if (step < n - 1)
                    mine.insert(data.begin(), data.end());   // reduce
                else
                    mine = data;                             // gather: overwrite with the reduced chunk
            }
        }
        for (int r0 = 0; r0 < n; ++r0)
            for (int c = 0; c < n; ++c)
                QCOMPARE(int(has[size_t(r0)][size_t(c)].size()), n);
    }

    void ringScheduleRejectsBadInput()
    {
        QVERIFY(ringAllReduceSchedule(1, 1e6, {1e9, 0}).transfers.empty());
        QVERIFY(ringAllReduceSchedule(kMaxRingScheduleRanks + 1, 1e6, {1e9, 0}).transfers.empty());
        QVERIFY(ringAllReduceSchedule(4, qQNaN(), {1e9, 0}).transfers.empty());
    }
};

QTEST_GUILESS_MAIN(TestCollectives)
#include "tst_collectives.moc"
