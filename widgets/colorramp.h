// SPDX-License-Identifier: MIT
// One sequential colour ramp for every view that colours an amount (plan map cells, ring chunks):
// ordered in lightness, so neighbouring steps stay apart, in grey and for colour-blind viewers.
#pragma once

#include <QColor>

#include <algorithm>

namespace ts {

/// Viridis (matplotlib's, 5 stops): dark violet at 0, yellow at 1.
inline QColor sequentialColor(double fraction)
{
    static const QColor stops[] = {QColor(68, 1, 84), QColor(59, 82, 139), QColor(33, 145, 140), QColor(94, 201, 98),
                                   QColor(253, 231, 37)};
    const double g = std::clamp(fraction, 0.0, 1.0) * 4.0;
    const int i = std::min(3, int(g));
    const double f = g - i;
    const QColor &a = stops[i], &b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f), float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

} // namespace ts
