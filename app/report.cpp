// SPDX-License-Identifier: MIT
#include "report.h"

#include "evaluate.h"
#include "chartframe.h"
#include "economics.h"
#include "planner.h"
#include "explain.h"
#include "fields.h"
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
#include <QTextBlock>
#include <QAbstractTextDocumentLayout>
#include <QUrl>
#include <QWidget>

#include <cmath>
#include <limits>

namespace ts {

namespace {
QString tr(const char *text) { return QCoreApplication::translate("Report", text); }

// Charts are laid out at about screen size (so their text has screen proportions) and drawn onto
// the page as vectors, scaled to the page width.
constexpr int kChartWidthPx = 620;   // the page's 174 mm: screen fonts come out at about 9 pt
constexpr int kPdfResolutionDpi = 300;

// A4 pages drawn with a painter: HTML blocks flow down the page and break across pages; charts
// are rendered as vectors (QWidget::render onto the PDF painter), never as images.
class PdfPages
{
public:
    explicit PdfPages(QPdfWriter *writer)
        : m_writer(writer)
        , m_painter(writer)
    {
        const QRect page = writer->pageLayout().paintRectPixels(writer->resolution());
        m_page = QRectF(0, 0, page.width(), page.height());
        m_y = 0;
    }
    bool ok() const { return m_painter.isActive(); }
    void newPage()
    {
        m_writer->newPage();
        m_y = 0;
    }
    /// Flows `html` at the page width from the current position, breaking pages as needed.
    void html(const QString &html, double pointSize = 10)
    {
        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(m_writer);
        QFont font = doc.defaultFont();
        font.setPointSizeF(pointSize);
        doc.setDefaultFont(font);
        doc.setHtml(html);
        doc.setTextWidth(m_page.width());
        double drawn = 0;
        const double total = doc.size().height();
        while (drawn < total) {
            const double room = m_page.height() - m_y;
            if (room < 0.05 * m_page.height()) {
                newPage();
                continue;
            }
            // Break at a line boundary: the last block that ends within the room.
            double take = std::min(room, total - drawn);
            if (drawn + take < total) {
                double cut = drawn;
                for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
                    const QRectF r = doc.documentLayout()->blockBoundingRect(b);
                    if (r.bottom() <= drawn + room)
                        cut = std::max(cut, r.bottom());
                }
                take = cut > drawn ? cut - drawn : room;
            }
            m_painter.save();
            m_painter.translate(0, m_y - drawn);
            doc.drawContents(&m_painter, QRectF(0, drawn, m_page.width(), take));
            m_painter.restore();
            drawn += take;
            m_y += take;
            if (drawn < total)
                newPage();
        }
    }
    /// A chart under a title, `heightShare` of the page high, as vectors.
    void chart(ChartFrame *widget, const QString &title, double heightShare)
    {
        html(QStringLiteral("<h3>%1</h3>").arg(title.toHtmlEscaped()), 12);
        const double height = heightShare * m_page.height();
        if (m_y + height > m_page.height())
            newPage();
        widget->setAttribute(Qt::WA_DontShowOnScreen);
        widget->resize(kChartWidthPx, int(kChartWidthPx * height / m_page.width()));
        widget->show();
        // Let the chart lay out its legend and axes for this size before it is drawn: one raster
        // pass (discarded) runs Qt Charts' deferred layout.
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        (void)widget->grab();
        QCoreApplication::processEvents();
        // The legend's labels are measured now that its markers exist: beside the plot when one
        // row would elide them, then one more layout pass.
        widget->settleLegend();
        QCoreApplication::processEvents();
        (void)widget->grab();
        QCoreApplication::processEvents();
        widget->renderChart(&m_painter, QRectF(0, m_y, m_page.width(), height));
        widget->hide();
        m_y += height + 0.02 * m_page.height();
    }

private:
    QPdfWriter *m_writer;
    QPainter m_painter;
    QRectF m_page;
    double m_y = 0;
};

// Sources as papers and documents: the code paths the explanations also name are for developers.
QString sourceForReaders(const std::string &source)
{
    QStringList kept;
    for (const QString &part : QString::fromStdString(source).split(QStringLiteral("; ")))
        if (!part.contains(QLatin1String("model/")) && !part.contains(QLatin1String(".cpp")) && !part.contains(QLatin1String(".h)")))
            kept << part;
    return kept.join(QStringLiteral("; "));
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
    // A workload given by its shape alone has no name: the shape is the whole description.
    const QString shape = fmt::workloadShape(w);
    html += row(tr("Model"), w.name.empty() ? shape : QString::fromStdString(w.name) + QStringLiteral(": ") + shape);
    html += row(tr("Training"), QStringLiteral("global batch %1, micro-batch %2, %3, recompute %4, %5 tokens")
                                     .arg(t.globalBatch).arg(t.microBatch)
                                     .arg(t.precision == Precision::Fp8
                                              ? (t.fp8Recipe == Fp8Recipe::Nvfp4
                                                     ? QStringLiteral("NVFP4 GEMMs (Transformer Engine's NVFP4 recipe)")
                                                     : QStringLiteral("fp8 (%1 scaling)").arg(QLatin1String(nameOf(t.fp8Recipe))))
                                              : QLatin1String(nameOf(t.precision)))
                                     .arg(QLatin1String(nameOf(t.recompute))).arg(fmt::count(t.tokens)));
    html += row(tr("Kernels"), tr("attention %1, loss %2")
                                    .arg(QString::fromStdString(formatFieldValue(Field::Attention, int(w.attention))),
                                         QString::fromStdString(formatFieldValue(
                                             Field::CrossEntropy, int(resolveCrossEntropy(t.crossEntropy, resolveFramework(p)))))));
    html += row(tr("GPU"), QStringLiteral("%1 × %2: %3 dense 16-bit, %4 HBM at %5")
                                .arg(c.gpus).arg(QString::fromStdString(c.gpu.name)).arg(fmt::flops(c.gpu.peakFlops16))
                                .arg(fmt::bytes(c.gpu.memoryBytes)).arg(fmt::bandwidth(c.gpu.memoryBytesPerSecond)));
    html += row(tr("Fabric"), QStringLiteral("%1 per node; intra %2 %3; inter %4 %5 × %6 rails, %7, oversubscription %8:1%9")
                                   .arg(c.gpusPerNode).arg(QString::fromStdString(c.intraNode.name)).arg(fmt::bandwidth(c.intraNode.bytesPerSecond))
                                   .arg(QString::fromStdString(c.interNode.name)).arg(fmt::bandwidth(c.interNode.bytesPerSecond)).arg(c.rails)
                                   .arg(QLatin1String(nameOf(c.transport))).arg(c.oversubscription)
                                   .arg(c.inNetworkReduction ? tr(", in-network reduction") : QString()));
    html += row(tr("Plan"), tr("%1: TP %2, PP %3, DP %4, CP %5, %6, split %7, ZeRO %8, overlap %9, SP %10")
                                 .arg(QString::fromStdString(formatFieldValue(Field::Framework, int(resolveFramework(p)))))
                                 .arg(p.tp).arg(p.pp).arg(p.dp).arg(fmt::contextParallel(p)).arg(fmt::schedule(p), fmt::pipelineSplit(p), fmt::sharding(p),
                                                                              fmt::overlaps(p))
                                 .arg(p.sequenceParallel ? tr("on") : tr("off")));
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
    const Economics &x = analysis.economics;
    // The best plan the search finds for the same model, cluster and batch.
    PlanSearchOptions searchOptions;
    searchOptions.top = 1;
    const PlanSearchResult search = searchPlans(s, searchOptions);

    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setResolution(kPdfResolutionDpi);
    writer.setTitle(in.name.isEmpty() ? tr("Capacity plan") : in.name);
    writer.setCreator(QStringLiteral("Trainscope"));
    writer.setPageMargins(QMarginsF(18, 16, 18, 16), QPageLayout::Millimeter);
    PdfPages pages(&writer);
    if (!pages.ok()) {
        *error = tr("Could not write %1").arg(path);
        return false;
    }

    // ---- Page 1: what a manager reads ----
    const Plan &p = s.plan;
    QString html = QStringLiteral("<h1>%1</h1>").arg((in.name.isEmpty() ? tr("Capacity plan") : in.name).toHtmlEscaped());
    if (!in.description.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(in.description.toHtmlEscaped());
    html += QStringLiteral("<p><b>%1</b></p>")
                .arg(tr("%1 on %2 × %3: TP %4, PP %5, DP %6, CP %7, %8, ZeRO-%9; %10 tokens.")
                         .arg(QString::fromStdString(s.workload.name.empty() ? std::string("the model") : s.workload.name))
                         .arg(s.cluster.gpus).arg(QString::fromStdString(s.cluster.gpu.name)).arg(p.tp).arg(p.pp).arg(p.dp).arg(fmt::contextParallel(p))
                         .arg(QLatin1String(nameOf(p.schedule))).arg(p.zeroStage).arg(fmt::count(s.training.tokens))
                         .toHtmlEscaped());
    const QString kv = QStringLiteral("<tr><td width='32%'>%1</td><td><b>%2</b></td><td>%3</td></tr>");
    html += QStringLiteral("<table cellspacing='0' cellpadding='5' border='1' width='100%'>");
    if (x.valid) {
        html += kv.arg(tr("Time to train"), fmt::duration(x.goodput.trainSeconds),
                       tr("with failures and checkpoints (median); %1 in a bad run (90th percentile); %2 without failures")
                           .arg(fmt::duration(x.goodput.trainSecondsP90), fmt::duration(e.trainSeconds)));
        html += kv.arg(tr("Cost"), QStringLiteral("$") + fmt::count(x.cost.totalUsd),
                       tr("%1 GPU-hours at $%2 per GPU-hour; $%3 per million tokens")
                           .arg(fmt::count(x.cost.gpuHours), QString::number(x.cost.pricePerGpuHour, 'f', 2),
                                QString::number(x.cost.perMillionTokensUsd, 'f', 3)));
        html += kv.arg(tr("Energy"), fmt::energy(x.energy.energyMegawattHours * 3.6e9),
                       tr("%1 MW average facility power (PUE %2); %3 t CO2 at %4 kg/kWh")
                           .arg(QString::number(x.energy.facilityMegawatts, 'f', 2), QString::number(s.operations.pue))
                           .arg(fmt::count(std::round(x.energy.emissionsTonnesCo2)), QString::number(s.operations.gridKgCo2PerKwh)));
        html += kv.arg(tr("Goodput"), fmt::percent(x.goodput.effectiveFraction),
                       tr("%1 interruptions expected (one every %2); checkpoint every %3, written in %4")
                           .arg(QString::number(qRound64(x.goodput.interruptions)), fmt::duration(x.goodput.jobMtbfSeconds),
                                fmt::duration(x.goodput.checkpointIntervalSeconds), fmt::seconds(x.goodput.checkpointWriteSeconds)));
    }
    html += kv.arg(tr("Memory per GPU"), fmt::memory(e.memory.totalBytes) + QStringLiteral(" / ") + fmt::memory(e.memory.capacityBytes),
                   e.memory.fits ? tr("fits") : tr("DOES NOT FIT: the plan cannot run as set"));
    html += kv.arg(tr("Step time, MFU"), fmt::seconds(e.breakdown.stepSeconds) + QStringLiteral(", ") + fmt::percent(e.mfu),
                   tr("%1 tokens/s; %2 of the step is exposed communication")
                       .arg(fmt::count(e.tokensPerSecond), fmt::percent(e.communicationFraction)));
    // How far to trust those figures on this GPU and for this model: the presets' comparisons with
    // measured runs.
    QStringList accuracy;
    if (!s.cluster.gpu.accuracy.empty())
        accuracy << QString::fromStdString(s.cluster.gpu.accuracy).toHtmlEscaped();
    if (!s.workload.accuracy.empty())
        accuracy << QStringLiteral("<b>%1</b> %2").arg(tr("This model:"), QString::fromStdString(s.workload.accuracy).toHtmlEscaped());
    if (!accuracy.isEmpty())
        html += QStringLiteral("<tr><td>%1</td><td colspan='2'>%2</td></tr>")
                    .arg(tr("Measured accuracy"), accuracy.join(QStringLiteral("<br/>")));
    html += QStringLiteral("</table>");
    // The best alternative the search found.
    html += QStringLiteral("<h3>%1</h3>").arg(tr("Best alternative"));
    // A plan that does not fit has no time to beat: the fastest plan that fits is the alternative.
    if (!search.best.empty() && (!e.memory.fits || search.best.front().trainSeconds < e.trainSeconds * (1 - 1e-6))) {
        const PlanCandidate &b = search.best.front();
        const Plan &bp = b.scenario.plan;
        const double ratio = b.calendarTrainSeconds() / calendarTrainSeconds(e, x);   // the figures the page shows
        const QString versus = ratio < 1 ? tr("%1 faster").arg(fmt::percent(1 - ratio)) : tr("%1 slower").arg(fmt::percent(ratio - 1));
        html += QStringLiteral("<p>%1</p>").arg(
            tr("%13: TP %1, PP %2, DP %3, CP %4, micro-batch %5, %6, ZeRO %7, recompute %8: %9 "
               "(%10 than this plan), %11 fits in memory. Ranked first of %12 plans that fit.")
                .arg(bp.tp).arg(bp.pp).arg(bp.dp).arg(fmt::contextParallel(bp)).arg(b.scenario.training.microBatch)
                .arg(fmt::schedule(bp), fmt::sharding(bp)).arg(QLatin1String(nameOf(b.scenario.training.recompute)))
                // As the time to train above: with failures and checkpoints when they are known.
                .arg(b.trainSecondsWithFailures > 0 ? tr("%1 to train with failures and checkpoints").arg(fmt::duration(b.trainSecondsWithFailures))
                                                    : tr("%1 to train without failures").arg(fmt::duration(b.trainSeconds)),
                     versus,
                     fmt::memory(b.memoryBytes), fmt::count(double(search.fitting)))
                .arg(QString::fromStdString(formatFieldValue(Field::Framework, int(resolveFramework(bp)))))
                .toHtmlEscaped());
    } else {
        html += QStringLiteral("<p>%1</p>").arg(tr("This plan is the fastest of the %1 plans that fit.").arg(fmt::count(double(search.fitting))));
    }
    // Top risks: what would change the answer.
    html += QStringLiteral("<h3>%1</h3><ul>").arg(tr("Risks"));
    QStringList risks;
    if (!e.memory.fits)
        risks << tr("The plan does not fit in HBM: it cannot run without more GPUs, sharding or recompute.");
    else if (e.memory.totalBytes > 0.9 * e.memory.capacityBytes)
        risks << tr("Memory is within 10% of HBM: allocator spikes or a longer sequence may not fit.");
    if (x.valid && x.goodput.effectiveFraction < 0.9)
        risks << tr("Failures cost %1 of the wall time: faster checkpoints or restarts pay off.").arg(fmt::percent(1 - x.goodput.effectiveFraction));
    for (const WarningItem &w : warningItems(analysis))
        if (risks.size() < 4)
            risks << w.message + QLatin1Char(' ') + w.recommendation;
    if (risks.isEmpty())
        risks << tr("None that the model flags.");
    for (const QString &r : risks)
        html += QStringLiteral("<li>%1</li>").arg(r.toHtmlEscaped());
    html += QStringLiteral("</ul><p><i>%1</i></p>").arg(tr("Trainscope %1, %2. Figures from an analytical model; assumptions "
                                                           "(price, power, failure rate) are inputs listed in the appendix.")
                                                            .arg(QCoreApplication::applicationVersion(),
                                                                 QDateTime::currentDateTime().toString(Qt::ISODate)));
    pages.html(html, 10.5);

    // ---- Charts, as vectors, with titles ----
    pages.newPage();
    StepTimeChart step;
    step.setBars(stepTimeVariants(analysis));
    pages.chart(&step, tr("Where a step's time goes: this plan and variants"), 0.36);
    ScalingChart scaling;
    scaling.setData(scalingData(analysis));
    scaling.setControlsVisible(false);   // the page says which view it is
    pages.chart(&scaling, tr("Scaling with GPUs (weak scaling)"), 0.36);
    pages.newPage();
    MemoryChart memory;
    memory.setBars(memoryBars(analysis));
    pages.chart(&memory, tr("Memory per GPU against HBM"), 0.36);
    if (!in.compared.isEmpty()) {
        StepTimeChart compare;
        QList<StepTimeBar> bars;
        for (const PinnedScenario &pin : in.compared)
            if (pin.evaluation.feasible)
                bars << StepTimeBar{pin.name, {}, pin.evaluation.breakdown, false};
        bars << StepTimeBar{tr("This plan"), {}, e.breakdown, true};
        compare.setBars(bars);
        pages.chart(&compare, tr("Compared plans"), 0.3);
        QString table = QStringLiteral("<table cellspacing='0' cellpadding='4' border='1' width='100%'><tr><th></th>");
        for (const PinnedScenario &pin : in.compared)
            table += QStringLiteral("<th>%1</th>").arg(pin.name.toHtmlEscaped());
        table += QStringLiteral("<th>%1</th></tr>").arg(tr("This plan"));
        // Each pinned figure with its difference to this plan, and the best of the row starred (as in
        // the Compare tab); `value` is null for rows that are not compared.
        const PinnedScenario self{tr("This plan"), s, e, x};
        const auto rowOf = [&](const QString &label, QString (*text)(const PinnedScenario &),
                               double (*value)(const PinnedScenario &) = nullptr, bool lowerIsBetter = true) {
            table += QStringLiteral("<tr><td>%1</td>").arg(label);
            double best = value && e.memory.fits ? value(self) : std::numeric_limits<double>::quiet_NaN();
            if (value)
                for (const PinnedScenario &pin : in.compared)
                    if (pin.evaluation.feasible && pin.evaluation.memory.fits
                        && (std::isnan(best) || (lowerIsBetter ? value(pin) < best : value(pin) > best)))
                        best = value(pin);
            const auto cell = [&](const PinnedScenario &p, bool isSelf) {
                if (!p.evaluation.feasible)
                    return tr("infeasible");
                QString t = text(p);
                if (value && !isSelf && value(self) != 0 && std::abs(value(p) / value(self) - 1) >= 0.0005)
                    t += QStringLiteral(" (%1%2)").arg(value(p) > value(self) ? QStringLiteral("+") : QString(),
                                                       fmt::percent(value(p) / value(self) - 1));
                if (value && p.evaluation.memory.fits && value(p) == best)
                    t = QStringLiteral("★ ") + t;
                return t;
            };
            for (const PinnedScenario &pin : in.compared)
                table += QStringLiteral("<td>%1</td>").arg(cell(pin, false).toHtmlEscaped());
            table += QStringLiteral("<td><b>%1</b></td></tr>").arg(cell(self, true).toHtmlEscaped());
        };
        // Time to train and GPU-hours as the headline gives them.
        static const auto trainSeconds = [](const PinnedScenario &p) { return calendarTrainSeconds(p.evaluation, p.economics); };
        static const auto gpuHours = [](const PinnedScenario &p) { return calendarGpuHours(p.evaluation, p.economics); };
        rowOf(tr("Plan"), [](const PinnedScenario &p) {
            const Plan &y = p.scenario.plan;
            return QStringLiteral("TP %1 PP %2 DP %3 CP %4, %5, ZeRO-%6").arg(y.tp).arg(y.pp).arg(y.dp).arg(fmt::contextParallel(y))
                .arg(QLatin1String(nameOf(y.schedule))).arg(y.zeroStage);
        });
        rowOf(tr("GPUs"), [](const PinnedScenario &p) { return QString::number(p.scenario.cluster.gpus); });
        rowOf(tr("Step time"), [](const PinnedScenario &p) { return fmt::seconds(p.evaluation.breakdown.stepSeconds); },
              [](const PinnedScenario &p) { return p.evaluation.breakdown.stepSeconds; });
        rowOf(tr("Time to train"), [](const PinnedScenario &p) { return fmt::duration(trainSeconds(p)); },
              [](const PinnedScenario &p) { return trainSeconds(p); });
        rowOf(tr("GPU-hours"), [](const PinnedScenario &p) { return fmt::count(gpuHours(p)); },
              [](const PinnedScenario &p) { return gpuHours(p); });
        rowOf(tr("MFU"), [](const PinnedScenario &p) { return fmt::mfu(p.evaluation.mfu, p.evaluation.flopsApplicable); },
              [](const PinnedScenario &p) { return p.evaluation.mfu; }, false);
        rowOf(tr("Memory per GPU"), [](const PinnedScenario &p) { return fmt::memory(p.evaluation.memory.totalBytes); },
              [](const PinnedScenario &p) { return p.evaluation.memory.totalBytes; });
        pages.html(table + QStringLiteral("</table>"));
    }

    // ---- Appendix: inputs, notes, formulas with their sources ----
    pages.newPage();
    QString appendix = QStringLiteral("<h2>%1</h2>").arg(tr("Appendix: inputs")) + inputsTable(s);
    const Operations &o = s.operations;
    appendix += QStringLiteral("<p>%1</p>").arg(
        tr("Operations: average GPU draw %1 of TDP, host %2 W per GPU, network %3, PUE %4, grid %5 kg CO2/kWh, %6 failures per "
           "GPU-hour, checkpoint storage %7, restart %8.")
            .arg(fmt::percent(o.averagePowerFraction, 0)).arg(o.hostWattsPerGpu).arg(fmt::percent(o.networkPowerFraction, 0))
            .arg(o.pue).arg(o.gridKgCo2PerKwh).arg(o.failuresPerGpuHour, 0, 'g', 3)
            .arg(fmt::bandwidth(o.storageBytesPerSecond), fmt::seconds(o.restartSeconds))
            .toHtmlEscaped());
    for (const QString &note : in.notes)
        appendix += QStringLiteral("<p><i>%1</i></p>").arg(note.toHtmlEscaped());
    appendix += QStringLiteral("<h2>%1</h2>").arg(tr("Appendix: how the figures are computed"));
    for (const Explanation &ex : explainAll(s, e))
        appendix += QStringLiteral("<p><b>%1</b>: %2<br>%3<br>= <b>%4</b><br><i>%5</i></p>")
                        .arg(QString::fromStdString(ex.title).toHtmlEscaped(), QString::fromStdString(ex.formula).toHtmlEscaped(),
                             QString::fromStdString(ex.substituted).toHtmlEscaped(), QString::fromStdString(ex.result).toHtmlEscaped(),
                             sourceForReaders(ex.source).toHtmlEscaped());
    pages.html(appendix, 9);
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

bool exportSlide(const SlideView &view, const QString &scenarioName, const QString &path, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!view.widget) {
        *error = tr("Nothing to export");
        return false;
    }
    // Paints the slide: caption and scenario name in a band on top, the view fitted below.
    const auto paint = [&](QPainter &p) {
        const QRectF slide(0, 0, kSlideWidth, kSlideHeight);
        const QPalette pal = view.widget->palette();
        p.fillRect(slide, pal.color(QPalette::Base));
        QFont title = view.widget->font();
        title.setPixelSize(44);
        title.setBold(true);
        p.setFont(title);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(48, 28, kSlideWidth - 96, 60), Qt::AlignLeft | Qt::AlignVCenter, view.caption);
        QFont sub = view.widget->font();
        sub.setPixelSize(26);
        p.setFont(sub);
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRectF(48, 90, kSlideWidth - 96, 36), Qt::AlignLeft | Qt::AlignVCenter, scenarioName);
        const QRectF area(48, 150, kSlideWidth - 96, kSlideHeight - 190);
        if (auto *chart = qobject_cast<ChartFrame *>(view.widget)) {
            chart->renderChart(&p, area);   // vectors at any size
            return;
        }
        // Other views at their on-screen layout, scaled to fit the slide's area.
        const QSizeF size = view.widget->size();
        const double scale = std::min(area.width() / size.width(), area.height() / size.height());
        p.save();
        p.translate(area.left() + (area.width() - scale * size.width()) / 2, area.top());
        p.scale(scale, scale);
        view.widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
        p.restore();
    };
    if (suffix == QLatin1String("png")) {
        QImage image(kSlideWidth, kSlideHeight, QImage::Format_ARGB32_Premultiplied);
        {
            QPainter p(&image);
            p.setRenderHint(QPainter::Antialiasing);
            p.setRenderHint(QPainter::TextAntialiasing);
            paint(p);
        }
        if (!image.save(path)) {
            *error = tr("Could not write %1").arg(path);
            return false;
        }
        return true;
    }
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(QSize(kSlideWidth, kSlideHeight));
        svg.setViewBox(QRect(0, 0, kSlideWidth, kSlideHeight));
        svg.setTitle(view.caption + QStringLiteral(" — ") + scenarioName);
        QPainter p(&svg);
        paint(p);
        return true;
    }
    if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(path);
        pdf.setTitle(view.caption + QStringLiteral(" — ") + scenarioName);
        pdf.setPageSize(QPageSize(QSizeF(kSlideWidth, kSlideHeight), QPageSize::Point));
        pdf.setPageMargins({});
        pdf.setResolution(72);
        QPainter p(&pdf);
        paint(p);
        return true;
    }
    *error = tr("Unknown export format \"%1\": use .png, .svg or .pdf").arg(suffix);
    return false;
}

void exportViewsAs(QMainWindow *window, const QList<SlideView> &views, const QString &scenarioName)
{
    const QString path = QFileDialog::getSaveFileName(window, QObject::tr("Export views"), QString(),
                                                      QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    QStringList written;
    for (const SlideView &v : views) {
        // One view: the name as given; several: name-tag.ext beside it.
        const QString file = views.size() == 1 ? path
                                               : info.dir().filePath(info.completeBaseName() + QLatin1Char('-') + v.fileTag
                                                                     + QLatin1Char('.') + info.suffix());
        QString error;
        if (!exportSlide(v, scenarioName, file, &error)) {
            QMessageBox::warning(window, QObject::tr("Export views"), error);
            return;
        }
        written << QDir::toNativeSeparators(file);
    }
    window->statusBar()->showMessage(QObject::tr("Exported %1").arg(written.join(QStringLiteral(", "))), 5000);
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
