// SPDX-License-Identifier: MIT
// Animation views: layout and mapping functions headless and data-driven, the views replay the
// model's schedules (2(n-1) ring steps, one block per pipeline event), and screenshots for review.
#include "animationclock.h"
#include "collectives.h"
#include "pipeline.h"
#include "pipelinetimelineview.h"
#include "ringview.h"
#include "schedules.h"
#include "steptimelineview.h"
#include "timelinemapping.h"

#include <QDir>
#include <QTest>

#include <cmath>

using namespace ts;

Q_DECLARE_METATYPE(ts::Algorithm)
Q_DECLARE_METATYPE(ts::Schedule)

namespace {
QString outputDir()
{
    const QString dir = QStringLiteral(TRAINSCOPE_TEST_OUTPUT_DIR);
    QDir().mkpath(dir);
    return dir;
}
const Fabric kFabric = [] {
    Cluster c;   // nodes of 8 GPUs on NVSwitch with 8 NICs of 25 GB/s and SHARP switches
    c.gpusPerNode = 8;
    c.rails = 8;
    c.intraNode = {"nvlink3", 300e9, 3e-6, 1.0};
    c.interNode = {"ib-hdr", 25e9, 6e-6, 1.0};
    c.inNetworkReduction = true;
    return fabricOf(c);
}();
const QSize kSizes[] = {{800, 500}, {1280, 800}, {1920, 1080}};
} // namespace

class TestAnimation : public QObject
{
    Q_OBJECT
private slots:
    void ringLayout_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("perNode");
        for (auto [n, g] : {std::pair{2, 1}, {4, 4}, {8, 1}, {16, 4}, {64, 8}, {1024, 8}})
            QTest::addRow("%d/%d", n, g) << n << g;
    }
    void ringLayout()
    {
        QFETCH(int, ranks);
        QFETCH(int, perNode);
        const QRectF area(0, 0, 600, 600);
        const RingLayout layout = layoutRing(ranks, perNode, area, 8, QSizeF(40, 14));
        QCOMPARE(int(layout.gpus.size()), ranks);
        QCOMPARE(layout.detailed, ranks <= kDetailedRingRanks);
        for (const QPointF &p : layout.gpus) {
            QVERIFY(area.contains(p));
            QVERIFY(qAbs(std::hypot(p.x() - layout.centre.x(), p.y() - layout.centre.y()) - layout.radius) < 1e-6);
        }
        // Chunks in flight start at the sender and end at the receiver.
        Transfer t;
        t.sender = 0;
        t.receiver = 1 % ranks;
        QVERIFY(QLineF(chunkPosition(layout, t, 0), layout.position(0)).length() < 1e-6);
        QVERIFY(QLineF(chunkPosition(layout, t, 1), layout.position(t.receiver)).length() < 1e-6);
        t.receiver = kSwitch;
        QVERIFY(QLineF(chunkPosition(layout, t, 1), layout.switchPos).length() < 1e-6);
    }

    void ringViewHasTwoNMinusOneSteps_data()
    {
        QTest::addColumn<int>("n");
        for (int n : {2, 3, 4, 8, 16})
            QTest::addRow("n%d", n) << n;
    }
    void ringViewHasTwoNMinusOneSteps()
    {
        QFETCH(int, n);
        const CollectiveSchedule s = allReduceSchedule(Algorithm::Ring, 64e6, {n, 1}, kFabric);
        RingView view;
        view.setSchedule(s);
        QCOMPARE(int(stepSpans(s).size()), 2 * (n - 1));
        QCOMPARE(int(stepStartTimes(s).size()), 2 * (n - 1));
        // Replaying to the end leaves every chunk of every GPU fully reduced.
        const auto buffers = bufferContributors(s, s.totalSeconds);
        QCOMPARE(int(buffers.size()), n);
        for (const auto &chunks : buffers)
            for (int c : chunks)
                QCOMPARE(c, n);
        // Half-way through the reduce-scatter no chunk is complete yet (n > 2).
        if (n > 2) {
            const auto early = bufferContributors(s, stepSpans(s)[0].endSeconds);
            for (const auto &chunks : early)
                for (int c : chunks)
                    QVERIFY(c < n);
        }
    }

    void timelineMapping_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("x");
        QTest::newRow("start") << 0.0 << 100.0;
        QTest::newRow("half") << 5.0 << 350.0;
        QTest::newRow("end") << 10.0 << 600.0;
    }
    void timelineMapping()
    {
        QFETCH(double, seconds);
        QFETCH(double, x);
        const TimelineMapping m = makeTimelineMapping(QRectF(0, 0, 700, 400), 4, 10.0, QMarginsF(100, 0, 100, 0));
        QCOMPARE(m.secondsToX(seconds), x);
        QCOMPARE(m.xToSeconds(x), seconds);
        QCOMPARE(m.stageRow(2).top(), 200.0);
        QCOMPARE(m.rowAt(250), 2);
        QCOMPARE(m.rowAt(-1), -1);
    }

    void timelineBlocksEqualEvents_data()
    {
        QTest::addColumn<Schedule>("schedule");
        QTest::addColumn<int>("v");
        QTest::newRow("gpipe") << Schedule::GPipe << 1;
        QTest::newRow("1f1b") << Schedule::OneFOneB << 1;
        QTest::newRow("interleaved") << Schedule::Interleaved << 2;
        QTest::newRow("zb-h1") << Schedule::ZeroBubbleH1 << 1;
    }
    void timelineBlocksEqualEvents()
    {
        QFETCH(Schedule, schedule);
        QFETCH(int, v);
        const PipelineSimulation sim = simulatePipeline(schedule, 4, 8, v, {1e-3, 2e-3, 1e-3, 5e-5});
        QVERIFY(sim.ok);
        const TimelineMapping m = makeTimelineMapping(QRectF(0, 0, 1000, 400), 4, sim.makespanSeconds);
        // Every block is found under its own centre, and idle spans plus blocks cover each row.
        for (const PipelineEvent &e : sim.events) {
            const PipelineEvent *hit = eventAt(m, sim.events, m.blockRect(e).center());
            QVERIFY(hit);
            QCOMPARE(hit->microBatch, e.microBatch);
            QCOMPARE(hit->stage, e.stage);
        }
        for (int stage = 0; stage < 4; ++stage) {
            double idle = 0, busy = 0;
            for (const auto &[a, b] : idleSpans(sim.events, stage, sim.makespanSeconds))
                idle += b - a;
            for (const PipelineEvent &e : sim.events)
                if (e.stage == stage)
                    busy += e.endSeconds - e.startSeconds;
            QVERIFY(qAbs(idle + busy - sim.makespanSeconds) < 1e-12);
        }
        QCOMPARE(blockLabel(sim.events.front(), v > 1), v > 1 ? QStringLiteral("1.1") : QStringLiteral("1"));
    }

    void clockDoesNotSpinWhenPaused()
    {
        AnimationClock clock;
        clock.setDuration(1.0);
        QVERIFY(!clock.isPlaying());
        const std::vector<double> boundaries{0.0, 0.25, 0.5, 1.0};
        clock.stepForward(boundaries);
        QCOMPARE(clock.time(), 0.25);
        clock.stepForward(boundaries);
        QCOMPARE(clock.time(), 0.5);
        clock.stepBack(boundaries);
        QCOMPARE(clock.time(), 0.25);
        clock.seek(0.9);
        QCOMPARE(clock.time(), 0.9);
        clock.setPlaybackSeconds(0.2);
        clock.play();
        QVERIFY(clock.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!clock.isPlaying(), 2000);   // stops at the end without looping
        QCOMPARE(clock.time(), 1.0);
        QVERIFY(clock.stats().frames > 0);
    }

    void screenshots()
    {
        const std::pair<const char *, CollectiveSchedule> rings[] = {
            {"ring8", allReduceSchedule(Algorithm::Ring, 64e6, {8, 8}, kFabric)},
            {"hierarchical16", allReduceSchedule(Algorithm::Hierarchical, 64e6, {16, 4}, kFabric)},
            {"tree8", allReduceSchedule(Algorithm::Tree, 64e6, {8, 1}, kFabric)},
            {"innetwork16", allReduceSchedule(Algorithm::InNetwork, 64e6, {16, 4}, kFabric)},
            {"ring1024", allReduceSchedule(Algorithm::Ring, 64e6, {1024, 8}, kFabric)},
        };
        for (const auto &[name, schedule] : rings) {
            QVERIFY2(schedule.error.empty(), schedule.error.c_str());
            RingView view;
            view.setSchedule(schedule);
            view.setTime(schedule.totalSeconds * 0.3);
            for (const QSize &size : kSizes) {
                view.resize(size);
                const QString path = outputDir() + QStringLiteral("/ring-%1-%2x%3.png").arg(QLatin1String(name)).arg(size.width()).arg(size.height());
                QVERIFY(view.grab().save(path));
            }
        }
        for (auto [name, schedule, v] : {std::tuple{"1f1b", Schedule::OneFOneB, 1}, std::tuple{"gpipe", Schedule::GPipe, 1},
                                         std::tuple{"interleaved", Schedule::Interleaved, 2}, std::tuple{"zbh1", Schedule::ZeroBubbleH1, 1}}) {
            const StageTimes st{1e-3, 2e-3, 1e-3, 5e-5};
            const PipelineSimulation sim = simulatePipeline(schedule, 4, 8, v, st);
            const double bubble = pipelineBubbleSeconds(schedule, 4, v, st);
            PipelineTimelineView view;
            view.setSimulation(sim, bubble / (8 * 3e-3 + bubble), QLatin1String(nameOf(schedule)));
            view.setTime(sim.makespanSeconds * 0.6);
            for (const QSize &size : kSizes) {
                view.resize(size);
                QVERIFY(view.grab().save(outputDir() + QStringLiteral("/pipeline-%1-%2x%3.png").arg(QLatin1String(name)).arg(size.width()).arg(size.height())));
            }
        }
        // An empty view says why instead of crashing.
        PipelineTimelineView empty;
        PipelineSimulation none;
        none.error = "No pipeline: PP = 1";
        empty.setSimulation(none, 0, QStringLiteral("1f1b"));
        empty.resize(600, 300);
        QVERIFY(empty.grab().save(outputDir() + QStringLiteral("/pipeline-empty.png")));
    }

    // Activations hand off down the stages and gradients up: (p - 1) x m of each.
    void handoffsBothWays()
    {
        const PipelineSimulation sim = simulatePipeline(Schedule::OneFOneB, 4, 8, 1, StageTimes{1, 2, 1, 0.1});
        QVERIFY(sim.ok);
        const std::vector<Handoff> down = forwardHandoffs(sim.events), up = backwardHandoffs(sim.events);
        QCOMPARE(int(down.size()), 3 * 8);
        QCOMPARE(int(up.size()), 3 * 8);
        for (const Handoff &h : up) {
            QCOMPARE(sim.events[h.to].stage, sim.events[h.from].stage - 1);
            QCOMPARE(sim.events[h.to].microBatch, sim.events[h.from].microBatch);
            QVERIFY(h.gapSeconds >= 0.1 - 1e-12);   // the gradient waits for its p2p transfer
        }
    }

    // A long schedule zooms rather than turning into a barcode; playback pages the window along.
    void pipelineZoomsInTime()
    {
        PipelineTimelineView view;
        view.resize(800, 500);
        const PipelineSimulation sim = simulatePipeline(Schedule::Interleaved, 4, 32, 8, StageTimes{1, 2, 1, 0});
        QVERIFY(sim.ok);
        view.setSimulation(sim, 0.1, QStringLiteral("interleaved"));
        QCOMPARE(view.viewStart(), 0.0);
        QCOMPARE(view.viewEnd(), sim.makespanSeconds);
        view.setViewWindow(10, 20);
        QCOMPARE(view.viewStart(), 10.0);
        QCOMPARE(view.viewEnd(), 30.0);
        view.setTime(50);   // past the window: it moves so the playhead shows
        QVERIFY(view.viewStart() <= 50 && 50 <= view.viewEnd());
        QCOMPARE(view.viewEnd() - view.viewStart(), 20.0);
        view.setViewWindow(-5, 1e9);   // wider than the schedule: all of it
        QCOMPARE(view.viewStart(), 0.0);
        QCOMPARE(view.viewEnd(), sim.makespanSeconds);
    }

    // Hierarchical and in-network all-reduce are drawn on their topology: each node a box holding
    // its GPUs, the switch above them; hops inside a node arc over the box, hops between nodes under.
    void nodeLayoutIsTheTopology()
    {
        const QRectF area(0, 0, 1200, 500);
        const RingLayout l = layoutNodes(16, 4, area, 4, QSizeF(40, 14), true);
        QCOMPARE(int(l.nodeBoxes.size()), 4);
        QCOMPARE(int(l.gpus.size()), 16);
        for (int r = 0; r < 16; ++r) {
            QVERIFY(l.nodeBoxes[size_t(r / 4)].contains(l.gpus[size_t(r)]));   // each GPU in its node's box
            QVERIFY(area.contains(l.buffers[size_t(r)]));
            QVERIFY(l.switchPos.y() + l.switchSize.height() / 2 < l.nodeBoxes[size_t(r / 4)].top());   // the switch above
        }
        for (size_t a = 0; a < l.nodeBoxes.size(); ++a)
            for (size_t b = a + 1; b < l.nodeBoxes.size(); ++b)
                QVERIFY(!l.nodeBoxes[a].intersects(l.nodeBoxes[b]));
        const CollectiveSchedule s = allReduceSchedule(Algorithm::Hierarchical, 64e6, {16, 4}, kFabric);
        QVERIFY(s.error.empty());
        int inside = 0, across = 0;
        for (const Transfer &t : s.transfers) {
            const TransferCurve c = transferCurve(l, t);
            const bool sameNode = t.sender / 4 == t.receiver / 4;
            (sameNode ? inside : across)++;
            QVERIFY(sameNode ? c.control.y() < std::min(c.from.y(), c.to.y()) : c.control.y() > std::max(c.from.y(), c.to.y()));
        }
        QVERIFY(inside > 0 && across > 0);   // reduce-scatter in the nodes, all-reduce across, all-gather in
        const CollectiveSchedule sharp = allReduceSchedule(Algorithm::InNetwork, 64e6, {16, 4}, kFabric);
        QVERIFY(std::all_of(sharp.transfers.cbegin(), sharp.transfers.cend(),
                            [](const Transfer &t) { return t.sender == kSwitch || t.receiver == kSwitch || t.sender / 4 == t.receiver / 4; }));
    }

    // The tree schedule is drawn as the binomial tree it runs: root on top, each rank below its parent.
    void treeLayoutIsATree()
    {
        const RingLayout l = layoutTree(8, QRectF(0, 0, 800, 400), 1, QSizeF(40, 14));
        QCOMPARE(int(l.gpus.size()), 8);
        QCOMPARE(l.parents[0], -1);
        QCOMPARE(l.parents[1], 0);
        QCOMPARE(l.parents[6], 4);
        QCOMPARE(l.parents[7], 6);
        for (int r = 1; r < 8; ++r) {
            QVERIFY(l.gpus[size_t(r)].y() > l.gpus[size_t(l.parents[size_t(r)])].y());   // below its parent
            QVERIFY(l.gpus[size_t(r)].x() > l.gpus[size_t(l.parents[size_t(r)])].x());   // to its right
        }
        // Every transfer of the schedule runs along a tree edge.
        Fabric f;
        f.intra = {100e9, 1e-6};
        f.inter = {100e9, 1e-6};
        f.gpusPerNode = 8;
        const CollectiveSchedule s = allReduceSchedule(Algorithm::Tree, 1e6, {8, 8}, f);
        QVERIFY(s.error.empty());
        for (const Transfer &t : s.transfers)
            QVERIFY(l.parents[size_t(t.sender)] == t.receiver || l.parents[size_t(t.receiver)] == t.sender);
    }
};

QTEST_MAIN(TestAnimation)
#include "tst_animation.moc"
