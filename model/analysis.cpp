// SPDX-License-Identifier: MIT
#include "analysis.h"

#include <cmath>
#include <limits>

namespace ts {

namespace {

std::vector<StepVariant> stepVariants(const Scenario &s, const Evaluation &e, const AnalysisOptions &o)
{
    std::vector<StepVariant> out{{StepVariantKind::Current, {}, e.breakdown}};
    std::vector<Scenario> shown{s};   // a variant that repeats one already shown adds nothing
    auto add = [&](StepVariantKind kind, std::string detail, const Scenario &variant) {
        for (const Scenario &x : shown)
            if (x == variant)
                return;
        shown.push_back(variant);
        const Evaluation ve = evaluateForSearch(variant);   // only the breakdown is drawn
        // A variant whose step is the current one's to 0.1% teaches nothing (SHARP on a plan
        // without inter-node all-reduce, a faster NIC when nothing crosses nodes): left out.
        if (!ve.feasible)
            return;
        // A fix that changes the tokens in a step (a larger global batch) is drawn as the time of
        // this plan's tokens, so that the bars compare the same work.
        Breakdown b = ve.breakdown;
        if (ve.tokensPerStep > 0 && ve.tokensPerStep != e.tokensPerStep) {
            const double k = e.tokensPerStep / ve.tokensPerStep;
            for (double *x : {&b.computeSeconds, &b.tpCommSeconds, &b.tpCommExposedSeconds, &b.cpCommSeconds,
                              &b.cpCommExposedSeconds, &b.epCommSeconds, &b.epCommExposedSeconds, &b.ppBubbleSeconds, &b.ppP2pSeconds, &b.ppP2pExposedSeconds,
                              &b.dpCommSeconds, &b.dpCommExposedSeconds, &b.optimizerSeconds, &b.offloadExposedSeconds,
                              &b.stragglerSeconds, &b.stepSeconds})
                *x *= k;
            detail += " (drawn for this plan's tokens per step)";
        }
        if (std::abs(b.stepSeconds - e.breakdown.stepSeconds) > 1e-3 * e.breakdown.stepSeconds)
            out.push_back({kind, std::move(detail), b});
    };
    Scenario overlap = s;
    overlap.plan.overlapDp = !s.plan.overlapDp;
    add(StepVariantKind::OverlapToggled, {}, overlap);

    // The next faster RDMA inter-node link among the choices.
    const double current = s.cluster.interNode.bytesPerSecond * s.cluster.interNode.efficiency;
    const LinkChoice *best = nullptr;
    for (const LinkChoice &c : o.interNodeLinks) {
        const double rate = c.link.bytesPerSecond * c.link.efficiency;
        if (c.transport == Transport::Rdma && rate > current * 1.01
            && (!best || rate < best->link.bytesPerSecond * best->link.efficiency))
            best = &c;
    }
    if (best) {
        Scenario faster = s;
        faster.cluster.interNode = best->link;
        faster.cluster.transport = best->transport;
        add(StepVariantKind::FasterNetwork, best->name, faster);
    }
    if (!s.cluster.inNetworkReduction && s.cluster.gpus > s.cluster.gpusPerNode) {
        Scenario sharp = s;
        sharp.cluster.inNetworkReduction = true;
        add(StepVariantKind::InNetworkReduction, {}, sharp);
    }
    for (int i = 0; i < e.warningCount; ++i) {
        const Warning &w = e.warnings[size_t(i)];
        if (w.changeCount == 0)
            continue;
        add(StepVariantKind::RecommendedFix, describe(w, s).recommendation, applyWarning(s, w));
        break;
    }
    return out;
}

std::vector<MemoryVariant> memoryVariants(const Scenario &s, const Evaluation &e)
{
    std::vector<MemoryVariant> out{{MemoryVariantKind::Current, s.plan.zeroStage, e.memory}};
    auto add = [&](MemoryVariantKind kind, int zero, const Scenario &variant) {
        if (variant == s)
            return;
        const Evaluation ve = evaluateForSearch(variant);   // only the memory is drawn
        if (ve.feasible)
            out.push_back({kind, zero, ve.memory});
    };
    if (s.plan.dp * s.plan.cp > 1)
        for (int stage = 0; stage <= 3; ++stage) {
            Scenario z = s;
            z.plan.zeroStage = stage;
            add(MemoryVariantKind::ZeroStage, stage, z);
        }
    Scenario full = s;
    full.training.recompute = Recompute::Full;
    full.training.recomputeLayers = 0;   // every layer
    add(MemoryVariantKind::FullRecompute, s.plan.zeroStage, full);
    return out;
}

std::vector<CollectiveEntry> collectiveTable(const Scenario &s, const Evaluation &e, const Group &group)
{
    std::vector<CollectiveEntry> rows;
    if (s.cluster.gpus < 2)
        return rows;
    const Fabric fabric = fabricOf(s.cluster);
    const double bucket = e.dpBucketBytes > 0 ? std::min(e.dpBucketBytes, e.gradientBytesPerGpu) : e.gradientBytesPerGpu;
    for (double size : {bucket, 1.0 * (1 << 30)})
        for (Collective c : kAllCollectives)
            for (Algorithm a : kNamedAlgorithms) {
                const CollectiveTime t = collectiveTime(c, a, size, group, fabric);
                if (t.applicable)
                    rows.push_back({c, a, t.protocol, size, t});
            }
    return rows;
}

ScalingAnalysis scaling(const Scenario &s, const Evaluation &e, const AnalysisOptions &o, ScalingMode mode)
{
    ScalingAnalysis a;
    const int modelParallel = s.plan.tp * s.plan.pp * s.plan.cp;
    std::vector<int> counts;
    for (int k = -o.scalingOctavesDown; k <= o.scalingOctavesUp; ++k) {
        const double g = s.cluster.gpus * std::pow(2.0, k);
        if (g >= modelParallel && g <= (1 << 22) && std::fmod(g, 1.0) == 0 && int(g) % modelParallel == 0)
            counts.push_back(int(g));
    }
    a.points = scalingSweep(s, counts, mode);
    a.serialFraction = e.communicationFraction;
    a.baseGpus = 0;
    for (const ScalingPoint &p : a.points)
        if (p.feasible) {
            a.baseGpus = p.gpus;
            break;
        }
    if (a.baseGpus == 0)
        a.baseGpus = counts.empty() ? 1 : counts.front();
    for (const ScalingPoint &p : a.points) {
        a.amdahl.push_back(a.baseGpus * amdahlSpeedup(a.serialFraction, p.gpus / a.baseGpus));
        a.gustafson.push_back(a.baseGpus * gustafsonSpeedup(a.serialFraction, p.gpus / a.baseGpus));
    }
    return a;
}

} // namespace

Analysis analyse(const Scenario &scenario, const AnalysisOptions &options)
{
    Analysis a;
    a.scenario = scenario;
    const KernelTimesReuse reuse;   // the variants and scaling points share the plan's kernel shapes
    a.evaluation = evaluate(scenario);
    a.degrees = validDegrees(scenario);
    for (int i = 0; i < a.evaluation.warningCount; ++i)
        a.warnings.push_back(describe(a.evaluation.warnings[size_t(i)], scenario));
    if (!a.evaluation.feasible)
        return a;
    a.economics = economics(scenario, a.evaluation);
    a.collectivesGroup = groupOf(scenario.cluster.gpus, 1, scenario.cluster);
    a.collectives = collectiveTable(scenario, a.evaluation, a.collectivesGroup);
    a.stepVariants = stepVariants(scenario, a.evaluation, options);
    a.memoryVariants = memoryVariants(scenario, a.evaluation);
    a.scaling = scaling(scenario, a.evaluation, options, ScalingMode::Weak);
    a.strongScaling = scaling(scenario, a.evaluation, options, ScalingMode::Strong);
    return a;
}

} // namespace ts
