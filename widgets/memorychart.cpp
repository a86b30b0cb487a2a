// SPDX-License-Identifier: MIT
#include "memorychart.h"

#include "chartmath.h"
#include "formatting.h"
#include "units.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <QCursor>
#include <QToolTip>

#include <algorithm>
#include <array>

namespace ts {

namespace {

using theme::Part;

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
    PartField{Part::Loss, &MemoryBreakdown::lossBytes},
    PartField{Part::Buffers, &MemoryBreakdown::buffersBytes},
    PartField{Part::Runtime, &MemoryBreakdown::runtimeBytes},
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
    : ChartFrame(parent)
    , m_categoryAxis(new QBarCategoryAxis)
    , m_valueAxis(new QValueAxis)
{
    chart()->addAxis(m_categoryAxis, Qt::AlignBottom);
    chart()->addAxis(m_valueAxis, Qt::AlignLeft);
    m_valueAxis->setLabelFormat(QStringLiteral("%g"));
    m_valueAxis->setTickType(QValueAxis::TicksDynamic);
    m_valueAxis->setTickAnchor(0);
    m_valueAxis->setTitleText(tr("Memory per GPU [GiB]"));

    applyPalette();   // refreshes
}

void MemoryChart::setBars(const QList<MemoryBar> &bars)
{
    m_bars = bars;
    refresh();
}

void MemoryChart::paletteChanged()
{
    // setTheme recoloured the series: have refresh() rebuild them in our colours.
    m_series = nullptr;
    refresh();
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
        categories.append(distinctCategory(bar.memory.fits ? bar.label : tr("%1 ⚠").arg(bar.label), categories));
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
    const QList<QLegendMarker *> lineMarkers = chart()->legend()->markers(m_capacityLine);
    for (QLegendMarker *marker : lineMarkers)
        marker->setVisible(showCapacity);

    // Headroom keeps the capacity line clear of the plot's top edge.
    const double axisMax = chartmath::niceAxisMax(1.05 * toGiB(std::max(maxBytes, capacityBytes)));
    setRangeFromZero(m_valueAxis, axisMax);
}

void MemoryChart::rebuild(const QList<Part> &parts, const QStringList &categories)
{
    m_parts = parts;
    m_categories = categories;
    m_series = new QStackedBarSeries;
    setPartBars(m_series, parts, categories, m_categoryAxis, m_valueAxis,
                [this](Part part, int index) { showTooltip(part, index); },
                [this](Part part) { emit partActivated(theme::explanationId(part)); });

    m_capacityLine = new QLineSeries;
    chart()->addSeries(m_capacityLine);
    m_capacityLine->attachAxis(m_categoryAxis);
    m_capacityLine->attachAxis(m_valueAxis);
    connect(m_capacityLine, &QLineSeries::hovered, this, [this](const QPointF &, bool on) {
        if (on)
            QToolTip::showText(QCursor::pos(), m_capacityLine->name(), chartView());
        else
            QToolTip::hideText();
    });

    // After addSeries, which applies the theme's colour.
    m_capacityLine->setPen(QPen(theme::warningColor(), 2, Qt::DashLine));
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
                       chartView());
}

} // namespace ts
