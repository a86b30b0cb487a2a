// SPDX-License-Identifier: MIT
// Replays a simulated pipeline schedule (model/pipeline.h) as a Gantt chart: one row per stage,
// F/B/W blocks, idle time hatched, a playhead revealing the schedule, and stage 1's activations in
// flight below. The drawing is rendered once into a pixmap; a frame only blends it at the playhead.
#pragma once

#include "animatedview.h"
#include "pipeline.h"
#include "schedules.h"
#include "timelinemapping.h"

#include <QPixmap>

#include <utility>
#include <vector>

namespace ts {

/// Where the parts of the view go.
struct PipelineTimelineLayout
{
    QRectF header;            // title, bubble comparison, legend: three lines
    TimelineMapping rows;     // the stages
    QRectF strip;             // activations in flight of stage 1, same x mapping as rows
    QRectF axis;              // tick labels under the strip
    double labelWidth = 0;    // "Stage 12" column left of the plot
};

/// `lineHeight` and `labelWidth` come from the font; the rows share what the header, strip and axis leave.
PipelineTimelineLayout layoutPipelineTimeline(QRectF area, int stages, double makespan, double lineHeight,
                                              double labelWidth);

/// A forward activation hand-off: event `from` (F on stage s) feeds event `to` (same micro-batch and
/// chunk, F on stage s + 1).
struct Handoff
{
    size_t from = 0;
    size_t to = 0;
    double gapSeconds = 0;
};
std::vector<Handoff> forwardHandoffs(const std::vector<PipelineEvent> &events);
/// Gradient hand-offs: the backward of a micro-batch (and chunk) on stage s + 1 to the one on s.
std::vector<Handoff> backwardHandoffs(const std::vector<PipelineEvent> &events);
/// Whether hand-offs wait (p2p delay): every one of them has a gap.
bool hasP2pDelay(const std::vector<Handoff> &handoffs, double makespan);

/// Idle spans of one stage in [0, makespan]: the gaps between its events.
std::vector<std::pair<double, double>> idleSpans(const std::vector<PipelineEvent> &events, int stage, double makespan);
/// The same for stages 0 .. stages-1 in one pass.
std::vector<std::vector<std::pair<double, double>>> idleSpansPerStage(const std::vector<PipelineEvent> &events,
                                                                     int stages, double makespan);

/// The event under `point`, or nullptr.
const PipelineEvent *eventAt(const TimelineMapping &mapping, const std::vector<PipelineEvent> &events, QPointF point);

/// Unique sorted event start times (and the makespan): the stops of the step buttons.
std::vector<double> eventStartTimes(const PipelineSimulation &simulation);

/// "3" for micro-batch index 2, "3.2" for chunk index 1 of an interleaved schedule (1-based, as in
/// the papers' figures).
QString blockLabel(const PipelineEvent &event, bool interleaved);

class PipelineTimelineView : public AnimatedView
{
    Q_OBJECT
public:
    static constexpr int kMaxArrowBlocks = 256;   // p2p arrows only up to stages * micro-batches

    explicit PipelineTimelineView(QWidget *parent = nullptr);

    void setSimulation(const PipelineSimulation &simulation, double closedFormBubbleFraction, const QString &scheduleName);

    double duration() const override { return m_sim.makespanSeconds; }
    const std::vector<double> &stepBoundaries() const { return m_boundaries; }
    const PipelineTimelineLayout &timelineLayout() const { return m_layout; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

    /// The time window drawn: [start, start + span] of the schedule (span 0: all of it). Wheel
    /// zooms around the pointer, double-click shows it all; playback pages the window along.
    void setViewWindow(double startSeconds, double spanSeconds);
    double viewStart() const { return m_layout.rows.t0; }
    double viewEnd() const { return m_layout.rows.t1; }

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void timeChanged() override;
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void layoutView() override;
    void renderCache();
    void renderChrome(QPainter &painter) const;
    void renderContent(QPainter &painter, bool outlined) const;
    bool hasData() const { return m_sim.ok && !m_sim.events.empty(); }

    PipelineSimulation m_sim;
    double m_closedForm = 0;
    QString m_name;
    int m_stages = 0;
    bool m_hasW = false;
    bool m_drawArrows = false;
    std::vector<double> m_boundaries;
    std::vector<InFlightPoint> m_inFlight;          // stage 1
    int m_peakInFlight = 0;
    int m_microBatches = 0;
    int m_chunks = 1;   // model chunks per stage (v): in-flight counts are chunks of 1/v of the stage
    std::vector<std::vector<std::pair<double, double>>> m_idle;   // per stage
    std::vector<Handoff> m_handoffs;
    std::vector<Handoff> m_gradientHandoffs;

    PipelineTimelineLayout m_layout;
    // Static renderings: axes, labels and legend; blocks, hatching, arrows and the strip.
    QPixmap m_chrome;
    QPixmap m_content;
    QPixmap m_outline;
    double m_viewStart = 0;
    double m_viewSpan = 0;   // 0: the whole schedule   // the same blocks outlined: the part not played yet
    bool m_cacheValid = false;
};

} // namespace ts
