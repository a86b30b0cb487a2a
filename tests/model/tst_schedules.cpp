// SPDX-License-Identifier: MIT
// Explicit schedules against the closed forms they must reproduce.
#include "collectives.h"
#include "evaluate.h"
#include "fixtures.h"
#include "schedules.h"

#include <QTest>

#include <set>

using namespace ts;

Q_DECLARE_METATYPE(ts::Algorithm)

namespace {
Fabric twoTier(bool sharp)
{
    Cluster c;   // nodes of 8 GPUs with 8 NICs of 25 GB/s
    c.gpusPerNode = 8;
    c.rails = 8;
    c.intraNode = {"nvlink3", 300e9, 3e-6, 1.0};
    c.interNode = {"ib-hdr", 25e9, 6e-6, 1.0};
    c.inNetworkReduction = sharp;
    return fabricOf(c);
}
} // namespace

class TestSchedules : public QObject
{
    Q_OBJECT
private slots:
    void totalMatchesCollectiveTime_data()
    {
        QTest::addColumn<Algorithm>("algorithm");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("perNode");
        for (auto [n, g] : {std::pair{2, 1}, {4, 1}, {8, 8}, {16, 8}, {32, 4}, {64, 8}, {7, 1}}) {
            QTest::addRow("ring %d/%d", n, g) << Algorithm::Ring << n << g;
            QTest::addRow("tree %d/%d", n, g) << Algorithm::Tree << n << g;
            if (g > 1 && n > g) {
                QTest::addRow("hierarchical %d/%d", n, g) << Algorithm::Hierarchical << n << g;
                QTest::addRow("in-network %d/%d", n, g) << Algorithm::InNetwork << n << g;
            }
            if (g == 1 && n > 1)
                QTest::addRow("in-network %d/%d", n, g) << Algorithm::InNetwork << n << g;
        }
    }
    void totalMatchesCollectiveTime()
    {
        QFETCH(Algorithm, algorithm);
        QFETCH(int, ranks);
        QFETCH(int, perNode);
        const double S = 256e6;
        const Group group{ranks, perNode};
        const Fabric fabric = twoTier(true);
        const CollectiveSchedule s = allReduceSchedule(algorithm, S, group, fabric);
        QVERIFY2(s.error.empty(), s.error.c_str());
        const CollectiveTime closed = collectiveTime(Collective::AllReduce, algorithm, S, group, fabric);
        QVERIFY(closed.applicable);
        QVERIFY2(qAbs(s.totalSeconds - closed.seconds) <= 1e-9 * closed.seconds,
                 qPrintable(QStringLiteral("schedule %1 s, closed form %2 s").arg(s.totalSeconds).arg(closed.seconds)));
        // Bytes sent so far grow to the total and never shrink.
        double previous = 0;
        for (int i = 0; i <= 20; ++i) {
            const double sent = bytesSentBy(s, 0, s.totalSeconds * i / 20);
            QVERIFY(sent >= previous);
            previous = sent;
        }
        QVERIFY(qAbs(previous - s.bytesSentPerRank) <= 1e-6 * S);
        // No rank sends two things at once within a phase step.
        std::set<std::tuple<int, int, int>> busy;
        for (const Transfer &t : s.transfers)
            QVERIFY(busy.insert({t.step, t.sender, t.receiver}).second);
    }

    void ringHasTwoNMinusOneSteps_data()
    {
        QTest::addColumn<int>("n");
        for (int n : {2, 3, 4, 8, 16, 100})
            QTest::addRow("n%d", n) << n;
    }
    void ringHasTwoNMinusOneSteps()
    {
        QFETCH(int, n);
        const double S = 1e9;
        const CollectiveSchedule s = allReduceSchedule(Algorithm::Ring, S, {n, 1}, twoTier(false));
        QCOMPARE(s.steps, 2 * (n - 1));
        QCOMPARE(int(s.transfers.size()), 2 * (n - 1) * n);
        QVERIFY(qAbs(s.bytesSentPerRank - 2.0 * (n - 1) / n * S) < 1e-6 * S);
        QCOMPARE(s.transfers.back().contributors, n);
        // Reduce-scatter partial sums grow by one contribution a step.
        for (const Transfer &t : s.transfers)
            if (t.phase == 0)
                QCOMPARE(t.contributors, t.step + 1);
    }

    void hierarchicalShape()
    {
        const int g = 8, k = 4;
        const CollectiveSchedule s = allReduceSchedule(Algorithm::Hierarchical, 1e9, {g * k, g}, twoTier(false));
        QCOMPARE(s.steps, 2 * (g - 1) + 2 * (k - 1));
        QCOMPARE(int(s.phases.size()), 3);
        // Inter-node transfers only between ranks of the same rail (same index within the node).
        for (const Transfer &t : s.transfers)
            if (t.phase == 1)
                QCOMPARE(t.sender % g, t.receiver % g);
            else
                QCOMPARE(t.sender / g, t.receiver / g);
    }

    void notApplicable()
    {
        QVERIFY(!allReduceSchedule(Algorithm::Hierarchical, 1e6, {8, 8}, twoTier(false)).error.empty());
        QVERIFY(!allReduceSchedule(Algorithm::InNetwork, 1e6, {16, 8}, twoTier(false)).error.empty());
        QVERIFY(!allReduceSchedule(Algorithm::Ring, 1e6, {1, 1}, twoTier(false)).error.empty());
        QVERIFY(!allReduceSchedule(Algorithm::Ring, 1e6, {kMaxScheduleRanks + 1, 1}, twoTier(false)).error.empty());
        QVERIFY(!allReduceSchedule(Algorithm::Ring, qQNaN(), {4, 1}, twoTier(false)).error.empty());
    }

    void inFlightProfileMatchesPeaks()
    {
        const StageTimes t{1, 2, 1, 0};
        for (Schedule schedule : {Schedule::GPipe, Schedule::OneFOneB}) {
            const PipelineSimulation sim = simulatePipeline(schedule, 4, 8, 1, t);
            for (int stage = 0; stage < 4; ++stage) {
                int peak = 0;
                for (const InFlightPoint &pt : inFlightProfile(sim, stage))
                    peak = std::max(peak, pt.microBatches);
                QCOMPARE(peak, sim.peakInFlight[size_t(stage)]);
                QCOMPARE(inFlightProfile(sim, stage).back().microBatches, 0);
            }
        }
    }

    void stepTimelineMatchesEvaluation()
    {
        Scenario s = fixtures::gpt13bOn64H100();
        for (bool overlap : {true, false}) {
            s.plan.overlapDp = overlap;
            const Evaluation e = evaluate(s);
            QVERIFY(e.feasible);
            const StepTimeline tl = stepTimeline(s, e);
            QVERIFY2(tl.error.empty(), tl.error.c_str());
            const double expected = e.breakdown.stepSeconds - e.breakdown.stragglerSeconds;
            // The timeline replays every stage at its own times (the head makes the last stage
            // slower); the evaluation's p2p closed form is within a few tenths of a percent of it.
            QVERIFY2(qAbs(tl.stepSeconds - expected) <= 5e-3 * expected,
                     qPrintable(QStringLiteral("timeline %1 s, evaluation %2 s").arg(tl.stepSeconds).arg(expected)));
            int forward = 0, buckets = 0;
            for (const StreamInterval &i : tl.intervals) {
                forward += i.stream == Stream::Compute && i.label[0] == 'F';
                buckets += i.stream == Stream::DpComm;
                QVERIFY(i.endSeconds >= i.startSeconds);
            }
            QCOMPARE(forward, int(e.microBatches));
            QCOMPARE(buckets, e.dpBuckets);
            QCOMPARE(int(tl.phases.size()), 5);
        }
    }

    // Without a pipeline the timeline's step is the evaluation's for every way a framework syncs:
    // the per-step parameter gather before the first forward (Megatron) or after the reduction
    // (DeepSpeed, or no overlap), per micro-batch gathers and reductions (FSDP, ZeRO-2/3), and the
    // compute the hidden collectives slow.
    void stepTimelinePlacesEveryDpSync()
    {
        Scenario s = fixtures::gpt13bOn64H100();
        s.plan.pp = 1;
        s.plan.dp = 8;
        int checked = 0, withLead = 0, perMicro = 0;
        for (Framework fw : {Framework::Megatron, Framework::DeepSpeed, Framework::Fsdp})
            for (int zero : {0, 1, 2, 3})
                for (bool overlap : {true, false}) {
                    s.plan.framework = fw;
                    s.plan.zeroStage = zero;
                    s.plan.overlapDp = overlap;
                    const Evaluation e = evaluate(s);
                    if (!e.feasible)
                        continue;
                    const StepTimeline tl = stepTimeline(s, e);
                    QVERIFY2(tl.error.empty(), tl.error.c_str());
                    const double expected = e.breakdown.stepSeconds - e.breakdown.stragglerSeconds;
                    QVERIFY2(qAbs(tl.stepSeconds - expected) <= 1e-9 * expected,
                             qPrintable(QStringLiteral("framework %1 zero %2 overlap %3: timeline %4 s, evaluation %5 s")
                                            .arg(int(fw)).arg(zero).arg(overlap).arg(tl.stepSeconds).arg(expected)));
                    // The first forward starts after the exposed first gather, and after its
                    // micro-batch's wait for DP traffic, if any.
                    double firstForward = 1e30;
                    for (const StreamInterval &i : tl.intervals)
                        if (i.stream == Stream::Compute)
                            firstForward = std::min(firstForward, i.startSeconds);
                    const double wait = !overlap ? (e.dpGathersPerMicro >= 1 ? e.dpGatherSeconds : 0.0)
                                                 : e.dpPerMicroExposedSeconds / double(e.microBatches);
                    QVERIFY(qAbs(firstForward - e.dpLeadSeconds - wait) <= 1e-12 * expected);
                    QCOMPARE(tl.phases[3].name, std::string(zero >= 1 || fw == Framework::Fsdp ? "Reduce-scatter" : "All-reduce"));
                    // Micro-batches alternate forward and backward after the first backward: the span
                    // says so (one micro-batch: forward, then backward).
                    QCOMPARE(tl.phases[2].name, std::string(e.microBatches > 1 ? "Forward and backward" : "Backward"));
                    withLead += e.dpLeadSeconds > 0;
                    perMicro += e.dpReducePerMicroSeconds > 0 || e.dpGathersPerMicro > 0;
                    ++checked;
                }
        QVERIFY(checked >= 12);
        QVERIFY(withLead > 0);
        QVERIFY(perMicro > 0);
        s.training.globalBatch = 8;   // one micro-batch per GPU: a forward, then a backward
        const Evaluation one = evaluate(s);
        QCOMPARE(one.microBatches, 1LL);
        QCOMPARE(stepTimeline(s, one).phases[2].name, std::string("Backward"));
        // Two 1F1B stages, drawn for the first: its backwards alternate with forwards only when
        // there are more micro-batches than stages (m = 64), not at m = p = 2.
        Scenario piped = fixtures::gpt13bOn64H100();
        for (const long long batch : {256LL, 8LL}) {
            piped.training.globalBatch = batch;
            const Evaluation e = evaluate(piped);
            QVERIFY2(e.feasible, e.problem.message.c_str());
            QCOMPARE(stepTimeline(piped, e).phases[2].name, std::string(e.microBatches > piped.plan.pp ? "Forward and backward" : "Backward"));
            QCOMPARE(e.microBatches, batch / 4);
        }
    }
};

QTEST_GUILESS_MAIN(TestSchedules)
#include "tst_schedules.moc"
