// SPDX-License-Identifier: MIT
#include "steptimechart.h"

#include "chartmath.h"
#include "formatting.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <QCursor>
#include <QToolTip>

#include <algorithm>
#include <array>

namespace ts {

namespace {

using theme::Part;

// The parts of a step in theme order, each with the Breakdown field it draws.
struct PartField
{
    Part part;
    double Breakdown::*seconds;
};
constexpr std::array kPartFields{
    PartField{Part::Compute, &Breakdown::computeSeconds},
    PartField{Part::TpComm, &Breakdown::tpCommExposedSeconds},
    PartField{Part::CpComm, &Breakdown::cpCommExposedSeconds},
    PartField{Part::PpBubble, &Breakdown::ppBubbleSeconds},
    PartField{Part::PpP2p, &Breakdown::ppP2pExposedSeconds},
    PartField{Part::DpComm, &Breakdown::dpCommExposedSeconds},
    PartField{Part::Optimizer, &Breakdown::optimizerSeconds},
    PartField{Part::Straggler, &Breakdown::stragglerSeconds},
};

double partSeconds(const Breakdown &breakdown, Part part)
{
    for (const PartField &field : kPartFields) {
        if (field.part == part)
            return breakdown.*field.seconds;
    }
    return 0;
}

} // namespace

StepTimeChart::StepTimeChart(QWidget *parent)
    : ChartFrame(parent)
    , m_categoryAxis(new QBarCategoryAxis)
    , m_valueAxis(new QValueAxis)
{
    chart()->addAxis(m_categoryAxis, Qt::AlignLeft);
    chart()->addAxis(m_valueAxis, Qt::AlignBottom);
    m_valueAxis->setLabelFormat(QStringLiteral("%g"));
    m_valueAxis->setTickType(QValueAxis::TicksDynamic);
    m_valueAxis->setTickAnchor(0);

    applyPalette();   // refreshes
}

void StepTimeChart::setBars(const QList<StepTimeBar> &bars)
{
    m_bars = bars;
    refresh();
}

void StepTimeChart::paletteChanged()
{
    // setTheme recoloured the series: have refresh() rebuild them in our colours.
    m_series = nullptr;
    refresh();
}

void StepTimeChart::refresh()
{
    // Parts that are zero in every bar are left out, to keep the legend short.
    QList<Part> parts;
    for (const PartField &field : kPartFields) {
        if (std::any_of(m_bars.cbegin(), m_bars.cend(),
                        [&field](const StepTimeBar &bar) { return bar.breakdown.*field.seconds != 0; }))
            parts.append(field.part);
    }

    // Categories run bottom-up: list the bars in reverse to put the first one on top.
    QStringList categories;
    double maxSeconds = 0;
    for (auto bar = m_bars.crbegin(); bar != m_bars.crend(); ++bar) {
        // The label as is: the presenter names the current plan as such.
        categories.append(distinctCategory(bar->label, categories));
        double stacked = 0;
        for (const Part part : parts)
            stacked += partSeconds(bar->breakdown, part);
        maxSeconds = std::max({maxSeconds, bar->breakdown.stepSeconds, stacked});
    }

    if (!m_series || parts != m_parts || categories != m_categories)
        rebuild(parts, categories);

    const chartmath::TimeUnit unit = chartmath::chooseTimeUnit(maxSeconds);
    const QList<QBarSet *> sets = m_series->barSets();
    const qsizetype count = m_bars.size();
    // Each replace, range or title change makes Qt Charts lay the chart out again: touch only what changed.
    for (qsizetype s = 0; s < sets.size(); ++s) {
        for (qsizetype i = 0; i < count; ++i) {
            const double value = partSeconds(m_bars[count - 1 - i].breakdown, m_parts[s]) * unit.scale;
            if (sets[s]->at(int(i)) != value)
                sets[s]->replace(int(i), value);
        }
    }

    const double axisMax = chartmath::niceAxisMax(maxSeconds * unit.scale);
    setRangeFromZero(m_valueAxis, axisMax);
    const QString title = tr("Step time [%1]").arg(unit.symbol);
    if (m_valueAxis->titleText() != title)
        m_valueAxis->setTitleText(title);
}

void StepTimeChart::rebuild(const QList<Part> &parts, const QStringList &categories)
{
    m_parts = parts;
    m_categories = categories;
    m_series = new QHorizontalStackedBarSeries;
    setPartBars(m_series, parts, categories, m_categoryAxis, m_valueAxis,
                [this](Part part, int setIndex) { showTooltip(part, setIndex); },
                [this](Part part) { emit partActivated(theme::explanationId(part)); });
}

void StepTimeChart::showTooltip(Part part, int setIndex)
{
    const qsizetype barIndex = m_bars.size() - 1 - setIndex;  // categories are reversed
    if (barIndex < 0 || barIndex >= m_bars.size())
        return;
    const StepTimeBar &bar = m_bars[barIndex];
    const double seconds = partSeconds(bar.breakdown, part);
    QString text = tr("<b>%1</b><br>%2: %3 (%4 of the step)")
                       .arg(theme::label(part), bar.label.toHtmlEscaped(), fmt::seconds(seconds),
                            fmt::percent(seconds / bar.breakdown.stepSeconds));
    if (!bar.tooltip.isEmpty())
        text += QStringLiteral("<br><i>%1</i>").arg(bar.tooltip.toHtmlEscaped());
    QToolTip::showText(QCursor::pos(), text, chartView());
}

} // namespace ts
