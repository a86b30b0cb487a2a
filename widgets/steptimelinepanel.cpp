// SPDX-License-Identifier: MIT
#include "steptimelinepanel.h"

#include "animationclock.h"
#include "animationcontrols.h"
#include "formatting.h"
#include "steptimelineview.h"

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace ts {

StepTimelinePanel::StepTimelinePanel(QWidget *parent)
    : AnimationPanel(parent)
    , m_view(new StepTimelineView(this))
    , m_note(noteLabel(this))
{
    auto *column = new QVBoxLayout(this);
    column->addWidget(m_view, 1);
    column->addWidget(m_note);
    column->addWidget(m_controls);
    connect(m_clock, &AnimationClock::timeChanged, m_view, &StepTimelineView::setTime);
    setAnimatedView(m_view);
}

void StepTimelinePanel::setSource(Source source)
{
    m_source = std::move(source);
    invalidate();
}

void StepTimelinePanel::rebuild()
{
    if (!m_source)
        return;
    const StepTimelinePair pair = m_source();
    const StepTimeline &a = pair.overlapped;
    m_view->setTimelines(a, pair.serial);
    m_clock->setDuration(std::max(a.stepSeconds, pair.serial.stepSeconds));
    m_controls->setStepBoundaries([a] {
        std::vector<double> starts;
        for (const LifecyclePhase &p : a.phases)
            starts.push_back(p.startSeconds);
        std::sort(starts.begin(), starts.end());
        return starts;
    });
    m_note->setText(a.error.empty() ? tr("One GPU of the first pipeline stage: overlap saves %1 per step.")
                                          .arg(fmt::seconds(pair.savedSeconds))
                                    : QString::fromStdString(a.error));
}

} // namespace ts
