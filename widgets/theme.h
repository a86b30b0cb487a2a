// SPDX-License-Identifier: MIT
// One palette for the views: each part of a step, and each memory part, has one colour everywhere
// (bars, timelines, legends). Chosen to read on light and dark backgrounds and in greyscale print.
#pragma once

#include <QColor>
#include <QString>

namespace ts::theme {

enum class Part {
    Compute, TpComm, CpComm, EpComm, PpBubble, PpP2p, DpComm, Optimizer, Offload, Straggler,
    Weights, Gradients, OptimizerStates, Activations, Loss, Buffers, Runtime,
    Count
};

QColor color(Part part);
QString label(Part part);          // translated, short (legends elide long names); comm parts are the exposed share
QString explanationId(Part part);  // id of the model's explanation of this part

/// Accent colours for series that are not parts.
QColor idealColor();
QColor warningColor();
/// Text that says an input is invalid, and a figure that is poor (but valid).
QColor errorColor();
QColor cautionColor();
QColor currentPointColor();

/// Pipeline ops beyond the forward (which is Part::Compute): backward and weight-gradient (W) work.
QColor backwardColor();
/// Forward, backward and weight-gradient work in every teaching tab: compute blue, green, pink.
QColor opColor(char op);   // 'F', 'B', 'W'
QColor weightGradColor();

/// Linear blend from `from` (fraction 0) to `to` (fraction 1, clamped): sequential colour ramps.
QColor mix(const QColor &from, const QColor &to, double fraction);
/// Black or white, whichever reads better on `background`.
QColor textOn(const QColor &background);

} // namespace ts::theme
