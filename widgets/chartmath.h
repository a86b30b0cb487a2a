// SPDX-License-Identifier: MIT
// Axis geometry for the charts, free of Qt Charts so tests can check it headlessly and a move to
// Qt Graphs keeps it. Display arithmetic only (rounding ranges, picking units), never model physics.
#pragma once

#include <QList>
#include <QPalette>
#include <QString>

#include <algorithm>
#include <cmath>

namespace ts::chartmath {

/// Display unit of a time axis: shown value = seconds * scale.
struct TimeUnit
{
    double scale = 1;
    QString symbol;
};

/// A closed axis range.
struct Range
{
    double min = 0;
    double max = 0;
};

/// Width a one-row legend needs: each entry's marker, gap and label, and the spacing between
/// entries (Qt Charts lays a bottom legend out in a single row and elides labels that do not fit).
inline double legendRowWidth(const QList<double> &labelWidths, double markerWidth, double spacing)
{
    double width = 0;
    for (const double label : labelWidths)
        width += markerWidth + spacing / 2 + label + spacing;
    return width;
}

/// A legend goes under the plot when its row fits the chart's width, else beside it as a column,
/// so no label is ever cut ("Wei... Gra...").
inline bool legendFitsBelow(double rowWidth, double chartWidth) { return rowWidth <= chartWidth; }

/// Row of each control in a chart's header, left to right: a control goes on the row of the one
/// before while the row's widths and spacings fit `available`, else starts the next row, so a
/// narrow chart wraps its controls instead of cutting the last one off. The first control of a
/// row stays there even when it alone is wider.
inline QList<int> controlRows(const QList<int> &widths, int spacing, int available)
{
    QList<int> rows;
    int row = 0, used = 0;
    for (const int width : widths) {
        if (used > 0 && used + spacing + width > available)
            ++row, used = 0;
        used += (used > 0 ? spacing : 0) + width;
        rows.append(row);
    }
    return rows;
}

/// The axis maxima a value may round up to, per decade, with their tick spacing: finer than 1-2-5 so
/// a bar never fills less than three quarters of the plot (1-2-5 left a 21 ms step on a 50 ms axis, and
/// a drag across 20 ms halved every bar at once).
struct NiceStep
{
    double mantissa;
    double tick;
};
inline constexpr NiceStep kNiceSteps[] = {{1, 0.2}, {1.2, 0.2}, {1.5, 0.25}, {2, 0.5}, {2.5, 0.5}, {3, 0.5},
                                          {4, 1},   {5, 1},     {6, 1},      {8, 2},   {10, 2}};

/// Smallest kNiceSteps mantissa x 10^k that is >= value; 1 for zero, negative or non-finite input.
inline double niceAxisMax(double value)
{
    if (!(value > 0) || !std::isfinite(value))
        return 1;
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (const NiceStep &step : kNiceSteps) {
        // Tolerance so a value that is already nice, give or take rounding, is not bumped up.
        if (value <= step.mantissa * decade * (1 + 1e-9))
            return step.mantissa * decade;
    }
    return 10 * decade;
}

/// The memory chart's value span: every bar whole up to 2x the larger of HBM and the current
/// plan's total; beyond that a bar is cut at the plot's edge (its label gives its total), so that
/// variants terabytes over HBM (ZeRO-0 of a 175B model) do not squash the current plan to a sliver.
inline constexpr double kMemoryAxisOverCapacity = 2.0;
inline double memoryAxisSpan(double largestBar, double capacity, double currentBar)
{
    const double reference = std::max(capacity, currentBar);
    return reference > 0 ? std::min(largestBar, kMemoryAxisOverCapacity * reference) : largestBar;
}

/// Tick spacing for an axis from 0 to a niceAxisMax() result: 4 to 6 intervals at 1, 2 or 5 x 10^k
/// (0.25 x 10^k for a 1.5 max).
inline double niceTickInterval(double niceMax)
{
    if (!(niceMax > 0) || !std::isfinite(niceMax))
        return 1;
    const double decade = std::pow(10.0, std::floor(std::log10(niceMax) + 1e-9));
    const double mantissa = niceMax / decade;
    for (const NiceStep &step : kNiceSteps) {
        if (std::abs(mantissa - step.mantissa) < 1e-6)
            return step.tick * decade;
    }
    return niceMax / 5;   // not a niceAxisMax() result
}

/// The unit that keeps the largest value of a time axis between 1 and 1000: s, ms or µs.
/// Zero or non-finite input gets ms, the usual scale of a training step.
inline TimeUnit chooseTimeUnit(double maxSeconds)
{
    if (maxSeconds >= 1)
        return {1, QStringLiteral("s")};
    if (maxSeconds >= 1e-3 || !(maxSeconds > 0))
        return {1e3, QStringLiteral("ms")};
    return {1e6, QStringLiteral("µs")};
}

/// Powers of two enclosing [min, max], at least one octave apart; {1, 2} unless 0 < min <= max.
inline Range log2Range(double min, double max)
{
    if (!(min > 0) || !(max >= min) || !std::isfinite(max))
        return {1, 2};
    // frexp is exact, unlike log2 + floor: value = m * 2^e with m in [0.5, 1).
    int e = 0;
    std::frexp(min, &e);
    Range range{std::ldexp(1.0, e - 1), 0};
    const double m = std::frexp(max, &e);
    range.max = std::ldexp(1.0, m == 0.5 ? e - 1 : e);
    if (range.max <= range.min)
        range.max = 2 * range.min;
    return range;
}

/// The powers of two from log2Range(min, max).min to .max; empty unless 0 < min <= max.
inline QList<double> log2Ticks(double min, double max)
{
    QList<double> ticks;
    if (!(min > 0) || !(max >= min) || !std::isfinite(max))
        return ticks;
    const Range range = log2Range(min, max);
    for (double tick = range.min; tick <= range.max; tick *= 2)
        ticks.append(tick);
    return ticks;
}

/// Base of a log axis over log2Range(min, max) that shows at most maxTicks ticks: 2, 4, 8, ...
/// (a log axis ticks at integer powers of its base, so every tick stays a power of two).
inline double log2AxisBase(double min, double max, int maxTicks)
{
    const qsizetype octaves = log2Ticks(min, max).size() - 1;
    maxTicks = std::max(maxTicks, 2);
    int stride = 1;
    while (octaves / stride + 1 > maxTicks)
        ++stride;
    return std::ldexp(1.0, stride);
}

/// Whether the palette is a dark one, to pick the matching chart theme.
inline bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

} // namespace ts::chartmath
