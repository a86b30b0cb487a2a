// SPDX-License-Identifier: MIT
#include "steptimechart.h"

#include "chartmath.h"
#include "formatting.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarLegendMarker>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QLegend>
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
    : QWidget(parent)
    , m_chart(new QChart)
    , m_categoryAxis(new QBarCategoryAxis)
    , m_valueAxis(new QValueAxis)
{
    // Redrawn up to 60 times a second while a slider moves: animations would only lag behind.
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->addAxis(m_categoryAxis, Qt::AlignLeft);
    m_chart->addAxis(m_valueAxis, Qt::AlignBottom);
    m_valueAxis->setLabelFormat(QStringLiteral("%g"));
    m_valueAxis->setTickType(QValueAxis::TicksDynamic);
    m_valueAxis->setTickAnchor(0);

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

void StepTimeChart::setBars(const QList<StepTimeBar> &bars)
{
    m_bars = bars;
    refresh();
}

void StepTimeChart::setStale(bool stale)
{
    m_stale = stale;
    m_chart->setOpacity(stale ? kStaleOpacity : 1.0);
    m_staleNote->setVisible(stale);
}

QSize StepTimeChart::minimumSizeHint() const { return {360, 240}; }
QSize StepTimeChart::sizeHint() const { return {560, 340}; }

void StepTimeChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        refresh();
    }
}

void StepTimeChart::applyPalette()
{
    m_chart->setTheme(chartmath::isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(palette().base());
    m_chart->setBackgroundRoundness(0);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // setTheme recoloured the series: have refresh() rebuild them in our colours.
    m_series = nullptr;
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
        QString label = bar->label;   // the presenter names the current plan as such
        while (categories.contains(label))  // the axis merges equal categories ...
            label += QChar(0x200B);         // ... a zero-width space keeps them apart, unseen
        categories.append(label);
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
    if (m_valueAxis->max() != axisMax || m_valueAxis->min() != 0) {
        m_valueAxis->setRange(0, axisMax);
        m_valueAxis->setTickInterval(chartmath::niceTickInterval(axisMax));
    }
    const QString title = tr("Step time [%1]").arg(unit.symbol);
    if (m_valueAxis->titleText() != title)
        m_valueAxis->setTitleText(title);
}

void StepTimeChart::rebuild(const QList<Part> &parts, const QStringList &categories)
{
    m_parts = parts;
    m_categories = categories;
    m_chart->removeAllSeries();  // deletes the series, its bar sets and legend markers
    m_categoryAxis->clear();
    m_categoryAxis->append(categories);

    m_series = new QHorizontalStackedBarSeries;
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

    // Colours after addSeries, which applies the theme's; base-coloured borders separate segments.
    const QList<QBarSet *> sets = m_series->barSets();
    for (qsizetype i = 0; i < sets.size(); ++i) {
        sets[i]->setColor(theme::color(parts[i]));
        sets[i]->setBorderColor(palette().color(QPalette::Base));
    }
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
    QToolTip::showText(QCursor::pos(), text, m_view);
}

} // namespace ts
