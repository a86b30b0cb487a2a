// SPDX-License-Identifier: MIT
// The teaching tabs: each composes an animated view, its playback clock and controls, and feeds
// the view the explicit schedule the model produces for the current scenario.
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace ts {

class AnimationClock;
class AnimationControls;
class PipelineTimelineView;
class RingView;
class StepTimelineView;

/// Common: a clock, controls, presentation scale, and "update only when shown".
class AnimationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AnimationPanel(QWidget *parent = nullptr);
    /// Remembers the scenario; rebuilds the schedule now if visible, else when shown.
    void setScenario(const Scenario &scenario, const Evaluation &evaluation);
    virtual void setPresentationScale(double scale) = 0;
    AnimationClock *clock() const { return m_clock; }
    AnimationControls *controls() const { return m_controls; }

protected:
    void showEvent(QShowEvent *event) override;
    virtual void rebuild() = 0;
    Scenario m_scenario;
    Evaluation m_evaluation;
    AnimationClock *m_clock;
    AnimationControls *m_controls;
    bool m_dirty = true;
};

class RingPanel : public AnimationPanel
{
    Q_OBJECT
public:
    explicit RingPanel(QWidget *parent = nullptr);
    void setPresentationScale(double scale) override;
    RingView *view() const { return m_view; }
    /// Chooses the algorithm (ring, hierarchical, tree, in_network) and the group size.
    void setAlgorithm(const QString &name);
    void setRanks(int ranks);

protected:
    void rebuild() override;

private:
    RingView *m_view;
    QComboBox *m_algorithm;
    QSpinBox *m_ranks;
    QComboBox *m_size;
    QLabel *m_note;
};

class PipelinePanel : public AnimationPanel
{
    Q_OBJECT
public:
    explicit PipelinePanel(QWidget *parent = nullptr);
    void setPresentationScale(double scale) override;
    PipelineTimelineView *view() const { return m_view; }

protected:
    void rebuild() override;

private:
    PipelineTimelineView *m_view;
    QComboBox *m_schedule;
    QLabel *m_note;
};

class StepTimelinePanel : public AnimationPanel
{
    Q_OBJECT
public:
    explicit StepTimelinePanel(QWidget *parent = nullptr);
    void setPresentationScale(double scale) override;
    StepTimelineView *view() const { return m_view; }

protected:
    void rebuild() override;

private:
    StepTimelineView *m_view;
    QLabel *m_note;
};

} // namespace ts
