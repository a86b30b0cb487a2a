// SPDX-License-Identifier: MIT
#include "planview.h"

#include "collectivestable.h"
#include "explanationview.h"
#include "headlinecards.h"
#include "memorychart.h"
#include "scalingchart.h"
#include "steptimechart.h"
#include "warningsview.h"

#include <QGridLayout>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ts {

PlanView::PlanView(QWidget *parent)
    : QWidget(parent)
    , m_cards(new HeadlineCards(this))
    , m_stepChart(new StepTimeChart(this))
    , m_scalingChart(new ScalingChart(this))
    , m_memoryChart(new MemoryChart(this))
    , m_collectives(new CollectivesView(this))
    , m_warnings(new WarningsView(this))
    , m_explanation(new ExplanationView(this))
    , m_tabs(new QTabWidget(this))
{
    m_tabs->addTab(m_warnings, tr("Warnings"));
    m_tabs->addTab(m_explanation, tr("Explain"));
    m_tabs->addTab(m_collectives, tr("Collectives"));
    m_tabs->setMinimumSize(300, 180);   // as small as a chart: the tables inside scroll
    auto *grid = new QGridLayout();
    grid->setSpacing(8);
    grid->addWidget(m_stepChart, 0, 0);
    grid->addWidget(m_scalingChart, 0, 1);
    grid->addWidget(m_memoryChart, 1, 0);
    grid->addWidget(m_tabs, 1, 1);
    for (int i : {0, 1}) {
        grid->setRowStretch(i, 1);
        grid->setColumnStretch(i, 1);
    }
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(8, 8, 8, 8);
    column->addWidget(m_cards);
    column->addLayout(grid, 1);
    connect(m_cards, &HeadlineCards::activated, this, &PlanView::explanationRequested);
    connect(m_stepChart, &StepTimeChart::partActivated, this, &PlanView::explanationRequested);
    connect(m_memoryChart, &MemoryChart::partActivated, this, &PlanView::explanationRequested);
    connect(m_scalingChart, &ScalingChart::explanationRequested, this, &PlanView::explanationRequested);
}

void PlanView::setStale(bool stale)
{
    // QTabBar relays out and repaints the whole tab widget on every setTabText, even to the same text.
    const QString warningsTab = m_warnings->count() ? tr("Warnings (%1)").arg(m_warnings->count()) : tr("Warnings");
    if (m_tabs->tabText(0) != warningsTab)
        m_tabs->setTabText(0, warningsTab);
    m_cards->setStale(stale);
    m_stepChart->setStale(stale);
    m_scalingChart->setStale(stale);
    m_memoryChart->setStale(stale);
}

void PlanView::showExplanationTab() { m_tabs->setCurrentWidget(m_explanation); }

QList<SlideView> PlanView::slideViews() const
{
    return {{tr("Where a step's time goes"), QStringLiteral("step-time"), m_stepChart},
            {tr("Scaling with GPUs"), QStringLiteral("scaling"), m_scalingChart},
            {tr("Memory per GPU"), QStringLiteral("memory"), m_memoryChart}};
}

} // namespace ts
