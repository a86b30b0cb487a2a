// SPDX-License-Identifier: MIT
#include "scalingchart.h"

#include "chartmath.h"
#include "formatting.h"
#include "theme.h"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <QCursor>
#include <QLabel>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The (x, y * scale) points that can be drawn: NaN marks an infeasible count, and a log axis
/// cannot show zero or less.
QList<QPointF> plottable(const std::vector<double> &xs, const std::vector<double> &ys, double scale, bool logY)
{
    QList<QPointF> points;
    const size_t n = std::min(xs.size(), ys.size());
    for (size_t i = 0; i < n; ++i) {
        const double x = xs[i];
        const double y = ys[i] * scale;
        if (x > 0 && std::isfinite(x) && std::isfinite(y) && (y > 0 || (!logY && y >= 0)))
            points.append({x, y});
    }
    return points;
}

QString speedupText(double speedup)
{
    return std::isfinite(speedup) ? QString::number(speedup, 'f', 1) : QStringLiteral("—");
}

} // namespace

ScalingChart::ScalingChart(QWidget *parent)
    : ChartFrame(parent)
    , m_gpuAxis(new QLogValueAxis)
    , m_speedupAxis(new QLogValueAxis)
    , m_efficiencyAxis(new QValueAxis)
    , m_speedup(new QLineSeries)
    , m_ideal(new QLineSeries)
    , m_amdahl(new QLineSeries)
    , m_gustafson(new QLineSeries)
    , m_efficiency(new QLineSeries)
    , m_current(new QScatterSeries)
{
    m_gpuAxis->setTitleText(tr("GPUs"));
    m_gpuAxis->setLabelFormat(QStringLiteral("%g"));
    // Log speedup: the ideal line stays straight over decades of GPU counts.
    m_speedupAxis->setTitleText(tr("Speedup [×]"));
    m_speedupAxis->setLabelFormat(QStringLiteral("%.5g"));   // 65536 and 0.015625 both readable
    m_efficiencyAxis->setTitleText(tr("Efficiency [%]"));
    m_efficiencyAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_efficiencyAxis->setTickType(QValueAxis::TicksDynamic);
    m_efficiencyAxis->setTickAnchor(0);
    chart()->addAxis(m_gpuAxis, Qt::AlignBottom);
    chart()->addAxis(m_speedupAxis, Qt::AlignLeft);
    chart()->addAxis(m_efficiencyAxis, Qt::AlignRight);

    m_speedup->setName(tr("Model"));
    m_ideal->setName(tr("Ideal"));
    m_efficiency->setName(tr("Efficiency"));
    m_current->setName(tr("Current"));
    // Added in drawing order: the current point last, on top.
    const QList<QXYSeries *> all{m_speedup, m_ideal, m_amdahl, m_gustafson, m_efficiency, m_current};
    for (QXYSeries *series : all) {
        chart()->addSeries(series);
        series->attachAxis(m_gpuAxis);
        series->attachAxis(series == m_efficiency ? static_cast<QAbstractAxis *>(m_efficiencyAxis) : m_speedupAxis);
    }
    const QList<QXYSeries *> described{m_speedup, m_efficiency, m_current};
    for (QXYSeries *series : described) {
        connect(series, &QXYSeries::hovered, this, [this](const QPointF &point, bool on) {
            if (on)
                showTooltip(point.x());
            else
                QToolTip::hideText();
        });
    }

    chartView()->setRenderHint(QPainter::Antialiasing);   // curves, unlike bars, need it

    m_emptyNote = new QLabel;
    m_emptyNote->setForegroundRole(QPalette::PlaceholderText);
    addOverlay(m_emptyNote, Qt::AlignCenter);

    applyPalette();
    refresh();
}

void ScalingChart::setData(const ScalingChartData &data)
{
    m_data = data;
    refresh();
}

void ScalingChart::paletteChanged()
{
    // After setTheme, which restyles every series. Lines that are not step parts borrow part
    // colours: the model the compute colour, the communication-share references communication ones.
    m_speedup->setPen(QPen(theme::color(theme::Part::Compute), 2));
    m_speedup->setPointsVisible(true);
    m_ideal->setPen(QPen(theme::idealColor(), 1.5, Qt::DashLine));
    m_amdahl->setPen(QPen(theme::color(theme::Part::TpComm), 1.5, Qt::DotLine));
    m_gustafson->setPen(QPen(theme::color(theme::Part::CpComm), 1.5, Qt::DotLine));
    m_efficiency->setPen(QPen(palette().color(QPalette::Text), 1.5, Qt::DashDotLine));
    m_current->setColor(theme::currentPointColor());
    m_current->setBorderColor(palette().color(QPalette::Base));
    m_current->setMarkerSize(12);
}

void ScalingChart::refresh()
{
    const std::vector<double> &gpus = m_data.gpus;
    const QList<QPointF> speedup = plottable(gpus, m_data.speedup, 1, true);
    const QList<QPointF> ideal = plottable(gpus, m_data.ideal, 1, true);
    const QList<QPointF> amdahl = plottable(gpus, m_data.amdahl, 1, true);
    const QList<QPointF> gustafson = plottable(gpus, m_data.gustafson, 1, true);
    const QList<QPointF> efficiency = plottable(gpus, m_data.efficiency, 100, false);  // fraction -> %
    const QList<QPointF> current = plottable({m_data.currentGpus}, {m_data.currentSpeedup}, 1, true);

    const QString share = fmt::percent(m_data.serialFraction);
    // Short legend names (long ones get elided); the serial share goes in the axis title.
    m_amdahl->setName(tr("Amdahl"));
    m_gustafson->setName(tr("Gustafson"));
    const QString speedupTitle = tr("Speedup [×], laws at s = %1").arg(share);
    if (m_speedupAxis->titleText() != speedupTitle)   // every change lays the chart out again
        m_speedupAxis->setTitleText(speedupTitle);

    // Series without points leave the legend too.
    const auto setPoints = [this](QXYSeries *series, const QList<QPointF> &points) {
        if (series->points() != points)
            series->replace(points);
        series->setVisible(!points.isEmpty());
        const QList<QLegendMarker *> markers = chart()->legend()->markers(series);
        for (QLegendMarker *marker : markers)
            marker->setVisible(!points.isEmpty());
    };
    setPoints(m_speedup, speedup);
    setPoints(m_ideal, ideal);
    setPoints(m_amdahl, amdahl);
    setPoints(m_gustafson, gustafson);
    setPoints(m_efficiency, efficiency);
    setPoints(m_current, current);

    // Log axes span whole octaves around everything drawn on them.
    double xMin = std::numeric_limits<double>::infinity(), xMax = 0;
    double yMin = xMin, yMax = 0;
    for (const QList<QPointF> *points : {&speedup, &ideal, &amdahl, &gustafson, &current}) {
        for (const QPointF &p : *points) {
            xMin = std::min(xMin, p.x());
            xMax = std::max(xMax, p.x());
            yMin = std::min(yMin, p.y());
            yMax = std::max(yMax, p.y());
        }
    }
    double efficiencyMax = 100;  // superlinear points stretch the axis rather than vanish
    for (const QPointF &p : efficiency) {
        xMin = std::min(xMin, p.x());
        xMax = std::max(xMax, p.x());
        efficiencyMax = std::max(efficiencyMax, p.y());
    }
    const chartmath::Range xRange = chartmath::log2Range(xMin, xMax);
    const auto setLogAxis = [](QLogValueAxis *axis, double base, const chartmath::Range &range) {
        if (axis->base() != base)
            axis->setBase(base);
        if (axis->min() != range.min || axis->max() != range.max)
            axis->setRange(range.min, range.max);
    };
    setLogAxis(m_gpuAxis, chartmath::log2AxisBase(xMin, xMax, 9), xRange);
    setLogAxis(m_speedupAxis, chartmath::log2AxisBase(yMin, yMax, 7), chartmath::log2Range(yMin, yMax));
    // 100% unless a point is superlinear (ZeRO shards shrink with DP): then the next 10%.
    const double efficiencyAxisMax = efficiencyMax <= 100 ? 100.0 : 10 * std::ceil(efficiencyMax / 10);
    if (m_efficiencyAxis->max() != efficiencyAxisMax) {
        m_efficiencyAxis->setRange(0, efficiencyAxisMax);
        m_efficiencyAxis->setTickInterval(chartmath::niceTickInterval(efficiencyAxisMax));
    }

    m_emptyNote->setText(gpus.empty() ? tr("No scaling data") : tr("No feasible GPU count to plot"));
    m_emptyNote->setVisible(speedup.isEmpty());
}

void ScalingChart::showTooltip(double gpus)
{
    // The hovered position lies between points: describe the nearest GPU count on the log axis.
    const std::vector<double> &xs = m_data.gpus;
    size_t nearest = xs.size();
    double nearestDistance = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < xs.size(); ++i) {
        const double distance = std::abs(std::log(xs[i] / gpus));
        if (distance < nearestDistance) {
            nearest = i;
            nearestDistance = distance;
        }
    }
    if (nearest == xs.size())
        return;
    const auto at = [nearest](const std::vector<double> &values) {
        return nearest < values.size() ? values[nearest] : kNaN;
    };
    QString text = tr("<b>%1 GPUs</b>").arg(QString::number(xs[nearest], 'f', 0));
    if (std::isfinite(at(m_data.speedup))) {
        text += tr("<br>Speedup %1× (ideal %2×)<br>Efficiency %3")
                    .arg(speedupText(at(m_data.speedup)), speedupText(at(m_data.ideal)),
                         fmt::percent(at(m_data.efficiency)));
    } else {
        text += tr("<br>Infeasible");
    }
    QToolTip::showText(QCursor::pos(), text, chartView());
}

} // namespace ts
