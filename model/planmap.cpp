// SPDX-License-Identifier: MIT
#include "planmap.h"

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
    case Field::GlobalBatch: v = degrees.globalBatch; break;
    case Field::MicroBatch:
        for (int b = 1; b <= 64; b *= 2)
            v.push_back(b);
        break;
    case Field::Recompute: v = {0, 1, 2}; break;
    case Field::Zero: v = {0, 1, 2, 3}; break;
    case Field::Gpus: {
        const long long modelParallel = (long long)s.plan.tp * s.plan.pp * s.plan.cp;
        for (int k = -5; k <= 5; ++k) {
            const double g = s.cluster.gpus * std::pow(2.0, k);
            if (g >= 1 && g <= (1 << 22) && std::fmod(g, 1.0) == 0 && (long long)g % std::max(1LL, modelParallel) == 0)
                v.push_back(g);
        }
        break;
    }
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
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (size_t iy = 0; iy < map.ys.size(); ++iy) {
        for (size_t ix = 0; ix < map.xs.size(); ++ix) {
            PlanMapCell &c = map.cells[iy * map.xs.size() + ix];
            const Evaluation e = evaluateForSearch(planMapScenario(s, map, int(ix), int(iy)));
            c.feasible = e.feasible;
            if (!e.feasible) {
                c.problem = e.problem.message;
                continue;
            }
            c.fits = e.memory.fits;
            switch (request.metric) {
            case PlanMapMetric::TimeToTrain: c.value = e.trainSeconds; break;
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
