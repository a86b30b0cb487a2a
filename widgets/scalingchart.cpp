// SPDX-License-Identifier: MIT
#include "scalingchart.h"

#include "chartmath.h"
#include "formatting.h"
#include "theme.h"

#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>

#include <QFontMetrics>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QStyle>
#include <QVBoxLayout>
#include <QLabel>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Points (log2 x, y) that can be drawn: NaN marks an infeasible count; log2 y needs y > 0.
QList<QPointF> plottable(const std::vector<double> &xs, const std::vector<double> &ys, bool log2Y, double scale = 1)
{
    QList<QPointF> points;
    const size_t n = std::min(xs.size(), ys.size());
    for (size_t i = 0; i < n; ++i) {
        const double x = xs[i], y = ys[i] * scale;
        if (x > 0 && std::isfinite(x) && std::isfinite(y) && (!log2Y || y > 0) && y >= 0)
            points.append({std::log2(x), log2Y ? std::log2(y) : y});
    }
    return points;
}

// Labels at the integer log2 positions of [lo, hi], every `step` octaves.
// Sets the category labels, unless the axis has them already: every change lays the chart out
// again, and a slider drag rarely moves the axes.
void setCategories(QCategoryAxis *axis, const QList<std::pair<QString, double>> &labels)
{
    const QStringList current = axis->categoriesLabels();
    bool same = current.size() == labels.size();
    for (qsizetype i = 0; same && i < labels.size(); ++i)
        same = current[i] == labels[i].first && axis->endValue(current[i]) == labels[i].second;
    if (same)
        return;
    for (const QString &label : current)
        axis->remove(label);
    for (const auto &[label, value] : labels)
        axis->append(label, value);
}

void setLog2Labels(QCategoryAxis *axis, double lo, double hi)
{
    const int octaves = std::max(1, int(std::ceil(hi - lo)));
    const int step = octaves > 12 ? 4 : octaves > 6 ? 2 : 1;
    QList<std::pair<QString, double>> labels;
    for (int k = int(std::floor(lo)); k <= int(std::ceil(hi)); ++k)
        if (k % step == 0)
            labels.append({ScalingChart::powerOfTwoLabel(std::pow(2.0, k)), double(k)});
    setCategories(axis, labels);
    if (axis->min() != lo || axis->max() != hi)
        axis->setRange(lo, hi);
}

} // namespace

QString ScalingChart::powerOfTwoLabel(double value)
{
    if (value >= 1 << 20)
        return QStringLiteral("%1M").arg(value / (1 << 20), 0, 'g', 4);
    if (value >= 1 << 10)
        return QStringLiteral("%1K").arg(value / (1 << 10), 0, 'g', 4);
    return QString::number(value, 'g', 4);
}

ScalingChart::ScalingChart(QWidget *parent)
    : ChartFrame(parent)
    , m_gpuAxis(new QCategoryAxis)
    , m_valueAxis(new QCategoryAxis)
    , m_model(new QLineSeries)
    , m_ideal(new QLineSeries)
    , m_amdahl(new QLineSeries)
    , m_gustafson(new QLineSeries)
    , m_current(new QScatterSeries)
{
    // The axes end on a labelled octave: room for half of "64K" beyond the plot's right and top edges.
    const int halfLabel = QFontMetrics(font()).horizontalAdvance(QStringLiteral("64K")) / 2 + 2;
    chart()->setMargins(QMargins(4, halfLabel / 2 + 4, halfLabel, 4));
    for (QCategoryAxis *axis : {m_gpuAxis, m_valueAxis}) {
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        axis->setTruncateLabels(false);   // "1K" is short; Qt's eliding would make it "..."
    }
    m_gpuAxis->setTitleText(tr("GPUs"));
    chart()->addAxis(m_gpuAxis, Qt::AlignBottom);
    chart()->addAxis(m_valueAxis, Qt::AlignLeft);
    m_model->setName(tr("Model"));
    m_ideal->setName(tr("Ideal"));
    m_amdahl->setName(tr("Amdahl"));
    m_gustafson->setName(tr("Gustafson"));
    m_current->setName(tr("Current"));
    // Added in drawing order: the ideal under the model, the current point last, on top.
    const QList<QXYSeries *> all{m_ideal, m_amdahl, m_gustafson, m_model, m_current};
    for (QXYSeries *series : all) {
        chart()->addSeries(series);
        series->attachAxis(m_gpuAxis);
        series->attachAxis(m_valueAxis);
        connect(series, &QXYSeries::clicked, this, [this] { emit explanationRequested(QStringLiteral("scaling")); });
    }
    for (QXYSeries *series : {static_cast<QXYSeries *>(m_model), static_cast<QXYSeries *>(m_current)})
        connect(series, &QXYSeries::hovered, this, [this](const QPointF &point, bool on) {
            if (on)
                showTooltip(point.x());
            else
                QToolTip::hideText();
        });
    chartView()->setRenderHint(QPainter::Antialiasing);   // curves, unlike bars, need it

    // What to show: one quantity, one kind of scaling, laws on request.
    auto *header = new QWidget;
    auto *rows = new QVBoxLayout(header);
    rows->setContentsMargins(4, 2, 4, 0);
    rows->setSpacing(2);
    m_mode = new QComboBox(header);
    m_mode->addItem(tr("Weak scaling"));
    m_mode->addItem(tr("Strong scaling"));
    m_mode->setItemData(0, tr("The global batch grows with the GPUs (micro-batches per replica kept)"), Qt::ToolTipRole);
    m_mode->setItemData(1, tr("The global batch is kept: each replica gets fewer micro-batches"), Qt::ToolTipRole);
    m_quantity = new QComboBox(header);
    m_quantity->addItem(tr("Speedup"));
    m_quantity->addItem(tr("Efficiency"));
    m_laws = new QCheckBox(tr("Laws"), header);
    m_laws->setToolTip(tr("Amdahl's (fixed size) and Gustafson's (scaled size) laws, with the current exposed "
                          "communication share as the serial part"));
    m_laws->setChecked(true);
    m_headerRows = rows;
    header->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setHeader(header);
    m_header = header;
    fixLawsSize();   // in the font the header now inherits; places the controls
    for (QComboBox *c : {m_mode, m_quantity})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(m_laws, &QCheckBox::toggled, this, [this] { refresh(); });

    m_emptyNote = new QLabel;
    m_emptyNote->setForegroundRole(QPalette::PlaceholderText);
    m_emptyNote->setAlignment(Qt::AlignCenter);
    // Over the curves when a point is drawn: on the plot's own background, not through its lines.
    m_emptyNote->setAutoFillBackground(true);
    m_emptyNote->setBackgroundRole(QPalette::Base);
    m_emptyNote->setContentsMargins(6, 3, 6, 3);
    addOverlay(m_emptyNote, Qt::AlignCenter);

    applyPalette();
    refresh();
}

void ScalingChart::setData(const ScalingChartData &data)
{
    m_data = data;
    refresh();
}

void ScalingChart::setView(bool weak, bool speedup, bool laws)
{
    m_mode->setCurrentIndex(weak ? 0 : 1);
    m_quantity->setCurrentIndex(speedup ? 0 : 1);
    m_laws->setChecked(laws);
}

void ScalingChart::setControlsVisible(bool visible) { m_header->setVisible(visible); }

const ScalingCurves &ScalingChart::curves() const { return m_mode->currentIndex() == 0 ? m_data.weak : m_data.strong; }

void ScalingChart::fixLawsSize()
{
    // The share in its text changes on every slider step. At a fixed size (that of the widest
    // text) the new text repaints the box alone; otherwise it lays the whole Plan tab out again.
    const QString text = m_laws->text();
    m_laws->setMinimumSize(0, 0);
    m_laws->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    m_laws->setText(lawsText(1.0));
    m_laws->setFixedSize(m_laws->sizeHint());
    m_laws->setText(text);
    placeControls();
}

void ScalingChart::placeControls()
{
    // One row where they fit, else wrapped: at the dock's width on a 1024-pixel screen the laws'
    // box was cut off at the chart's edge.
    const QList<QWidget *> controls{m_mode, m_quantity, m_laws};
    QList<int> widths;
    for (QWidget *control : controls)
        widths.append(control->sizeHint().width());
    const QMargins margins = m_headerRows->contentsMargins();
    const int spacing = m_header->style()->layoutSpacing(QSizePolicy::ComboBox, QSizePolicy::CheckBox, Qt::Horizontal);
    // The header asks for no more width than its widest control: it wraps rather than holding the
    // chart (and the tab) wider than the window.
    m_header->setMinimumWidth(*std::max_element(widths.begin(), widths.end()) + margins.left() + margins.right());
    const QList<int> rows = chartmath::controlRows(widths, std::max(spacing, 0), width() - margins.left() - margins.right());
    if (rows == m_controlRows)
        return;
    m_controlRows = rows;
    while (QLayoutItem *item = m_headerRows->takeAt(0))
        delete item;   // the row layouts; the controls stay children of the header
    QHBoxLayout *line = nullptr;
    for (qsizetype i = 0; i < controls.size(); ++i) {
        if (!line || (i > 0 && rows[i] != rows[i - 1])) {
            if (line)
                line->addStretch(1);
            line = new QHBoxLayout;
            m_headerRows->addLayout(line);
        }
        line->addWidget(controls[i]);
    }
    line->addStretch(1);
}

void ScalingChart::resizeEvent(QResizeEvent *event)
{
    ChartFrame::resizeEvent(event);
    placeControls();
}

QString ScalingChart::lawsText(double serialFraction) const
{
    return tr("Laws at s = %1").arg(fmt::percent(serialFraction));
}

void ScalingChart::changeEvent(QEvent *event)
{
    ChartFrame::changeEvent(event);
    if (m_laws && (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange))
        fixLawsSize();
}

void ScalingChart::paletteChanged()
{
    // After setTheme, which restyles every series. Lines that are not step parts borrow part
    // colours: the model the compute colour, the communication-share references communication ones.
    m_model->setPen(QPen(theme::color(theme::Part::Compute), 2.5));
    m_model->setPointsVisible(true);
    // The dashed references one pixel wide: the raster engine draws those with its cosmetic
    // stroker, where a wider dashed pen is cut into a path of every dash and filled (a fifth of a
    // slider step's painting at 1.5 px).
    m_ideal->setPen(QPen(theme::idealColor(), 1.0, Qt::DashLine));
    m_amdahl->setPen(QPen(theme::color(theme::Part::TpComm), 1.0, Qt::DotLine));
    m_gustafson->setPen(QPen(theme::color(theme::Part::CpComm), 1.0, Qt::DotLine));
    m_current->setColor(theme::currentPointColor());
    m_current->setBorderColor(palette().color(QPalette::Base));
    m_current->setMarkerSize(12);
}

void ScalingChart::refresh()
{
    const ScalingCurves &c = curves();
    const bool speedup = m_quantity->currentIndex() == 0, laws = m_laws->isChecked();
    const std::vector<double> &gpus = c.gpus;
    // Efficiency in percent on a linear axis; speedups on log2.
    std::vector<double> idealEfficiency(gpus.size(), 1.0), amdahlEfficiency, gustafsonEfficiency;
    for (size_t i = 0; i < gpus.size() && i < c.amdahl.size(); ++i) {
        amdahlEfficiency.push_back(c.amdahl[i] / gpus[i]);
        gustafsonEfficiency.push_back(c.gustafson[i] / gpus[i]);
    }
    const double scale = speedup ? 1 : 100;
    const QList<QPointF> model = plottable(gpus, speedup ? c.speedup : c.efficiency, speedup, scale);
    const QList<QPointF> ideal = plottable(gpus, speedup ? c.ideal : idealEfficiency, speedup, scale);
    const QList<QPointF> amdahl = laws ? plottable(gpus, speedup ? c.amdahl : amdahlEfficiency, speedup, scale) : QList<QPointF>{};
    const QList<QPointF> gustafson =
        laws ? plottable(gpus, speedup ? c.gustafson : gustafsonEfficiency, speedup, scale) : QList<QPointF>{};
    const QList<QPointF> current = plottable({m_data.currentGpus}, {speedup ? c.currentSpeedup : c.currentEfficiency}, speedup, scale);

    // Series without points leave the legend too.
    const auto setPoints = [this](QXYSeries *series, const QList<QPointF> &points) {
        if (series->points() != points)
            series->replace(points);
        series->setVisible(!points.isEmpty());
        const QList<QLegendMarker *> markers = chart()->legend()->markers(series);
        for (QLegendMarker *marker : markers)
            marker->setVisible(!points.isEmpty());
    };
    setPoints(m_model, model);
    setPoints(m_ideal, ideal);
    setPoints(m_amdahl, amdahl);
    setPoints(m_gustafson, gustafson);
    setPoints(m_current, current);
    placeLegend();

    double xMin = std::numeric_limits<double>::infinity(), xMax = -xMin, yMin = xMin, yMax = -xMin;
    for (const QList<QPointF> *points : {&model, &ideal, &amdahl, &gustafson, &current})
        for (const QPointF &p : *points) {
            xMin = std::min(xMin, p.x());
            xMax = std::max(xMax, p.x());
            yMin = std::min(yMin, p.y());
            yMax = std::max(yMax, p.y());
        }
    if (std::isfinite(xMin)) {
        setLog2Labels(m_gpuAxis, std::floor(xMin), std::ceil(xMax));
        if (speedup) {
            setLog2Labels(m_valueAxis, std::floor(yMin), std::ceil(yMax));
        } else {
            // 0-100% unless a point is superlinear (ZeRO shards shrink with DP): then the next 10%.
            const double top = yMax <= 100 ? 100.0 : 10 * std::ceil(yMax / 10);
            QList<std::pair<QString, double>> labels;
            for (int v = 0; v <= int(top); v += top > 100 ? 20 : 25)
                labels.append({QStringLiteral("%1%").arg(v), double(v)});
            setCategories(m_valueAxis, labels);
            if (m_valueAxis->min() != 0 || m_valueAxis->max() != top)
                m_valueAxis->setRange(0, top);
        }
    }
    const QString title = speedup ? tr("Speedup [×]") : tr("Efficiency");
    if (m_valueAxis->titleText() != title)   // every change lays the chart out again
        m_valueAxis->setTitleText(title);
    m_laws->setText(lawsText(m_data.serialFraction));

    // With one count or none drawn, say why the others cannot run (a job inside one 72-GPU rack
    // doubles to counts that are no multiple of it; an expert parallelism larger than the half).
    // The first reason above the current count (where one scales to), else the first at all; the
    // message alone, the tooltip names the key too.
    QString reason, reasonBelow;
    double feasibleGpus = 0;
    for (size_t i = 0; i < gpus.size(); ++i) {
        const QString p = i < c.problems.size() ? QString::fromStdString(c.problems[i].message) : QString();
        if (p.isEmpty())
            feasibleGpus = gpus[i];
        else if (gpus[i] > m_data.currentGpus && reason.isEmpty())
            reason = p;
        else if (reasonBelow.isEmpty())
            reasonBelow = p;
    }
    if (reason.isEmpty())
        reason = reasonBelow;
    if (gpus.empty())
        m_emptyNote->setText(tr("No scaling data"));
    else if (model.isEmpty())
        m_emptyNote->setText(reason.isEmpty() ? tr("No feasible GPU count to plot") : tr("No GPU count can run:\n%1").arg(reason));
    else
        m_emptyNote->setText(tr("Only %1 GPUs can run; other counts:\n%2").arg(fmt::count(feasibleGpus), reason));
    m_emptyNote->setVisible(model.isEmpty() || (model.size() < 2 && !reason.isEmpty()));
    cacheAxisLines();   // antialiased for the curves: the grid is most of the drawing otherwise
}

void ScalingChart::showTooltip(double log2Gpus)
{
    // The hovered position lies between points: describe the nearest GPU count.
    const ScalingCurves &c = curves();
    size_t nearest = c.gpus.size();
    double nearestDistance = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < c.gpus.size(); ++i) {
        const double distance = std::abs(std::log2(c.gpus[i]) - log2Gpus);
        if (distance < nearestDistance) {
            nearest = i;
            nearestDistance = distance;
        }
    }
    if (nearest == c.gpus.size())
        return;
    const auto at = [nearest](const std::vector<double> &values) { return nearest < values.size() ? values[nearest] : kNaN; };
    QString text = tr("<b>%1 GPUs</b> (%2)").arg(fmt::count(c.gpus[nearest]), m_mode->currentText().toLower());
    if (std::isfinite(at(c.speedup)))
        text += tr("<br>Speedup %1× (ideal %2×)<br>Efficiency %3<br><i>Click for the formula</i>")
                    .arg(QString::number(at(c.speedup), 'f', 1), QString::number(at(c.ideal), 'f', 0), fmt::percent(at(c.efficiency)));
    else if (nearest < c.problems.size() && !c.problems[nearest].message.empty())
        text += tr("<br>Cannot run: %1").arg(QString::fromStdString(describe(c.problems[nearest])).toHtmlEscaped());
    else
        text += tr("<br>Infeasible");
    QToolTip::showText(QCursor::pos(), text, chartView());
}

} // namespace ts
