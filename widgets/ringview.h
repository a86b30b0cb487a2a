// SPDX-License-Identifier: MIT
// Replays an all-reduce schedule (model/schedules.h) on a ring of GPUs: which chunk moves where at
// time t, and how many ranks' data each buffer chunk already sums. Geometry is in the pure
// functions below (testable without a GUI); the widget only draws them at the clock's time.
#pragma once

#include "animatedview.h"
#include "schedules.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>

#include <cstdint>
#include <vector>

namespace ts {

/// Rings up to this size are drawn in detail (circles, labels, buffers); larger ones as dots.
inline constexpr int kDetailedRingRanks = 16;

struct RingLayout
{
    struct NodeArc
    {
        double startAngle = 0;   // radians, y down (Qt), clockwise from 3 o'clock
        double endAngle = 0;
    };

    bool detailed = false;
    QPointF centre;
    double radius = 0;           // of the ring through the GPU centres
    double nodeRadius = 0;       // of one GPU's circle (detailed) or dot
    double nodeArcRadius = 0;    // of the node grouping arcs
    double nodeArcWidth = 0;     // their pen width
    double chunkSize = 0;        // side of a buffer square (0: buffers not drawn)
    int chunkColumns = 1;
    double movingChunkSize = 0;  // side of a chunk in flight
    double bulge = 0;            // transfers bow outward by this much (large rings: neighbours are pixels apart)
    bool labelsInside = false;   // "GPU i" inside the circle, else just inside the ring
    QPointF switchPos;           // centre: the in-network reduction switch
    QSizeF switchSize;
    std::vector<QPointF> gpus;   // per rank
    std::vector<double> angles;  // per rank
    std::vector<QRectF> buffers; // per rank: the block of its chunk squares (detailed)
    std::vector<QPointF> labels; // per rank: centre of its label (detailed; empty when labels do not fit)
    std::vector<NodeArc> nodes;  // grouping of the GPUs of each node (empty for one node or 1 GPU per node)
    std::vector<int> parents;    // tree layouts: each rank's parent (-1 for the root); empty on rings
    std::vector<QRectF> nodeBoxes;   // node layouts: each node's box, its GPUs in a row inside
    int ranksPerNode = 0;            // node layouts: GPUs per box

    /// Centre of a rank, the switch for kSwitch, the ring's centre for anything else.
    QPointF position(int rank) const;
};

/// GPUs on a circle clockwise from 12 o'clock, those of one node adjacent and nodes half a slot
/// apart. `chunks` and `labelSize` (of the widest "GPU i" label) size the buffers, labels and switch.
RingLayout layoutRing(int ranks, int ranksPerNode, QRectF area, int chunks = 1, QSizeF labelSize = {});

/// The binomial tree the Tree schedule runs (model/schedules.cpp): rank r's parent clears r's
/// lowest set bit, so rank 0 is the root and a rank's depth is its number of set bits. Drawn as a
/// tree: one row per depth, root on top, ranks left to right; buffers under the GPUs.
RingLayout layoutTree(int ranks, QRectF area, int chunks = 1, QSizeF labelSize = {});
/// Hierarchical and in-network collectives drawn on the topology they run on: every node a box
/// with its GPUs in a row, the boxes side by side (in rows when many), and for in-network
/// reduction the switch above them. Transfers inside a node arc over the box, between nodes
/// under the boxes (transferCurve).
RingLayout layoutNodes(int ranks, int ranksPerNode, QRectF area, int chunks = 1, QSizeF labelSize = {}, bool withSwitch = false);

/// The largest square in `area` whose inscribed circle stays clear of `overlay` (a block of text in
/// a corner), centred in the free space: where the ring goes.
QRectF ringSquare(QRectF area, QRectF overlay);

/// Square of chunk `chunk` in the buffer of `rank` (row-major in RingLayout::buffers).
QRectF chunkRect(const RingLayout &layout, int rank, int chunk);

/// The curve a transfer travels: quadratic from sender to receiver centre via `control`.
struct TransferCurve
{
    QPointF from, control, to;
};
TransferCurve transferCurve(const RingLayout &layout, const Transfer &transfer);
/// The same curve with its ends moved to the edges of the circles (or switch), for the arrow.
TransferCurve transferArrow(const RingLayout &layout, const Transfer &transfer);
/// Where the chunk of a transfer is at `progress` in [0, 1]; a straight line on detailed rings.
QPointF chunkPosition(const RingLayout &layout, const Transfer &transfer, double progress);

/// Unique sorted transfer start times: the stops of the step buttons.
std::vector<double> stepStartTimes(const CollectiveSchedule &schedule);

/// One step of a schedule: its transfers' time span and phase.
struct StepSpan
{
    int step = 0;
    int phase = 0;
    double startSeconds = 0;
    double endSeconds = 0;
};
std::vector<StepSpan> stepSpans(const CollectiveSchedule &schedule);
/// Index of the span running at `seconds` (the later one at a boundary; the last one past the end).
int spanAt(const std::vector<StepSpan> &spans, double seconds);

/// Buffer state at `seconds` by replaying the transfers that have ended: each rank starts with its
/// own data in every chunk; a received chunk adds the ranks the sender's chunk held (a reduced
/// chunk holds all of them). Result[rank][chunk] = contributors; empty above kDetailedRingRanks.
std::vector<std::vector<int>> bufferContributors(const CollectiveSchedule &schedule, double seconds);

/// The ranks a large ring animates: rank 0 and its peers (never the switch).
std::vector<int> focusRanks(const CollectiveSchedule &schedule);

class RingView : public AnimatedView
{
    Q_OBJECT
public:
    explicit RingView(QWidget *parent = nullptr);

    void setSchedule(const CollectiveSchedule &schedule);

    double duration() const override { return m_schedule.totalSeconds; }
    /// stepStartTimes() of the schedule, for AnimationControls::setStepBoundaries.
    const std::vector<double> &stepBoundaries() const { return m_boundaries; }
    const RingLayout &ringLayout() const { return m_layout; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void layoutView() override;
    void timeChanged() override;   // replays the chunks to the playhead
    QStringList overlayLines(bool widest) const;

    // Detailed rings keep every transfer; large ones only those of focusRanks() (and all of rank 0's
    // sends, so bytesSentBy() stays exact), which bounds the copy and the per-frame scan.
    CollectiveSchedule m_schedule;
    std::vector<StepSpan> m_spans;      // of the full schedule
    std::vector<double> m_boundaries;
    std::vector<int> m_focus;
    bool m_hasSwitch = false;
    RingLayout m_layout;
    QRectF m_overlayRect;

    // State at the current time, replayed in setTime().
    int m_span = -1;
    double m_sent = 0;
    std::vector<size_t> m_inFlight;     // indices into m_schedule.transfers
    std::vector<std::vector<int>> m_buffers;
};

} // namespace ts
