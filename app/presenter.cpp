// SPDX-License-Identifier: MIT
#include "presenter.h"

#include "fields.h"

#include "collectives.h"
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

// MFU that published large runs reach on H100/A100 (Megatron-LM and NeMo tables: 38-49%; SC21 A100:
// 44-52% hardware): below 35% is worth a look, below 20% something is off.
constexpr double kMfuGood = 0.35, kMfuPoor = 0.2;
constexpr double kCommWarn = 0.3, kCommBad = 0.5;
constexpr double kPipelineWarn = 0.8;
} // namespace

QList<CardData> headlineCards(const Scenario &s, const Evaluation &e, const Economics &x)
{
    const Breakdown &b = e.breakdown;
    QList<CardData> cards;
    cards << CardData{QStringLiteral("step_time_s"), tr("Step time"), fmt::seconds(b.stepSeconds),
                      tr("p99 %1 · %2 micro-batches").arg(fmt::seconds(e.stepP99Seconds)).arg(e.microBatches)};
    if (e.flopsApplicable) {
        CardData mfu{QStringLiteral("mfu"), tr("MFU"), fmt::percent(e.mfu),
                     tr("%1 hardware (Eq. 3) · %2").arg(fmt::flops(e.hardwareFlopsPerSecondPerGpu), QLatin1String(nameOf(e.framework)))};
        mfu.tone = e.mfu >= kMfuGood ? CardData::Normal : e.mfu >= kMfuPoor ? CardData::Warn : CardData::Bad;
        // The bands are dense runs' against BF16 and FP8 peaks; tuned mixture-of-experts runs publish
        // far less (Megatron-Bridge's Qwen3 MoE tables: 10-27% of the FP8 peak), and so do NVFP4 runs
        // against the FP4 peak (its Llama tables: 20-24%), so no colour for them.
        if (s.workload.experts > 0 || (s.training.precision == Precision::Fp8 && s.training.fp8Recipe == Fp8Recipe::Nvfp4))
            mfu.tone = CardData::Normal;
        if (mfu.tone != CardData::Normal)   // the colour says why
            mfu.detail += QStringLiteral(" · ") + tr("below the %1 that tuned large runs reach").arg(fmt::percent(kMfuGood, 0));
        cards << mfu;
    } else {
        // A given compute time says nothing about FLOPs: utilisation is not defined.
        cards << CardData{QStringLiteral("mfu"), tr("MFU"), tr("n/a"), tr("compute time is given, not computed")};
    }
    cards << CardData{QStringLiteral("tokens_per_s"), tr("Throughput"), fmt::count(e.tokensPerSecond) + tr(" tok/s"),
                      tr("%1 tokens per step").arg(fmt::count(e.tokensPerStep))};
    if (x.valid) {   // with failures and checkpoints: what the calendar will show
        cards << CardData{QStringLiteral("goodput.train_time_s"), tr("Time to train"), fmt::duration(x.goodput.trainSeconds),
                          tr("%1 tokens on %2 GPUs · %3 goodput, %4 interruptions")
                              .arg(fmt::count(s.training.tokens))
                              .arg(s.cluster.gpus)
                              .arg(fmt::percent(x.goodput.effectiveFraction), QString::number(qRound64(x.goodput.interruptions)))};
        cards << CardData{QStringLiteral("cost.total_usd"), tr("Cost"), QStringLiteral("$") + fmt::count(x.cost.totalUsd),
                          tr("%1 GPU-hours at $%2 · %3")
                              .arg(fmt::count(x.cost.gpuHours), QString::number(x.cost.pricePerGpuHour, 'f', 2),
                                   fmt::energy(x.energy.energyMegawattHours * 3.6e9))};
    } else {
        cards << CardData{QStringLiteral("train_time_s"), tr("Time to train"), fmt::duration(e.trainSeconds),
                          tr("%1 tokens on %2 GPUs").arg(fmt::count(s.training.tokens)).arg(s.cluster.gpus)};
        cards << CardData{QStringLiteral("train_gpu_hours"), tr("GPU-hours"), fmt::count(e.gpuHours),
                          tr("%1 steps").arg(fmt::count(e.stepsToTrain))};
    }
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
                 e.memory.totalBytes > e.memory.capacityBytes ? tr("does not fit in HBM")
                 : e.memory.offloadedBytes > e.memory.hostCapacityBytes
                     ? tr("offloaded %1 GiB exceeds host memory").arg(e.memory.offloadedBytes / units::kBytesPerGiB, 0, 'f', 1)
                 : e.memory.offloadedBytes > 0
                     ? tr("fits in HBM · %1 GiB in host memory").arg(e.memory.offloadedBytes / units::kBytesPerGiB, 0, 'f', 1)
                     : tr("fits in HBM")};
    mem.tone = e.memory.fits ? CardData::Normal : CardData::Bad;
    cards << mem;
    return cards;
}

QList<StepTimeBar> stepTimeVariants(const Analysis &a)
{
    QList<StepTimeBar> bars;
    for (const StepVariant &v : a.stepVariants) {
        const QString detail = QString::fromStdString(v.detail);
        switch (v.kind) {
        case StepVariantKind::Current: bars << StepTimeBar{tr("Current plan"), tr("The plan as set"), v.breakdown, true}; break;
        case StepVariantKind::OverlapToggled:
            bars << StepTimeBar{a.scenario.plan.overlapDp ? tr("Overlap off") : tr("Overlap on"),
                                tr("Gradient sync overlapped with backward toggled"), v.breakdown, false};
            break;
        case StepVariantKind::FasterNetwork:
            bars << StepTimeBar{tr("Network: %1").arg(detail), tr("On the next faster inter-node link preset, %1").arg(detail), v.breakdown, false};
            break;
        case StepVariantKind::InNetworkReduction:
            bars << StepTimeBar{tr("In-network reduction"), tr("SHARP: switches reduce gradients in flight"), v.breakdown, false};
            break;
        case StepVariantKind::RecommendedFix: bars << StepTimeBar{tr("Recommended fix"), detail, v.breakdown, false}; break;
        }
    }
    return bars;
}

ScalingChartData scalingData(const Analysis &a)
{
    auto curves = [&](const ScalingAnalysis &x) {
        ScalingCurves d;
        for (size_t i = 0; i < x.points.size(); ++i) {
            const ScalingPoint &p = x.points[i];
            d.gpus.push_back(p.gpus);
            d.speedup.push_back(p.feasible ? p.speedup : std::nan(""));
            d.efficiency.push_back(p.feasible ? p.efficiency : std::nan(""));
            d.ideal.push_back(p.gpus);
            d.amdahl.push_back(x.amdahl[i]);
            d.gustafson.push_back(x.gustafson[i]);
            d.problems.push_back(p.feasible ? Problem{} : p.problem);
            if (p.gpus == a.scenario.cluster.gpus) {
                d.currentSpeedup = d.speedup.back();
                d.currentEfficiency = d.efficiency.back();
            }
        }
        return d;
    };
    ScalingChartData d;
    d.weak = curves(a.scaling);
    d.strong = curves(a.strongScaling);
    d.currentGpus = a.scenario.cluster.gpus;
    d.serialFraction = a.scaling.serialFraction;
    return d;
}

QList<MemoryBar> memoryBars(const Analysis &a)
{
    QList<MemoryBar> bars;
    for (const MemoryVariant &v : a.memoryVariants) {
        switch (v.kind) {
        case MemoryVariantKind::Current: bars << MemoryBar{tr("Current"), v.memory, true}; break;
        case MemoryVariantKind::ZeroStage: bars << MemoryBar{tr("ZeRO-%1").arg(v.zeroStage), v.memory, false}; break;
        case MemoryVariantKind::FullRecompute:   // short: five labels share the category axis
            bars << MemoryBar{tr("Recomp."), v.memory, false};
            break;
        }
    }
    return bars;
}

QString collectivesTitle(const Analysis &a)
{
    return tr("Collectives across all %1 GPUs (%2 per node) on this fabric, nccl-tests definitions")
        .arg(a.collectivesGroup.ranks)
        .arg(a.collectivesGroup.ranksPerNode);
}

QList<CollectiveRow> collectiveRows(const Analysis &a)
{
    QList<CollectiveRow> rows;
    for (const CollectiveEntry &c : a.collectives)
        rows << CollectiveRow{QLatin1String(nameOf(c.collective)),
                              QStringLiteral("%1 / %2").arg(QLatin1String(nameOf(c.algorithm)), QLatin1String(nameOf(c.protocol))),
                              c.bytes, c.time.seconds, c.time.algBytesPerSecond, c.time.busBytesPerSecond,
                              QString::fromLatin1(busBandwidthMeaning(c.algorithm))};
    return rows;
}

QList<WarningItem> warningItems(const Analysis &a)
{
    QList<WarningItem> items;
    for (size_t i = 0; i < a.warnings.size(); ++i) {
        const WarningText &t = a.warnings[i];
        items << WarningItem{QString::fromStdString(t.code), QString::fromStdString(t.message),
                             QString::fromStdString(t.recommendation), a.evaluation.warnings[i].changeCount > 0};
    }
    return items;
}

QString problemInWords(const Problem &problem)
{
    const Field f = fieldForKey(problem.field);
    const QString words = f != Field::None ? QString::fromLatin1(fieldInfo(f).name) : QString::fromStdString(problem.field);
    return tr("%1: %2").arg(words, QString::fromStdString(problem.message));
}

WarningItem invalidPlanItem(const Problem &problem, bool canRepair)
{
    return {QStringLiteral("invalid_plan"), tr("The plan cannot run. %1").arg(problemInWords(problem)),
            canRepair ? tr("Repair moves the input to the nearest value that runs (undoable); the figures shown are the last "
                           "valid plan's.")
                      : tr("Change the input named above; the figures shown are the last valid plan's."),
            canRepair, true};
}

ExplanationText explanationText(const Explanation &x)
{
    if (x.id.empty())
        return {QString(), tr("(no formula recorded for this figure)"), {}, {}, {}};
    auto q = [](const std::string &t) { return QString::fromStdString(t); };
    return {q(x.title), q(x.formula), q(x.substituted), q(x.result), q(x.source)};
}

} // namespace ts
