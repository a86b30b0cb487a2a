// SPDX-License-Identifier: MIT
// nccl-tests logs as people paste them: the fit recovers the latency and bandwidth they were made
// with, and a malformed log names its line.
#include "calibration.h"

#include <QFile>
#include <QTest>

using namespace ts;

namespace {
std::string readData(const char *name)
{
    QFile f(QFINDTESTDATA(QStringLiteral("data/") + QLatin1String(name)));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}
} // namespace

class TestCalibration : public QObject
{
    Q_OBJECT
private slots:
    void fitsIntraNodeAllReduce()
    {
        NcclLog log;
        ParseError error;
        QVERIFY2(parseNcclLog(readData("all_reduce_8gpu_nvlink.log"), "all_reduce_8gpu_nvlink.log", &log, &error),
                 error.message.c_str());
        QVERIFY(log.collective == Collective::AllReduce);
        QCOMPARE(log.ranks, 8);
        QCOMPARE(log.hosts, 1);
        QCOMPARE(int(log.samples.size()), 12);   // 1 KiB to 8 GiB in steps of 4
        const TierFit fit = fitTier(log);
        QVERIFY2(fit.error.empty(), fit.error.c_str());
        QCOMPARE(QString::fromStdString(fit.tier), QStringLiteral("intra_node"));
        // Made with alpha = 5 us and 370 GB/s, 2% noise: recovered within 5%.
        QVERIFY2(qAbs(fit.latencySeconds - 5e-6) / 5e-6 < 0.05, qPrintable(QString::number(fit.latencySeconds)));
        QVERIFY2(qAbs(fit.bandwidthBytesPerSecond - 370e9) / 370e9 < 0.05, qPrintable(QString::number(fit.bandwidthBytesPerSecond)));
        QVERIFY(fit.rmsRelativeResidual < 0.05);
        QCOMPARE(int(fit.fittedSeconds.size()), fit.points);
    }

    void fitsInterNodeAllGatherFromRcclHeaderWithoutRedop()
    {
        NcclLog log;
        ParseError error;
        QVERIFY2(parseNcclLog(readData("all_gather_16node_ib.log"), "all_gather_16node_ib.log", &log, &error),
                 error.message.c_str());
        QVERIFY(log.collective == Collective::AllGather);
        QCOMPARE(log.ranks, 16);
        QCOMPARE(log.hosts, 16);
        const TierFit fit = fitTier(log);
        QCOMPARE(QString::fromStdString(fit.tier), QStringLiteral("inter_node"));
        QVERIFY(qAbs(fit.latencySeconds - 8e-6) / 8e-6 < 0.05);
        QVERIFY(qAbs(fit.bandwidthBytesPerSecond - 45e9) / 45e9 < 0.05);
    }

    void malformedLogNamesTheLine()
    {
        NcclLog log;
        ParseError error;
        QVERIFY(!parseNcclLog(readData("malformed.log"), "malformed.log", &log, &error));
        QCOMPARE(error.line, 24);
        QVERIFY(QString::fromStdString(error.message).contains(QLatin1String("line 24")));
    }

    void emptyAndUnknown()
    {
        NcclLog log;
        ParseError error;
        QVERIFY(!parseNcclLog("# only comments\n", "x.log", &log, &error));
        QVERIFY(QString::fromStdString(error.message).contains(QLatin1String("no nccl-tests result rows")));
        const std::string rows = "# nThread 1 nGpus 4\n        1024  256 float sum -1 10.0 0.1 0.2 0 10.0 0.1 0.2 0\n"
                                 "        4096 1024 float sum -1 12.0 0.3 0.5 0 12.0 0.3 0.5 0\n";
        QVERIFY(!parseNcclLog(rows, "mystery.log", &log, &error));
        QVERIFY(QString::fromStdString(error.message).contains(QLatin1String("which collective")));
        QVERIFY(parseNcclLog(rows, "mystery.log", &log, &error, "all_reduce"));
        QCOMPARE(log.ranks, 4);
        Collective c;
        QVERIFY(collectiveFromName("reduce_scatter_perf", &c) && c == Collective::ReduceScatter);
        QVERIFY(collectiveFromName("reduce_perf", &c) && c == Collective::Reduce);
        QVERIFY(!collectiveFromName("bogus", &c));
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
