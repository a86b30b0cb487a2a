// SPDX-License-Identifier: MIT
#include "planner.h"

#include "memory.h"

#include "evaluate.h"

#include <algorithm>
#include <chrono>
#include <mutex>
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

} // namespace

PlanSearchResult searchPlans(const Scenario &base, const PlanSearchOptions &options,
                             const std::function<bool(double)> &progress)
{
    const auto start = std::chrono::steady_clock::now();
    PlanSearchResult result;
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

    auto worker = [&] {
        std::vector<PlanCandidate> local;
        long long evaluated = 0, feasible = 0, fitting = 0;
        auto consider = [&](const Scenario &s) {
            ++evaluated;
            const Evaluation e = evaluateForSearch(s);
            if (!e.feasible)
                return;
            ++feasible;
            // Keep a margin of HBM free: allocator spikes and what the model leaves out.
            const bool fitsWithMargin = e.memory.totalBytes <= e.memory.capacityBytes * (1 - memoryDefaults().planMarginFraction);
            if (!fitsWithMargin) {
                if (options.requireFit)
                    return;
            } else {
                ++fitting;
            }
            if (int(local.size()) >= top && e.trainSeconds >= local.back().trainSeconds)
                return;
            PlanCandidate c{s, e.breakdown, e.trainSeconds, e.mfu, e.memory.totalBytes, e.communicationFraction,
                            e.pipelineEfficiency};
            local.insert(std::upper_bound(local.begin(), local.end(), c, faster), c);
            if (int(local.size()) > top)
                local.pop_back();
        };
        for (size_t i = next++; i < shapes.size() && !cancelled; i = next++) {
            const Shape &shape = shapes[i];
            Scenario s = base;
            s.plan.tp = shape.tp;
            s.plan.pp = shape.pp;
            s.plan.cp = shape.cp;
            s.plan.dp = int(base.cluster.gpus / ((long long)shape.tp * shape.pp * shape.cp));
            s.plan.sequenceParallel = shape.tp > 1;   // same traffic as plain TP, less memory: always on
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
                    if (m % shape.pp == 0)
                        for (int v = 2; v <= options.maxVirtualStages; ++v)
                            if (base.workload.layers % (shape.pp * v) == 0)
                                schedules.push_back({Schedule::Interleaved, v});
                }
                for (const auto &[schedule, v] : schedules) {
                    s.plan.schedule = schedule;
                    s.plan.virtualStages = v;
                    for (int zero = 0; zero <= 3; ++zero) {
                        if (zero > 0 && s.plan.dp * shape.cp == 1)
                            break;   // nothing to shard across
                        s.plan.zeroStage = zero;
                        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                            s.training.recompute = r;
                            for (bool overlap : {true, false}) {
                                s.plan.overlapDp = overlap;
                                for (bool tpOverlap : {false, true}) {
                                    if (tpOverlap && shape.tp == 1)
                                        break;
                                    s.plan.tpOverlap = tpOverlap;
                                    consider(s);
                                }
                            }
                        }
                    }
                }
            }
            if (progress && !progress(double(i + 1) / double(shapes.size())))
                cancelled = true;
        }
        std::lock_guard lock(merge);
        result.evaluated += evaluated;
        result.feasible += feasible;
        result.fitting += fitting;
        best.insert(best.end(), local.begin(), local.end());
    };
    const int threads = std::max(1, std::min(options.threads, int(shapes.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread &t : pool)
        t.join();
    std::sort(best.begin(), best.end(), faster);
    if (int(best.size()) > top)
        best.resize(size_t(top));
    result.best = std::move(best);
    result.cancelled = cancelled;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace ts
