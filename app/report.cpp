// SPDX-License-Identifier: MIT
#include "report.h"

#include "evaluate.h"
#include "explain.h"
#include "formatting.h"
#include "memorychart.h"
#include "presenter.h"
#include "scenarioio.h"
#include "scalingchart.h"
#include "steptimechart.h"

#include <QDir>
#include <QStatusBar>
#include <QMainWindow>
#include <QMessageBox>
#include <QFileDialog>
#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QUrl>
#include <QWidget>

namespace ts {

namespace {
QString tr(const char *text) { return QCoreApplication::translate("Report", text); }

// Rendered at about screen size so that chart text stays legible when scaled onto the page.
constexpr int kChartWidthPx = 1000;
constexpr int kChartHeightPx = 500;
constexpr int kImageWidthOnPage = 500;   // document units (points): A4 less 15 mm margins is ~510
constexpr int kPdfResolutionDpi = 150;

QImage renderOffscreen(QWidget *widget)
{
    widget->setAttribute(Qt::WA_DontShowOnScreen);
    widget->resize(kChartWidthPx, kChartHeightPx);
    widget->show();
    QImage image(widget->size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    widget->render(&painter);
    painter.end();
    widget->hide();
    return image;
}

QString row(const QString &key, const QString &value)
{
    return QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(key.toHtmlEscaped(), value.toHtmlEscaped());
}

QString inputsTable(const Scenario &s)
{
    const Workload &w = s.workload;
    const Training &t = s.training;
    const Cluster &c = s.cluster;
    const Plan &p = s.plan;
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3' border='1' width='100%'>");
    html += row(tr("Model"), QStringLiteral("%1: %2 layers, hidden %3, %4 heads (%5 KV), FFN %6 (%7), vocab %8, sequence %9")
                                  .arg(QString::fromStdString(w.name)).arg(w.layers).arg(w.hidden).arg(w.heads).arg(w.kvHeads)
                                  .arg(w.ffnHidden).arg(QLatin1String(nameOf(w.mlp))).arg(w.vocab).arg(w.seqLen));
    html += row(tr("Training"), QStringLiteral("global batch %1, micro-batch %2, %3, recompute %4, %5 tokens")
                                     .arg(t.globalBatch).arg(t.microBatch).arg(QLatin1String(nameOf(t.precision)))
                                     .arg(QLatin1String(nameOf(t.recompute))).arg(fmt::count(t.tokens)));
    html += row(tr("GPU"), QStringLiteral("%1 × %2: %3 dense 16-bit, %4 HBM at %5")
                                .arg(c.gpus).arg(QString::fromStdString(c.gpu.name)).arg(fmt::flops(c.gpu.peakFlops16))
                                .arg(fmt::bytes(c.gpu.memoryBytes)).arg(fmt::bandwidth(c.gpu.memoryBytesPerSecond)));
    html += row(tr("Fabric"), QStringLiteral("%1 per node; intra %2 %3; inter %4 %5 × %6 rails, %7, oversubscription %8:1%9")
                                   .arg(c.gpusPerNode).arg(QString::fromStdString(c.intraNode.name)).arg(fmt::bandwidth(c.intraNode.bytesPerSecond))
                                   .arg(QString::fromStdString(c.interNode.name)).arg(fmt::bandwidth(c.interNode.bytesPerSecond)).arg(c.rails)
                                   .arg(QLatin1String(nameOf(c.transport))).arg(c.oversubscription)
                                   .arg(c.inNetworkReduction ? tr(", in-network reduction") : QString()));
    html += row(tr("Plan"), QStringLiteral("TP %1, PP %2, DP %3, CP %4, %5 (v=%6), ZeRO-%7, overlap %8, SP %9")
                                 .arg(p.tp).arg(p.pp).arg(p.dp).arg(p.cp).arg(QLatin1String(nameOf(p.schedule))).arg(p.virtualStages)
                                 .arg(p.zeroStage).arg(p.overlapDp ? tr("on") : tr("off")).arg(p.sequenceParallel ? tr("on") : tr("off")));
    return html + QStringLiteral("</table>");
}
} // namespace

bool writeReport(const QString &path, const ReportInput &in, QString *error)
{
    if (!in.evaluation.feasible) {
        *error = tr("The plan is infeasible: %1: %2").arg(QString::fromStdString(in.evaluation.problem.field),
                                                        QString::fromStdString(in.evaluation.problem.message));
        return false;
    }
    const Scenario &s = in.scenario;
    const Evaluation &e = in.evaluation;

    AnalysisOptions options;
    options.interNodeLinks = interNodeLinkChoices();
    const Analysis analysis = analyse(s, options);
    QTextDocument doc;
    StepTimeChart step;
    step.setBars(stepTimeVariants(analysis));
    ScalingChart scaling;
    scaling.setData(scalingData(analysis));
    MemoryChart memory;
    memory.setBars(memoryBars(analysis));
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart://step")), renderOffscreen(&step));
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart://scaling")), renderOffscreen(&scaling));
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart://memory")), renderOffscreen(&memory));

    QString html = QStringLiteral("<h1>%1</h1>").arg((in.name.isEmpty() ? tr("Capacity plan") : in.name).toHtmlEscaped());
    html += QStringLiteral("<p>%1</p>").arg(in.description.toHtmlEscaped());
    html += QStringLiteral("<p><i>%1</i></p>").arg(tr("Trainscope %1, %2").arg(QCoreApplication::applicationVersion(),
                                                                                QDateTime::currentDateTime().toString(Qt::ISODate)));
    for (const QString &note : in.notes)
        html += QStringLiteral("<p><i>%1</i></p>").arg(note.toHtmlEscaped());
    html += QStringLiteral("<h2>%1</h2>").arg(tr("Inputs")) + inputsTable(s);
    html += QStringLiteral("<h2>%1</h2><table cellspacing='0' cellpadding='3' border='1' width='100%'>").arg(tr("Headline figures"));
    for (const CardData &card : headlineCards(s, e, analysis.economics))
        html += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td><td>%3</td></tr>")
                    .arg(card.title.toHtmlEscaped(), card.value.toHtmlEscaped(), card.detail.toHtmlEscaped());
    html += QStringLiteral("</table>");
    // Two charts a page, each heading on the page of its chart.
    const QString chart = QStringLiteral("<h2%1>%2</h2><p><img src='chart://%3' width='%4'></p>");
    const QString newPage = QStringLiteral(" style='page-break-before: always'");
    html += chart.arg(newPage, tr("Step time"), QStringLiteral("step")).arg(kImageWidthOnPage);
    html += chart.arg(QString(), tr("Scaling"), QStringLiteral("scaling")).arg(kImageWidthOnPage);
    html += chart.arg(newPage, tr("Memory per GPU"), QStringLiteral("memory")).arg(kImageWidthOnPage);
    if (!in.compared.isEmpty()) {
        // Pinned scenarios beside this one: headline figures and their step-time bars.
        StepTimeChart compare;
        QList<StepTimeBar> bars;
        for (const PinnedScenario &p : in.compared)
            if (p.evaluation.feasible)
                bars << StepTimeBar{p.name, {}, p.evaluation.breakdown, false};
        bars << StepTimeBar{tr("This plan"), {}, e.breakdown, true};
        compare.setBars(bars);
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart://compare")), renderOffscreen(&compare));
        html += chart.arg(newPage, tr("Compared plans"), QStringLiteral("compare")).arg(kImageWidthOnPage);
        html += QStringLiteral("<table cellspacing='0' cellpadding='3' border='1' width='100%'><tr><th></th>");
        for (const PinnedScenario &p : in.compared)
            html += QStringLiteral("<th>%1</th>").arg(p.name.toHtmlEscaped());
        html += QStringLiteral("<th>%1</th></tr>").arg(tr("This plan"));
        const auto rowOf = [&](const QString &label, auto text) {
            html += QStringLiteral("<tr><td>%1</td>").arg(label);
            for (const PinnedScenario &p : in.compared)
                html += QStringLiteral("<td>%1</td>").arg(p.evaluation.feasible ? text(p.scenario, p.evaluation) : tr("infeasible"));
            html += QStringLiteral("<td><b>%1</b></td></tr>").arg(text(s, e));
        };
        rowOf(tr("Plan"), [](const Scenario &x, const Evaluation &) {
            return QStringLiteral("TP %1 PP %2 DP %3 CP %4, %5, ZeRO-%6").arg(x.plan.tp).arg(x.plan.pp).arg(x.plan.dp).arg(x.plan.cp)
                .arg(QLatin1String(nameOf(x.plan.schedule))).arg(x.plan.zeroStage);
        });
        rowOf(tr("GPUs"), [](const Scenario &x, const Evaluation &) { return QString::number(x.cluster.gpus); });
        rowOf(tr("Step time"), [](const Scenario &, const Evaluation &x) { return fmt::seconds(x.breakdown.stepSeconds); });
        rowOf(tr("Time to train"), [](const Scenario &, const Evaluation &x) { return fmt::duration(x.trainSeconds); });
        rowOf(tr("GPU-hours"), [](const Scenario &, const Evaluation &x) { return fmt::count(x.gpuHours); });
        rowOf(tr("MFU"), [](const Scenario &, const Evaluation &x) { return fmt::percent(x.mfu); });
        rowOf(tr("Memory per GPU"), [](const Scenario &, const Evaluation &x) { return fmt::memory(x.memory.totalBytes); });
        html += QStringLiteral("</table>");
    }
    html += QStringLiteral("<h2>%1</h2>").arg(tr("Warnings and recommendations"));
    const QList<WarningItem> warnings = warningItems(analysis);
    if (warnings.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(tr("None."));
    html += QStringLiteral("<ul>");
    for (const WarningItem &w : warnings)
        html += QStringLiteral("<li><b>%1</b><br>%2</li>").arg(w.message.toHtmlEscaped(), w.recommendation.toHtmlEscaped());
    html += QStringLiteral("</ul><h2>%1</h2>").arg(tr("How the figures are computed"));
    for (const Explanation &x : explainAll(s, e))
        html += QStringLiteral("<p><b>%1</b>: %2<br><tt>%3</tt><br>= %4<br><i>%5</i></p>")
                    .arg(QString::fromStdString(x.title).toHtmlEscaped(), QString::fromStdString(x.formula).toHtmlEscaped(),
                         QString::fromStdString(x.substituted).toHtmlEscaped(), QString::fromStdString(x.result).toHtmlEscaped(),
                         QString::fromStdString(x.source).toHtmlEscaped());
    doc.setHtml(html);

    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setResolution(kPdfResolutionDpi);
    writer.setTitle(in.name.isEmpty() ? tr("Capacity plan") : in.name);
    writer.setCreator(QStringLiteral("Trainscope"));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    doc.print(&writer);
    if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0) {
        *error = tr("Could not write %1").arg(path);
        return false;
    }
    return true;
}

bool exportWidget(QWidget *widget, const QString &path, const QString &title, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        if (!widget->grab().save(path)) {
            *error = tr("Could not write %1").arg(path);
            return false;
        }
        return true;
    }
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(widget->size());
        svg.setViewBox(widget->rect());
        svg.setTitle(title);
        QPainter painter(&svg);
        widget->render(&painter);
        return true;
    }
    if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(path);
        pdf.setTitle(title);
        pdf.setPageSize(QPageSize(QSizeF(widget->width(), widget->height()), QPageSize::Point));
        pdf.setPageMargins({});
        pdf.setResolution(72);
        QPainter painter(&pdf);
        widget->render(&painter);
        return true;
    }
    *error = tr("Unknown export format \"%1\": use .png, .svg or .pdf").arg(suffix);
    return false;
}

void exportViewsAs(QMainWindow *window, QWidget *views)
{
    const QString path = QFileDialog::getSaveFileName(window, QObject::tr("Export views"), QString(),
                                                      QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    QString error;
    if (!path.isEmpty() && !exportWidget(views, path, window->windowTitle(), &error))
        QMessageBox::warning(window, QObject::tr("Export views"), error);
}

void exportReportAs(QMainWindow *window, const ReportInput &input)
{
    QString path = QFileDialog::getSaveFileName(window, QObject::tr("Export report"), QString(), QObject::tr("PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".pdf");
    QString error;
    if (!writeReport(path, input, &error))
        QMessageBox::warning(window, QObject::tr("Export report"), error);
    else
        window->statusBar()->showMessage(QObject::tr("Report written to %1").arg(QDir::toNativeSeparators(path)), 5000);
}

} // namespace ts
