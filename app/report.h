// SPDX-License-Identifier: MIT
// The capacity-plan report (PDF) and exports of views (PNG, SVG, PDF).
#pragma once

#include "economics.h"
#include "evaluation.h"
#include "chartdata.h"
#include "inputs.h"

#include <QList>
#include <QString>
#include <QStringList>

class QMainWindow;
class QWidget;

namespace ts {

/// A scenario pinned for comparison.
struct PinnedScenario
{
    QString name;
    Scenario scenario;
    Evaluation evaluation;
    Economics economics;   // the analysis' cost and goodput, as the headline cards show them
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
/// Size of an exported slide (pixels for PNG, units for SVG and PDF): 16:9 at 1080p.
inline constexpr int kSlideWidth = 1920, kSlideHeight = 1080;
/// Writes `view` as a slide: its caption and the scenario's name above the view alone (no window
/// chrome), the view fitted below; charts as vectors in SVG and PDF. The format follows the suffix.
bool exportSlide(const SlideView &view, const QString &scenarioName, const QString &path, QString *error);
/// File > Export Views: asks for a file and writes each of `views` as a slide (several: the file
/// name gets each view's tag); failures in a dialog.
void exportViewsAs(QMainWindow *window, const QList<SlideView> &views, const QString &scenarioName);
/// File > Export Report: asks for a PDF file and writes the report; the outcome in the status bar
/// or a dialog.
void exportReportAs(QMainWindow *window, const ReportInput &input);

} // namespace ts
