// SPDX-License-Identifier: MIT
// Cost, energy and goodput (model/economics.h): the Young/Daly interval against its closed form,
// Llama 3 405B on 16,384 H100 against what Meta reported, the sums, and bad inputs named.
#include "economics.h"
#include "evaluate.h"
#include "fixtures.h"
#include "units.h"

#include <QTest>

#include <cmath>

using namespace ts;

namespace {
Scenario llama405b() { return fixtures::llama3_405bOn16kH100(); }
} // namespace

class TestEconomics : public QObject
{
    Q_OBJECT
private slots:
    void youngDalyClosedForm()
    {
        // tau = sqrt(2 delta M) - delta for delta < M / 2 (Daly 2006, first order); M otherwise.
        QCOMPARE(youngDalyIntervalSeconds(10, 3600), std::sqrt(2.0 * 10 * 3600) - 10);
        QCOMPARE(youngDalyIntervalSeconds(2.8, 11136), std::sqrt(2.0 * 2.8 * 11136) - 2.8);
        QCOMPARE(youngDalyIntervalSeconds(4000, 3600), 3600.0);
        QCOMPARE(youngDalyIntervalSeconds(0, 3600), 3600.0);
        // It is the optimum: waste delta/tau + tau/(2M) is larger on either side of it.
        const double delta = 30, m = 20000, tau = youngDalyIntervalSeconds(delta, m);
        const auto waste = [&](double t) { return delta / t + (t / 2) / m; };
        QVERIFY(waste(tau) < waste(0.8 * tau) && waste(tau) < waste(1.25 * tau));
    }

    void llama3At16kGpusLooksLikeMetasReport()
    {
        const Scenario s = llama405b();
        const Evaluation e = evaluate(s);
        QVERIFY2(e.feasible, e.problem.message.c_str());
        const Economics x = economics(s, e);
        QVERIFY2(x.valid, x.problem.message.c_str());
        // Meta: 419 unexpected interruptions in 54 days on 16,384 H100 (the default rate comes from
        // it, so the count over 54 days is that by construction) ...
        const double over54Days = 54 * units::kSecondsPerDay / x.goodput.jobMtbfSeconds;
        QVERIFY2(std::abs(over54Days - 419) < 1, qPrintable(QString::number(over54Days)));
        // ... and "higher than 90% effective training time".
        QVERIFY2(x.goodput.effectiveFraction > 0.88 && x.goodput.effectiveFraction < 0.96,
                 qPrintable(QString::number(x.goodput.effectiveFraction)));
        QVERIFY(x.goodput.interruptions > 100);   // hundreds over a months-long run
        // The checkpoint: 405B parameters x (2 + 12) bytes, written at 2 TB/s in a few seconds.
        QCOMPARE(x.goodput.checkpointBytes, e.parameters * 14);
        QVERIFY(x.goodput.checkpointWriteSeconds > 1 && x.goodput.checkpointWriteSeconds < 10);
        QCOMPARE(x.goodput.checkpointIntervalSeconds,
                 youngDalyIntervalSeconds(x.goodput.checkpointWriteSeconds, x.goodput.jobMtbfSeconds));
        QVERIFY(x.goodput.trainSeconds > e.trainSeconds && x.goodput.trainSecondsP90 > x.goodput.trainSeconds);
        // The 90th percentile stays above the expected time on a long run with slow checkpoints,
        // where the expected time's compounding (checkpoints and failures during the extra time)
        // outgrows the spread: U (1 + delta/tau) + (N + z sqrt(N)) L, the old figure, fell below it.
        Scenario heavy = s;
        heavy.operations.storageBytesPerSecond /= 10;
        heavy.training.tokens *= 4;
        const Economics h = economics(heavy, evaluate(heavy));
        QVERIFY2(h.valid, h.problem.message.c_str());
        const Goodput &g = h.goodput;
        const double lost = g.checkpointIntervalSeconds / 2 + g.restartSeconds + g.restoreSeconds;
        const double useful = evaluate(heavy).trainSeconds;
        const double linear = useful * (1 + g.checkpointWriteSeconds / g.checkpointIntervalSeconds)
                              + (g.interruptions + 1.2816 * std::sqrt(g.interruptions)) * lost;
        QVERIFY2(linear < g.trainSeconds, qPrintable(QStringLiteral("%1 %2").arg(linear).arg(g.trainSeconds)));
        QVERIFY(g.trainSecondsP90 > g.trainSeconds);
        QCOMPARE(g.trainSecondsP90, g.trainSeconds + economicsDefaults().pessimisticZ * std::sqrt(g.interruptions) * lost);
    }

    void sumsAddUp()
    {
        const Scenario s = fixtures::gpt13bOn64H100();
        const Evaluation e = evaluate(s);
        const Economics x = economics(s, e);
        QVERIFY(x.valid);
        QCOMPARE(x.cost.gpuHours, x.goodput.trainSeconds * s.cluster.gpus / units::kSecondsPerHour);
        QCOMPARE(x.cost.totalUsd, x.cost.gpuHours * x.cost.pricePerGpuHour);
        // 700 W x 80% + 575 W host, x 1.05 network, x 1.2 PUE.
        QCOMPARE(x.energy.gpuWatts, 700 * 0.8);
        QVERIFY(std::abs(x.energy.facilityMegawatts - 64 * (560 + 575) * 1.05 * 1.2 / 1e6) < 1e-12);
        QVERIFY(std::abs(x.energy.energyMegawattHours - x.energy.facilityMegawatts * x.goodput.trainSeconds / 3600) < 1e-9);
        QCOMPARE(x.energy.emissionsTonnesCo2, x.energy.energyMegawattHours * 0.4);
        // A cluster price overrides the GPU's.
        Scenario priced = s;
        priced.cluster.pricePerGpuHour = 1.5;
        QCOMPARE(economics(priced, e).cost.pricePerGpuHour, 1.5);
        // No failures: no lost time.
        Scenario perfect = s;
        perfect.operations.failuresPerGpuHour = 0;
        QCOMPARE(economics(perfect, e).goodput.trainSeconds, e.trainSeconds);
    }

    void badInputsNameTheField_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("field");
        QTest::newRow("pue below 1") << 0 << "operations.pue";
        QTest::newRow("negative failure rate") << 1 << "operations.failure_rate";
        QTest::newRow("absurd price") << 2 << "cluster.price_per_gpu_hour";
        QTest::newRow("zero storage") << 3 << "operations.storage_bandwidth";
        QTest::newRow("nan power") << 4 << "operations.average_power";
        QTest::newRow("negative tdp") << 5 << "cluster.gpu.tdp";
    }
    void badInputsNameTheField()
    {
        QFETCH(int, which);
        QFETCH(QString, field);
        Scenario s = fixtures::gpt13bOn64H100();
        switch (which) {
        case 0: s.operations.pue = 0.5; break;
        case 1: s.operations.failuresPerGpuHour = -1; break;
        case 2: s.cluster.pricePerGpuHour = 1e9; break;
        case 3: s.operations.storageBytesPerSecond = 0; break;
        case 4: s.operations.averagePowerFraction = std::nan(""); break;
        case 5: s.cluster.gpu.tdpWatts = -700; break;
        }
        const auto p = validateOperations(s);
        QVERIFY(p);
        QCOMPARE(QString::fromStdString(p->field), field);
        // The evaluation says the same, so no figure is shown for an impossible input.
        const Evaluation e = evaluate(s);
        QVERIFY(!e.feasible);
        QCOMPARE(QString::fromStdString(e.problem.field), field);
    }
};

QTEST_APPLESS_MAIN(TestEconomics)
#include "tst_economics.moc"
