// SPDX-License-Identifier: MIT
// The Plan tab: headline cards over the step-time, scaling and memory charts and the Warnings /
// Explain / Collectives tabs. It lays them out and greys them while the inputs are invalid; what
// they show is set on each of them.
#pragma once

#include "chartdata.h"

#include <QList>
#include <QWidget>

class QTabWidget;

namespace ts {

class CollectivesView;
class ExplanationView;
class HeadlineCards;
class MemoryChart;
class ScalingChart;
class StepTimeChart;
class WarningsView;

class PlanView : public QWidget
{
    Q_OBJECT
public:
    explicit PlanView(QWidget *parent = nullptr);
    HeadlineCards *cards() const { return m_cards; }
    StepTimeChart *stepChart() const { return m_stepChart; }
    ScalingChart *scalingChart() const { return m_scalingChart; }
    MemoryChart *memoryChart() const { return m_memoryChart; }
    CollectivesView *collectives() const { return m_collectives; }
    WarningsView *warnings() const { return m_warnings; }
    ExplanationView *explanation() const { return m_explanation; }
    /// Greys the figures (they show the last valid scenario) and updates the warnings' tab count.
    void setStale(bool stale);
    void showExplanationTab();
    /// The three charts, each on its own, for File > Export Views.
    QList<SlideView> slideViews() const;

signals:
    /// A card or a chart part was clicked: show the formula behind `id`.
    void explanationRequested(const QString &id);

private:
    HeadlineCards *m_cards;
    StepTimeChart *m_stepChart;
    ScalingChart *m_scalingChart;
    MemoryChart *m_memoryChart;
    CollectivesView *m_collectives;
    WarningsView *m_warnings;
    ExplanationView *m_explanation;
    QTabWidget *m_tabs;
};

} // namespace ts
