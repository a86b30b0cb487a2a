// SPDX-License-Identifier: MIT
// One analysis per scenario (model/analysis.h) and what the teaching tabs replay (model/teaching.h):
// every figure agrees with evaluate() on the same scenario.
#include "analysis.h"
#include "fixtures.h"
#include "planmap.h"
#include "teaching.h"

#include <QTest>

#include <cmath>

using namespace ts;

class TestAnalysis : public QObject
{
    Q_OBJECT
private slots:
    void analysisAgreesWithEvaluate()
    {
        const Scenario s = fixtures::gpt13bOn64H100();
        const Analysis a = analyse(s);
        const Evaluation e = evaluate(s);
        QVERIFY(a.evaluation.feasible);
        QCOMPARE(a.evaluation.breakdown.stepSeconds, e.breakdown.stepSeconds);
        QCOMPARE(a.evaluation.memory.totalBytes, e.memory.totalBytes);
        QVERIFY(a.scenario == s);
        // [0] is the current plan in both variant lists.
        QVERIFY(!a.stepVariants.empty());
        QCOMPARE(int(a.stepVariants.front().kind), int(StepVariantKind::Current));
        QCOMPARE(a.stepVariants.front().breakdown.stepSeconds, e.breakdown.stepSeconds);
        QCOMPARE(a.memoryVariants.front().memory.totalBytes, e.memory.totalBytes);
        // The overlap variant is the same plan with overlap_dp toggled, evaluated.
        for (const StepVariant &v : a.stepVariants)
            if (v.kind == StepVariantKind::OverlapToggled) {
                Scenario off = s;
                off.plan.overlapDp = !s.plan.overlapDp;
                QCOMPARE(v.breakdown.stepSeconds, evaluate(off).breakdown.stepSeconds);
            }
        // Every variant shown changes the step (one that does not teaches nothing).
        for (size_t i = 1; i < a.stepVariants.size(); ++i)
            QVERIFY(std::abs(a.stepVariants[i].breakdown.stepSeconds - e.breakdown.stepSeconds) > 1e-3 * e.breakdown.stepSeconds);
        // The valid degrees include the plan's own.
        QVERIFY(std::find(a.degrees.tp.begin(), a.degrees.tp.end(), s.plan.tp) != a.degrees.tp.end());
        // Scaling: Amdahl and Gustafson from the same serial share, one value per point, Amdahl's
        // speedup never above Gustafson's and neither above the ideal.
        QVERIFY(!a.scaling.points.empty());
        QCOMPARE(a.scaling.amdahl.size(), a.scaling.points.size());
        QCOMPARE(a.scaling.gustafson.size(), a.scaling.points.size());
        QVERIFY(a.scaling.serialFraction > 0 && a.scaling.serialFraction < 1);
        for (size_t i = 0; i < a.scaling.points.size(); ++i) {
            const double n = a.scaling.points[i].gpus / a.scaling.baseGpus;
            if (n < 1)
                continue;
            QVERIFY(a.scaling.amdahl[i] <= a.scaling.gustafson[i] * (1 + 1e-12));
            QVERIFY(a.scaling.gustafson[i] <= a.scaling.points[i].gpus * (1 + 1e-12));
        }
    }

    // A recommended fix that puts more tokens in a step (a larger global batch) is drawn as the time
    // of the current plan's tokens, so that the bars compare the same work.
    void recommendedFixIsDrawnForTheSameTokens()
    {
        Scenario s = fixtures::gpt13bOn64H100();   // exposed gradient sync, fixed by a larger batch
        s.plan.framework = Framework::Megatron;
        s.plan.zeroStage = 1;
        s.plan.pp = 1;
        s.plan.dp = 8;
        s.training.globalBatch = 128;
        s.cluster.interNode.bytesPerSecond = 25e9;
        const Analysis a = analyse(s);
        const Evaluation &e = a.evaluation;
        QVERIFY(e.warningCount > 0);
        const Warning &w = e.warnings[0];
        const Scenario fixed = applyWarning(s, w);
        const Evaluation after = evaluate(fixed);
        const StepVariant *fix = nullptr;
        for (const StepVariant &v : a.stepVariants)
            if (v.kind == StepVariantKind::RecommendedFix)
                fix = &v;
        QVERIFY(fix);
        const double k = e.tokensPerStep / after.tokensPerStep;
        QVERIFY2(k < 1, "the fix here changes tokens per step");
        QVERIFY(std::abs(fix->breakdown.stepSeconds - k * after.breakdown.stepSeconds) < 1e-9 * fix->breakdown.stepSeconds);
        QVERIFY(std::abs(fix->breakdown.computeSeconds - k * after.breakdown.computeSeconds) < 1e-9 * fix->breakdown.computeSeconds);
        QVERIFY(fix->breakdown.stepSeconds < e.breakdown.stepSeconds);   // faster for the same work
        QVERIFY(QString::fromStdString(fix->detail).contains(QStringLiteral("tokens per step")));
    }

    void infeasibleScenarioHasNoVariants()
    {
        Scenario s = fixtures::gpt13bOn64H100();
        s.plan.tp = 3;   // does not divide the heads
        const Analysis a = analyse(s);
        QVERIFY(!a.evaluation.feasible);
        QVERIFY(a.stepVariants.empty());
    }

    void ringDemoIsTheDpCollective()
    {
        const Scenario s = fixtures::gpt13bOn64H100();
        const Evaluation e = evaluate(s);
        const RingDemo bucket = ringDemo(s, e, {Algorithm::Ring, 4, false});
        QVERIFY(bucket.error.empty());
        QCOMPARE(bucket.bytes, std::min(e.dpBucketBytes, e.gradientBytesPerGpu));
        QCOMPARE(bucket.group.ranks, 4);
        // DP neighbours are TP x CP = 8 ranks apart: one per node.
        QCOMPARE(bucket.group.ranksPerNode, 1);
        QCOMPARE(bucket.schedule.totalSeconds,
                 allReduceSchedule(Algorithm::Ring, bucket.bytes, bucket.group, fabricOf(s.cluster)).totalSeconds);
        const RingDemo whole = ringDemo(s, e, {Algorithm::Ring, 4, true});
        QCOMPARE(whole.bytes, e.gradientBytesPerGpu);
        Scenario bad = s;
        bad.plan.tp = 3;
        QVERIFY(!ringDemo(bad, evaluate(bad), {}).error.empty());
    }

    void pipelineDemoMatchesTheStepTime()
    {
        Scenario s = fixtures::gpt13bOn64H100();
        s.training.globalBatch = 32;   // m = 8 with DP 4
        const Evaluation e = evaluate(s);
        const PipelineDemo d = pipelineDemo(s, e, std::nullopt);
        QVERIFY2(d.error.empty(), d.error.c_str());
        QCOMPARE(d.stages, 2);
        QCOMPARE(d.microBatches, 8LL);
        // The LM head makes the last stage the slowest: uneven, drawn at each stage's own times.
        QVERIFY(d.uneven);
        QCOMPARE(d.slowestStage, 1);
        QCOMPARE(d.closedFormBubbleFraction + 1.0, e.ppBubbleFraction + 1.0);
        // Comparing against interleaving on a 1F1B plan draws two chunks per stage.
        const PipelineDemo inter = pipelineDemo(s, e, Schedule::Interleaved);
        QVERIFY2(inter.error.empty(), inter.error.c_str());
        QCOMPARE(inter.virtualStages, 2);
        QVERIFY(inter.simulation.makespanSeconds < d.simulation.makespanSeconds);
        // Comparing against DualPipeV draws the V's split: rank 0's up chunk runs the LM head (a 13B's head is
        // about 0.8 of a layer, over the 10 layers of each chunk).
        const PipelineDemo vee = pipelineDemo(s, e, Schedule::DualPipeV);
        QVERIFY2(vee.error.empty(), vee.error.c_str());
        double down = 0, up = 0;
        for (const PipelineEvent &ev : vee.simulation.events)
            if (ev.stage == 0 && ev.op == PipelineOp::Forward)
                (ev.chunk == 0 ? down : up) = ev.endSeconds - ev.startSeconds;
        QVERIFY2(up > 1.03 * down, qPrintable(QStringLiteral("rank 0 chunk forwards: down %1 s, up %2 s").arg(down).arg(up)));
        // A DualPipeV plan compared as 1F1B has its head back on the last stage.
        Scenario v = s;
        v.plan.schedule = Schedule::DualPipeV;
        const Evaluation ve = evaluate(v);
        QVERIFY2(ve.feasible, ve.problem.message.c_str());
        QCOMPARE(pipelineDemo(v, ve, std::nullopt).slowestStage, 0);
        const PipelineDemo back = pipelineDemo(v, ve, Schedule::OneFOneB);
        QVERIFY2(back.error.empty(), back.error.c_str());
        QCOMPARE(back.slowestStage, 1);
        // No pipeline, nothing to draw, and a message that says what to change.
        s.plan.pp = 1;
        s.plan.dp = 8;
        const PipelineDemo none = pipelineDemo(s, evaluate(s), std::nullopt);
        QVERIFY(!none.simulation.ok);
        QVERIFY(none.error.find("PP = 1") != std::string::npos);
    }

    void stepTimelinesDifferByTheOverlap()
    {
        const Scenario s = fixtures::gpt13bOn64H100();
        const Evaluation e = evaluate(s);
        const StepTimelinePair pair = stepTimelinePair(s, e);
        QVERIFY(pair.overlapped.error.empty());
        QVERIFY(pair.savedSeconds > 0);
        Scenario off = s;
        off.plan.overlapDp = false;
        const Evaluation eo = evaluate(off);
        QCOMPARE(pair.savedSeconds, pair.serial.stepSeconds - pair.overlapped.stepSeconds);
        QVERIFY(std::abs(pair.serial.stepSeconds - (eo.breakdown.stepSeconds - eo.breakdown.stragglerSeconds))
                <= 5e-3 * eo.breakdown.stepSeconds);
    }

    // The plan map: every cell is the full evaluation of the scenario with both inputs changed the
    // way the sliders change them; the current plan is on the map where it is. Its time to train is
    // the headline card's: with failures and checkpoints (economics), more so on more GPUs.
    void planMapCellsAreEvaluations()
    {
        const Scenario s = fixtures::gpt13bOn64H100();
        const Evaluation own = evaluate(s);
        const auto calendarSeconds = [](const Scenario &sc, const Evaluation &ev) {
            const Economics x = economics(sc, ev);
            return x.valid ? x.goodput.trainSeconds : -1.0;   // the fixture's operations inputs are valid
        };
        QVERIFY(calendarSeconds(s, own) > own.trainSeconds);
        for (const auto &[x, y] : {std::pair{Field::Tp, Field::Pp}, {Field::Gpus, Field::GlobalBatch}, {Field::MicroBatch, Field::Recompute}}) {
            PlanMapRequest r;
            r.x = x;
            r.y = y;
            const PlanMap map = planMap(s, r);
            QVERIFY(!map.xs.empty() && !map.ys.empty());
            QVERIFY(int(map.xs.size()) <= r.maxValuesPerAxis && int(map.ys.size()) <= r.maxValuesPerAxis);
            QVERIFY(std::is_sorted(map.xs.begin(), map.xs.end()) && std::is_sorted(map.ys.begin(), map.ys.end()));
            QVERIFY(map.currentX >= 0 && map.currentY >= 0);
            QCOMPARE(map.at(map.currentX, map.currentY).value, calendarSeconds(s, own));
            int fitting = 0;
            for (int iy = 0; iy < int(map.ys.size()); ++iy)
                for (int ix = 0; ix < int(map.xs.size()); ++ix) {
                    const PlanMapCell &c = map.at(ix, iy);
                    const Scenario cell = planMapScenario(s, map, ix, iy);
                    QCOMPARE(fieldValue(cell, x), map.xs[size_t(ix)]);
                    QCOMPARE(fieldValue(cell, y), map.ys[size_t(iy)]);
                    const Evaluation e = evaluate(cell);
                    QCOMPARE(c.feasible, e.feasible);
                    if (!e.feasible)
                        continue;
                    QCOMPARE(c.fits, e.memory.fits);
                    QCOMPARE(c.value, calendarSeconds(cell, e));
                    if (c.fits) {
                        ++fitting;
                        QVERIFY(c.value >= map.minValue && c.value <= map.maxValue);
                    }
                }
            QVERIFY(fitting > 1);
        }
        // GPUs x global batch reaches 64 x 64 cells (the benchmark's grid).
        PlanMapRequest big;
        big.x = Field::Gpus;
        big.y = Field::GlobalBatch;
        const PlanMap map = planMap(s, big);
        QCOMPARE(int(map.xs.size()), 64);
        QVERIFY(map.ys.size() >= 40);
    }
};

QTEST_APPLESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
