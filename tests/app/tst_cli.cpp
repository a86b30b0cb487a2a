// SPDX-License-Identifier: MIT
// The command line: subcommands, output keys (a contract for users' scripts) and exit codes.
#include "cli.h"
#include "evaluate.h"

#include <QFile>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace ts;

namespace {
struct Run
{
    int code;
    QString out;
    QString err;
};

Run run(QStringList args)
{
    args.prepend(QStringLiteral("trainscope"));
    QString out, err;
    QTextStream o(&out), e(&err);
    const int code = runCommandLine(args, o, e);
    o.flush();
    e.flush();
    return {code, out, err};
}

QString writeFile(QTemporaryDir &dir, const QByteArray &content)
{
    const QString path = dir.filePath(QStringLiteral("s%1.json").arg(qHash(content)));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(content);
    return path;
}

const QString kDefault = QStringLiteral(":/scenarios/default.json");
const QString kSeed = QStringLiteral(":/scenarios/seed-gradient-sync.json");
} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void recognisesSubcommands()
    {
        QVERIFY(isCommandLineInvocation({QStringLiteral("trainscope"), QStringLiteral("eval"), QStringLiteral("x.json")}));
        QVERIFY(!isCommandLineInvocation({QStringLiteral("trainscope"), QStringLiteral("x.json")}));
        QVERIFY(!isCommandLineInvocation({QStringLiteral("trainscope")}));
        QVERIFY(!isCommandLineInvocation({QStringLiteral("trainscope"), QStringLiteral("dir/scenario")}));
        QVERIFY(!isCommandLineInvocation({QStringLiteral("trainscope"), QStringLiteral("--screenshot"), QStringLiteral("a.png")}));
        // A mistyped subcommand is said, not opened in the window as a file.
        const QStringList typo{QStringLiteral("trainscope"), QStringLiteral("evl"), QStringLiteral("x.json")};
        QVERIFY(isCommandLineInvocation(typo));
        const Run r = run({QStringLiteral("evl"), QStringLiteral("x.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("unknown subcommand \"evl\"")), qPrintable(r.err));
    }

    void evalJsonKeys()
    {
        const Run r = run({QStringLiteral("eval"), kDefault});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        for (const char *key : {"step_time_s", "compute_s", "tp_comm_s", "tp_comm_exposed_s", "pp_bubble_s", "pp_bubble_fraction",
                                "pp_p2p_exposed_s", "dp_comm_s", "dp_comm_exposed_s", "optimizer_s", "straggler_s", "mfu",
                                "hardware_tflops_per_gpu", "model_tflops_per_gpu", "tokens_per_s", "train_time_s",
                                "train_gpu_hours", "memory_per_gpu_bytes", "fits_in_memory", "memory", "warnings",
                                "step_time_p99_s", "communication_fraction", "pipeline", "requirements", "fp8_recipe"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        // The default scenario trains in BF16: no FP8 recipe applies.
        QVERIFY(o.value(QLatin1String("fp8_recipe")).isNull());
        const QJsonObject mem = o.value(QLatin1String("memory")).toObject();
        for (const char *key : {"weights_bytes", "gradients_bytes", "optimizer_bytes", "activations_bytes", "buffers_bytes"})
            QVERIFY2(mem.contains(QLatin1String(key)), key);
        // pp_bubble_fraction is the idle share of pipeline time: (p-1)/(m+p-1) = 3/35 for p=4, m=32
        // with even stages; the LM head makes the last stage the slowest, so fill and drain through
        // the three lighter stages cost a little less.
        const double bubble = o.value(QLatin1String("pp_bubble_fraction")).toDouble();
        QVERIFY2(bubble < 3.0 / 35 && bubble > 0.9 * 3.0 / 35, qPrintable(QString::number(bubble)));
        // Where the exposed gradient sync sits: its four parts add up to dp_comm_exposed_s.
        const QJsonObject dp = o.value(QLatin1String("data_parallel")).toObject();
        double parts = 0;
        for (const char *key : {"exposed_before_forward_s", "exposed_in_micro_batches_s", "exposed_after_backward_s", "compute_slowed_s"}) {
            QVERIFY2(dp.value(QLatin1String(key)).isDouble(), key);
            parts += dp.value(QLatin1String(key)).toDouble();
        }
        const double exposed = o.value(QLatin1String("dp_comm_exposed_s")).toDouble();
        QVERIFY(exposed > 0);
        QVERIFY2(qAbs(parts - exposed) <= 1e-9 * exposed, qPrintable(QStringLiteral("%1 vs %2").arg(parts).arg(exposed)));
    }

    // Output keys are a contract: every key `eval` writes, nested ones too, and every warning code
    // is documented in the README.
    void everyKeyIsDocumented()
    {
        QFile readmeFile(qEnvironmentVariable("TRAINSCOPE_SOURCE_DIR") + QStringLiteral("/README.md"));
        QVERIFY2(readmeFile.open(QIODevice::ReadOnly), "README.md (TRAINSCOPE_SOURCE_DIR)");
        const QString readme = QString::fromUtf8(readmeFile.readAll());
        for (const QString &scenario : {kDefault, kSeed, QStringLiteral(":/scenarios/seed-pipeline.json")}) {
            const Run r = run({QStringLiteral("eval"), scenario});
            QCOMPARE(r.code, 0);
            const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
            for (auto it = o.begin(); it != o.end(); ++it) {
                QVERIFY2(readme.contains(it.key()), qPrintable(it.key()));
                if (it.value().isObject()) {
                    const QJsonObject inner = it.value().toObject();
                    for (auto jt = inner.begin(); jt != inner.end(); ++jt)
                        QVERIFY2(readme.contains(jt.key()), qPrintable(it.key() + QLatin1Char('.') + jt.key()));
                }
            }
        }
        // A plan row pasted into the scenario's plan section gives the row's figures (framework
        // resolved, gradient width made explicit).
        {
            const Run top = run({QStringLiteral("plan"), kDefault, QStringLiteral("--top"), QStringLiteral("3"),
                                 QStringLiteral("--format"), QStringLiteral("json")});
            QFile f(kDefault);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QJsonObject scenario = QJsonDocument::fromJson(f.readAll()).object();
            for (const QJsonValue &v : QJsonDocument::fromJson(top.out.toUtf8()).object().value(QLatin1String("plans")).toArray()) {
                const QJsonObject row = v.toObject();
                QJsonObject plan, training = scenario.value(QLatin1String("training")).toObject();
                for (const char *key : {"tp", "pp", "dp", "cp", "cp_comm", "sequence_parallel", "schedule", "virtual_stages", "zero",
                                        "overlap_dp", "tp_overlap", "bucket", "compression", "jitter", "local_sgd", "framework",
                                        "grad_reduce", "shard_group", "fsdp_version", "first_stage_layers", "last_stage_layers",
                                        "embedding_in_pipeline_split", "loss_in_pipeline_split", "rank_order"})
                    plan.insert(QLatin1String(key), row.value(QLatin1String(key)));
                training.insert(QStringLiteral("micro_batch"), row.value(QLatin1String("micro_batch")));
                training.insert(QStringLiteral("recompute"), row.value(QLatin1String("recompute")));
                training.insert(QStringLiteral("kernels"), row.value(QLatin1String("kernels")));
                training.insert(QStringLiteral("cross_entropy"), row.value(QLatin1String("cross_entropy")));
                QJsonObject pasted = scenario;
                pasted.insert(QStringLiteral("plan"), plan);
                pasted.insert(QStringLiteral("training"), training);
                QTemporaryDir dir;
                const Run again = run({QStringLiteral("eval"), writeFile(dir, QJsonDocument(pasted).toJson())});
                QCOMPARE(again.code, 0);
                const double step = QJsonDocument::fromJson(again.out.toUtf8()).object().value(QLatin1String("step_time_s")).toDouble();
                QVERIFY2(qAbs(step / row.value(QLatin1String("step_time_s")).toDouble() - 1) < 1e-9,
                         qPrintable(QString::number(step) + QStringLiteral(" vs ") + QString::number(row.value(QLatin1String("step_time_s")).toDouble())));
            }
        }
        // Plan rows and sweep rows too.
        const Run plans = run({QStringLiteral("plan"), kDefault, QStringLiteral("--top"), QStringLiteral("2"),
                               QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(plans.code, 0);
        const QJsonObject planOut = QJsonDocument::fromJson(plans.out.toUtf8()).object();
        for (auto it = planOut.begin(); it != planOut.end(); ++it)
            QVERIFY2(readme.contains(it.key()), qPrintable(it.key()));
        const QJsonObject row = planOut.value(QLatin1String("plans")).toArray().first().toObject();
        QVERIFY(!row.isEmpty());
        for (auto it = row.begin(); it != row.end(); ++it)
            QVERIFY2(readme.contains(it.key()), qPrintable(QStringLiteral("plans[].") + it.key()));
        for (int code = 0; code < int(WarningCode::Count); ++code) {
            Warning w;
            w.code = WarningCode(code);
            const std::string id = describe(w, Scenario{}).code;
            QVERIFY2(!id.empty() && readme.contains(QLatin1Char('`') + QString::fromStdString(id) + QLatin1Char('`')), id.c_str());
        }
    }

    void evalSeedReproducesWorkedExample()
    {
        const Run r = run({QStringLiteral("eval"), kSeed});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(qRound(o.value(QLatin1String("step_time_s")).toDouble() * 1e4), 4935);   // 493.5 ms
        const QJsonArray warnings = o.value(QLatin1String("warnings")).toArray();
        QVERIFY(!warnings.isEmpty());
        const QJsonObject w = warnings.first().toObject();
        QCOMPARE(w.value(QLatin1String("code")).toString(), QStringLiteral("communication_dominates"));
        QVERIFY(!w.value(QLatin1String("recommendation")).toString().isEmpty());
        // The best evaluated remedy with a fixed compute time: switches reduce in flight (0.28 s instead of 0.49 s).
        const QJsonObject change = w.value(QLatin1String("changes")).toArray().first().toObject();
        QCOMPARE(change.value(QLatin1String("key")).toString(), QStringLiteral("cluster.in_network_reduction"));
        QCOMPARE(change.value(QLatin1String("value")).toDouble(), 1.0);
    }

    void evalTextAndCsv()
    {
        const Run text = run({QStringLiteral("eval"), kSeed, QStringLiteral("--format"), QStringLiteral("text")});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains(QLatin1String("493.5 ms")));
        QVERIFY(text.out.contains(QLatin1String("13.04 GiB")));
        const Run csv = run({QStringLiteral("eval"), kSeed, QStringLiteral("--format=csv")});
        QCOMPARE(csv.code, 0);
        QVERIFY(csv.out.startsWith(QLatin1String("key,value,unit\n")));
        QVERIFY(csv.out.contains(QLatin1String("step_time_s,0.49349")));
    }

    void sweep()
    {
        const Run r = run({QStringLiteral("sweep"), kDefault, QStringLiteral("--gpus"), QStringLiteral("128..4096"),
                           QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const QJsonArray points = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("points")).toArray();
        QCOMPARE(points.size(), 6);   // 128, 256, ..., 4096
        QCOMPARE(points.first().toObject().value(QLatin1String("gpus")).toInt(), 128);
        QCOMPARE(points.first().toObject().value(QLatin1String("efficiency")).toDouble(), 1.0);
        for (const QJsonValue &p : points) {
            const double eff = p.toObject().value(QLatin1String("efficiency")).toDouble();
            QVERIFY(eff > 0 && eff <= 1.01);   // ZeRO-1 shards the optimizer step: slightly superlinear
        }
        QVERIFY(run({QStringLiteral("sweep"), kDefault}).code == 2);   // --gpus is required
        // A given compute time defines no FLOP rate: MFU is null in sweep and plan rows, as in eval.
        const QString given = QStringLiteral(":/scenarios/seed-gradient-sync.json");
        for (const QStringList &args : {QStringList{QStringLiteral("sweep"), given, QStringLiteral("--gpus"), QStringLiteral("8..32")},
                                        QStringList{QStringLiteral("plan"), given, QStringLiteral("--top"), QStringLiteral("3")}}) {
            const Run g = run(args + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
            QCOMPARE(g.code, 0);
            const QJsonObject root = QJsonDocument::fromJson(g.out.toUtf8()).object();
            const QJsonArray rows = root.value(QLatin1String(args.first() == QLatin1String("sweep") ? "points" : "plans")).toArray();
            QVERIFY2(!rows.isEmpty(), qPrintable(g.out.left(300)));
            for (const QJsonValue &v : rows)
                if (v.toObject().contains(QLatin1String("mfu")))
                    QVERIFY2(v.toObject().value(QLatin1String("mfu")).isNull(), qPrintable(args.first()));
        }
    }

    void collectives()
    {
        const Run r = run({QStringLiteral("collectives"), kDefault, QStringLiteral("--size"), QStringLiteral("1MB..8MB"),
                           QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("results")).toArray();
        QSet<QString> ops;
        for (const QJsonValue &v : rows) {
            const QJsonObject row = v.toObject();
            ops.insert(row.value(QLatin1String("collective")).toString());
            QVERIFY(row.value(QLatin1String("busbw_bytes_per_s")).toDouble() > 0);
        }
        QCOMPARE(ops.size(), 7);
        // NVLS rows carry their pipeline fill (2 x 2 MiB window / algbw on one H100 node at 4 MiB).
        const Run nvls = run({QStringLiteral("collectives"), kDefault, QStringLiteral("--size"), QStringLiteral("4MiB..4MiB"),
                              QStringLiteral("--ranks"), QStringLiteral("8"), QStringLiteral("--op"), QStringLiteral("all_reduce"),
                              QStringLiteral("--algorithm"), QStringLiteral("all"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(nvls.code, 0);
        // An algorithm that cannot run there: an explanation naming the option, not an empty table.
        const Run none = run({QStringLiteral("collectives"), kDefault, QStringLiteral("--ranks"), QStringLiteral("3"),
                              QStringLiteral("--algorithm"), QStringLiteral("nvls"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains(QLatin1String("--algorithm: no requested algorithm runs on 3 ranks")), qPrintable(none.err));
        int nvlsRows = 0;
        for (const QJsonValue &v : QJsonDocument::fromJson(nvls.out.toUtf8()).object().value(QLatin1String("results")).toArray()) {
            const QJsonObject row = v.toObject();
            const double fill = row.value(QLatin1String("pipeline_fill_s")).toDouble(-1);
            if (row.value(QLatin1String("algorithm")).toString() == QLatin1String("nvls")) {
                ++nvlsRows;
                QVERIFY2(fill > 10e-6 && fill < 20e-6, qPrintable(QString::number(fill)));
                QVERIFY(row.value(QLatin1String("time_s")).toDouble() > row.value(QLatin1String("latency_s")).toDouble() + fill);
            } else {
                QCOMPARE(fill, 0.0);
            }
        }
        QCOMPARE(nvlsRows, 1);
        const Run text = run({QStringLiteral("collectives"), kDefault, QStringLiteral("--op"), QStringLiteral("all_reduce")});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains(QLatin1String("busbw (GB/s)")));
    }

    // --algorithm pat: NCCL's PAT on a cluster of one GPU a node (all-gather, reduce-scatter), and
    // a reason, not an empty table, where it cannot run.
    void collectivesPat()
    {
        QTemporaryDir dir;
        QFile defaults(kDefault);
        QVERIFY(defaults.open(QIODevice::ReadOnly));
        QJsonObject scenario = QJsonDocument::fromJson(defaults.readAll()).object();
        scenario.insert(QStringLiteral("cluster"), QJsonObject{{QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
                                                               {QStringLiteral("gpus"), 32},
                                                               {QStringLiteral("gpus_per_node"), 1},
                                                               {QStringLiteral("intra_node"), QStringLiteral("nvlink4")},
                                                               {QStringLiteral("inter_node"), QStringLiteral("ib-ndr")},
                                                               {QStringLiteral("rails"), 1}});
        scenario.insert(QStringLiteral("plan"), QJsonObject{{QStringLiteral("tp"), 1}, {QStringLiteral("pp"), 1}, {QStringLiteral("dp"), 32}});
        const QString path = writeFile(dir, QJsonDocument(scenario).toJson());
        const Run r = run({QStringLiteral("collectives"), path, QStringLiteral("--op"), QStringLiteral("reduce_scatter"), QStringLiteral("--size"),
                           QStringLiteral("8MB..8MB"), QStringLiteral("--algorithm"), QStringLiteral("auto"), QStringLiteral("--format"),
                           QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("results")).toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().toObject().value(QLatin1String("algorithm")).toString(), QStringLiteral("pat"));   // NCCL's pick at 8 MB on 32 nodes
        const Run none = run({QStringLiteral("collectives"), path, QStringLiteral("--op"), QStringLiteral("all_reduce"),
                              QStringLiteral("--algorithm"), QStringLiteral("pat")});
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains(QLatin1String("pat runs all_gather and reduce_scatter only")), qPrintable(none.err));
    }

    // Failures faster than checkpoints can save work: no cost, energy or goodput, and the reason
    // under economics_error, not the keys left out without a word.
    void noProgressIsSaid()
    {
        QTemporaryDir dir;
        QFile defaults(kDefault);
        QVERIFY(defaults.open(QIODevice::ReadOnly));
        QJsonObject scenario = QJsonDocument::fromJson(defaults.readAll()).object();
        scenario.insert(QStringLiteral("operations"), QJsonObject{{QStringLiteral("failure_rate"), 0.01}});
        const Run r = run({QStringLiteral("eval"), writeFile(dir, QJsonDocument(scenario).toJson()), QStringLiteral("--format"),
                           QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const QJsonObject out = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(!out.contains(QLatin1String("cost")) && !out.contains(QLatin1String("goodput")));
        QCOMPARE(out.value(QLatin1String("economics_error")).toObject().value(QLatin1String("key")).toString(),
                 QStringLiteral("operations.failure_rate"));
        // The plan table's time column is "with failures": a row without them is marked and footnoted.
        const Run plan = run({QStringLiteral("plan"), writeFile(dir, QJsonDocument(scenario).toJson()), QStringLiteral("--top"),
                              QStringLiteral("2")});
        QCOMPARE(plan.code, 0);
        QVERIFY2(plan.out.contains(QLatin1String("* without failures: operations.failure_rate: failures come faster")), qPrintable(plan.out));
    }

    void errors()
    {
        QTemporaryDir dir;
        Run r = run({QStringLiteral("eval"), QStringLiteral("/nonexistent.json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QLatin1String("cannot open")));
        r = run({QStringLiteral("eval"), writeFile(dir, "{not json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QLatin1String("not valid JSON")));
        r = run({QStringLiteral("eval"), kDefault, QStringLiteral("--format"), QStringLiteral("xml")});
        QCOMPARE(r.code, 2);
        r = run({QStringLiteral("eval"), kDefault, QStringLiteral("--bogus"), QStringLiteral("1")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QLatin1String("unknown option --bogus")));
        // A valid file with an infeasible plan: exit 1, the reason names the field.
        r = run({QStringLiteral("eval"), writeFile(dir, R"({"format": "trainscope-scenario/1", "workload": {"preset": "llama3-8b"},
            "training": {"global_batch": 63}, "cluster": {"preset": "dgx-h100-superpod", "gpus": 64}, "plan": {"tp": 8}})")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains(QLatin1String("training.global_batch")));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("feasible")).toBool(true), false);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
