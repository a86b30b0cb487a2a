// SPDX-License-Identifier: MIT
// The Pipeline tab: a schedule picker over the animated stages x time view.
#pragma once

#include "animationpanel.h"
#include "teaching.h"

#include <functional>
#include <optional>

class QComboBox;

namespace ts {

class PipelineTimelineView;

class PipelinePanel : public AnimationPanel
{
    Q_OBJECT
public:
    /// The schedule to draw (empty: the plan's own), answered by the document.
    using Source = std::function<PipelineDemo(std::optional<Schedule>)>;
    explicit PipelinePanel(QWidget *parent = nullptr);
    void setSource(Source source);
    PipelineTimelineView *view() const { return m_view; }

protected:
    void rebuild() override;

private:
    Source m_source;
    PipelineTimelineView *m_view;
    QComboBox *m_schedule;
    QLabel *m_note;
};

} // namespace ts
