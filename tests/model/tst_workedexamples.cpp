// SPDX-License-Identifier: MIT
// The four worked examples of shared/MODEL.md, to the printed precision and in correct units.
#include "collectives.h"
#include "evaluate.h"
#include "pipeline.h"
#include "scaling.h"
#include "shape.h"
#include "units.h"

#include <QTest>

#include <cmath>

using namespace ts;
using namespace ts::units;

namespace {
// Rounds as the sheet prints: value at `decimals` places.
double printed(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

// Seed 000: 7B parameters, 8 GPUs in a ring of 400 Gb/s links, 3.5 ms compute, no overlap.
Scenario gradientSyncSeed()
{
    Scenario s;
    s.workload = deriveShape(7e9, 32000, 4096).workload;
    s.training.globalBatch = 8;
    s.training.microBatch = 1;
    s.training.computeSecondsOverride = 3.5e-3;
    s.cluster.gpus = 8;
    s.cluster.gpusPerNode = 1;
    s.cluster.rails = 1;
    s.cluster.interNode = {"400G", gigabitsPerSecondToBytesPerSecond(400), 0.0, 1.0};
    s.plan = {};
    s.plan.dp = 8;
    s.plan.overlapDp = false;
    s.plan.bucketBytes = 0;   // one bucket: the seed's single all-reduce
    return s;
}

// Seed 003: 4 stages x 8 micro-batches, 80 layers, b=1, s=4096, h=8192, 81.92 ms compute.
Scenario pipelineSeed(Schedule schedule)
{
    Scenario s;
    s.workload.layers = 80;
    s.workload.hidden = 8192;
    s.workload.heads = 64;
    s.workload.kvHeads = 64;
    s.workload.ffnHidden = 4 * 8192;
    s.workload.seqLen = 4096;
    s.training.globalBatch = 8;
    s.training.microBatch = 1;
    s.training.computeSecondsOverride = 81.92e-3;
    s.cluster.gpus = 4;
    s.cluster.gpusPerNode = 1;
    s.cluster.rails = 1;
    s.cluster.interNode = {"400G", gigabitsPerSecondToBytesPerSecond(400), 0.0, 1.0};
    s.plan = {};
    s.plan.pp = 4;
    s.plan.dp = 1;
    s.plan.schedule = schedule;
    return s;
}
} // namespace

class TestWorkedExamples : public QObject
{
    Q_OBJECT
private slots:
    void example1GradientSync()
    {
        const Scenario s = gradientSyncSeed();
        const Evaluation e = evaluate(s);
        QVERIFY2(e.feasible, e.problem.message.c_str());
        QCOMPARE(printed(e.parameters / 1e9, 3), 7.0);
        QCOMPARE(printed(e.gradientBytesPerGpu / kBytesPerGB, 1), 14.0);     // 14.0 GB
        QCOMPARE(printed(e.gradientBytesPerGpu / kBytesPerGiB, 2), 13.04);   // = 13.04 GiB
        // Ring all-reduce bandwidth term 2 (7/8) 14e9 B / 50e9 B/s = 0.490 s.
        QCOMPARE(printed(e.breakdown.dpCommSeconds, 3), 0.490);
        QCOMPARE(printed(e.breakdown.stepSeconds * 1e3, 1), 493.5);          // ms
        QCOMPARE(printed(100 * e.communicationFraction, 1), 99.3);           // %
        // The seed printed 459.8 ms by dividing 13.04 GiB by 50 GB/s: we must not.
        QVERIFY(qAbs(e.breakdown.stepSeconds - 0.4598) > 0.01);
        // Bandwidth at which communication <= compute: 24.5e9 B / 3.5 ms = 7.0e12 B/s = 56,000 Gb/s.
        const BandwidthRequirement r = requiredBandwidth(s, 0.5);
        QVERIFY(r.reachable);
        QCOMPARE(r.tier, std::string("inter_node"));
        QCOMPARE(printed(r.bytesPerSecond / 1e12, 1), 7.0);
        QCOMPARE(printed(bytesPerSecondToGigabitsPerSecond(r.bytesPerSecond), -3), 56000.0);
        QCOMPARE(e.warningCount > 0 && e.warnings[0].code == WarningCode::CommunicationDominates, true);
    }

    void example2Pipeline()
    {
        const Evaluation e = evaluate(pipelineSeed(Schedule::OneFOneB));
        QVERIFY2(e.feasible, e.problem.message.c_str());
        QCOMPARE(e.microBatches, 8LL);
        QCOMPARE(printed(100 * e.ppBubbleFraction, 1), 27.3);          // 3/11 of total time
        QCOMPARE(printed(100 * e.pipelineEfficiency, 1), 72.7);        // 8/11
        QCOMPARE(printed(100 * e.ppBubbleFractionOfIdeal, 1), 37.5);   // (p-1)/m of ideal time
        QCOMPARE(e.ppBoundaryBytes, 64.0 * kBytesPerMiB);              // b s h 2 B
        QCOMPARE(e.ppTransferBytesPerStep, 1.0 * kBytesPerGiB);        // 8 x 64 MiB each way
        QCOMPARE(e.ppStashedBoundaryBytes, 256.0 * kBytesPerMiB);      // 1F1B: p in flight on stage 1
        QCOMPARE(evaluate(pipelineSeed(Schedule::GPipe)).ppStashedBoundaryBytes, 512.0 * kBytesPerMiB);   // GPipe: m
        // Moving 1 GiB within the 81.92 ms compute needs 104.9 Gb/s (the seed printed 97.66: MiB vs MB).
        QCOMPARE(printed(bytesPerSecondToGigabitsPerSecond(e.ppTransferBytesPerStep / e.breakdown.computeSeconds), 1), 104.9);
        // Efficiency >= 80%: m >= 4(p-1) = 12, or p = 3 at m = 8.
        const StageTimes st{e.stageForwardSeconds, e.stageBackwardSeconds, e.stageWeightGradSeconds, 0};
        QCOMPARE(requiredMicroBatches(Schedule::OneFOneB, 4, 1, 0.8, st), 12LL);
        QCOMPARE(maxStagesForEfficiency(Schedule::OneFOneB, 8, 1, 0.8, st), 3);
        bool warned = false;
        for (int i = 0; i < e.warningCount; ++i)
            if (e.warnings[size_t(i)].code == WarningCode::LowPipelineEfficiency) {
                warned = true;
                QCOMPARE(e.warnings[size_t(i)].changes[0].value, 12.0);   // global batch for m = 12
            }
        QVERIFY(warned);
    }

    void example3CommunicationBounds()
    {
        const double S = 10e9 * 2;   // 10B parameters in fp16 = 20 GB
        const Tier link{50e9, 0.0};
        Fabric f;   // one GPU per node, each with one 50 GB/s NIC, SHARP switches
        f.intra = f.inter = link;
        f.nicBytesPerSecond = 50e9;
        f.nicsPerNode = f.gpusPerNode = 1;
        f.inNetworkReduction = true;
        // In-network reduction: each GPU sends S once: S/B = 0.4 s.
        QCOMPARE(printed(collectiveTime(Collective::AllReduce, Algorithm::InNetwork, S, {4096, 1}, f).seconds, 2), 0.4);
        // Ring all-reduce tends to 2S/B = 0.8 s for large n.
        QCOMPARE(printed(collectiveTime(Collective::AllReduce, Algorithm::Ring, S, {100000, 1}, f).seconds, 2), 0.8);
        // A 200 MB TP all-reduce on 8 A100 over NVSwitch (300 GB/s per direction): the textbook's
        // 2(n - 1)/n x S / B = 1.17 ms plus latency; NCCL's ring adds each chunk's last, local-only
        // step, 14.5 steps' time for 14 sends (collectives.cpp kRingLocalStepShare): 1.21 ms.
        const Tier nvswitch{bidirectionalGBpsToBytesPerSecondPerDirection(600), 0.0};
        Fabric node;
        node.intra = node.inter = nvswitch;
        node.gpusPerNode = 8;
        const double tp = collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, 200e6, {8, 8}, node).seconds
                          - collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, 0, {8, 8}, node).seconds;
        QCOMPARE(printed(tp * 14 / 14.5 * 1e3, 2), 1.17);
        QCOMPARE(printed(tp * 1e3, 2), 1.21);
        QCOMPARE(printed(2 * 96 * tp * 14 / 14.5 * 1e3, 0), 224.0);   // two per layer, 96 layers
    }

    void example4Gustafson()
    {
        QCOMPARE(gustafsonEfficiency(0.5, 8), 0.5625);
        QCOMPARE(gustafsonSpeedup(0.5, 8), 4.5);
    }
};

QTEST_GUILESS_MAIN(TestWorkedExamples)
#include "tst_workedexamples.moc"
