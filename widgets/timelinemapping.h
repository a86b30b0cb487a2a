// SPDX-License-Identifier: MIT
// Shared geometry of the timeline views: time to x, rows to y, nice time ticks. Pure and
// header-only so tests check it without a GUI.
#pragma once

#include "pipeline.h"

#include <QMarginsF>
#include <QRectF>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ts {

/// Rows of equal height in `plot`, time running left to right from t0 to t1.
struct TimelineMapping
{
    QRectF plot;
    double t0 = 0;
    double t1 = 1;
    int stages = 0;             // rows (pipeline stages, or streams)
    double padding = 0.12;      // share of a row's height left free above and below a block

    double secondsToX(double seconds) const
    {
        return t1 > t0 ? plot.left() + (seconds - t0) / (t1 - t0) * plot.width() : plot.left();
    }
    double xToSeconds(double x) const
    {
        return plot.width() > 0 ? t0 + (x - plot.left()) / plot.width() * (t1 - t0) : t0;
    }
    double rowHeight() const { return stages > 0 ? plot.height() / stages : 0.0; }
    /// The row under y, or -1 outside the plot.
    int rowAt(double y) const
    {
        if (stages <= 0 || y < plot.top() || y >= plot.bottom())
            return -1;
        return std::clamp(int((y - plot.top()) / rowHeight()), 0, stages - 1);
    }
    /// The band of a row (stage 0 on top), the full plot width.
    QRectF stageRow(int stage) const
    {
        return {plot.left(), plot.top() + stage * rowHeight(), plot.width(), rowHeight()};
    }
    /// The box of [start, end] in a row, inset by the padding; at least one pixel wide so short
    /// work stays visible.
    QRectF spanRect(int row, double startSeconds, double endSeconds) const
    {
        const QRectF band = stageRow(row);
        const double inset = padding * band.height();
        const double x0 = secondsToX(startSeconds), x1 = secondsToX(endSeconds);
        return {x0, band.top() + inset, std::max(1.0, x1 - x0), band.height() - 2 * inset};
    }
    QRectF blockRect(const PipelineEvent &event) const { return spanRect(event.stage, event.startSeconds, event.endSeconds); }
};

/// Mapping over [0, makespan] for `stages` rows in `area` shrunk by `margins`.
inline TimelineMapping makeTimelineMapping(QRectF area, int stages, double makespan, QMarginsF margins = {})
{
    TimelineMapping m;
    m.plot = area.marginsRemoved(margins);
    if (m.plot.width() < 0)
        m.plot.setWidth(0);
    if (m.plot.height() < 0)
        m.plot.setHeight(0);
    m.t0 = 0;
    m.t1 = std::isfinite(makespan) && makespan > 0 ? makespan : 1.0;
    m.stages = std::max(0, stages);
    return m;
}

/// Smallest 1, 2 or 5 x 10^k step that cuts `span` into at most `maxTicks` intervals.
inline double niceStep(double span, int maxTicks)
{
    if (!(span > 0) || !std::isfinite(span))
        return 1;
    const double raw = span / std::max(1, maxTicks);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double mantissa : {1.0, 2.0, 5.0, 10.0}) {
        if (mantissa * decade >= raw * (1 - 1e-9))
            return mantissa * decade;
    }
    return 10 * decade;
}

/// Multiples of niceStep(t1 - t0, maxTicks) in [t0, t1].
inline std::vector<double> timeTicks(double t0, double t1, int maxTicks)
{
    std::vector<double> ticks;
    if (!(t1 > t0) || !std::isfinite(t0) || !std::isfinite(t1))
        return ticks;
    const double step = niceStep(t1 - t0, maxTicks);
    for (double k = std::ceil(t0 / step - 1e-9); k * step <= t1 * (1 + 1e-9); k += 1)
        ticks.push_back(k * step);
    return ticks;
}

} // namespace ts
