// SPDX-License-Identifier: MIT
#include "planner.h"

#include "economics.h"
#include "memory.h"

#include "evaluate.h"
#include "pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <numeric>
#include <thread>

namespace ts {

namespace {

struct Shape
{
    int tp, pp, cp;
};

bool faster(const PlanCandidate &a, const PlanCandidate &b)
{
    return a.trainSeconds < b.trainSeconds;
}

// Plans that differ only in choices that change nothing (overlap with one DP rank, ZeRO stages
// that shard the same bytes ...) are one row: the same time and memory.
bool samePlanFigures(const PlanCandidate &a, const PlanCandidate &b)
{
    return std::abs(a.trainSeconds - b.trainSeconds) <= 1e-9 * std::max(a.trainSeconds, b.trainSeconds)
           && std::abs(a.memoryBytes - b.memoryBytes) <= 1e-9 * std::max(a.memoryBytes, b.memoryBytes);
}

// Inserts `c` into `list` (fastest first) folding ties, keeping at most `top` rows.
void insertRanked(std::vector<PlanCandidate> &list, const PlanCandidate &c, int top)
{
    auto at = std::lower_bound(list.begin(), list.end(), c, faster);
    for (auto it = at; it != list.end() && it->trainSeconds <= c.trainSeconds * (1 + 1e-9); ++it)
        if (samePlanFigures(*it, c)) {
            it->equivalentPlans += 1 + c.equivalentPlans;
            return;
        }
    if (at != list.begin() && samePlanFigures(*(at - 1), c)) {
        (at - 1)->equivalentPlans += 1 + c.equivalentPlans;
        return;
    }
    list.insert(at, c);
    if (int(list.size()) > top)
        list.pop_back();
}

PlanCandidate candidateOf(const Scenario &s, const Evaluation &e, bool fits)
{
    return {s, e.breakdown, e.trainSeconds, e.mfu, e.memory.totalBytes, e.communicationFraction, e.pipelineEfficiency, fits, 0, 0, {}, 0};
}

// What a plan may use of the HBM: a margin stays free for allocator spikes and what the model leaves out.
double planBudgetBytes(double capacityBytes) { return capacityBytes * (1 - memoryDefaults().planMarginFraction); }

bool fitsWithMargin(const Evaluation &e)
{
    return e.memory.totalBytes <= planBudgetBytes(e.memory.capacityBytes) && e.memory.offloadedBytes <= e.memory.hostCapacityBytes;
}

} // namespace

PlanSearchResult searchPlans(const Scenario &given, const PlanSearchOptions &options,
                             const std::function<bool(double)> &progress)
{
    const auto start = std::chrono::steady_clock::now();
    PlanSearchResult result;
    // The search changes the plan, not the model's code: how its memory-bound kernels run and its
    // loss kernel are the user's software (eager PyTorch, torch.compile, Megatron's fused kernels),
    // so `auto` is resolved once under the scenario's own framework and kept for every candidate.
    // Otherwise a plan whose ZeRO stage derives another framework would be credited with that
    // framework's default kernels (an eager torchtitan run "gaining" Megatron's fused ones).
    Scenario base = given;
    base.training.kernels = resolveKernels(given.training.kernels, resolveFramework(given.plan), given.plan.tp, given.plan.pp,
                                           given.training.precision);
    base.training.crossEntropy = resolveCrossEntropy(given.training.crossEntropy, resolveFramework(given.plan));
    const ValidDegrees degrees = validDegrees(base.workload, base.cluster.gpus);
    std::vector<Shape> shapes;
    for (int tp : degrees.tp)
        for (int pp : degrees.pp)
            for (int cp : degrees.cp)
                if ((long long)tp * pp * cp <= base.cluster.gpus && base.cluster.gpus % ((long long)tp * pp * cp) == 0)
                    shapes.push_back({tp, pp, cp});

    std::atomic<size_t> next{0};
    std::atomic<bool> cancelled{false};
    std::mutex merge;
    std::vector<PlanCandidate> best;
    const int top = std::max(1, options.top);
    {
        const Evaluation e = evaluateForSearch(base);
        result.currentFeasible = e.feasible;
        if (e.feasible)
            result.current = candidateOf(base, e, fitsWithMargin(e));
    }
    const double currentSeconds = result.currentFeasible ? result.current.trainSeconds : 0.0;

    auto worker = [&] {
        const KernelTimesReuse reuse;   // the candidates share a few kernel shapes
        std::vector<PlanCandidate> local;
        long long evaluated = 0, feasible = 0, fitting = 0, fasterThanCurrent = 0;
        // Evaluates one plan and ranks it; returns its memory per GPU (0 when it cannot run).
        double layerActivationBytes = 0;   // of the last feasible candidate: what offloading a layer frees
        auto consider = [&](const Scenario &s) -> double {
            ++evaluated;
            const Evaluation e = evaluateCandidate(s);
            if (!e.feasible)
                return 0.0;
            layerActivationBytes = e.offloadLayerBytes;
            ++feasible;
            const bool fits = fitsWithMargin(e);
            if (!fits) {
                if (options.requireFit)
                    return e.memory.totalBytes;
            } else {
                ++fitting;
                if (result.currentFeasible && e.trainSeconds < currentSeconds * (1 - 1e-9))
                    ++fasterThanCurrent;
            }
            if (int(local.size()) >= top && e.trainSeconds > local.back().trainSeconds * (1 + 1e-9))
                return e.memory.totalBytes;
            insertRanked(local, candidateOf(s, e, fits), top);
            return e.memory.totalBytes;
        };
        const double budgetBytes = planBudgetBytes(base.cluster.gpu.memoryBytes);
        // The variants every plan is tried in: FSDP's hybrid shard group, recompute, DP and TP overlap.
        auto considerVariants = [&](Scenario &s, const Shape &shape) {
            // FSDP also shards inside a node and replicates across (HYBRID_SHARD): the DP x CP
            // ranks of one node are gpus_per_node / tp (tp innermost, then cp and dp, as the
            // default rank order lays ranks out).
            const int dpRanks = s.plan.dp * shape.cp;
            const bool defaultOrder = rankOrderName(s.plan) == rankOrderName(Plan{});
            const int inNode = defaultOrder && base.cluster.gpusPerNode % shape.tp == 0 ? base.cluster.gpusPerNode / shape.tp : 0;
            const Framework framework = resolveFramework(s.plan);
            const bool hybrid = framework == Framework::Fsdp && s.plan.zeroStage >= 2 && inNode >= 2
                                && inNode < dpRanks && dpRanks % inNode == 0;
            const int shardGroups[] = {0, inNode};   // all of DP x CP, then the node's ranks
            // Every overlap setting of the current recompute, with context parallelism under each K/V
            // exchange the plan's framework runs (plan.cp_comm); the memory of the first (the
            // settings share it, the exchanges nearly).
            // Mixture-of-experts models: every expert-parallel degree the stage's ranks take (Megatron-Core
            // lays experts over tp x cp x dp), with and without the all-to-all overlap; dense: ep 1.
            const int experts = base.workload.experts;
            const long long stageRanks = (long long)shape.tp * shape.cp * s.plan.dp;
            // The memory it returns is the first variant's; for MoE the least of each EP degree's first
            // (ep 1 holds every expert on every GPU), so that recompute and offloading are tried for
            // the degrees that need them.
            auto overlaps = [&]() {
                double bytes = -1, leastBytes = -1;
                for (long long ep = 1; ep <= std::min<long long>(std::max(1, experts), stageRanks); ++ep) {
                    if (ep > 1 && (experts % ep != 0 || stageRanks % ep != 0))
                        continue;
                    s.plan.ep = int(ep);
                    double epBytes = -1;
                    for (bool epOverlap : {false, true}) {
                        if (epOverlap && ep == 1)
                            break;
                        s.plan.epOverlap = epOverlap;
                        for (const CpComm comm : {CpComm::P2p, CpComm::AllGather, CpComm::A2a}) {
                            if (shape.cp == 1 ? comm != CpComm::P2p : !frameworkRunsCpComm(framework, comm, shape.cp))
                                continue;
                            s.plan.cpComm = shape.cp == 1 ? base.plan.cpComm : comm;
                            for (bool overlap : {true, false}) {
                                s.plan.overlapDp = overlap;
                                for (bool tpOverlap : {false, true}) {
                                    if (tpOverlap && shape.tp == 1)
                                        break;
                                    s.plan.tpOverlap = tpOverlap;
                                    const double b = consider(s);
                                    if (bytes < 0)
                                        bytes = b;
                                    if (epBytes < 0)
                                        epBytes = b;
                                }
                            }
                        }
                    }
                    if (epBytes > 0 && (leastBytes < 0 || epBytes < leastBytes))
                        leastBytes = epBytes;
                }
                return experts > 0 && leastBytes > 0 ? leastBytes : bytes;
            };
            const int v = chunksPerStage(s.plan);   // s.plan.pp is shape.pp here
            const double layersPerChunk = double(base.workload.layers) / (double(shape.pp) * v);
            s.training.offloadLayers = 0;
            for (int k = 0; k < (hybrid ? 2 : 1); ++k) {
                s.plan.shardGroup = shardGroups[k];
                s.training.recomputeLayers = 0;
                double noneBytes = 0, fullBytes = 0, noneLayerBytes = 0;
                for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                    s.training.recompute = r;
                    const double bytes = overlaps();
                    if (r == Recompute::None) {
                        noneBytes = bytes;
                        noneLayerBytes = layerActivationBytes;
                    }
                    else if (r == Recompute::Full)
                        fullBytes = bytes;
                }
                // Megatron's block recompute with the fewest layers per chunk that fit: memory falls
                // linearly from no recompute to full as layers move over (recompute_layers), less
                // the one layer being recomputed, so the estimate may need a layer or two more.
                if (noneBytes > budgetBytes && fullBytes > 0 && fullBytes <= budgetBytes && layersPerChunk > 1) {
                    const double share = (noneBytes - budgetBytes) / (noneBytes - fullBytes);
                    s.training.recompute = Recompute::Full;
                    for (int n = std::max(1, int(std::ceil(share * layersPerChunk - 1e-9))), tries = 0;
                         n < int(std::floor(layersPerChunk)) && tries < 3; ++n, ++tries) {
                        s.training.recomputeLayers = n;
                        const double bytes = overlaps();
                        if (bytes <= 0 || bytes <= budgetBytes)
                            break;
                    }
                    s.training.recomputeLayers = 0;
                }
                // Megatron's activation offloading instead (pp 1, no recompute): the fewest layers
                // that fit, each offloaded layer taking one layer's activations (and the allocator's
                // reserve on them) off the GPU.
                const int layers = base.workload.layers;
                if (framework == Framework::Megatron && shape.pp == 1 && noneBytes > budgetBytes && layers > 2
                    && noneLayerBytes > 0) {
                    s.training.recompute = Recompute::None;
                    const double freedPerLayer = noneLayerBytes * (1 + memoryDefaults().allocatorOverhead);
                    for (int n = std::max(1, int(std::ceil((noneBytes - budgetBytes) / freedPerLayer - 1e-9))), tries = 0;
                         n < layers && tries < 3; ++n, ++tries) {
                        s.training.offloadLayers = n;
                        const double bytes = overlaps();
                        if (bytes <= 0 || bytes <= budgetBytes)
                            break;
                    }
                    s.training.offloadLayers = 0;
                }
            }
            s.plan.shardGroup = 0;
        };
        // Micro-batch sizes, schedules and ZeRO stages of one shape and pipeline split.
        auto searchSplit = [&](Scenario &s, const Shape &shape, bool embeddingSlot, bool lossSlot) {
            // Interleaving cuts every stage into v equal chunks (Megatron-LM: slots per stage divisible by v).
            std::vector<int> stageSlots = stageLayerCounts(base.workload.layers, s.plan);
            if (embeddingSlot)
                ++stageSlots.front();
            if (lossSlot)
                ++stageSlots.back();
            auto chunksEvenly = [&](int v) {
                return std::all_of(stageSlots.begin(), stageSlots.end(), [v](int n) { return n % v == 0; });
            };
            for (int b = 1; b <= 64; b *= 2) {
                if (base.training.globalBatch % ((long long)b * s.plan.dp) != 0)
                    continue;
                s.training.microBatch = b;
                const long long m = base.training.globalBatch / ((long long)b * s.plan.dp);
                std::vector<std::pair<Schedule, int>> schedules;
                if (shape.pp == 1) {
                    schedules.push_back({Schedule::OneFOneB, 1});
                } else {
                    schedules = {{Schedule::GPipe, 1}, {Schedule::OneFOneB, 1}, {Schedule::ZeroBubbleH1, 1}};
                    // DualPipeV: 2 pp stages of at least a layer slot each, 2 pp micro-batches.
                    if (m >= 2LL * shape.pp && std::accumulate(stageSlots.begin(), stageSlots.end(), 0) >= 2 * shape.pp)
                        schedules.push_back({Schedule::DualPipeV, 1});
                    if (m % shape.pp == 0) {
                        for (int v = 2; v <= options.maxVirtualStages; ++v)
                            if (chunksEvenly(v))
                                schedules.push_back({Schedule::Interleaved, v});
                        // Beyond maxVirtualStages, two more: one layer slot per chunk (NeMo's
                        // Nemotron-4 340B runs v12 on 12-layer stages, Llama 2 70B v20 on 20), and
                        // the scenario's own v, so that the plan a user brings is in the space.
                        int oneSlot = 0;
                        for (int n : stageSlots)
                            oneSlot = std::gcd(oneSlot, n);
                        const int own = base.plan.schedule == Schedule::Interleaved ? base.plan.virtualStages : 0;
                        for (int v : {own, oneSlot})
                            if (v > options.maxVirtualStages && chunksEvenly(v)
                                && std::none_of(schedules.begin(), schedules.end(), [v](const auto &o) { return o.second == v; }))
                                schedules.push_back({Schedule::Interleaved, v});
                    }
                }
                for (const auto &[schedule, v] : schedules) {
                    s.plan.schedule = schedule;
                    s.plan.virtualStages = v;
                    for (int zero = 0; zero <= 3; ++zero) {
                        if (zero > 0 && s.plan.dp * shape.cp == 1)
                            break;   // nothing to shard across
                        s.plan.zeroStage = zero;
                        // Only plans a framework runs: Megatron-LM and DeepSpeed have no GPipe or
                        // zero-bubble schedule (torchtitan's FSDP with pipelining has all).
                        if (frameworkRunsSchedule(resolveFramework(s.plan), schedule, shape.pp))
                            considerVariants(s, shape);
                    }
                }
            }
        };
        for (size_t i = next++; i < shapes.size() && !cancelled; i = next++) {
            const Shape &shape = shapes[i];
            Scenario s = base;
            s.plan.tp = shape.tp;
            s.plan.pp = shape.pp;
            s.plan.cp = shape.cp;
            s.plan.dp = int(base.cluster.gpus / ((long long)shape.tp * shape.pp * shape.cp));
            s.plan.sequenceParallel = shape.tp > 1;   // same traffic as plain TP, less memory: always on
            // Splits: the scenario's own where it has this many stages, an even one, and the
            // embedding and loss counted as layer slots (Megatron's account-for-embedding/loss-in-
            // pipeline-split) when that evens the slots out, as Llama 3 405B's 126 layers on 16 stages.
            struct Split { int first, last; bool embedding, loss; };
            std::vector<Split> splits;
            if (shape.pp == base.plan.pp && shape.pp > 1)
                splits.push_back({base.plan.firstStageLayers, base.plan.lastStageLayers, base.plan.embeddingInSplit,
                                  base.plan.lossInSplit});
            auto addSplit = [&](Split sp) {
                for (const Split &o : splits)
                    if (o.first == sp.first && o.last == sp.last && o.embedding == sp.embedding && o.loss == sp.loss)
                        return;
                splits.push_back(sp);
            };
            addSplit({0, 0, false, false});
            if (shape.pp > 1 && (base.workload.layers + 2) % shape.pp == 0 && base.workload.layers % shape.pp != 0)
                addSplit({0, 0, true, true});
            for (const Split &split : splits) {
                s.plan.firstStageLayers = split.first;
                s.plan.lastStageLayers = split.last;
                s.plan.embeddingInSplit = split.embedding;
                s.plan.lossInSplit = split.loss;
                searchSplit(s, shape, split.embedding, split.loss);
            }
            if (progress && !progress(double(i + 1) / double(shapes.size())))
                cancelled = true;
        }
        std::lock_guard lock(merge);
        result.evaluated += evaluated;
        result.feasible += feasible;
        result.fitting += fitting;
        result.fasterThanCurrent += fasterThanCurrent;
        for (const PlanCandidate &c : local)
            insertRanked(best, c, top);
    };
    const int threads = std::max(1, std::min(options.threads, int(shapes.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread &t : pool)
        t.join();
    // Cost and time with failures of the listed plans (and the current one): a few dozen
    // full evaluations after the search, not one per plan.
    for (PlanCandidate &c : best) {
        const Economics x = economics(c.scenario, evaluate(c.scenario));
        c.trainSecondsWithFailures = x.valid ? x.goodput.trainSeconds : 0.0;
        c.costUsd = x.valid ? x.cost.totalUsd : 0.0;
        c.economicsProblem = x.valid ? Problem{} : x.problem;
    }
    if (result.currentFeasible) {
        const Economics x = economics(base, evaluate(base));
        result.current.trainSecondsWithFailures = x.valid ? x.goodput.trainSeconds : 0.0;
        result.current.costUsd = x.valid ? x.cost.totalUsd : 0.0;
        result.current.economicsProblem = x.valid ? Problem{} : x.problem;
    }
    result.best = std::move(best);
    result.cancelled = cancelled;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace ts
