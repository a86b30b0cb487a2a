// SPDX-License-Identifier: MIT
// nccl-tests logs as people paste them. The public logs (tests/data/validation/nccl-logs, sources
// in SOURCES.txt there) are predicted within the bounds on the cluster each ran on, and a
// fit never claims a link faster than its line rate; malformed pastes are rejected with the line.
#include "calibration.h"
#include "collectives.h"
#include "scenarioio.h"

#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <map>
#include <tuple>

using namespace ts;

namespace {
std::string readData(const QString &relative)
{
    QFile f(QFINDTESTDATA(relative));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

// One data row per case of a cases.json (its name, the case object as "nccCase").
void addLogCases(const QString &relative, int atLeast)
{
    QTest::addColumn<QJsonObject>("nccCase");
    const QJsonArray cases = QJsonDocument::fromJson(QByteArray::fromStdString(readData(relative))).array();
    QVERIFY(cases.size() >= atLeast);
    for (const QJsonValue &c : cases)
        QTest::newRow(qPrintable(c.toObject().value(QStringLiteral("name")).toString())) << c.toObject();
}

// A case's cluster section read as a scenario would read it (presets included).
Cluster clusterOf(const QJsonObject &section)
{
    const QJsonObject root{{QStringLiteral("format"), QStringLiteral("trainscope-scenario/1")},
                           {QStringLiteral("workload"), QJsonObject{{QStringLiteral("parameters"), 1e9}}},
                           {QStringLiteral("training"), QJsonObject{{QStringLiteral("global_batch"), 1024}}},
                           {QStringLiteral("cluster"), section},
                           {QStringLiteral("plan"), QJsonObject{{QStringLiteral("tp"), 1}}}};
    ScenarioError error;
    const auto loaded = parseScenario(QJsonDocument(root).toJson(), &error);
    if (!loaded)
        qWarning("%s", qPrintable(error.text()));
    return loaded ? loaded->scenario.cluster : Cluster{};
}

double geometricMean(const std::vector<double> &v)
{
    double sum = 0;
    for (double x : v)
        sum += std::log(x);
    return v.empty() ? std::nan("") : std::exp(sum / double(v.size()));
}

constexpr double MiB = 1 << 20;

// One row of a table: size count type redop root | out-of-place time algbw busbw wrong | in-place.
std::string row(double bytes, double us)
{
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "%12.0f %10.0f float sum -1 %9.2f 1.00 1.00 0 %9.2f 1.00 1.00 0\n", bytes, bytes / 4, us,
                  us);
    return buffer;
}
} // namespace

class TestCalibration : public QObject
{
    Q_OBJECT
private slots:
    // Issue 9's acceptance on every public log: the model on the log's cluster predicts the
    // measured out-of-place time within 0.8-1.25 (geometric mean, >= 256 MB) and 0.67-1.5 over
    // 1-16 MiB; the calibrated link never exceeds its line rate by more than 5%.
    void publicLogs_data() { addLogCases(QStringLiteral("../data/validation/nccl-logs/cases.json"), 4); }
    void publicLogs()
    {
        QFETCH(QJsonObject, nccCase);
        const QString file = nccCase.value(QStringLiteral("log")).toString();
        std::vector<NcclLog> logs;
        ParseError error;
        QVERIFY2(parseNcclLogs(readData(QStringLiteral("../data/validation/nccl-logs/") + file), file.toStdString(), &logs, &error,
                               nccCase.value(QStringLiteral("op")).toString().toStdString()),
                 error.message.c_str());
        QCOMPARE(int(logs.size()), 1);
        const NcclLog &log = logs.front();
        QCOMPARE(log.ranks, nccCase.value(QStringLiteral("ranks")).toInt());
        const Cluster cluster = clusterOf(nccCase.value(QStringLiteral("cluster")).toObject());
        QCOMPARE(cluster.gpus, nccCase.value(QStringLiteral("ranks")).toInt());
        const Group group = groupOf(log.ranks, 1, cluster.gpusPerNode);
        const QString name = nccCase.value(QStringLiteral("algorithm")).toString();
        const Algorithm algorithm = name == QLatin1String("ring") ? Algorithm::Ring : Algorithm::Auto;
        std::vector<double> large, medium;
        for (const NcclSample &s : log.samples) {
            const CollectiveTime t = collectiveTime(log.collective, algorithm, s.bytes, group, fabricOf(cluster));
            QVERIFY(t.applicable);
            if (s.bytes >= 256e6)
                large.push_back(t.seconds / s.seconds);
            if (s.bytes >= 1 * MiB && s.bytes <= 16 * MiB)
                medium.push_back(t.seconds / s.seconds);
        }
        const double gLarge = geometricMean(large), gMedium = geometricMean(medium);
        // A log that stops below 256 MB (the RTX 5090 one ends at 128 MB) has no large-message ratio.
        const QString largeText = large.empty() ? QStringLiteral("n/a") : QString::number(gLarge, 'f', 3);
        qInfo("%-22s predicted/measured: >= 256 MB %s (%zu sizes), 1-16 MiB %.3f (%zu sizes)", qPrintable(file.left(22)),
              qPrintable(largeText), large.size(), gMedium, medium.size());
        if (!large.empty())
            QVERIFY2(gLarge >= 0.8 && gLarge <= 1.25, qPrintable(QString::number(gLarge)));
        QCOMPARE(int(medium.size()), 5);
        QVERIFY2(gMedium >= 0.67 && gMedium <= 1.5, qPrintable(QString::number(gMedium)));

        const TierFit fit = fitTier(log, cluster, algorithm);
        QVERIFY2(fit.error.empty(), fit.error.c_str());
        QVERIFY(fit.linkBytesPerSecond <= 1.05 * fit.lineRateBytesPerSecond);
        QVERIFY(fit.link.efficiency <= 1.0);
        QVERIFY(fit.latencySeconds >= 0 && std::isfinite(fit.latencySeconds));
        QCOMPARE(QString::fromStdString(fit.tier), group.nodes() > 1 ? QStringLiteral("inter_node") : QStringLiteral("intra_node"));
        // The fit keeps the model within its regime: the largest messages within 10%.
        QVERIFY2(qAbs(fit.fittedSeconds.back() / log.samples.back().seconds - 1) < 0.10,
                 qPrintable(QString::number(fit.fittedSeconds.back() / log.samples.back().seconds)));
    }

    // Held-out nccl-tests logs (tests/data/validation/nccl-logs/heldout, read after the link presets
    // were set): cloud and lab clusters of H100, H200, A100 and B200 with NCCL's default algorithm.
    // Large messages must land within the regime the presets claim; the 1-16 MiB ratios are printed:
    // the model's mid-size times run short on every one of them (README "Collectives").
    void heldOutLogs_data() { addLogCases(QStringLiteral("../data/validation/nccl-logs/heldout/cases.json"), 7); }
    void heldOutLogs()
    {
        QFETCH(QJsonObject, nccCase);
        const std::string text = readData(QStringLiteral("../data/validation/nccl-logs/heldout/") + nccCase.value(QStringLiteral("log")).toString());
        Collective collective{};
        QVERIFY(collectiveFromName(nccCase.value(QStringLiteral("op")).toString().toStdString(), &collective));
        const Cluster cluster = clusterOf(nccCase.value(QStringLiteral("cluster")).toObject());
        const int ranks = nccCase.value(QStringLiteral("ranks")).toInt();
        const Group group = groupOf(ranks, 1, cluster.gpusPerNode);
        std::vector<double> large, medium, mediumNvls;
        // The pasted rows, whatever prefix the launcher put before them ("0: ", "[1,0]<stdout>:"):
        // size, count, type, redop, root, then the out-of-place time in microseconds.
        for (const QString &line : QString::fromStdString(text).split(QLatin1Char('\n'))) {
            QString row = line;
            row.remove(QRegularExpression(QStringLiteral("^(\\[[0-9,]+\\]<stdout>:|[0-9]+: )")));
            const QStringList f = row.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            bool ok = false;
            const double bytes = f.size() >= 8 ? f[0].toDouble(&ok) : 0;
            if (!ok || f[0].startsWith(QLatin1Char('#')))
                continue;
            const double seconds = f[5].toDouble() * 1e-6;
            const CollectiveTime t = collectiveTime(collective, Algorithm::Auto, bytes, group, fabricOf(cluster));
            QVERIFY(t.applicable && seconds > 0);
            if (bytes >= 256e6)
                large.push_back(t.seconds / seconds);
            if (bytes >= 1 * MiB && bytes <= 16 * MiB) {
                medium.push_back(t.seconds / seconds);
                if (t.algorithm == Algorithm::Nvls)
                    mediumNvls.push_back(t.seconds / seconds);
            }
        }
        QVERIFY(medium.size() >= 2);   // GCP A4's table starts at 8 MiB
        QVERIFY(large.size() >= 3);
        const double gLarge = geometricMean(large), gMedium = geometricMean(medium);
        qInfo("%-48s predicted/measured time: >= 256 MB %.3f (%zu sizes), 1-16 MiB %.3f", qPrintable(nccCase.value(QStringLiteral("name")).toString()),
              gLarge, large.size(), gMedium);
        QVERIFY2(gLarge >= 0.8 && gLarge <= 1.1, qPrintable(QString::number(gLarge)));
        // The mid-size ratios as documented (0.47 the lowest, the A100 tree: 0.39 without NCCL's tree correction).
        QVERIFY2(gMedium >= 0.45 && gMedium <= 1.1, qPrintable(QString::number(gMedium)));
        // Where NVLS runs the middle sizes its pipeline fill is charged: 0.81 (p5 over EFA, at the
        // OFI plugin's 23 us per network step; 0.66 read as RoCE's 14 us) to 1.00; without the fill
        // 0.49 to 0.75. Every all-reduce log of an NVSwitch node with SHARP runs some.
        const Fabric fabric = fabricOf(cluster);
        QCOMPARE(!mediumNvls.empty(), collective == Collective::AllReduce && fabric.nvls);
        if (!mediumNvls.empty())
            QVERIFY2(geometricMean(mediumNvls) >= 0.75, qPrintable(QString::number(geometricMean(mediumNvls))));
    }

    // XLA's measured collective tables, one 8-GPU H100 host and one 8-GPU B200 host
    // (tests/data/collectives/README.md): the NVLink bus bandwidth the model gives NCCL's
    // all-gather, reduce-scatter and all-reduce against what was measured, on groups of 2, 4 and 8.
    // XLA times a whole program (launch included), so the bandwidth is read as the slope between
    // 256 MiB and 2 GiB, which cancels that fixed time; the model's is read the same way.
    void nvlinkBandwidthAgainstXlaTables()
    {
        const QList<QByteArray> lines = QByteArray::fromStdString(readData(QStringLiteral("../data/collectives/xla-collectives-nvlink.csv"))).split('\n');
        std::map<std::tuple<QString, QString, int>, std::map<double, double>> measured;   // gpu, op, n -> bytes -> seconds
        for (const QByteArray &line : lines.mid(1)) {
            const QList<QByteArray> c = line.trimmed().split(',');
            if (c.size() == 5)
                measured[{QString::fromLatin1(c[0]), QString::fromLatin1(c[1]), c[2].toInt()}][c[3].toDouble()] = c[4].toDouble();
        }
        QCOMPARE(int(measured.size()), 18);
        const double small = 256 * MiB, large = 2048 * MiB;
        std::map<std::pair<QString, QString>, double> busPerGpu[2];   // [measured, model] at n = 8
        for (const auto &[key, samples] : measured) {
            const auto &[gpu, op, n] = key;
            QVERIFY(samples.count(small) && samples.count(large));
            const Collective c = op == QLatin1String("all-gather")       ? Collective::AllGather
                                 : op == QLatin1String("reduce-scatter") ? Collective::ReduceScatter
                                                                          : Collective::AllReduce;
            const double busFactor = busBandwidthFactor(c, n);   // nccl-tests' busbw over algbw
            const double measuredBus = busFactor * (large - small) / (samples.at(large) - samples.at(small));
            const bool b200 = gpu == QLatin1String("b200");
            const Cluster cluster = clusterOf(QJsonObject{{QStringLiteral("gpu"), b200 ? QStringLiteral("b200") : QStringLiteral("h100-sxm")},
                                                          {QStringLiteral("gpus"), 8}, {QStringLiteral("gpus_per_node"), 8},
                                                          {QStringLiteral("intra_node"), b200 ? QStringLiteral("nvlink5") : QStringLiteral("nvlink4")}});
            const Fabric fabric = fabricOf(cluster);
            const Group group = groupOf(n, 1, 8);
            const double modelSeconds[2] = {collectiveTime(c, Algorithm::Auto, small, group, fabric).seconds,
                                            collectiveTime(c, Algorithm::Auto, large, group, fabric).seconds};
            const double modelBus = busFactor * (large - small) / (modelSeconds[1] - modelSeconds[0]);
            qInfo("%-4s %-14s n=%d  bus bandwidth 256 MiB -> 2 GiB: model %.0f GB/s, XLA measured %.0f GB/s (%+.0f%%)", qPrintable(gpu),
                  qPrintable(op), n, modelBus / 1e9, measuredBus / 1e9, 100 * (modelBus / measuredBus - 1));
            // The 8-GPU all-reduce is left out: the model runs it as NVLink SHARP, and whether XLA's
            // NCCL did is not recorded (H100 407 GB/s measured, between the ring's 369 and NVLS's 488).
            if (c == Collective::AllReduce && n == 8)
                continue;
            // Measured NVLink bus bandwidth rises with the group size on both GPUs (4 GPUs 0.88-0.95
            // of the 8-GPU figure, 2 GPUs 0.63-0.79): the ring's local last step, a larger share of
            // a smaller ring (kRingLocalStepShare). Without it the 2-GPU rows came out 1.32-1.75x.
            // All-reduce on 4 H100 the model runs as NVLink SHARP (375 GB/s against 305 measured;
            // whether XLA's NCCL did is not recorded), hence its wider bound.
            const double ratio = modelBus / measuredBus, upper = c == Collective::AllReduce ? 1.3 : 1.2;
            QVERIFY2(ratio > 0.85 && ratio < upper, qPrintable(QString::number(ratio)));
            if (n == 8) {
                busPerGpu[0][{gpu, op}] = measuredBus;
                busPerGpu[1][{gpu, op}] = modelBus;
            }
        }
        // NVLink 5 over NVLink 4 as the tables measure it, for the ring collectives of a full node.
        for (const char *op : {"all-gather", "reduce-scatter"}) {
            const auto ratio = [&](int which) {
                return busPerGpu[which][{QStringLiteral("b200"), QString::fromLatin1(op)}] / busPerGpu[which][{QStringLiteral("h100"), QString::fromLatin1(op)}];
            };
            qInfo("%-14s B200 / H100 bus bandwidth: model %.2f, measured %.2f", op, ratio(1), ratio(0));
            QVERIFY(ratio(1) / ratio(0) > 0.85 && ratio(1) / ratio(0) < 1.2);
        }
    }
    // The presets' NIC efficiency against NCCL maintainers' multi-node all-reduce figures for full
    // DGX nodes on 8 NICs each: DGX A100, 8 x HDR: "we measure 192GB/s AllReduce BusBW"
    // (NVIDIA/nccl#812); DGX H100, 8 x NDR: about 380 GB/s without SHARP (NVIDIA's GTC 2024 figure,
    // quoted in NVIDIA/nccl#1649). A ring across 4 nodes, 8 GiB, within 3%.
    void presetNicsAgainstMaintainersBusBandwidth_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("intra");
        QTest::addColumn<QString>("inter");
        QTest::addColumn<double>("busBytesPerSecond");
        QTest::addRow("dgx-a100 hdr") << QStringLiteral("a100-80gb") << QStringLiteral("nvlink3") << QStringLiteral("ib-hdr") << 192e9;
        QTest::addRow("dgx-h100 ndr") << QStringLiteral("h100-sxm") << QStringLiteral("nvlink4") << QStringLiteral("ib-ndr") << 380e9;
    }
    void presetNicsAgainstMaintainersBusBandwidth()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, intra);
        QFETCH(QString, inter);
        QFETCH(double, busBytesPerSecond);
        const Cluster cluster = clusterOf(QJsonObject{{QStringLiteral("gpu"), gpu}, {QStringLiteral("gpus"), 32},
                                                      {QStringLiteral("gpus_per_node"), 8}, {QStringLiteral("intra_node"), intra},
                                                      {QStringLiteral("inter_node"), inter}, {QStringLiteral("rails"), 8}});
        const CollectiveTime t = collectiveTime(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, 8.0 * (1 << 30),
                                                groupOf(32, 1, 8), fabricOf(cluster));
        qInfo("%s: model %.0f GB/s busbw, maintainers %.0f", QTest::currentDataTag(), t.busBytesPerSecond / 1e9,
              busBytesPerSecond / 1e9);
        QVERIFY2(std::abs(t.busBytesPerSecond / busBytesPerSecond - 1) < 0.03, qPrintable(QString::number(t.busBytesPerSecond)));
    }
    // The 2-node H100 ring log: one NDR NIC per GPU would put the link at 8 x the NIC's rate (the
    // old 404 GB/s per GPU); the fit is per NIC, at or under 400 Gb/s.
    void twoNodeRingFitsPerNic()
    {
        std::vector<NcclLog> logs;
        ParseError error;
        QVERIFY(parseNcclLogs(readData(QStringLiteral("../data/validation/nccl-logs/h100-ndr-2node-16gpu-allreduce-ring.log")),
                              "h100.log", &logs, &error, "all_reduce"));
        QCOMPARE(logs.front().hosts, 2);
        Cluster cluster = clusterOf(QJsonObject{{QStringLiteral("gpu"), QStringLiteral("h100-sxm")}, {QStringLiteral("gpus"), 16},
                                                {QStringLiteral("gpus_per_node"), 8}, {QStringLiteral("intra_node"), QStringLiteral("nvlink4")},
                                                {QStringLiteral("inter_node"), QStringLiteral("ib-ndr")}});
        const TierFit fit = fitTier(logs.front(), cluster, Algorithm::Ring);   // run with NCCL_ALGO=Ring
        QCOMPARE(QString::fromStdString(fit.tier), QStringLiteral("inter_node"));
        QVERIFY(fit.linkBytesPerSecond <= 50e9);
        QVERIFY(fit.linkBytesPerSecond > 40e9);
        QVERIFY(!fit.latencyIdentified);   // the log starts at 1 MiB
        applyFit(cluster, fit);
        QCOMPARE(cluster.interNode.bytesPerSecond, 50e9);   // the line rate stays; the efficiency is fitted
        QCOMPARE(cluster.rails, 8);
    }

    void readsPastesAsPeopleMakeThem()
    {
        // srun --label prefixes, OpenMPI help text, NCCL INFO lines, no header: the topology comes
        // from the caller.
        std::string text = "--------------------------------------------------------------------------\n"
                           "WARNING: There was an error initializing an OpenFabrics device.\n"
                           "  Local host:   node-a\n"
                           "--------------------------------------------------------------------------\n"
                           "0: node-a:123:123 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n";
        for (double b = 1024; b <= 64 * MiB; b *= 4)
            text += "0: " + row(b, 20 + b / 150e3);
        std::vector<NcclLog> logs;
        ParseError error;
        QVERIFY(!parseNcclLogs(text, "paste.txt", &logs, &error, "all_reduce"));
        QVERIFY(QString::fromStdString(error.message).contains(QLatin1String("--ranks")));
        QVERIFY2(parseNcclLogs(text, "paste.txt", &logs, &error, "all_reduce", {8, 8}), error.message.c_str());
        QCOMPARE(int(logs.size()), 1);
        QCOMPARE(int(logs.front().samples.size()), 9);
        QCOMPARE(logs.front().ranks, 8);
        QCOMPARE(logs.front().hosts, 1);
        QCOMPARE(logs.front().samples.front().seconds, 20.01e-6);   // as printed, two decimals

        // MPICH / Intel MPI -prepend-rank ("[0] ", also without the space), pdsh ("node-a: "),
        // OpenMPI --tag-output: the same rows, the same fit.
        for (const std::string prefix : {"[0] ", "[12]", "node-a: ", "gpu-07.cluster: ", "[1,0]<stdout>:"}) {
            std::string tagged = "node-a:123:123 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n";
            for (double b = 1024; b <= 64 * MiB; b *= 4)
                tagged += prefix + row(b, 20 + b / 150e3);
            QVERIFY2(parseNcclLogs(tagged, "paste.txt", &logs, &error, "all_reduce", {8, 8}), (prefix + ": " + error.message).c_str());
            QCOMPARE(int(logs.front().samples.size()), 9);
            QCOMPARE(logs.front().samples.back().bytes, 64 * MiB);
        }
        // As pasted in NVIDIA/nccl#1453: Intel MPI's tag before every chunk a rank printed.
        const std::string chunked = "[0]      1048576        262144     float     sum      -1[0]    1626.5    0.64    1.24      0[0]    2302.3    0.46    0.87      0\n"
                                    "[0]      2097152        524288     float     sum      -1[0]    2325.3    0.90    1.73      0[0]     416.7    5.03    9.65      0\n"
                                    "[0]      4194304       1048576     float     sum      -1[0]     622.6    6.74   12.91      0[0]     625.8    6.70   12.85      0\n";
        QVERIFY2(parseNcclLogs(chunked, "paste.txt", &logs, &error, "all_reduce", {16, 8}), error.message.c_str());
        QCOMPARE(int(logs.front().samples.size()), 3);
        QCOMPARE(logs.front().samples[1].seconds, 2325.3e-6);
        QCOMPARE(logs.front().samples[2].busBytesPerSecond, 12.91e9);

        // As pasted in NVIDIA/nccl#583, outside a code block: Markdown ate the header's '#'; the
        // ranks and hosts still come from the header.
        std::string bare = " nThread 1 nGpus 1 minBytes 32 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
                           " Using devices\n";
        for (int rank = 0; rank < 16; ++rank)
            bare += "   Rank  " + std::to_string(rank) + " Pid 18212" + std::to_string(rank) + " on node-" + std::to_string(rank / 8)
                    + " device  " + std::to_string(rank % 8) + " [0x00] NVIDIA A100-SXM4-40GB\n";
        bare += "       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n";
        for (double b = 1024; b <= 64 * MiB; b *= 4)
            bare += row(b, 20 + b / 150e3);
        QVERIFY2(parseNcclLogs(bare, "all_reduce.txt", &logs, &error), error.message.c_str());
        QCOMPARE(logs.front().ranks, 16);
        QCOMPARE(logs.front().hosts, 2);

        // NCCL_ALGO as NCCL's INFO line spells it: Ring, Tree, NVLS (NVLSTree reads as NVLS), PAT.
        for (const auto &[spelled, algorithm] : {std::pair{"Ring", Algorithm::Ring}, std::pair{"Tree", Algorithm::Tree},
                                                 std::pair{"NVLSTree", Algorithm::Nvls}, std::pair{"PAT", Algorithm::Pat}}) {
            std::string forced = std::string("node-a:123:123 [0] NCCL INFO NCCL_ALGO set by environment to ") + spelled + "\n";
            for (double b = 1024; b <= 64 * MiB; b *= 4)
                forced += row(b, 20 + b / 150e3);
            QVERIFY2(parseNcclLogs(forced, "paste.txt", &logs, &error, "all_reduce", {8, 8}), error.message.c_str());
            QCOMPARE(logs.front().algorithm, algorithm);
        }
    }

    // nccl-tests prints a time of 10 ms or more as a whole number. Tables before the root column
    // (all_reduce: redop only; broadcast: root only) must not take that time for a root.
    void wholeNumberTimesAreNotRoots()
    {
        const std::string oldAllReduce = "# nThread 1 nGpus 8 minBytes 1048576 maxBytes 4294967296 step: 2(factor)\n"
                                         "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
                                         "     1048576        262144     float     sum    35.12   29.86   52.25  0e+00    35.01   29.95   52.41  0e+00\n"
                                         "  2147483648     536870912     float     sum    10340  207.68  363.44  0e+00    10336  207.77  363.60  0e+00\n"
                                         "  4294967296    1073741824     float     sum    20611  208.38  364.67  0e+00    20602  208.47  364.83  0e+00\n";
        std::vector<NcclLog> logs;
        ParseError error;
        QVERIFY2(parseNcclLogs(oldAllReduce, "all_reduce_perf.log", &logs, &error), error.message.c_str());
        QCOMPARE(int(logs.size()), 1);
        QCOMPARE(int(logs.front().samples.size()), 3);
        QCOMPARE(logs.front().samples[1].seconds, 10340e-6);
        QCOMPARE(logs.front().samples[2].busBytesPerSecond, 364.67e9);
        const std::string modern = "# nThread 1 nGpus 8 minBytes 1048576 maxBytes 2147483648 step: 2(factor)\n"
                                   "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                                   "     1048576        262144     float     sum      -1    35.12   29.86   52.25      0    35.01   29.95   52.41      0\n"
                                   "  2147483648     536870912     float     sum      -1    10340  207.68  363.44      0    10336  207.77  363.60      0\n"
                                   "  4294967296    1073741824     float     sum      -1    20611  208.38  364.67      0    20602  208.47  364.83      0\n";
        QVERIFY2(parseNcclLogs(modern, "all_reduce_perf.log", &logs, &error), error.message.c_str());
        QCOMPARE(logs.front().samples[1].seconds, 10340e-6);
        const std::string oldBroadcast = "# nThread 1 nGpus 8 minBytes 1048576 maxBytes 2147483648 step: 2(factor)\n"
                                         "#       size         count      type    root     time   algbw   busbw  error     time   algbw   busbw  error\n"
                                         "     1048576        262144     float       0    30.02   34.93   34.93  0e+00    29.90   35.07   35.07  0e+00\n"
                                         "  2147483648     536870912     float       0    10020  214.32  214.32  0e+00    10011  214.51  214.51  0e+00\n"
                                         "  4294967296    1073741824     float       0    20010  214.64  214.64  0e+00    20002  214.73  214.73  0e+00\n";
        QVERIFY2(parseNcclLogs(oldBroadcast, "broadcast_perf.log", &logs, &error), error.message.c_str());
        QCOMPARE(logs.front().samples[1].seconds, 10020e-6);
    }

    void severalCollectivesAreFittedEach()
    {
        std::string text = "# nThread 1 nGpus 8 minBytes 1024\n# Collective test starting: all_reduce_perf\n";
        for (double b = 1024; b <= 64 * MiB; b *= 8)
            text += row(b, 30 + b / 100e3);
        text += "# Collective test starting: all_gather_perf\n";
        for (double b = 1024; b <= 64 * MiB; b *= 8)
            text += row(b, 20 + b / 200e3);
        std::vector<NcclLog> logs;
        ParseError error;
        QVERIFY2(parseNcclLogs(text, "both.log", &logs, &error), error.message.c_str());
        QCOMPARE(int(logs.size()), 2);
        QVERIFY(logs[0].collective == Collective::AllReduce);
        QVERIFY(logs[1].collective == Collective::AllGather);
        QCOMPARE(logs[1].firstLine, 10);   // after the header, 6 rows and the second header
    }

    void rejectsWhatCannotBeMeasured_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("says");
        const QString head = QStringLiteral("# nThread 1 nGpus 8\n");
        const QString ok = QString::fromStdString(row(1024, 20) + row(4096, 21) + row(16384, 22));
        QTest::newRow("absurd size") << head + ok + QString::fromStdString(row(1e23, 50)) << 5 << QStringLiteral("16 TiB");
        QTest::newRow("zero time") << head + ok + QString::fromStdString(row(65536, 0)) << 5 << QStringLiteral("positive time");
        QTest::newRow("nan time") << head + ok + QStringLiteral("   65536  16384 float sum -1  nan 1.0 1.0 0 nan 1.0 1.0 0\n") << 5
                                  << QStringLiteral("finite");
        QTest::newRow("negative size") << head + ok + QStringLiteral("   -64  -16 float sum -1  10.0 1.0 1.0 0 10.0 1.0 1.0 0\n") << 5
                                       << QStringLiteral("outside 1 B");
        QTest::newRow("repeated size, other time") << head + ok + QString::fromStdString(row(16384, 90)) << 5
                                                   << QStringLiteral("appears again");
        QTest::newRow("two sizes") << head + QString::fromStdString(row(1024, 20) + row(4096, 21)) << 2 << QStringLiteral("at least 3");
        QTest::newRow("bad type") << head + ok + QStringLiteral("   65536  16384 flaot sum -1  10.0 1.0 1.0 0\n") << 5
                                  << QStringLiteral("data type");
        // Found by fuzz_nccllog: a rank past 2^30 made the rank count overflow and the collective
        // model's step count loop for ever.
        QTest::newRow("absurd rank") << QStringLiteral("#  Rank 1073741824 Group  0 Pid 1 on node-4 device 0\n") + ok << 1
                                     << QStringLiteral("not between 0 and");
        QTest::newRow("absurd nGpus") << QStringLiteral("# nThread 1 nGpus 99999999999\n") + ok << 1 << QStringLiteral("not a count");
        QTest::newRow("huge nGpus x nThread") << QStringLiteral("# nThread 9999 nGpus 9999\n") + ok << 0 << QStringLiteral("not a real run");
    }
    void rejectsWhatCannotBeMeasured()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, says);
        std::vector<NcclLog> logs;
        ParseError error;
        QVERIFY(!parseNcclLogs(text.toStdString(), "bad.log", &logs, &error, "all_reduce"));
        QCOMPARE(error.line, line);
        QVERIFY2(QString::fromStdString(error.message).contains(says), error.message.c_str());
    }

    // Every group the model accepts (cluster.gpus up to 10,000,000, the log reader's bound too)
    // gets a finite time.
    void hugeGroupsTerminate()
    {
        Cluster cluster;
        const Fabric fabric = fabricOf(cluster);
        for (int ranks : {(1 << 23) + 1, 9999999}) {
            const CollectiveTime t = collectiveTime(Collective::AllReduce, Algorithm::Auto, 1e9, groupOf(ranks, 1, 8), fabric);
            QVERIFY(t.applicable && std::isfinite(t.seconds) && t.seconds > 0);
        }
    }

    void binaryIsNotEchoed()
    {
        std::string text = "# nThread 1 nGpus 8\n";
        text += row(1024, 20) + row(4096, 21);
        text += std::string("  65536 16384 \x01\x02\xff\x1b[2J sum -1 10 1 1 0\n");
        std::vector<NcclLog> logs;
        ParseError error;
        QVERIFY(!parseNcclLogs(text, "bin.log", &logs, &error, "all_reduce"));
        for (char ch : error.message)
            QVERIFY(static_cast<unsigned char>(ch) >= 32 && static_cast<unsigned char>(ch) < 127);
    }

    void oldSyntheticLogsStillRead()
    {
        NcclLog log;
        ParseError error;
        QVERIFY2(parseNcclLog(readData(QStringLiteral("data/all_reduce_8gpu_nvlink.log")), "all_reduce_8gpu_nvlink.log", &log, &error),
                 error.message.c_str());
        QCOMPARE(log.ranks, 8);
        QCOMPARE(log.hosts, 1);
        QCOMPARE(int(log.samples.size()), 12);
        QVERIFY(parseNcclLog(readData(QStringLiteral("data/all_gather_16node_ib.log")), "all_gather_16node_ib.log", &log, &error));
        QVERIFY(log.collective == Collective::AllGather);
        QCOMPARE(log.hosts, 16);
        QVERIFY(!parseNcclLog(readData(QStringLiteral("data/malformed.log")), "malformed.log", &log, &error));
        QCOMPARE(error.line, 24);
        Collective c;
        QVERIFY(collectiveFromName("reduce_scatter_perf", &c) && c == Collective::ReduceScatter);
        QVERIFY(collectiveFromName("reduce_perf", &c) && c == Collective::Reduce);
        QVERIFY(!collectiveFromName("bogus", &c));
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
