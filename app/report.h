// SPDX-License-Identifier: MIT
// The capacity-plan report (PDF) and exports of views (PNG, SVG, PDF).
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <QString>
#include <QList>
#include <QStringList>

class QWidget;

namespace ts {

/// A scenario pinned for comparison.
struct PinnedScenario
{
    QString name;
    Scenario scenario;
    Evaluation evaluation;
};

struct ReportInput
{
    Scenario scenario;
    Evaluation evaluation;
    QString name;
    QString description;
    QStringList notes;
    QList<PinnedScenario> compared;   // pinned scenarios, shown beside this one
};

/// Writes a multi-page PDF: inputs, headline figures, step-time, scaling and memory charts,
/// warnings with recommendations, and the formulas behind the headline numbers.
bool writeReport(const QString &path, const ReportInput &input, QString *error);

/// Renders a widget to an image file; the format follows the suffix (.png, .svg, .pdf).
bool exportWidget(QWidget *widget, const QString &path, const QString &title, QString *error);

} // namespace ts
