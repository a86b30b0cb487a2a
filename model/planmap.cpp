// SPDX-License-Identifier: MIT
#include "planmap.h"

#include "economics.h"
#include "evaluate.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts {

const std::vector<Field> &planMapAxes()
{
    static const std::vector<Field> axes{Field::Tp, Field::Pp, Field::Cp, Field::Gpus, Field::GlobalBatch,
                                         Field::MicroBatch, Field::Recompute, Field::Zero};
    return axes;
}

namespace {
// Up to n values from center/32 to center x 32, evenly spaced in log, snapped to multiples of
// `step` (GPU counts a model-parallel group divides, batches the DP ranks share evenly).
std::vector<double> geometricMultiples(double center, double step, int n)
{
    std::vector<double> out;
    step = std::max(1.0, step);
    // Snapping merges neighbours at the low end: sample more finely until n distinct values (or
    // every multiple in the range) are found; the caller thins them evenly.
    for (int samples = n; samples <= 64 * n; samples *= 2) {
        out.clear();
        for (int i = 0; i < samples; ++i) {
            const double x = center / 32 * std::pow(1024.0, double(i) / double(std::max(1, samples - 1)));
            const double snapped = std::max(step, std::round(x / step) * step);
            if (snapped <= double(1 << 22))
                out.push_back(snapped);
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        if (int(out.size()) >= n)
            break;
    }
    return out;
}
} // namespace

std::vector<double> planMapAxisValues(const Scenario &s, Field field, int maxValues)
{
    std::vector<double> v;
    const ValidDegrees degrees = validDegrees(s);
    auto fromInts = [&](const std::vector<int> &d) {
        for (int x : d)
            v.push_back(x);
    };
    switch (field) {
    case Field::Tp: fromInts(degrees.tp); break;
    case Field::Pp: fromInts(degrees.pp); break;
    case Field::Cp: fromInts(degrees.cp); break;
    case Field::GlobalBatch:
        v = geometricMultiples(double(s.training.globalBatch), double(s.training.microBatch) * s.plan.dp, maxValues);
        v.push_back(double(s.training.globalBatch));
        break;
    case Field::MicroBatch:
        for (int b = 1; b <= 64; b *= 2)
            v.push_back(b);
        break;
    case Field::Recompute: v = {0, 1, 2}; break;
    case Field::Zero: v = {0, 1, 2, 3}; break;
    case Field::Gpus:
        v = geometricMultiples(double(s.cluster.gpus), double(s.plan.tp) * s.plan.pp * s.plan.cp, maxValues);
        v.push_back(double(s.cluster.gpus));
        break;
    default: break;
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    const int limit = std::max(2, maxValues);
    if (int(v.size()) > limit) {   // thin evenly, keeping the ends and the current value
        const double current = fieldValue(s, field);
        std::vector<double> thinned;
        for (int i = 0; i < limit; ++i)
            thinned.push_back(v[size_t(std::lround(double(i) * double(v.size() - 1) / double(limit - 1)))]);
        const auto here = std::find(v.begin(), v.end(), current);
        if (here != v.end() && std::find(thinned.begin(), thinned.end(), current) == thinned.end()) {
            auto nearest = std::min_element(thinned.begin(), thinned.end(),
                                            [&](double a, double b) { return std::abs(a - current) < std::abs(b - current); });
            *nearest = current;
            std::sort(thinned.begin(), thinned.end());
        }
        v = thinned;
    }
    return v;
}

Scenario planMapScenario(const Scenario &s, const PlanMap &map, int ix, int iy)
{
    const Scenario x = withField(s, map.request.x, map.xs[size_t(ix)]).scenario;
    return withField(x, map.request.y, map.ys[size_t(iy)]).scenario;
}

PlanMap planMap(const Scenario &s, const PlanMapRequest &request)
{
    PlanMap map;
    map.request = request;
    map.lowerIsBetter = request.metric != PlanMapMetric::Mfu;
    map.xs = planMapAxisValues(s, request.x, request.maxValuesPerAxis);
    map.ys = planMapAxisValues(s, request.y, request.maxValuesPerAxis);
    const double cx = fieldValue(s, request.x), cy = fieldValue(s, request.y);
    for (size_t i = 0; i < map.xs.size(); ++i)
        if (map.xs[i] == cx)
            map.currentX = int(i);
    for (size_t i = 0; i < map.ys.size(); ++i)
        if (map.ys[i] == cy)
            map.currentY = int(i);
    map.cells.resize(map.xs.size() * map.ys.size());
    const KernelTimesReuse reuse;   // the cells share the shapes of one axis or the other
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (size_t iy = 0; iy < map.ys.size(); ++iy) {
        for (size_t ix = 0; ix < map.xs.size(); ++ix) {
            PlanMapCell &c = map.cells[iy * map.xs.size() + ix];
            const Scenario cell = planMapScenario(s, map, int(ix), int(iy));
            const Evaluation e = evaluateForSearch(cell);
            c.feasible = e.feasible;
            if (!e.feasible) {
                c.problem = e.problem.message;
                continue;
            }
            c.fits = e.memory.fits;
            switch (request.metric) {
            case PlanMapMetric::TimeToTrain: {
                // As the headline card: with failures and checkpoints, which grow with the GPUs.
                c.value = calendarTrainSeconds(e, economics(cell, e));
                break;
            }
            case PlanMapMetric::Mfu: c.value = e.flopsApplicable ? e.mfu : 0.0; break;
            case PlanMapMetric::StepTime: c.value = e.breakdown.stepSeconds; break;
            case PlanMapMetric::MemoryPerGpu: c.value = e.memory.totalBytes; break;
            }
            if (c.fits || request.metric == PlanMapMetric::MemoryPerGpu) {
                lo = std::min(lo, c.value);
                hi = std::max(hi, c.value);
            }
        }
    }
    if (std::isfinite(lo)) {
        map.minValue = lo;
        map.maxValue = hi;
    }
    return map;
}

} // namespace ts
