// SPDX-License-Identifier: MIT
// One GPU's step (model/schedules.h stepTimeline) twice, gradient sync overlapped with the backward
// and after it, on one time axis so the difference in length shows. Streams as rows, the DDP
// lifecycle phases as a band on top, a playhead at the clock's time.
#pragma once

#include "animatedview.h"
#include "schedules.h"
#include "timelinemapping.h"

#include <QPixmap>

#include <array>
#include <functional>
#include <vector>

namespace ts {

/// Streams in row order (top to bottom).
inline constexpr std::array kStreamOrder{Stream::Compute, Stream::TpComm, Stream::PpP2p, Stream::DpComm, Stream::Optimizer};

/// The streams of kStreamOrder that have intervals (rows without any are hidden).
std::vector<Stream> visibleStreams(const StepTimeline &timeline);

/// Lane of each phase in the band, so overlapping spans (the all-reduce during the backward) get
/// lines of their own; zero-length phases (markers) take lane 0. `labelSeconds[i]`, when given, is
/// how long phase i's label is on the time axis: a span reaches at least that far, so labels of
/// short neighbouring phases ("All-reduce", "Optimizer step") go on different lanes, not overprinted.
std::vector<int> phaseLanes(const std::vector<LifecyclePhase> &phases, const std::vector<double> &labelSeconds = {});

struct StepPanelLayout
{
    QRectF frame;               // the whole panel
    QRectF title;               // one line
    QRectF phaseBand;           // lifecycle phases, plot x range
    int phaseLanes = 1;         // lines of the band
    std::vector<int> lanes;     // lane of each phase
    TimelineMapping rows;       // one row per visible stream, or none when the timeline has an error
    std::vector<Stream> streams;
};

struct StepTimelineLayout
{
    std::array<StepPanelLayout, 2> panels;   // overlapped, then not overlapped
    QRectF axis;
    double labelWidth = 0;
};

/// Both panels over [0, max step time], stacked; `lineHeight` and `labelWidth` from the font.
/// `textWidth` (pixels of a phase name), when given, keeps phase labels from overprinting.
StepTimelineLayout layoutStepTimelines(QRectF area, const StepTimeline &overlapOn, const StepTimeline &overlapOff,
                                       double lineHeight, double labelWidth,
                                       const std::function<double(const std::string &)> &textWidth = {});

/// Index into timeline.intervals of the interval under `point` in `panel`, or -1.
int intervalAt(const StepPanelLayout &panel, const StepTimeline &timeline, QPointF point);

/// Phase starts and ends and the step ends of both timelines: the stops of the step buttons.
std::vector<double> timelineBoundaries(const StepTimeline &overlapOn, const StepTimeline &overlapOff);

class StepTimelineView : public AnimatedView
{
    Q_OBJECT
public:
    explicit StepTimelineView(QWidget *parent = nullptr);

    void setTimelines(const StepTimeline &overlapOn, const StepTimeline &overlapOff);

    /// The longer of the two steps: the length of the shared axis.
    double duration() const override;
    const std::vector<double> &stepBoundaries() const { return m_boundaries; }
    const StepTimelineLayout &timelineLayout() const { return m_layout; }

    static QString streamLabel(Stream stream);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void layoutView() override;
    void renderCache();
    void renderPanel(QPainter &painter, int index) const;
    bool hasData() const;

    std::array<StepTimeline, 2> m_timelines;
    std::vector<double> m_boundaries;
    StepTimelineLayout m_layout;
    QPixmap m_cache;
    bool m_cacheValid = false;
};

} // namespace ts
