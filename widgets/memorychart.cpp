// SPDX-License-Identifier: MIT
#include "memorychart.h"

#include "chartmath.h"
#include "formatting.h"
#include "units.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarLegendMarker>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <QCursor>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QToolTip>

#include <algorithm>
#include <array>

namespace ts {

namespace {

using theme::Part;

constexpr double kStaleOpacity = 0.35;

// The memory parts in theme order, each with the MemoryBreakdown field it draws.
struct PartField
{
    Part part;
    double MemoryBreakdown::*bytes;
};
constexpr std::array kPartFields{
    PartField{Part::Weights, &MemoryBreakdown::weightsBytes},
    PartField{Part::Gradients, &MemoryBreakdown::gradientsBytes},
    PartField{Part::OptimizerStates, &MemoryBreakdown::optimizerBytes},
    PartField{Part::Activations, &MemoryBreakdown::activationsBytes},
    PartField{Part::Buffers, &MemoryBreakdown::buffersBytes},
};

double partBytes(const MemoryBreakdown &memory, Part part)
{
    for (const PartField &field : kPartFields) {
        if (field.part == part)
            return memory.*field.bytes;
    }
    return 0;
}

double toGiB(double bytes) { return bytes / units::kBytesPerGiB; }

} // namespace

MemoryChart::MemoryChart(QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_categoryAxis(new QBarCategoryAxis)
    , m_valueAxis(new QValueAxis)
{
    // Redrawn up to 60 times a second while a slider moves: animations would only lag behind.
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->addAxis(m_categoryAxis, Qt::AlignBottom);
    m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
    m_valueAxis->setLabelFormat(QStringLiteral("%g"));
    m_valueAxis->setTickType(QValueAxis::TicksDynamic);
    m_valueAxis->setTickAnchor(0);
    m_valueAxis->setTitleText(tr("Memory per GPU [GiB]"));

    m_view = new QChartView(m_chart);  // owns the chart
    m_view->setRenderHint(QPainter::Antialiasing, false);   // bars are axis-aligned: crisp and cheaper without
    m_view->setFrameShape(QFrame::NoFrame);

    m_staleNote = new QLabel(tr("Last valid result"));
    m_staleNote->setBackgroundRole(QPalette::ToolTipBase);
    m_staleNote->setForegroundRole(QPalette::ToolTipText);
    m_staleNote->setAutoFillBackground(true);
    m_staleNote->setMargin(4);
    m_staleNote->hide();

    // The note overlays the chart's corner, so showing it does not move the bars.
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(QMargins());
    layout->addWidget(m_view, 0, 0);
    layout->addWidget(m_staleNote, 0, 0, Qt::AlignTop | Qt::AlignRight);

    applyPalette();
    refresh();
}

void MemoryChart::setBars(const QList<MemoryBar> &bars)
{
    m_bars = bars;
    refresh();
}

void MemoryChart::setStale(bool stale)
{
    m_stale = stale;
    m_chart->setOpacity(stale ? kStaleOpacity : 1.0);
    m_staleNote->setVisible(stale);
}

QSize MemoryChart::minimumSizeHint() const { return {360, 240}; }
QSize MemoryChart::sizeHint() const { return {560, 340}; }

void MemoryChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        refresh();
    }
}

void MemoryChart::applyPalette()
{
    m_chart->setTheme(chartmath::isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(palette().base());
    m_chart->setBackgroundRoundness(0);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // setTheme recoloured the series: have refresh() rebuild them in our colours.
    m_series = nullptr;
}

void MemoryChart::refresh()
{
    // Parts that are zero in every bar are left out, to keep the legend short.
    QList<Part> parts;
    for (const PartField &field : kPartFields) {
        if (std::any_of(m_bars.cbegin(), m_bars.cend(),
                        [&field](const MemoryBar &bar) { return bar.memory.*field.bytes != 0; }))
            parts.append(field.part);
    }

    QStringList categories;
    double maxBytes = 0;
    for (const MemoryBar &bar : m_bars) {
        QString label = bar.memory.fits ? bar.label : tr("%1 ⚠").arg(bar.label);
        while (categories.contains(label))  // the axis merges equal categories ...
            label += QChar(0x200B);         // ... a zero-width space keeps them apart, unseen
        categories.append(label);
        double stacked = 0;
        for (const Part part : parts)
            stacked += partBytes(bar.memory, part);
        maxBytes = std::max({maxBytes, bar.memory.totalBytes, stacked});
    }

    if (!m_series || parts != m_parts || categories != m_categories)
        rebuild(parts, categories);

    const QList<QBarSet *> sets = m_series->barSets();
    for (qsizetype s = 0; s < sets.size(); ++s) {
        for (qsizetype i = 0; i < m_bars.size(); ++i) {
            const double value = toGiB(partBytes(m_bars[i].memory, m_parts[s]));
            if (sets[s]->at(int(i)) != value)   // every change lays the chart out again
                sets[s]->replace(int(i), value);
        }
    }

    // The capacity that matters is the current plan's; any bar's will do without one.
    const auto current = std::find_if(m_bars.cbegin(), m_bars.cend(), [](const MemoryBar &bar) { return bar.current; });
    const double capacityBytes = current != m_bars.cend() ? current->memory.capacityBytes
                                 : m_bars.isEmpty()      ? 0
                                                         : m_bars.first().memory.capacityBytes;
    const bool showCapacity = capacityBytes > 0;
    const double capacityGiB = toGiB(capacityBytes);
    // A category axis puts bar i at x = i: the line spans from the first bar's left edge to the last's right.
    const QList<QPointF> line{{-0.5, capacityGiB}, {m_bars.size() - 0.5, capacityGiB}};
    if (m_capacityLine->points() != line)
        m_capacityLine->replace(line);
    const QString lineName = tr("HBM %1 GiB").arg(capacityGiB, 0, 'g', 4);
    if (m_capacityLine->name() != lineName)
        m_capacityLine->setName(lineName);
    m_capacityLine->setVisible(showCapacity);
    const QList<QLegendMarker *> lineMarkers = m_chart->legend()->markers(m_capacityLine);
    for (QLegendMarker *marker : lineMarkers)
        marker->setVisible(showCapacity);

    // Headroom keeps the capacity line clear of the plot's top edge.
    const double axisMax = chartmath::niceAxisMax(1.05 * toGiB(std::max(maxBytes, capacityBytes)));
    if (m_valueAxis->max() != axisMax || m_valueAxis->min() != 0) {
        m_valueAxis->setRange(0, axisMax);
        m_valueAxis->setTickInterval(chartmath::niceTickInterval(axisMax));
    }
}

void MemoryChart::rebuild(const QList<Part> &parts, const QStringList &categories)
{
    m_parts = parts;
    m_categories = categories;
    m_chart->removeAllSeries();  // deletes the series, their bar sets and legend markers
    m_categoryAxis->clear();
    m_categoryAxis->append(categories);

    m_series = new QStackedBarSeries;
    m_series->setBarWidth(0.6);
    for (const Part part : parts) {
        auto *set = new QBarSet(theme::label(part));
        set->append(QList<qreal>(categories.size(), 0.0));  // values come from refresh()
        connect(set, &QBarSet::hovered, this, [this, part](bool on, int index) {
            if (on)
                showTooltip(part, index);
            else
                QToolTip::hideText();
        });
        connect(set, &QBarSet::clicked, this, [this, part] { emit partActivated(theme::explanationId(part)); });
        m_series->append(set);
    }
    m_chart->addSeries(m_series);
    m_series->attachAxis(m_categoryAxis);
    m_series->attachAxis(m_valueAxis);

    m_capacityLine = new QLineSeries;
    m_chart->addSeries(m_capacityLine);
    m_capacityLine->attachAxis(m_categoryAxis);
    m_capacityLine->attachAxis(m_valueAxis);
    connect(m_capacityLine, &QLineSeries::hovered, this, [this](const QPointF &, bool on) {
        if (on)
            QToolTip::showText(QCursor::pos(), m_capacityLine->name(), m_view);
        else
            QToolTip::hideText();
    });

    // Colours after addSeries, which applies the theme's; base-coloured borders separate segments.
    const QList<QBarSet *> sets = m_series->barSets();
    for (qsizetype i = 0; i < sets.size(); ++i) {
        sets[i]->setColor(theme::color(parts[i]));
        sets[i]->setBorderColor(palette().color(QPalette::Base));
    }
    m_capacityLine->setPen(QPen(theme::warningColor(), 2, Qt::DashLine));

    // A legend entry explains its part, like a segment does.
    const QList<QLegendMarker *> markers = m_chart->legend()->markers(m_series);
    for (QLegendMarker *marker : markers) {
        auto *barMarker = qobject_cast<QBarLegendMarker *>(marker);
        const qsizetype i = barMarker ? sets.indexOf(barMarker->barset()) : -1;
        if (i < 0)
            continue;
        connect(marker, &QLegendMarker::clicked, this,
                [this, part = parts[i]] { emit partActivated(theme::explanationId(part)); });
    }
}

void MemoryChart::showTooltip(Part part, int index)
{
    if (index < 0 || index >= m_bars.size())
        return;
    const MemoryBar &bar = m_bars[index];
    const double bytes = partBytes(bar.memory, part);
    QToolTip::showText(QCursor::pos(),
                       tr("<b>%1</b><br>%2: %3 (%4 of the total)")
                           .arg(theme::label(part), bar.label.toHtmlEscaped(), fmt::bytes(bytes),
                                fmt::percent(bytes / bar.memory.totalBytes)),
                       m_view);
}

} // namespace ts
