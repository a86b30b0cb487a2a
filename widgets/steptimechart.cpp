// SPDX-License-Identifier: MIT
#include "steptimechart.h"

#include "chartmath.h"
#include "formatting.h"

#include <QtCharts/QChartView>
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
    PartField{Part::EpComm, &Breakdown::epCommExposedSeconds},
    PartField{Part::PpBubble, &Breakdown::ppBubbleSeconds},
    PartField{Part::PpP2p, &Breakdown::ppP2pExposedSeconds},
    PartField{Part::DpComm, &Breakdown::dpCommExposedSeconds},
    PartField{Part::Optimizer, &Breakdown::optimizerSeconds},
    PartField{Part::Offload, &Breakdown::offloadExposedSeconds},
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
    : PartBarChart(true, parent)
{
    applyPalette();   // refreshes
}

void StepTimeChart::setBars(const QList<StepTimeBar> &bars)
{
    m_bars = bars;
    refresh();
}

void StepTimeChart::refresh()
{
    QList<Part> order;
    for (const PartField &field : kPartFields)
        order.append(field.part);
    const QList<Part> parts = presentParts(order, [this](Part part) {
        return std::any_of(m_bars.cbegin(), m_bars.cend(), [part](const StepTimeBar &bar) { return partSeconds(bar.breakdown, part) != 0; });
    });

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
    const chartmath::TimeUnit unit = chartmath::chooseTimeUnit(maxSeconds);
    const qsizetype count = m_bars.size();
    setValues(parts, categories, [&](int s, int i) { return partSeconds(m_bars[count - 1 - i].breakdown, parts[s]) * unit.scale; });

    setRangeFromZero(m_valueAxis, chartmath::niceAxisMax(maxSeconds * unit.scale));
    const QString title = tr("Step time [%1]").arg(unit.symbol);
    if (m_valueAxis->titleText() != title)
        m_valueAxis->setTitleText(title);
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
