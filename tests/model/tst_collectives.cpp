// SPDX-License-Identifier: MIT
// Collective costs: nccl-tests bus-bandwidth factors, alpha-beta terms per algorithm, and the
// explicit ring all-reduce schedule.
#include "collectives.h"

#include <QTest>

#include <map>
#include <set>

using namespace ts;

Q_DECLARE_METATYPE(ts::Collective)

namespace {
Fabric flatFabric(double bytesPerSecond, double alpha)
{
    Fabric f;
    f.intra = {bytesPerSecond, alpha};
    f.inter = {bytesPerSecond, alpha};
    return f;
}
} // namespace

class TestCollectives : public QObject
{
    Q_OBJECT
private slots:
    void busBandwidthFactors_data()
    {
        QTest::addColumn<Collective>("collective");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("factor");
        for (int n : {2, 3, 8, 64, 1000}) {
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
        // Ring with zero latency: busbw equals the link bandwidth for the reductions and gathers.
        const double bw = 100e9;
        const CollectiveTime t = collectiveTime(collective, Algorithm::Ring, 1e9, {n, 1}, flatFabric(bw, 0));
        QVERIFY(t.applicable);
        QCOMPARE(t.algBytesPerSecond, 1e9 / t.seconds);
        QCOMPARE(t.busBytesPerSecond, t.algBytesPerSecond * factor);
        if (collective != Collective::Broadcast && collective != Collective::Reduce && collective != Collective::SendRecv)
            QVERIFY(qAbs(t.busBytesPerSecond - bw) < 1e-6 * bw);
    }

    void ringAllReduceAlphaBeta_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("bw");
        QTest::addColumn<double>("alpha");
        QTest::newRow("n8 1GiB 300GB/s") << 8 << double(1 << 30) << 300e9 << 5e-6;
        QTest::newRow("n2 1MB 50GB/s") << 2 << 1e6 << 50e9 << 10e-6;
        QTest::newRow("n1024 25MB 25GB/s") << 1024 << 25e6 << 25e9 << 6e-6;
    }
    void ringAllReduceAlphaBeta()
    {
        QFETCH(int, n);
        QFETCH(double, bytes);
        QFETCH(double, bw);
        QFETCH(double, alpha);
        const CollectiveTime t = collectiveTime(Collective::AllReduce, Algorithm::Ring, bytes, {n, 1}, flatFabric(bw, alpha));
        QCOMPARE(t.latencySteps, 2 * (n - 1));
        QCOMPARE(t.seconds, 2.0 * (n - 1) * alpha + 2.0 * (n - 1) / n * bytes / bw);
    }

    void hierarchicalAndInNetwork()
    {
        // 4 nodes x 8 GPUs: NVLink 300 GB/s inside, 25 GB/s per GPU across.
        Fabric f;
        f.intra = {300e9, 3e-6};
        f.inter = {25e9, 5e-6};
        f.inNetworkReduction = true;
        const Group g{32, 8};
        const double S = 1e9;
        const CollectiveTime h = collectiveTime(Collective::AllReduce, Algorithm::Hierarchical, S, g, f);
        const double expectedH = 2 * (7 * 3e-6 + 7.0 / 8 * S / 300e9) + 2 * 3 * 5e-6 + 2.0 * 3 / 4 * (S / 8) / 25e9;
        QVERIFY(qAbs(h.seconds - expectedH) < 1e-12);
        const CollectiveTime sharp = collectiveTime(Collective::AllReduce, Algorithm::InNetwork, S, g, f);
        const double expectedSharp = 2 * (7 * 3e-6 + 7.0 / 8 * S / 300e9) + 2 * 5e-6 + (S / 8) / 25e9;
        QVERIFY(qAbs(sharp.seconds - expectedSharp) < 1e-12);
        QVERIFY(sharp.seconds < h.seconds);
        // The flat ring is bound by the inter-node hop.
        const CollectiveTime ring = collectiveTime(Collective::AllReduce, Algorithm::Ring, S, g, f);
        QVERIFY(h.seconds < ring.seconds);
        QVERIFY(collectiveTime(Collective::AllReduce, Algorithm::Auto, S, g, f).algorithm == Algorithm::InNetwork);
        f.inNetworkReduction = false;
        QVERIFY(!collectiveTime(Collective::AllReduce, Algorithm::InNetwork, S, g, f).applicable);
        QVERIFY(!collectiveTime(Collective::AllReduce, Algorithm::Hierarchical, S, {8, 8}, f).applicable);
    }

    void treeWinsForSmallMessages()
    {
        const Fabric f = flatFabric(50e9, 10e-6);
        const Group g{1024, 1};
        QVERIFY(collectiveTime(Collective::AllReduce, Algorithm::Auto, 1e3, g, f).algorithm == Algorithm::Tree);
        QVERIFY(collectiveTime(Collective::AllReduce, Algorithm::Auto, 1e10, {16, 1}, f).algorithm == Algorithm::Ring);
    }

    void groupPlacement()
    {
        QCOMPARE(groupOf(8, 1, 8).ranksPerNode, 8);     // TP 8 inside a node
        QCOMPARE(groupOf(16, 1, 8).ranksPerNode, 8);    // TP 16 spans 2 nodes
        QCOMPARE(groupOf(32, 8, 8).ranksPerNode, 1);    // DP with TP 8: one rank per node
        QCOMPARE(groupOf(32, 2, 8).ranksPerNode, 4);    // DP with TP 2: 4 ranks per node
        QCOMPARE(groupOf(32, 2, 8).nodes(), 8);
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
        QCOMPARE(r.transfers.back().endSeconds,
                 collectiveTime(Collective::AllReduce, Algorithm::Ring, S, {n, 1}, {tier, tier, false}).seconds);
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
