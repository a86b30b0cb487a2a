// SPDX-License-Identifier: MIT
// The Step timeline tab: one GPU's step with and without DP overlap, stream by stream.
#pragma once

#include "animationpanel.h"
#include "teaching.h"

#include <functional>

namespace ts {

class StepTimelineView;

class StepTimelinePanel : public AnimationPanel
{
    Q_OBJECT
public:
    using Source = std::function<StepTimelinePair()>;
    explicit StepTimelinePanel(QWidget *parent = nullptr);
    void setSource(Source source);
    StepTimelineView *view() const { return m_view; }

protected:
    void rebuild() override;

private:
    Source m_source;
    StepTimelineView *m_view;
    QLabel *m_note;
};

} // namespace ts
