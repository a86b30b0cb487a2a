// SPDX-License-Identifier: MIT
#include "cli.h"

#include <optional>

#include "collectives.h"
#include "evaluate.h"
#include "calibration.h"
#include "planner.h"
#include "formatting.h"
#include "quantity.h"
#include "reportdata.h"
#include "scaling.h"
#include "scenarioio.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <cmath>

namespace ts {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInfeasible = 1;
constexpr int kExitUsage = 2;

const QStringList kSubcommands = {QStringLiteral("eval"), QStringLiteral("sweep"), QStringLiteral("collectives"), QStringLiteral("report"), QStringLiteral("plan"), QStringLiteral("calibrate"),
                                  QStringLiteral("help"), QStringLiteral("--help"), QStringLiteral("-h"),
                                  QStringLiteral("--version")};

QString usage()
{
    return QStringLiteral(
        "Usage:\n"
        "  trainscope [SCENARIO.json]                      start the app\n"
        "  trainscope eval SCENARIO.json [--format json|text|csv]\n"
        "  trainscope sweep SCENARIO.json --gpus FIRST..LAST [--mode weak|strong] [--format text|json|csv]\n"
        "  trainscope collectives SCENARIO.json [--size FIRST..LAST] [--ranks N] [--op NAME|all]\n"
        "                         [--algorithm ring|tree|nvls|in_network|pat|hierarchical|auto|all]\n"
        "                         [--protocol LL|LL128|Simple|auto] [--format text|json|csv]\n"
        "  trainscope report SCENARIO.json -o plan.pdf      capacity-plan report, no display needed\n"
        "  trainscope plan SCENARIO.json [--top N] [--format text|json|csv]   best plans for the token budget\n"
        "  trainscope calibrate LOG... [--op NAME] [--ranks N --gpus-per-node G] [--algorithm ring|tree|nvls|pat|auto]\n"
        "                         [--format text|json]\n"
        "                         [--apply SCENARIO.json --output OUT.json]\n"
        "                         fit latency and bandwidth per fabric tier from nccl-tests output\n"
        "Exit codes: 0 success, 1 infeasible plan, 2 usage error or bad scenario file.\n");
}

struct Options
{
    QString subcommand;
    QString scenarioPath;
    QMap<QString, QString> values;
    QString error;
};

Options parseOptions(const QStringList &args, const QStringList &allowed)
{
    Options o;
    o.subcommand = args.value(1);
    for (int i = 2; i < args.size(); ++i) {
        const QString a = args[i];
        if (a.startsWith(QLatin1String("--"))) {
            QString name = a.mid(2), value;
            if (const int eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
                value = name.mid(eq + 1);
                name = name.left(eq);
            } else if (i + 1 < args.size()) {
                value = args[++i];
            } else {
                o.error = QStringLiteral("option --%1 needs a value").arg(name);
                return o;
            }
            if (!allowed.contains(name)) {
                o.error = QStringLiteral("unknown option --%1 for %2 (allowed: --%3)")
                              .arg(name, o.subcommand, allowed.join(QLatin1String(", --")));
                return o;
            }
            o.values.insert(name, value);
        } else if (o.scenarioPath.isEmpty()) {
            o.scenarioPath = a;
        } else {
            o.error = QStringLiteral("unexpected argument \"%1\"").arg(a);
            return o;
        }
    }
    if (o.scenarioPath.isEmpty())
        o.error = QStringLiteral("%1 needs a scenario file").arg(o.subcommand);
    return o;
}

bool parseRange(const QString &text, Dimension d, double *first, double *last, QString *error)
{
    const QStringList parts = text.split(QStringLiteral(".."));
    if (parts.size() > 2 || parts.isEmpty()) {
        *error = QStringLiteral("\"%1\" is not a range FIRST..LAST").arg(text);
        return false;
    }
    if (!parseQuantity(parts.first(), d, first, error))
        return false;
    *last = *first;
    if (parts.size() == 2 && !parseQuantity(parts.last(), d, last, error))
        return false;
    if (!(*first > 0) || *last < *first) {
        *error = QStringLiteral("range \"%1\" must be positive and increasing").arg(text);
        return false;
    }
    return true;
}

void writeJson(QTextStream &out, const QJsonValue &value)
{
    out << (value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject())).toJson(QJsonDocument::Indented);
}

QString formatOf(const Options &o, QString *error, const QString &fallback)
{
    const QString f = o.values.value(QStringLiteral("format"), fallback);
    if (f != QLatin1String("json") && f != QLatin1String("text") && f != QLatin1String("csv"))
        *error = QStringLiteral("--format must be json, text or csv (got \"%1\")").arg(f);
    return f;
}

int runEval(const Options &o, const LoadedScenario &loaded, QTextStream &out, QTextStream &err)
{
    QString error;
    const QString format = formatOf(o, &error, QStringLiteral("json"));
    if (!error.isEmpty()) {
        err << "trainscope: " << error << "\n";
        return kExitUsage;
    }
    const Evaluation e = evaluate(loaded.scenario);
    if (format == QLatin1String("json"))
        writeJson(out, evaluationToJson(loaded.scenario, e, loaded.notes));
    else if (format == QLatin1String("csv"))
        out << evaluationCsv(e);
    else
        out << evaluationText(loaded.scenario, e, loaded.name, loaded.notes);
    if (!e.feasible) {
        err << "trainscope: infeasible plan: " << QString::fromStdString(e.problem.field) << ": "
            << QString::fromStdString(e.problem.message) << "\n";
        return kExitInfeasible;
    }
    return kExitOk;
}

int runSweep(const Options &o, const LoadedScenario &loaded, QTextStream &out, QTextStream &err)
{
    QString error;
    const QString format = formatOf(o, &error, QStringLiteral("text"));
    double first = 0, last = 0;
    if (error.isEmpty()) {
        const QString gpus = o.values.value(QStringLiteral("gpus"));
        if (gpus.isEmpty())
            error = QStringLiteral("sweep needs --gpus FIRST..LAST, e.g. --gpus 8..16384");
        else if (parseRange(gpus, Dimension::Count, &first, &last, &error) && last > 1e7)
            error = QStringLiteral("--gpus goes up to 10000000");
    }
    const QString modeText = o.values.value(QStringLiteral("mode"), QStringLiteral("weak"));
    if (error.isEmpty() && modeText != QLatin1String("weak") && modeText != QLatin1String("strong"))
        error = QStringLiteral("--mode must be weak or strong (got \"%1\")").arg(modeText);
    if (!error.isEmpty()) {
        err << "trainscope: " << error << "\n";
        return kExitUsage;
    }
    const ScalingMode mode = modeText == QLatin1String("strong") ? ScalingMode::Strong : ScalingMode::Weak;
    const auto points = scalingSweep(loaded.scenario, gpuCountsBetween(int(first), int(last)), mode);
    const bool givenCompute = loaded.scenario.training.computeSecondsOverride > 0;
    // Gustafson (seed 001): eta = 1 - (P - 1)/P s, with s the communication share measured at that
    // point (the serial fraction of the scaled run) and P its GPUs relative to the sweep's first point.
    const auto gustafson = [&](const ScalingPoint &p) {
        return gustafsonEfficiency(p.communicationFraction, double(p.gpus) / points.front().gpus);
    };
    if (format == QLatin1String("json")) {
        QJsonArray rows;
        for (const ScalingPoint &p : points) {
            QJsonObject row{{QStringLiteral("gpus"), p.gpus}, {QStringLiteral("dp"), p.dp}, {QStringLiteral("feasible"), p.feasible}};
            if (!p.feasible) {
                row.insert(QStringLiteral("error"), QString::fromStdString(describe(p.problem)));
            } else {
                row.insert(QStringLiteral("step_time_s"), p.stepSeconds);
                row.insert(QStringLiteral("tokens_per_s"), p.tokensPerSecond);
                row.insert(QStringLiteral("speedup"), p.speedup);
                row.insert(QStringLiteral("efficiency"), p.efficiency);
                row.insert(QStringLiteral("communication_fraction"), p.communicationFraction);
                row.insert(QStringLiteral("gustafson_efficiency"), gustafson(p));
                // No FLOP rate where the compute time is given (as eval's null).
                row.insert(QStringLiteral("mfu"), givenCompute ? QJsonValue() : QJsonValue(p.mfu));
                row.insert(QStringLiteral("memory_per_gpu_bytes"), p.memoryPerGpuBytes);
                row.insert(QStringLiteral("fits_in_memory"), p.fitsInMemory);
            }
            rows.append(row);
        }
        writeJson(out, QJsonObject{{QStringLiteral("mode"), modeText}, {QStringLiteral("points"), rows}});
    } else if (format == QLatin1String("csv")) {
        out << "gpus,dp,feasible,step_time_s,tokens_per_s,speedup,efficiency,communication_fraction,gustafson_efficiency,mfu,memory_per_gpu_bytes,fits_in_memory\n";
        for (const ScalingPoint &p : points)
            out << p.gpus << ',' << p.dp << ',' << (p.feasible ? 1 : 0) << ',' << p.stepSeconds << ',' << p.tokensPerSecond << ','
                << p.speedup << ',' << p.efficiency << ',' << p.communicationFraction << ',' << gustafson(p) << ','
                << (givenCompute ? QString() : QString::number(p.mfu)) << ','
                << p.memoryPerGpuBytes << ',' << (p.fitsInMemory ? 1 : 0) << '\n';
    } else {
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                   .arg(QStringLiteral("GPUs"), 8).arg(QStringLiteral("DP"), 7).arg(QStringLiteral("step"), 11)
                   .arg(QStringLiteral("tokens/s"), 10).arg(QStringLiteral("speedup"), 9).arg(QStringLiteral("effic."), 8)
                   .arg(QStringLiteral("comm"), 7).arg(QStringLiteral("memory/GPU"), 22);
        for (const ScalingPoint &p : points) {
            if (!p.feasible) {
                out << QStringLiteral("%1 %2  %3\n").arg(p.gpus, 8).arg(p.dp, 7).arg(QString::fromStdString(describe(p.problem)));
                continue;
            }
            out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8%9\n")
                       .arg(p.gpus, 8).arg(p.dp, 7).arg(fmt::seconds(p.stepSeconds), 11).arg(fmt::count(p.tokensPerSecond), 10)
                       .arg(p.speedup, 9, 'f', 1).arg(fmt::percent(p.efficiency), 8).arg(fmt::percent(p.communicationFraction), 7)
                       .arg(fmt::bytes(p.memoryPerGpuBytes), 22).arg(p.fitsInMemory ? QString() : QStringLiteral(" (does not fit)"));
        }
    }
    return kExitOk;
}

int runCollectives(const Options &o, const LoadedScenario &loaded, QTextStream &out, QTextStream &err)
{
    QString error;
    const QString format = formatOf(o, &error, QStringLiteral("text"));
    double first = 1e6, last = 8e9;
    if (error.isEmpty() && o.values.contains(QStringLiteral("size")))
        parseRange(o.values.value(QStringLiteral("size")), Dimension::Bytes, &first, &last, &error);
    if (error.isEmpty() && last > 1e13)
        error = QStringLiteral("--size goes up to 10 TB");
    const Cluster &cl = loaded.scenario.cluster;
    int ranks = cl.gpus;
    if (error.isEmpty() && o.values.contains(QStringLiteral("ranks"))) {
        bool ok = false;
        ranks = o.values.value(QStringLiteral("ranks")).toInt(&ok);
        if (!ok || ranks < 2 || ranks > cl.gpus)
            error = QStringLiteral("--ranks must be a whole number between 2 and cluster.gpus (%1)").arg(cl.gpus);
    }
    QList<Collective> ops;
    const QString op = o.values.value(QStringLiteral("op"), QStringLiteral("all"));
    for (Collective c : kAllCollectives)
        if (op == QLatin1String("all") || op == QLatin1String(nameOf(c)))
            ops << c;
    if (error.isEmpty() && ops.isEmpty())
        error = QStringLiteral("--op must be all or one of all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv");
    QList<Algorithm> algorithms;
    const QString alg = o.values.value(QStringLiteral("algorithm"), QStringLiteral("all"));
    for (Algorithm a : kNamedAlgorithms)
        if (alg == QLatin1String(nameOf(a)) || alg == QLatin1String("all"))
            algorithms << a;
    if (alg == QLatin1String(nameOf(Algorithm::Auto)))
        algorithms << Algorithm::Auto;
    if (error.isEmpty() && algorithms.isEmpty())
        error = QStringLiteral("--algorithm must be ring, tree, nvls, in_network, pat, hierarchical, auto or all");
    // NCCL_PROTO: one protocol, or the fastest (NCCL's tuner choice).
    std::optional<Protocol> protocol;
    const QString proto = o.values.value(QStringLiteral("protocol"), QStringLiteral("auto"));
    for (Protocol pr : {Protocol::LL, Protocol::LL128, Protocol::Simple})
        if (proto.compare(QLatin1String(nameOf(pr)), Qt::CaseInsensitive) == 0)
            protocol = pr;
    if (error.isEmpty() && !protocol && proto != QLatin1String("auto"))
        error = QStringLiteral("--protocol must be LL, LL128, Simple or auto");
    if (!error.isEmpty()) {
        err << "trainscope: " << error << "\n";
        return kExitUsage;
    }
    if (cl.gpus < 2) {
        err << "trainscope: cluster.gpus is 1: collectives need at least 2 ranks\n";
        return kExitInfeasible;
    }
    if (auto problem = validate(loaded.scenario)) {
        err << "trainscope: infeasible scenario: " << QString::fromStdString(problem->field) << ": "
            << QString::fromStdString(problem->message) << "\n";
        return kExitInfeasible;
    }
    const Fabric fabric = fabricOf(cl);
    const Group group = groupOf(ranks, 1, cl);
    QJsonArray rows;
    int applicable = 0;
    if (format == QLatin1String("csv"))
        out << "collective,algorithm,protocol,ranks,size_bytes,time_s,algbw_bytes_per_s,busbw_bytes_per_s\n";
    for (Collective c : ops) {
        if (format == QLatin1String("text"))
            out << QStringLiteral("# %1 on %2 ranks (%3 per node)\n").arg(QLatin1String(nameOf(c))).arg(ranks).arg(group.ranksPerNode)
                << QStringLiteral("#%1 %2 %3 %4 %5 %6\n").arg(QStringLiteral("size (B)"), 14).arg(QStringLiteral("algorithm"), 13)
                       .arg(QStringLiteral("protocol"), 8).arg(QStringLiteral("time (us)"), 13).arg(QStringLiteral("algbw (GB/s)"), 13)
                       .arg(QStringLiteral("busbw (GB/s)"), 13);
        for (double size = first; size <= last * (1 + 1e-9); size *= 2) {
            for (Algorithm a : algorithms) {
                const CollectiveTime t = protocol ? collectiveTime(c, a, *protocol, size, group, fabric)
                                                  : collectiveTime(c, a, size, group, fabric);
                if (!t.applicable)
                    continue;
                ++applicable;
                if (format == QLatin1String("json")) {
                    rows.append(QJsonObject{{QStringLiteral("collective"), QLatin1String(nameOf(c))},
                                            {QStringLiteral("algorithm"), QLatin1String(nameOf(t.algorithm))},
                                            {QStringLiteral("protocol"), QLatin1String(nameOf(t.protocol))},
                                            {QStringLiteral("latency_s"), t.latencySeconds},
                                            {QStringLiteral("pipeline_fill_s"), t.pipelineFillSeconds},
                                            {QStringLiteral("bound"), t.interNode ? QStringLiteral("network") : QStringLiteral("intra_node")},
                                            {QStringLiteral("ranks"), ranks},
                                            {QStringLiteral("size_bytes"), size},
                                            {QStringLiteral("time_s"), t.seconds},
                                            {QStringLiteral("algbw_bytes_per_s"), t.algBytesPerSecond},
                                            {QStringLiteral("busbw_bytes_per_s"), t.busBytesPerSecond}});
                } else if (format == QLatin1String("csv")) {
                    out << nameOf(c) << ',' << nameOf(t.algorithm) << ',' << nameOf(t.protocol) << ',' << ranks << ',' << size << ','
                        << t.seconds << ','
                        << t.algBytesPerSecond << ',' << t.busBytesPerSecond << '\n';
                } else {
                    out << QStringLiteral(" %1 %2 %3 %4 %5 %6\n").arg(size, 14, 'f', 0).arg(QLatin1String(nameOf(t.algorithm)), 13)
                               .arg(QLatin1String(nameOf(t.protocol)), 8).arg(t.seconds * 1e6, 13, 'f', 2).arg(t.algBytesPerSecond / 1e9, 13, 'f', 2)
                               .arg(t.busBytesPerSecond / 1e9, 13, 'f', 2);
                }
            }
        }
    }
    if (format == QLatin1String("json"))
        writeJson(out, QJsonObject{{QStringLiteral("ranks"), ranks},
                                   {QStringLiteral("ranks_per_node"), group.ranksPerNode},
                                   {QStringLiteral("results"), rows}});
    if (applicable == 0) {
        // Say why the table is empty rather than print nothing (NVLS needs an NVSwitch node of
        // NVLink 4 or later and more than two ranks a node; in-network reduction needs SHARP and
        // ranks on more than one node; the hierarchical ring needs several nodes; PAT runs all-gather
        // and reduce-scatter with one rank a node).
        const bool patAsked = algorithms.size() == 1 && algorithms.front() == Algorithm::Pat;
        err << QStringLiteral("--algorithm: no requested algorithm runs on %1 ranks (%2 a node) of this cluster%3; try "
                              "--algorithm auto or all\n")
                   .arg(ranks)
                   .arg(group.ranksPerNode)
                   .arg(patAsked ? QStringLiteral(" (pat runs all_gather and reduce_scatter only, and only with one rank "
                                                  "a node, as on a cluster of gpus_per_node 1)")
                                 : QString());
        return kExitInfeasible;
    }
    return kExitOk;
}

// A plan row: the scenario file's plan section (framework resolved, and the gradient type it
// implied, so the row pasted into a scenario gives the same figures), the training choices the
// search varies, and the figures.
QJsonObject planRowToJson(const PlanCandidate &c)
{
    const Breakdown &b = c.breakdown;
    const Plan &plan = c.scenario.plan;
    QJsonObject row = planToJson(plan);
    row.insert(QStringLiteral("framework"), QLatin1String(nameOf(resolveFramework(plan))));
    if (plan.gradReduce == GradReduce::Auto)
        row.insert(QStringLiteral("grad_reduce"),
                   QLatin1String(gradientReduceElementBytes(plan.framework, c.scenario.training.precision, plan.gradReduce, plan.pp) >= 4
                                     ? nameOf(GradReduce::Fp32)
                                     : nameOf(GradReduce::Bf16)));
    const std::pair<const char *, QJsonValue> more[] = {
        {"micro_batch", c.scenario.training.microBatch},
        // The software the figures assumed, resolved from the given plan's framework (the search
        // keeps it): a row pasted back gives the same figures under another framework too.
        {"kernels", QLatin1String(nameOf(c.scenario.training.kernels))},
        {"cross_entropy", QLatin1String(nameOf(c.scenario.training.crossEntropy))},
        {"recompute", QLatin1String(nameOf(c.scenario.training.recompute))},
        {"recompute_layers", c.scenario.training.recomputeLayers},
        {"offload_layers", c.scenario.training.offloadLayers},
        {"step_time_s", b.stepSeconds},
        {"train_time_s", c.trainSeconds},
        // null where failures outpace checkpoints (no progress: economics() says so)
        {"train_time_with_failures_s", c.trainSecondsWithFailures > 0 ? QJsonValue(c.trainSecondsWithFailures) : QJsonValue()},
        {"cost_usd", c.trainSecondsWithFailures > 0 ? QJsonValue(c.costUsd) : QJsonValue()},
        {"mfu", c.scenario.training.computeSecondsOverride > 0 ? QJsonValue() : QJsonValue(c.mfu)},   // none for a given compute time
        {"memory_per_gpu_bytes", c.memoryBytes},
        {"communication_fraction", c.communicationFraction},
        {"pipeline_efficiency", c.pipelineEfficiency},
        {"compute_s", b.computeSeconds},
        {"tp_comm_exposed_s", b.tpCommExposedSeconds},
        {"cp_comm_exposed_s", b.cpCommExposedSeconds},
        {"ep_comm_exposed_s", b.epCommExposedSeconds},
        {"pp_bubble_s", b.ppBubbleSeconds},
        {"dp_comm_exposed_s", b.dpCommExposedSeconds}};
    for (const auto &[key, value] : more)
        row.insert(QLatin1String(key), value);
    return row;
}

int runPlan(const Options &o, const LoadedScenario &loaded, QTextStream &out, QTextStream &err)
{
    QString error;
    const QString format = formatOf(o, &error, QStringLiteral("text"));
    PlanSearchOptions options;
    if (error.isEmpty() && o.values.contains(QStringLiteral("top"))) {
        bool ok = false;
        options.top = o.values.value(QStringLiteral("top")).toInt(&ok);
        if (!ok || options.top < 1 || options.top > 10000)
            error = QStringLiteral("--top must be a whole number from 1 to 10000");
    }
    if (!error.isEmpty()) {
        err << "trainscope: " << error << "\n";
        return kExitUsage;
    }
    const PlanSearchResult r = searchPlans(loaded.scenario, options);
    if (format == QLatin1String("json")) {
        QJsonArray plans;
        for (const PlanCandidate &c : r.best)
            plans.append(planRowToJson(c));
        writeJson(out, QJsonObject{{QStringLiteral("evaluated"), double(r.evaluated)},
                                   {QStringLiteral("feasible"), double(r.feasible)},
                                   {QStringLiteral("fitting"), double(r.fitting)},
                                   {QStringLiteral("seconds"), r.seconds},
                                   {QStringLiteral("plans"), plans}});
    } else if (format == QLatin1String("csv")) {
        const QStringList keys = planRowToJson(PlanCandidate{}).keys();
        out << keys.join(QLatin1Char(',')) << '\n';
        for (const PlanCandidate &c : r.best) {
            const QJsonObject row = planRowToJson(c);
            QStringList cells;
            for (const QString &k : keys)
                cells << row.value(k).toVariant().toString();
            out << cells.join(QLatin1Char(',')) << '\n';
        }
    } else {
        out << QStringLiteral("Evaluated %1 plans in %2 (%3 valid, %4 fit in memory); best %5 by time to train:\n")
                   .arg(r.evaluated).arg(fmt::seconds(r.seconds)).arg(r.feasible).arg(r.fitting).arg(r.best.size());
        // The CP column names the K/V exchange when it is not the ring ("8 allgather").
        int cpWidth = 4;
        for (const PlanCandidate &c : r.best)
            cpWidth = std::max(cpWidth, int(fmt::contextParallel(c.scenario.plan).size()));
        // Mixture-of-experts models add the expert-parallel degree to the CP column: "1 ep8".
        if (loaded.scenario.workload.experts > 0)
            cpWidth += 6;
        const auto cpText = [&](const Plan &p) {
            return loaded.scenario.workload.experts > 0 ? fmt::contextParallel(p) + QStringLiteral(" ep%1").arg(p.ep)
                                                        : fmt::contextParallel(p);
        };
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13\n")
                   .arg(QStringLiteral("framework"), -9).arg(QStringLiteral("TP"), 4).arg(QStringLiteral("PP"), 4).arg(QStringLiteral("DP"), 6).arg(QStringLiteral("CP"), cpWidth)
                   .arg(QStringLiteral("b"), 3).arg(QStringLiteral("schedule"), -16).arg(QStringLiteral("split"), -9)
                   .arg(QStringLiteral("overlap"), -8).arg(QStringLiteral("ZeRO"), 7).arg(QStringLiteral("recompute"), -10)
                   .arg(QStringLiteral("step"), 10).arg(QStringLiteral("train (with failures) / MFU / memory"), -30);
        const PlanCandidate *withoutFailures = nullptr;   // a row whose economics failed: footnoted
        for (const PlanCandidate &c : r.best) {
            const Plan &p = c.scenario.plan;
            if (!c.economicsProblem.field.empty() && !withoutFailures)
                withoutFailures = &c;
            out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12 %13\n")
                       .arg(QLatin1String(nameOf(resolveFramework(p))), -9).arg(p.tp, 4).arg(p.pp, 4).arg(p.dp, 6).arg(cpText(p), cpWidth).arg(c.scenario.training.microBatch, 3)
                       .arg(fmt::schedule(p), -16).arg(fmt::pipelineSplit(p), -9).arg(fmt::overlaps(p), -8)
                       .arg(fmt::sharding(p), 7).arg(QString::fromStdString(recomputeText(c.scenario.training)), -10)
                       .arg(fmt::seconds(c.breakdown.stepSeconds), 10)
                       // As the app's plan table: the calendar time, failures and checkpoints included.
                       .arg(fmt::duration(c.calendarTrainSeconds()) + (c.economicsProblem.field.empty() ? QString() : QStringLiteral("*"))
                            + QStringLiteral(" / ") + fmt::mfu(c.mfu, c.scenario.training.computeSecondsOverride <= 0) + QStringLiteral(" / ")
                            + fmt::memory(c.memoryBytes));
        }
        if (withoutFailures)
            out << "* without failures: " << QString::fromStdString(withoutFailures->economicsProblem.field) << ": "
                << QString::fromStdString(withoutFailures->economicsProblem.message) << "\n";
    }
    if (r.best.empty()) {
        err << "trainscope: no plan fits in memory on this cluster\n";
        return kExitInfeasible;
    }
    return kExitOk;
}

int runCalibrate(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QStringList logs;
    QString format = QStringLiteral("text"), op, applyPath, outputPath, ranksText, perNodeText, algorithmText;
    for (int i = 2; i < args.size(); ++i) {
        const QString a = args[i];
        auto value = [&](QString *target) {
            if (i + 1 >= args.size())
                return false;
            *target = args[++i];
            return true;
        };
        bool ok = true;
        if (a == QLatin1String("--format"))
            ok = value(&format);
        else if (a == QLatin1String("--op"))
            ok = value(&op);
        else if (a == QLatin1String("--apply"))
            ok = value(&applyPath);
        else if (a == QLatin1String("--output") || a == QLatin1String("-o"))
            ok = value(&outputPath);
        else if (a == QLatin1String("--ranks"))
            ok = value(&ranksText);
        else if (a == QLatin1String("--gpus-per-node"))
            ok = value(&perNodeText);
        else if (a == QLatin1String("--algorithm"))
            ok = value(&algorithmText);
        else if (a.startsWith(QLatin1String("--"))) {
            err << "trainscope: unknown option " << a << " for calibrate\n" << usage();
            return kExitUsage;
        } else
            logs << a;
        if (!ok) {
            err << "trainscope: option " << a << " needs a value\n";
            return kExitUsage;
        }
    }
    if (logs.isEmpty() || (format != QLatin1String("text") && format != QLatin1String("json"))
        || (!applyPath.isEmpty() && outputPath.isEmpty())) {
        err << "trainscope: calibrate needs at least one log, --format text|json, and --output with --apply\n" << usage();
        return kExitUsage;
    }
    // NCCL_ALGO the logs were measured with, when their NCCL INFO lines do not say.
    Algorithm fitAlgorithm = Algorithm::Auto;
    if (!algorithmText.isEmpty()) {
        bool known = false;
        for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::Pat, Algorithm::Auto})
            if (algorithmText.compare(QLatin1String(nameOf(a)), Qt::CaseInsensitive) == 0) {
                fitAlgorithm = a;
                known = true;
            }
        if (!known) {
            err << "trainscope: --algorithm must be ring, tree, nvls, pat or auto (NCCL_ALGO of the run)\n";
            return kExitUsage;
        }
    }
    LogTopology topology;
    for (auto [text, target, name] : {std::tuple{&ranksText, &topology.ranks, "--ranks"},
                                      std::tuple{&perNodeText, &topology.gpusPerNode, "--gpus-per-node"}}) {
        if (text->isEmpty())
            continue;
        bool ok = false;
        *target = text->toInt(&ok);
        if (!ok || *target < 1 || *target > 1 << 20) {
            err << "trainscope: " << name << " must be a whole number between 1 and 1048576 (got " << *text << ")\n";
            return kExitUsage;
        }
    }
    // The topology and the links to fit: the scenario given with --apply, else the default scenario.
    // (the built-in default scenario when it is compiled in, else the model's defaults).
    Scenario base;
    {
        ScenarioError ignored;
        if (auto builtIn = loadScenarioFile(QStringLiteral(":/scenarios/default.json"), &ignored))
            base = builtIn->scenario;
    }
    std::optional<LoadedScenario> loaded;
    if (!applyPath.isEmpty()) {
        ScenarioError error;
        loaded = loadScenarioFile(applyPath, &error);
        if (!loaded) {
            err << "trainscope: " << applyPath << ": " << error.text() << "\n";
            return kExitUsage;
        }
        base = loaded->scenario;
    }
    if (topology.gpusPerNode > 0)
        base.cluster.gpusPerNode = topology.gpusPerNode;
    std::vector<TierFit> fits;
    for (const QString &path : logs) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            err << "trainscope: cannot open " << path << ": " << file.errorString() << "\n";
            return kExitUsage;
        }
        std::vector<NcclLog> parsed;
        ParseError error;
        if (!parseNcclLogs(file.readAll().toStdString(), QFileInfo(path).fileName().toStdString(), &parsed, &error,
                           op.toStdString(), topology)) {
            err << "trainscope: " << QString::fromStdString(error.message) << "\n";
            return kExitUsage;
        }
        if (parsed.size() > 1)
            err << "trainscope: " << path << " holds " << parsed.size() << " tables; each is fitted on its own\n";
        for (const NcclLog &log : parsed) {
            fits.push_back(fitTier(log, base.cluster, fitAlgorithm));
            if (!fits.back().error.empty()) {
                err << "trainscope: " << path << ": " << QString::fromStdString(fits.back().error) << "\n";
                return kExitUsage;
            }
        }
    }
    if (!loaded && format == QLatin1String("text"))
        out << QStringLiteral("# fitted against the default scenario's cluster (%1 within nodes, %2 between): "
                              "give --apply SCENARIO.json to fit your own topology and links\n")
                   .arg(QString::fromStdString(base.cluster.intraNode.name), QString::fromStdString(base.cluster.interNode.name));
    if (format == QLatin1String("json")) {
        QJsonArray tiers;
        for (const TierFit &f : fits) {
            QJsonArray notes;
            for (const std::string &n : f.notes)
                notes.append(QString::fromStdString(n));
            tiers.append(QJsonObject{{QStringLiteral("tier"), QString::fromStdString(f.tier)},
                                     {QStringLiteral("source"), QString::fromStdString(f.source)},
                                     {QStringLiteral("collective"), QLatin1String(nameOf(f.collective))},
                                     {QStringLiteral("ranks"), f.ranks},
                                     {QStringLiteral("ranks_per_node"), f.ranksPerNode},
                                     {QStringLiteral("points"), f.points},
                                     {QStringLiteral("latency_s"), f.latencySeconds},
                                     {QStringLiteral("latency_identified"), f.latencyIdentified},
                                     {QStringLiteral("link_bandwidth_bytes_per_s"), f.linkBytesPerSecond},
                                     {QStringLiteral("line_rate_bytes_per_s"), f.lineRateBytesPerSecond},
                                     {QStringLiteral("capped_at_line_rate"), f.cappedAtLineRate},
                                     {QStringLiteral("busbw_bytes_per_s"), f.busBytesPerSecond},
                                     {QStringLiteral("bandwidth_bytes_per_s"), f.bandwidthBytesPerSecond},
                                     {QStringLiteral("residual_rms_relative"), f.rmsRelativeResidual},
                                     {QStringLiteral("residual_max_relative"), f.maxRelativeResidual},
                                     {QStringLiteral("notes"), notes}});
        }
        writeJson(out, QJsonObject{{QStringLiteral("tiers"), tiers}});
    } else {
        for (const TierFit &f : fits) {
            out << QStringLiteral("%1 (%2, %3, %4 ranks, %5 per node, %6 sizes): latency %7 per step%8; link %9 per "
                                  "direction (%10 of its %11 line rate); busbw %12; residuals rms %13, max %14\n")
                       .arg(QString::fromStdString(f.tier), QString::fromStdString(f.source), QLatin1String(nameOf(f.collective)))
                       .arg(f.ranks).arg(f.ranksPerNode).arg(f.points)
                       .arg(fmt::seconds(f.latencySeconds), f.latencyIdentified ? QString() : QStringLiteral(" (kept: not identifiable)"),
                            fmt::bandwidth(f.linkBytesPerSecond), fmt::percent(f.linkBytesPerSecond / f.lineRateBytesPerSecond),
                            fmt::bandwidth(f.lineRateBytesPerSecond), fmt::bandwidth(f.busBytesPerSecond),
                            fmt::percent(f.rmsRelativeResidual), fmt::percent(f.maxRelativeResidual));
            for (const std::string &n : f.notes)
                out << "  note: " << QString::fromStdString(n) << "\n";
        }
    }
    if (loaded) {
        for (const TierFit &f : fits)
            applyFit(loaded->scenario.cluster, f);
        QString saveError;
        if (!saveScenarioFile(outputPath, scenarioToJson(loaded->scenario, loaded->name, loaded->description), &saveError)) {
            err << "trainscope: " << outputPath << ": " << saveError << "\n";
            return kExitUsage;
        }
    }
    return kExitOk;
}

} // namespace

// A first argument that names no file and has neither a directory nor an extension in it is a
// subcommand, even a mistyped one: `trainscope evl x.json` says so instead of opening a window that
// cannot load "evl".
bool looksLikeSubcommand(const QString &first)
{
    return !first.isEmpty() && !first.startsWith(QLatin1Char('-')) && !first.contains(QLatin1Char('/'))
           && !first.contains(QLatin1Char('.')) && !QFileInfo::exists(first);
}

bool isCommandLineInvocation(const QStringList &arguments)
{
    return arguments.size() > 1 && (kSubcommands.contains(arguments[1]) || looksLikeSubcommand(arguments[1]));
}

int runCommandLine(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QString sub = args.value(1);
    if (sub == QLatin1String("help") || sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out << usage();
        return kExitOk;
    }
    if (sub == QLatin1String("--version")) {
        out << "trainscope " << TRAINSCOPE_VERSION << "\n";
        return kExitOk;
    }
    if (!kSubcommands.contains(sub)) {
        err << "trainscope: unknown subcommand \"" << sub << "\" (the subcommands are eval, sweep, plan, collectives, "
            << "calibrate and report; a scenario file to open in the window is a path such as " << sub << ".json)\n";
        return kExitUsage;
    }
    if (sub == QLatin1String("calibrate"))
        return runCalibrate(args, out, err);
    if (sub == QLatin1String("report")) {   // handled by main(), which creates the widgets it needs
        err << "trainscope: report is run by the trainscope executable\n";
        return kExitUsage;
    }
    QStringList allowed{QStringLiteral("format")};
    if (sub == QLatin1String("sweep"))
        allowed << QStringLiteral("gpus") << QStringLiteral("mode");
    if (sub == QLatin1String("plan"))
        allowed << QStringLiteral("top");
    if (sub == QLatin1String("collectives"))
        allowed << QStringLiteral("size") << QStringLiteral("ranks") << QStringLiteral("op") << QStringLiteral("algorithm")
                << QStringLiteral("protocol");
    const Options o = parseOptions(args, allowed);
    if (!o.error.isEmpty()) {
        err << "trainscope: " << o.error << "\n" << usage();
        return kExitUsage;
    }
    ScenarioError error;
    const auto loaded = loadScenarioFile(o.scenarioPath, &error);
    if (!loaded) {
        err << "trainscope: " << o.scenarioPath << ": " << error.text() << "\n";
        return kExitUsage;
    }
    if (sub == QLatin1String("eval"))
        return runEval(o, *loaded, out, err);
    if (sub == QLatin1String("sweep"))
        return runSweep(o, *loaded, out, err);
    if (sub == QLatin1String("plan"))
        return runPlan(o, *loaded, out, err);
    return runCollectives(o, *loaded, out, err);
}

} // namespace ts
