// SPDX-License-Identifier: MIT
#include "memorychart.h"

#include "chartmath.h"
#include "formatting.h"
#include "units.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
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

// Horizontal like the step-time chart: the variants' names sit in full on the left axis at any
// width, and a legend too long for one row goes beside the plot without cutting a bar label.
MemoryChart::MemoryChart(QWidget *parent)
    : PartBarChart(true, parent)
{
    m_valueAxis->setTitleText(tr("GiB per GPU"));
    applyPalette();   // refreshes
}

void MemoryChart::setBars(const QList<MemoryBar> &bars)
{
    m_bars = bars;
    refresh();
}

void MemoryChart::refresh()
{
    QList<Part> order;
    for (const PartField &field : kPartFields)
        order.append(field.part);
    const QList<Part> parts = presentParts(order, [this](Part part) {
        return std::any_of(m_bars.cbegin(), m_bars.cend(), [part](const MemoryBar &bar) { return partBytes(bar.memory, part) != 0; });
    });

    const auto barBytes = [&parts](const MemoryBar &bar) {
        double stacked = 0;
        for (const Part part : parts)
            stacked += partBytes(bar.memory, part);
        return std::max(bar.memory.totalBytes, stacked);
    };
    double maxBytes = 0;
    for (const MemoryBar &bar : m_bars)
        maxBytes = std::max(maxBytes, barBytes(bar));
    // The capacity that matters is the current plan's; any bar's will do without one.
    const auto current = std::find_if(m_bars.cbegin(), m_bars.cend(), [](const MemoryBar &bar) { return bar.current; });
    const double capacityBytes = current != m_bars.cend() ? current->memory.capacityBytes
                                 : m_bars.isEmpty()      ? 0
                                                         : m_bars.first().memory.capacityBytes;
    const double spanBytes = chartmath::memoryAxisSpan(maxBytes, capacityBytes, current != m_bars.cend() ? barBytes(*current) : 0.0);

    // Categories run bottom-up: list the bars in reverse to put the current plan on top. A bar cut
    // at the plot's edge says its total.
    QStringList categories;
    for (auto bar = m_bars.crbegin(); bar != m_bars.crend(); ++bar) {
        QString label = bar->memory.fits ? bar->label : tr("%1 ⚠").arg(bar->label);
        if (const double bytes = barBytes(*bar), gib = toGiB(bytes); bytes > spanBytes * 1.05)
            label = gib >= 1024 ? tr("%1 %2 TiB").arg(label).arg(gib / 1024, 0, 'f', 1) : tr("%1 %2 GiB").arg(label).arg(gib, 0, 'f', 0);
        categories.append(distinctCategory(label, categories));
    }
    const qsizetype count = m_bars.size();
    setValues(parts, categories, [&](int s, int i) { return toGiB(partBytes(m_bars[count - 1 - i].memory, parts[s])); });

    const bool showCapacity = capacityBytes > 0;
    const double capacityGiB = toGiB(capacityBytes);
    // A category axis puts bar i at y = i: the line spans from the first bar's edge to the last's.
    const QList<QPointF> line{{capacityGiB, -0.5}, {capacityGiB, m_bars.size() - 0.5}};
    if (m_capacityLine->points() != line)
        m_capacityLine->replace(line);
    const QString lineName = tr("HBM %1 GiB").arg(capacityGiB, 0, 'g', 4);
    if (m_capacityLine->name() != lineName)
        m_capacityLine->setName(lineName);
    m_capacityLine->setVisible(showCapacity);
    const QList<QLegendMarker *> lineMarkers = chart()->legend()->markers(m_capacityLine);
    for (QLegendMarker *marker : lineMarkers)
        marker->setVisible(showCapacity);
    placeLegend();   // the capacity entry's label changes with the GPU

    // Headroom keeps the capacity line clear of the plot's top edge.
    setRangeFromZero(m_valueAxis, chartmath::niceAxisMax(1.05 * toGiB(std::max(spanBytes, capacityBytes))));
}

void MemoryChart::seriesRebuilt()
{
    m_capacityLine = new QLineSeries;
    chart()->addSeries(m_capacityLine);
    m_capacityLine->attachAxis(m_valueAxis);      // x: GiB
    m_capacityLine->attachAxis(m_categoryAxis);   // y: the bars
    connect(m_capacityLine, &QLineSeries::hovered, this, [this](const QPointF &, bool on) {
        if (on)
            QToolTip::showText(QCursor::pos(), m_capacityLine->name(), chartView());
        else
            QToolTip::hideText();
    });
    // After addSeries, which applies the theme's colour.
    m_capacityLine->setPen(QPen(theme::warningColor(), 2, Qt::DashLine));
}

void MemoryChart::showTooltip(Part part, int setIndex)
{
    const qsizetype index = m_bars.size() - 1 - setIndex;   // categories are reversed
    if (index < 0 || index >= m_bars.size())
        return;
    const MemoryBar &bar = m_bars[index];
    const double bytes = partBytes(bar.memory, part);
    QToolTip::showText(QCursor::pos(),
                       tr("<b>%1</b><br>%2: %3 (%4 of the total)")
                           .arg(theme::label(part), bar.label.toHtmlEscaped(), fmt::memory(bytes),
                                fmt::percent(bytes / bar.memory.totalBytes)),
                       chartView());
}

} // namespace ts
