// SPDX-License-Identifier: MIT
// Geometry of the plan map: cells in a grid (y grows upwards), the cell under a point, and where
// a value sits between the worst and the best (coloured with sequentialColor, colorramp.h). Header-only and
// pure, so tests check it without a GUI.
#pragma once

#include "colorramp.h"

#include <QColor>
#include <QPointF>
#include <QRectF>

#include <algorithm>
#include <cmath>

namespace ts {

struct PlanMapMapping
{
    QRectF plot;
    int columns = 0;
    int rows = 0;

    double cellWidth() const { return columns > 0 ? plot.width() / columns : 0.0; }
    double cellHeight() const { return rows > 0 ? plot.height() / rows : 0.0; }
    /// Cell (ix, iy), row 0 at the bottom.
    QRectF cell(int ix, int iy) const
    {
        return {plot.left() + ix * cellWidth(), plot.bottom() - (iy + 1) * cellHeight(), cellWidth(), cellHeight()};
    }
    /// The cell under `p`, or false outside the grid.
    bool cellAt(QPointF p, int *ix, int *iy) const
    {
        if (columns <= 0 || rows <= 0 || !plot.contains(p))
            return false;
        *ix = std::clamp(int((p.x() - plot.left()) / cellWidth()), 0, columns - 1);
        *iy = std::clamp(int((plot.bottom() - p.y()) / cellHeight()), 0, rows - 1);
        return true;
    }
};

/// Where `value` sits between the worst and the best, 0 (worst) to 1 (best).
inline double planMapGoodness(double value, double minValue, double maxValue, bool lowerIsBetter)
{
    if (!(maxValue > minValue) || !std::isfinite(value))
        return 1.0;
    const double t = std::clamp((value - minValue) / (maxValue - minValue), 0.0, 1.0);
    return lowerIsBetter ? 1.0 - t : t;
}

} // namespace ts
