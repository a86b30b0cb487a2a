// SPDX-License-Identifier: MIT
// Plan search: ranked by time to train, only plans that fit, same answer on one or two threads,
// never worse than the plan the user started from, and cancellable.
#include "economics.h"
#include "evaluate.h"
#include "fixtures.h"
#include "memory.h"
#include "planner.h"

#include <QTest>

#include <cmath>

using namespace ts;

namespace {
// The shared 13B on 64 H100, with learned positions, batch 512 and a 300B-token budget.
Scenario base()
{
    Scenario s = fixtures::gpt13bOn64H100();
    s.workload.learnedPositions = true;
    s.training.globalBatch = 512;
    s.training.tokens = 300e9;
    return s;
}
// Llama 3 8B at 8K tokens in FP8 on one node of 8 H100, plain data parallel: without recompute
// it does not fit (the block-recompute and offload searches start here).
Scenario llama3_8bFp8OnEightH100()
{
    Scenario s;
    s.workload = {"llama3-8b", 32, 4096, 32, 8, 14336, MlpKind::SwiGlu, false, false, 128256, 8192};
    s.training.globalBatch = 128;
    s.training.precision = Precision::Fp8;
    s.training.fp8Params = true;
    s.cluster = fixtures::gpt13bOn64H100().cluster;
    s.cluster.gpu.memoryBytes = 79.2 * 1024 * 1024 * 1024;
    s.cluster.gpus = 8;
    s.plan.tp = 1;
    s.plan.pp = 1;
    s.plan.dp = 8;
    s.plan.zeroStage = 1;
    return s;
}
// The `top` best plans whether or not they fit.
PlanSearchResult searchEvery(const Scenario &s, int top)
{
    PlanSearchOptions options;
    options.top = top;
    options.requireFit = false;
    return searchPlans(s, options);
}
} // namespace

class TestPlanner : public QObject
{
    Q_OBJECT
private slots:
    void ranksFittingPlans()
    {
        PlanSearchOptions options;
        options.top = 25;
        const PlanSearchResult r = searchPlans(base(), options);
        QVERIFY(r.evaluated > 1000);
        QVERIFY(r.feasible <= r.evaluated);
        QVERIFY(r.fitting <= r.feasible);
        QCOMPARE(int(r.best.size()), 25);
        for (size_t i = 0; i < r.best.size(); ++i) {
            const PlanCandidate &c = r.best[i];
            if (i > 0)
                QVERIFY(r.best[i - 1].trainSeconds <= c.trainSeconds);
            const Evaluation e = evaluate(c.scenario);   // the plan re-evaluates to what was ranked
            QVERIFY(e.feasible);
            QVERIFY(e.memory.fits);
            QCOMPARE(e.trainSeconds, c.trainSeconds);
            QCOMPARE(c.scenario.plan.tp * c.scenario.plan.pp * c.scenario.plan.dp * c.scenario.plan.cp, 64);
            // Each listed plan carries its cost with failures: GPU-hours x the price in force.
            QVERIFY(c.trainSecondsWithFailures > c.trainSeconds);
            const Economics x = economics(c.scenario, e);
            QCOMPARE(c.costUsd, x.cost.totalUsd);
            QVERIFY(std::abs(c.costUsd - c.trainSecondsWithFailures * 64 / 3600 * x.cost.pricePerGpuHour) <= 1e-9 * c.costUsd);
        }
        const Evaluation start = evaluate(base());
        QVERIFY(start.feasible && start.memory.fits);
        QVERIFY(r.best.front().trainSeconds <= start.trainSeconds);
        // Ties are folded: no two rows share time and memory, and the folded count is kept.
        long long rows = 0;
        for (size_t i = 0; i < r.best.size(); ++i) {
            rows += 1 + r.best[i].equivalentPlans;
            for (size_t j = i + 1; j < r.best.size(); ++j)
                QVERIFY(!(r.best[i].trainSeconds == r.best[j].trainSeconds && r.best[i].memoryBytes == r.best[j].memoryBytes));
        }
        QVERIFY(rows >= qsizetype(r.best.size()));
        // Plans that differ only where it changes nothing fold into one row (here ZeRO stages and
        // DP overlap with a single DP x CP rank): over the whole list the folded count shows.
        Scenario lone = base();
        lone.cluster.gpus = 8;
        lone.plan.tp = 8;
        lone.plan.pp = 1;
        lone.plan.dp = 1;
        lone.training.globalBatch = 64;
        PlanSearchOptions all;
        all.top = 100000;
        const PlanSearchResult folded = searchPlans(lone, all);
        long long listed = 0, foldedAway = 0;
        for (const PlanCandidate &c : folded.best) {
            ++listed;
            foldedAway += c.equivalentPlans;
        }
        QVERIFY(foldedAway > 0);
        QCOMPARE(listed + foldedAway, folded.fitting);
        // The current plan is evaluated and ranked: every listed fitting plan faster than it counts.
        QVERIFY(r.currentFeasible);
        QCOMPARE(r.current.trainSeconds, start.trainSeconds);
        long long fasterListed = 0;
        for (const PlanCandidate &c : r.best)
            if (c.fits && c.trainSeconds < start.trainSeconds * (1 - 1e-9))
                fasterListed += 1 + c.equivalentPlans;
        QVERIFY(r.fasterThanCurrent >= fasterListed);
        QVERIFY(r.fasterThanCurrent <= r.fitting);
    }

    // Where no recompute does not fit and full does, the search also tries Megatron's block
    // recompute with the fewest layers per chunk that fit, which is faster than full.
    void findsTheFewestRecomputedLayersThatFit()
    {
        Scenario s = llama3_8bFp8OnEightH100();
        s.plan.gradReduce = GradReduce::Bf16;
        PlanSearchOptions options;
        options.top = 10000;
        const PlanSearchResult r = searchPlans(s, options);
        const PlanCandidate *block = nullptr, *full = nullptr;
        for (const PlanCandidate &c : r.best) {
            const Plan &p = c.scenario.plan;
            if (p.tp != 1 || p.pp != 1 || p.dp != 8 || c.scenario.training.microBatch != 1 || p.zeroStage != 1 || !p.overlapDp
                || c.scenario.training.offloadLayers > 0)   // offloading instead: findsTheFewestOffloadedLayersThatFit
                continue;
            QVERIFY(c.scenario.training.recompute == Recompute::Full);   // none does not fit
            (c.scenario.training.recomputeLayers > 0 ? block : full) = &c;
        }
        QVERIFY(block && full);
        const int n = block->scenario.training.recomputeLayers;
        QVERIFY(n > 0 && n < 32);
        QVERIFY(block->trainSeconds < full->trainSeconds);
        // The fewest: one layer fewer does not fit within the search's margin.
        Scenario fewer = block->scenario;
        fewer.training.recomputeLayers = n - 1;
        const Evaluation e = evaluate(fewer);
        QVERIFY(e.feasible);
        QVERIFY(n == 1 || e.memory.totalBytes > e.memory.capacityBytes * (1 - memoryDefaults().planMarginFraction));
        QCOMPARE(QString::fromStdString(recomputeText(block->scenario.training)), QStringLiteral("block %1").arg(n));
    }

    // The same plan under Megatron (pp 1) also tries activation offloading instead of recompute:
    // the fewest layers that fit, none of it recomputed; one layer fewer does not fit.
    void findsTheFewestOffloadedLayersThatFit()
    {
        Scenario s = llama3_8bFp8OnEightH100();
        s.plan.framework = Framework::Megatron;
        s.plan.gradReduce = GradReduce::Bf16;
        PlanSearchOptions options;
        options.top = 10000;
        const PlanSearchResult r = searchPlans(s, options);
        const PlanCandidate *offload = nullptr;
        for (const PlanCandidate &c : r.best) {
            const Plan &p = c.scenario.plan;
            if (p.tp == 1 && p.pp == 1 && p.dp == 8 && c.scenario.training.microBatch == 1 && p.zeroStage == 1 && p.overlapDp
                && c.scenario.training.offloadLayers > 0 && (!offload || c.trainSeconds < offload->trainSeconds))
                offload = &c;
        }
        QVERIFY(offload);
        const int n = offload->scenario.training.offloadLayers;
        QVERIFY(n > 1 && n < 32);
        QVERIFY(offload->scenario.training.recompute == Recompute::None);
        QVERIFY(offload->fits);
        const double margin = offload->scenario.cluster.gpu.memoryBytes * (1 - memoryDefaults().planMarginFraction);
        Scenario fewer = offload->scenario;
        fewer.training.offloadLayers = n - 1;
        const Evaluation e = evaluate(fewer);
        QVERIFY(e.feasible);
        QVERIFY(e.memory.totalBytes > margin);
        QCOMPARE(QString::fromStdString(recomputeText(offload->scenario.training)), QStringLiteral("offload %1").arg(n));
    }

    void sameOnOneOrTwoThreads()
    {
        PlanSearchOptions one, two;
        one.threads = 1;
        two.threads = 2;
        const PlanSearchResult a = searchPlans(base(), one), b = searchPlans(base(), two);
        QCOMPARE(a.evaluated, b.evaluated);
        QCOMPARE(a.fitting, b.fitting);
        QCOMPARE(a.best.front().trainSeconds, b.best.front().trainSeconds);
    }

    void cancels()
    {
        int calls = 0;
        const PlanSearchResult r = searchPlans(base(), {}, [&calls](double) { return ++calls < 2; });
        QVERIFY(r.cancelled);
    }

    // Megatron-LM and DeepSpeed have no GPipe or zero-bubble schedule and DeepSpeed no
    // interleaving: the search lists only what the plan's framework runs.
    void keepsSchedulesTheFrameworkRuns()
    {
        QVERIFY(frameworkRunsSchedule(Framework::Megatron, Schedule::Interleaved, 4));
        QVERIFY(!frameworkRunsSchedule(Framework::Megatron, Schedule::ZeroBubbleH1, 4));
        QVERIFY(!frameworkRunsSchedule(Framework::Megatron, Schedule::GPipe, 4));
        QVERIFY(!frameworkRunsSchedule(Framework::DeepSpeed, Schedule::Interleaved, 4));
        QVERIFY(frameworkRunsSchedule(Framework::Fsdp, Schedule::ZeroBubbleH1, 4));
        QVERIFY(frameworkRunsSchedule(Framework::DeepSpeed, Schedule::GPipe, 1));   // no stages: nothing to schedule
        const PlanSearchResult r = searchEvery(base(), 400);
        QCOMPARE(int(r.best.size()), 400);
        int zeroBubble = 0;
        for (const PlanCandidate &c : r.best) {
            const Plan &p = c.scenario.plan;
            QVERIFY2(frameworkRunsSchedule(resolveFramework(p), p.schedule, p.pp), nameOf(p.schedule));
            zeroBubble += p.schedule == Schedule::ZeroBubbleH1 && p.pp > 1;
        }
        QVERIFY(zeroBubble > 0);   // still offered where FSDP (ZeRO 2/3 with stages) runs it
    }

    // The search changes the plan, not the model's code: an FSDP run (ZeRO-3, framework and kernels
    // auto: eager ops and PyTorch's fp32 loss) keeps them on the plans whose ZeRO stage derives
    // Megatron or DeepSpeed, whose own defaults are fused kernels. Those plans evaluate as ranked.
    void keepsTheUsersKernels()
    {
        Scenario s = llama3_8bFp8OnEightH100();
        s.training.precision = Precision::Bf16;
        s.training.fp8Params = false;
        s.training.globalBatch = 16;
        s.plan.zeroStage = 3;
        QCOMPARE(resolveFramework(s.plan), Framework::Fsdp);
        const PlanSearchResult r = searchEvery(s, 2000);
        int otherFramework = 0;
        for (const PlanCandidate &c : r.best) {
            QCOMPARE(c.scenario.training.kernels, Kernels::Eager);
            QCOMPARE(c.scenario.training.crossEntropy, CrossEntropy::PyTorch);
            if (resolveFramework(c.scenario.plan) != Framework::Fsdp) {
                ++otherFramework;
                const Evaluation e = evaluate(c.scenario);
                QCOMPARE(e.kernels, Kernels::Eager);
                QCOMPARE(e.trainSeconds, c.trainSeconds);
            }
        }
        QVERIFY(otherFramework > 0);
        // The same layout under DeepSpeed ZeRO-1 with Megatron's fused kernels would be faster:
        // what the search no longer credits to the plan.
        Scenario ds = s;
        ds.plan.zeroStage = 1;
        Scenario dsFused = ds;
        dsFused.training.kernels = Kernels::Fused;
        dsFused.training.crossEntropy = CrossEntropy::Megatron;
        ds.training.kernels = Kernels::Eager;
        ds.training.crossEntropy = CrossEntropy::PyTorch;
        QVERIFY(evaluate(dsFused).trainSeconds < 0.95 * evaluate(ds).trainSeconds);
    }

    // Llama 3 405B: 126 layers do not divide into 16 stages, but counting the embedding and the
    // loss as layer slots gives 8 per stage (Megatron's account-for-embedding/loss-in-pipeline-split),
    // which interleaving can cut into chunks: the search must find such plans.
    void interleavesUnevenLayerCounts()
    {
        Scenario s = fixtures::gpt13bOn64H100();
        s.workload = {"405b", 126, 16384, 128, 8, 53248, MlpKind::SwiGlu, false, false, 128256, 8192};
        s.training.globalBatch = 2048;
        s.cluster.gpus = 16384;
        s.plan = {};
        s.plan.tp = 8;
        s.plan.pp = 16;
        s.plan.dp = 128;
        s.plan.sequenceParallel = true;
        PlanSearchOptions options;
        options.top = 50;
        const PlanSearchResult r = searchPlans(s, options);
        QVERIFY(!r.best.empty());
        int interleavedWithSlots = 0;
        for (const PlanCandidate &c : r.best) {
            const Plan &p = c.scenario.plan;
            if (p.schedule == Schedule::Interleaved && p.embeddingInSplit && p.lossInSplit && 128 % (p.pp * p.virtualStages) == 0)
                ++interleavedWithSlots;
            QVERIFY(evaluate(c.scenario).feasible);
        }
        QVERIFY(interleavedWithSlots > 0);
        const Plan &best = r.best.front().scenario.plan;
        QCOMPARE(best.schedule, Schedule::Interleaved);
        QCOMPARE(best.tp, 8);
    }

    // FSDP plans are also tried with HYBRID_SHARD: sharded within the node's DP ranks, replicated across.
    void exploresHybridSharding()
    {
        Scenario s = base();
        s.plan.framework = Framework::Fsdp;
        s.plan.zeroStage = 3;
        const PlanSearchResult r = searchEvery(s, 5000);
        int hybrid = 0;
        for (const PlanCandidate &c : r.best) {
            const Plan &p = c.scenario.plan;
            if (p.shardGroup > 0) {
                ++hybrid;
                QCOMPARE(p.shardGroup, 8 / p.tp);   // the DP ranks of one node
                QVERIFY(p.zeroStage >= 2);
                QVERIFY(p.dp * p.cp > p.shardGroup);
            }
        }
        QVERIFY(hybrid > 0);
    }

    // Context-parallel plans are tried with each K/V exchange (plan.cp_comm) their framework runs:
    // a long-sequence GQA model on 64 H100 ranks plans of all three kinds, and where another
    // exchange runs a listed plan faster, that plan is listed too, above it.
    void exploresContextParallelExchanges()
    {
        Scenario s = fixtures::gpt13bOn64H100();
        s.workload = {"llama3-8b-128k", 32, 4096, 32, 8, 14336, MlpKind::SwiGlu, false, false, 128256, 131072};
        s.training.globalBatch = 64;
        s.training.microBatch = 1;
        s.plan = {};
        s.plan.cp = 8;
        s.plan.dp = 8;
        const PlanSearchResult r = searchEvery(s, 5000);
        QCOMPARE(int(r.best.size()), 5000);
        int kinds[3] = {}, faster = 0;
        for (size_t i = 0; i < r.best.size(); ++i) {
            const PlanCandidate &c = r.best[i];
            const Plan &p = c.scenario.plan;
            if (p.cp == 1) {
                QCOMPARE(p.cpComm, s.plan.cpComm);
                continue;
            }
            ++kinds[int(p.cpComm)];
            const Framework framework = resolveFramework(p);
            QVERIFY(frameworkRunsCpComm(framework, p.cpComm, p.cp));   // DeepSpeed: a2a; FSDP: p2p
            for (const CpComm other : {CpComm::P2p, CpComm::AllGather, CpComm::A2a}) {
                if (other == p.cpComm || !frameworkRunsCpComm(framework, other, p.cp))
                    continue;
                Scenario x = c.scenario;
                x.plan.cpComm = other;
                const Evaluation e = evaluate(x);
                if (!e.feasible || e.trainSeconds >= c.trainSeconds * (1 - 1e-9))
                    continue;
                ++faster;
                bool listedAbove = false;
                for (size_t j = 0; j < i && !listedAbove; ++j)
                    listedAbove = r.best[j].scenario.plan == x.plan && r.best[j].scenario.training == x.training;
                QVERIFY2(listedAbove, qPrintable(QStringLiteral("row %1: tp %2 cp %3 %4 %5 s; %6 %7 s not listed above")
                                                     .arg(i).arg(p.tp).arg(p.cp).arg(QLatin1String(nameOf(p.cpComm)))
                                                     .arg(c.trainSeconds).arg(QLatin1String(nameOf(other))).arg(e.trainSeconds)));
            }
        }
        QVERIFY2(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0,
                 qPrintable(QStringLiteral("p2p %1, allgather %2, a2a %3").arg(kinds[0]).arg(kinds[1]).arg(kinds[2])));
        QVERIFY(faster > 0);   // the exchanges do differ here
    }

    void nothingFits()
    {
        Scenario s = base();
        s.cluster.gpu.memoryBytes = 1e9;   // 1 GB GPUs
        const PlanSearchResult r = searchPlans(s);
        QVERIFY(r.best.empty());
        QCOMPARE(r.fitting, 0LL);
        QVERIFY(r.feasible > 0);
    }
};

QTEST_GUILESS_MAIN(TestPlanner)
#include "tst_planner.moc"
