// SPDX-License-Identifier: MIT
#include "presenter.h"

#include "collectives.h"
#include "evaluate.h"
#include "explain.h"
#include "formatting.h"
#include "presets.h"
#include "scaling.h"
#include "scenarioedit.h"
#include "units.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace ts {

namespace {
QString tr(const char *text) { return QCoreApplication::translate("Presenter", text); }

constexpr double kMfuGood = 0.35, kMfuPoor = 0.2;
constexpr double kCommWarn = 0.3, kCommBad = 0.5;
constexpr double kPipelineWarn = 0.8;
constexpr int kScalingDecadesUp = 6;     // powers of two above the current GPU count
constexpr int kScalingDecadesDown = 5;
} // namespace

QList<CardData> headlineCards(const Scenario &s, const Evaluation &e)
{
    const Breakdown &b = e.breakdown;
    QList<CardData> cards;
    cards << CardData{QStringLiteral("step_time_s"), tr("Step time"), fmt::seconds(b.stepSeconds),
                      tr("p99 %1 · %2 micro-batches").arg(fmt::seconds(e.stepP99Seconds)).arg(e.microBatches)};
    if (e.flopsApplicable) {
        CardData mfu{QStringLiteral("mfu"), tr("MFU"), fmt::percent(e.mfu),
                     tr("%1 hardware (Eq. 3) · %2").arg(fmt::flops(e.hardwareFlopsPerSecondPerGpu), QLatin1String(nameOf(e.framework)))};
        mfu.tone = e.mfu >= kMfuGood ? CardData::Normal : e.mfu >= kMfuPoor ? CardData::Warn : CardData::Bad;
        cards << mfu;
    } else {
        // A given compute time says nothing about FLOPs: utilisation is not defined.
        cards << CardData{QStringLiteral("mfu"), tr("MFU"), tr("n/a"), tr("compute time is given, not computed")};
    }
    cards << CardData{QStringLiteral("tokens_per_s"), tr("Throughput"), fmt::count(e.tokensPerSecond) + tr(" tok/s"),
                      tr("%1 tokens per step").arg(fmt::count(e.tokensPerStep))};
    cards << CardData{QStringLiteral("train_time_s"), tr("Time to train"), fmt::duration(e.trainSeconds),
                      tr("%1 tokens on %2 GPUs").arg(fmt::count(s.training.tokens)).arg(s.cluster.gpus)};
    cards << CardData{QStringLiteral("train_gpu_hours"), tr("GPU-hours"), fmt::count(e.gpuHours),
                      tr("%1 steps").arg(fmt::count(e.stepsToTrain))};
    CardData comm{QStringLiteral("communication_fraction"), tr("Communication"), fmt::percent(e.communicationFraction),
                  tr("exposed share of the step")};
    comm.tone = e.communicationFraction > kCommBad ? CardData::Bad : e.communicationFraction > kCommWarn ? CardData::Warn : CardData::Normal;
    cards << comm;
    CardData pipe{QStringLiteral("pipeline_efficiency"), tr("Pipeline efficiency"), fmt::percent(e.pipelineEfficiency),
                  s.plan.pp > 1 ? tr("bubble %1 of pipeline time").arg(fmt::percent(e.ppBubbleFraction)) : tr("no pipeline (PP = 1)")};
    pipe.tone = e.pipelineEfficiency < kPipelineWarn ? CardData::Warn : CardData::Normal;
    cards << pipe;
    CardData mem{QStringLiteral("memory_per_gpu_bytes"), tr("Memory per GPU"),
                 QStringLiteral("%1 / %2 GiB").arg(e.memory.totalBytes / units::kBytesPerGiB, 0, 'f', 1)
                     .arg(e.memory.capacityBytes / units::kBytesPerGiB, 0, 'f', 0),
                 e.memory.fits ? tr("fits in HBM") : tr("does not fit in HBM")};
    mem.tone = e.memory.fits ? CardData::Normal : CardData::Bad;
    cards << mem;
    return cards;
}

QList<StepTimeBar> stepTimeVariants(const Scenario &s, const Evaluation &e)
{
    QList<StepTimeBar> bars;
    bars << StepTimeBar{tr("Current plan"), tr("The plan as set"), e.breakdown, true};
    QList<Scenario> shown{s};   // a variant that repeats one already shown (e.g. the fix) adds no bar
    auto add = [&](const QString &label, const QString &tooltip, const Scenario &variant) {
        if (shown.contains(variant))
            return;
        shown << variant;
        const Evaluation ve = evaluateForSearch(variant);   // only the breakdown is drawn
        if (ve.feasible)
            bars << StepTimeBar{label, tooltip, ve.breakdown, false};
    };
    Scenario overlap = s;
    overlap.plan.overlapDp = !s.plan.overlapDp;
    add(s.plan.overlapDp ? tr("Overlap off") : tr("Overlap on"), tr("Gradient sync overlapped with backward toggled"), overlap);

    // Next faster inter-node RDMA link among the presets (parsed once).
    struct LinkPreset
    {
        QString name;
        double achievableBytesPerSecond;
        bool rdma;
    };
    static const QList<LinkPreset> interLinks = [] {
        QList<LinkPreset> out;
        const Presets &presets = Presets::builtin();
        for (const QString &name : presets.names(Presets::Links)) {
            if (presets.find(Presets::Links, name).value(QLatin1String("tier")).toString() != QLatin1String("inter_node"))
                continue;
            Scenario probe;
            if (applyPreset(&probe, QStringLiteral("inter_node"), name, nullptr))
                out << LinkPreset{name, probe.cluster.interNode.bytesPerSecond * probe.cluster.interNode.efficiency,
                                  probe.cluster.transport == Transport::Rdma};
        }
        return out;
    }();
    double best = std::numeric_limits<double>::infinity();
    QString bestName;
    const double current = s.cluster.interNode.bytesPerSecond * s.cluster.interNode.efficiency;
    for (const LinkPreset &link : interLinks)
        if (link.rdma && link.achievableBytesPerSecond > current * 1.01 && link.achievableBytesPerSecond < best) {
            best = link.achievableBytesPerSecond;
            bestName = link.name;
        }
    if (!bestName.isEmpty()) {
        Scenario faster = s;
        applyPreset(&faster, QStringLiteral("inter_node"), bestName, nullptr);
        add(tr("Faster network (%1)").arg(bestName), tr("Next faster inter-node link preset"), faster);
    }
    if (!s.cluster.inNetworkReduction && s.cluster.gpus > s.cluster.gpusPerNode) {
        Scenario sharp = s;
        sharp.cluster.inNetworkReduction = true;
        add(tr("In-network reduction"), tr("SHARP: switches reduce gradients in flight"), sharp);
    }
    for (int i = 0; i < e.warningCount; ++i) {
        const Warning &w = e.warnings[size_t(i)];
        if (w.changeCount == 0)
            continue;
        add(tr("Recommended fix"), QString::fromStdString(describe(w, s).recommendation), applyWarning(s, w));
        break;
    }
    return bars;
}

ScalingChartData scalingData(const Scenario &s, const Evaluation &e)
{
    ScalingChartData d;
    const int modelParallel = s.plan.tp * s.plan.pp * s.plan.cp;
    std::vector<int> counts;
    for (int k = -kScalingDecadesDown; k <= kScalingDecadesUp; ++k) {
        const double g = s.cluster.gpus * std::pow(2.0, k);
        if (g >= modelParallel && g <= 1 << 22 && std::fmod(g, 1.0) == 0 && int(g) % modelParallel == 0)
            counts.push_back(int(g));
    }
    const auto points = scalingSweep(s, counts, ScalingMode::Weak);
    const double serial = e.communicationFraction;
    double base = 0;
    for (const ScalingPoint &p : points) {
        d.gpus.push_back(p.gpus);
        d.speedup.push_back(p.feasible ? p.speedup : std::nan(""));
        d.efficiency.push_back(p.feasible ? p.efficiency : std::nan(""));
        if (base == 0 && p.feasible)
            base = p.gpus;
    }
    if (base == 0)
        base = counts.empty() ? 1 : counts.front();
    for (double g : d.gpus) {
        d.ideal.push_back(g);
        // Reference laws scaled from the first point, with the current communication share as serial part.
        d.amdahl.push_back(base * amdahlSpeedup(serial, g / base));
        d.gustafson.push_back(base * gustafsonSpeedup(serial, g / base));
    }
    d.currentGpus = s.cluster.gpus;
    for (size_t i = 0; i < d.gpus.size(); ++i)
        if (d.gpus[i] == s.cluster.gpus)
            d.currentSpeedup = d.speedup[i];
    d.serialFraction = serial;
    return d;
}

QList<MemoryBar> memoryBars(const Scenario &s, const Evaluation &e)
{
    QList<MemoryBar> bars;
    bars << MemoryBar{tr("Current"), e.memory, true};
    auto add = [&](const QString &label, Scenario variant) {
        if (variant == s)
            return;
        const Evaluation ve = evaluateForSearch(variant);   // only the memory is drawn
        if (ve.feasible)
            bars << MemoryBar{label, ve.memory, false};
    };
    if (s.plan.dp * s.plan.cp > 1)
        for (int stage = 0; stage <= 3; ++stage) {
            Scenario z = s;
            z.plan.zeroStage = stage;
            add(tr("ZeRO-%1").arg(stage), z);
        }
    Scenario full = s;
    full.training.recompute = Recompute::Full;
    add(tr("Recomp."), full);   // full recompute; short: five labels share the category axis
    return bars;
}

QString collectivesTitle(const Scenario &s)
{
    const Group g = groupOf(s.cluster.gpus, 1, s.cluster.gpusPerNode);
    return tr("Collectives across all %1 GPUs (%2 per node) on this fabric, nccl-tests definitions")
        .arg(g.ranks)
        .arg(g.ranksPerNode);
}

QList<CollectiveRow> collectiveRows(const Scenario &s, const Evaluation &e)
{
    QList<CollectiveRow> rows;
    if (s.cluster.gpus < 2 || validate(s))
        return rows;
    const Fabric fabric = fabricOf(s.cluster);
    const Group group = groupOf(s.cluster.gpus, 1, s.cluster.gpusPerNode);
    const double bucket = e.dpBucketBytes > 0 ? std::min(e.dpBucketBytes, e.gradientBytesPerGpu) : e.gradientBytesPerGpu;
    for (double size : {bucket, 1.0 * (1 << 30)}) {
        for (Collective c : kAllCollectives) {
            for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::InNetwork, Algorithm::Hierarchical}) {
                const CollectiveTime t = collectiveTime(c, a, size, group, fabric);
                if (!t.applicable)
                    continue;
                // The protocol NCCL's tuner would take for this algorithm at this size.
                rows << CollectiveRow{QLatin1String(nameOf(c)),
                                      QStringLiteral("%1 / %2").arg(QLatin1String(nameOf(a)), QLatin1String(nameOf(t.protocol))), size,
                                      t.seconds, t.algBytesPerSecond, t.busBytesPerSecond,
                                      QString::fromLatin1(busBandwidthMeaning(a))};
            }
        }
    }
    return rows;
}

QList<WarningItem> warningItems(const Scenario &s, const Evaluation &e)
{
    QList<WarningItem> items;
    for (int i = 0; i < e.warningCount; ++i) {
        const WarningText t = describe(e.warnings[size_t(i)], s);
        items << WarningItem{QString::fromStdString(t.code), QString::fromStdString(t.message),
                             QString::fromStdString(t.recommendation), e.warnings[size_t(i)].changeCount > 0};
    }
    return items;
}

ExplanationText explanationText(const Scenario &s, const Evaluation &e, const QString &id)
{
    const Explanation x = explain(s, e, id.toStdString());
    if (x.id.empty())
        return {id, tr("(no formula recorded for this figure)"), {}, {}, {}};
    auto q = [](const std::string &t) { return QString::fromStdString(t); };
    return {q(x.title), q(x.formula), q(x.substituted), q(x.result), q(x.source)};
}

} // namespace ts
