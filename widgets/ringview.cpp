// SPDX-License-Identifier: MIT
#include "ringview.h"

#include "colorramp.h"

#include "formatting.h"
#include "theme.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

namespace ts {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kNodeGapSlots = 0.5;   // extra space between nodes, in GPU slots
constexpr int kLegendSwatches = 5;

QPointF unit(QPointF v)
{
    const double length = std::hypot(v.x(), v.y());
    return length > 0 ? v / length : QPointF();
}

QPointF polar(QPointF centre, double radius, double angle)
{
    return centre + QPointF(radius * std::cos(angle), radius * std::sin(angle));
}

QString algorithmTitle(Algorithm algorithm)
{
    switch (algorithm) {
    case Algorithm::Ring: return RingView::tr("Ring all-reduce");
    case Algorithm::Tree: return RingView::tr("Tree all-reduce");
    case Algorithm::Hierarchical: return RingView::tr("Hierarchical all-reduce");
    case Algorithm::InNetwork: return RingView::tr("In-network (SHARP) all-reduce");
    case Algorithm::Nvls: return RingView::tr("NVLink SHARP (NVLS) all-reduce");
    case Algorithm::Pat:   // all-gather and reduce-scatter only: never drawn as an all-reduce
    case Algorithm::Auto: break;
    }
    return RingView::tr("All-reduce");
}

QPolygonF arrowHead(QPointF tip, QPointF direction, double length)
{
    const QPointF d = unit(direction), n(-d.y(), d.x());
    return QPolygonF({tip, tip - d * length + n * length * 0.45, tip - d * length - n * length * 0.45});
}

} // namespace

QPointF RingLayout::position(int rank) const
{
    if (rank == kSwitch)
        return switchPos;
    if (rank >= 0 && size_t(rank) < gpus.size())
        return gpus[size_t(rank)];
    return centre;
}

RingLayout layoutRing(int ranks, int ranksPerNode, QRectF area, int chunks, QSizeF labelSize)
{
    RingLayout l;
    l.centre = l.switchPos = area.center();
    if (ranks <= 0 || !(area.width() > 0) || !(area.height() > 0))
        return l;
    const int g = std::clamp(ranksPerNode, 1, ranks);
    const int nodes = (ranks + g - 1) / g;
    const bool grouped = nodes > 1 && g > 1;
    const double gap = grouped ? kNodeGapSlots : 0.0;
    const double slotCount = ranks + nodes * gap;
    const double slotAngle = 2 * kPi / slotCount;
    const double sinSlot = std::sin(kPi / std::max(slotCount, 2.0));   // chord = 2 R sinSlot
    const double half = std::min(area.width(), area.height()) / 2;
    l.detailed = ranks <= kDetailedRingRanks;

    if (l.detailed) {
        // Circles about a third of the gap to the neighbour, buffers outside the ring, labels inside.
        const int c = std::max(1, chunks);
        l.chunkColumns = int(std::ceil(std::sqrt(double(c))));
        const int rows = (c + l.chunkColumns - 1) / l.chunkColumns;
        double r = std::clamp(0.36 * 2 * (0.6 * half) * sinSlot, 4.0, 0.12 * half);
        l.chunkSize = std::min(std::min(2.2 * r, 0.3 * half) / std::max(l.chunkColumns, rows), 0.7 * r);
        const double diagonal = l.chunkSize * std::hypot(double(l.chunkColumns), double(rows));
        const double spacing = std::max(3.0, 0.3 * r);
        l.radius = std::max(half - (r + spacing + diagonal), 0.3 * half);
        r = std::min(r, 0.42 * 2 * l.radius * sinSlot);   // keep neighbours apart on small areas
        l.nodeRadius = r;
        l.nodeArcRadius = l.radius;
        l.nodeArcWidth = 2 * r + spacing;
        l.movingChunkSize = std::max(0.75 * l.chunkSize, 4.0);   // smaller than a buffer square: the arrow shows around it
        l.labelsInside = labelSize.width() <= 1.7 * r && labelSize.height() <= 1.2 * r;
        // Labels inside the ring need room between neighbours; on cramped rings they are left out.
        const double labelRadius = l.radius - r - 2 - labelSize.width() / 2;
        const bool labelsFit = l.labelsInside || 2 * labelRadius * sinSlot >= 0.75 * labelSize.width();
        const QSizeF buffer(l.chunkColumns * l.chunkSize, rows * l.chunkSize);
        for (int i = 0; i < ranks; ++i) {
            const double a = -kPi / 2 + slotAngle * (i + (i / g) * gap);
            l.angles.push_back(a);
            l.gpus.push_back(polar(l.centre, l.radius, a));
            const QPointF bufferCentre = polar(l.centre, l.radius + r + spacing + diagonal / 2, a);
            l.buffers.emplace_back(bufferCentre - QPointF(buffer.width() / 2, buffer.height() / 2), buffer);
            // Inside the ring, as far in as the label's extent along the radius needs.
            const double extent = (std::abs(labelSize.width() * std::cos(a)) + std::abs(labelSize.height() * std::sin(a))) / 2;
            if (labelsFit)
                l.labels.push_back(l.labelsInside ? l.gpus.back() : polar(l.centre, l.radius - r - 2 - extent, a));
        }
    } else {
        // To scale: dots, thin node arcs just outside, transfers bowing outward to stay visible.
        l.bulge = 0.16 * half;
        l.nodeRadius = std::clamp(0.35 * 2 * (0.8 * half) * sinSlot, 1.0, 4.0);
        l.radius = std::max(half - l.bulge - l.nodeRadius - 8, 0.3 * half);
        l.nodeArcRadius = l.radius + l.nodeRadius + 3;
        l.nodeArcWidth = 2;
        l.movingChunkSize = std::clamp(0.035 * half, 6.0, 12.0);
        for (int i = 0; i < ranks; ++i) {
            const double a = -kPi / 2 + slotAngle * (i + (i / g) * gap);
            l.angles.push_back(a);
            l.gpus.push_back(polar(l.centre, l.radius, a));
        }
    }
    if (grouped) {
        // Round-capped bands on detailed rings: shorten by the cap so neighbouring nodes stay apart.
        const double cap = l.detailed ? (l.nodeArcWidth / 2) / l.nodeArcRadius : 0.0;
        const double halfSpan = std::max(0.0, 0.5 * slotAngle * (l.detailed ? 1.0 : 0.8) - cap);
        for (int n = 0; n < nodes; ++n) {
            const int first = n * g, last = std::min(ranks, first + g) - 1;
            l.nodes.push_back({l.angles[size_t(first)] - halfSpan, l.angles[size_t(last)] + halfSpan});
        }
    }
    // Room for its label (about as wide as "GPU 15") and a little more than a GPU.
    l.switchSize = QSizeF(std::max({1.4 * labelSize.width(), 2.5 * l.nodeRadius, 0.12 * half}),
                          std::max({1.8 * labelSize.height(), 1.5 * l.nodeRadius, 0.05 * half}));
    return l;
}

namespace {
// Sizes a detailed layout's GPU circles (radius r) and chunk buffers (a near-square grid of chunks
// in widthRoom x heightRoom); labels go inside the circles when they fit. Returns a buffer's size.
QSizeF sizeGpusAndBuffers(RingLayout &l, int chunks, double r, double widthRoom, double heightRoom, QSizeF labelSize)
{
    const int c = std::max(1, chunks);
    l.chunkColumns = int(std::ceil(std::sqrt(double(c))));
    const int rows = (c + l.chunkColumns - 1) / l.chunkColumns;
    l.nodeRadius = r;
    l.chunkSize = std::min(widthRoom / l.chunkColumns, heightRoom / rows);
    l.movingChunkSize = std::max(0.75 * l.chunkSize, 4.0);
    l.labelsInside = labelSize.width() <= 1.7 * r && labelSize.height() <= 1.2 * r;
    return {l.chunkColumns * l.chunkSize, rows * l.chunkSize};
}
} // namespace

RingLayout layoutTree(int ranks, QRectF area, int chunks, QSizeF labelSize)
{
    RingLayout l;
    l.detailed = true;
    l.centre = area.center();
    const int n = std::max(1, ranks);
    int depth = 0;
    for (int r = 0; r < n; ++r)
        depth = std::max(depth, std::popcount(unsigned(r)));
    const double column = area.width() / n, row = area.height() / (depth + 1);
    // A GPU circle and its buffer fit a column and a row each.
    const double r = std::clamp(std::min(0.3 * column, 0.22 * row), 4.0, 60.0);
    const QSizeF buffer = sizeGpusAndBuffers(l, chunks, r, 0.9 * column, 0.3 * row, labelSize);
    for (int i = 0; i < n; ++i) {
        const int level = std::popcount(unsigned(i));
        const QPointF at(area.left() + (i + 0.5) * column, area.top() + (level + 0.5) * row - 0.15 * row);
        l.gpus.push_back(at);
        l.angles.push_back(0);
        l.parents.push_back(i == 0 ? -1 : i - (i & -i));
        l.buffers.emplace_back(at + QPointF(-buffer.width() / 2, r + 0.08 * row), buffer);
        if (l.labelsInside)
            l.labels.push_back(at);
    }
    l.radius = std::min(area.width(), area.height()) / 2;
    l.switchSize = QSizeF(1.4 * labelSize.width(), 1.8 * labelSize.height());
    return l;
}

RingLayout layoutNodes(int ranks, int ranksPerNode, QRectF area, int chunks, QSizeF labelSize, bool withSwitch)
{
    RingLayout l;
    l.detailed = true;
    l.centre = area.center();
    const int n = std::max(1, ranks);
    const int g = std::clamp(ranksPerNode, 1, n);
    const int nodes = (n + g - 1) / g;
    l.ranksPerNode = g;
    // The switch takes the top band; the nodes share the rest.
    const double switchBand = withSwitch ? 0.2 * area.height() : 0.0;
    const QRectF grid(area.left(), area.top() + switchBand, area.width(), area.height() - switchBand);
    // One row of nodes while a GPU keeps room for its label: hops between nodes then run in one
    // channel under the boxes. Else the grid that gives a GPU most room.
    int columns = nodes;
    if (grid.width() / nodes / g < std::max(36.0, 1.1 * labelSize.width())) {
        double best = -1;
        for (int c = 1; c <= nodes; ++c) {
            const int rows = (nodes + c - 1) / c;
            const double room = std::min(grid.width() / c / g, 0.3 * grid.height() / rows);
            if (room > best) {
                best = room;
                columns = c;
            }
        }
    }
    const int rows = (nodes + columns - 1) / columns;
    const double cellWidth = grid.width() / columns, cellHeight = grid.height() / rows;
    const double margin = std::min(0.04 * cellWidth, 0.05 * cellHeight) + 2;
    const double slot = (cellWidth - 2 * margin) / g;
    // Each box, top to bottom: its name, room for hops inside the node to arc over the GPUs, the
    // GPUs, their names, their buffers. The cell's lower part is the channel for hops between nodes.
    const double r = std::clamp(std::min(0.3 * slot, 0.09 * cellHeight), 4.0, 60.0);
    const QSizeF buffer = sizeGpusAndBuffers(l, chunks, r, 0.85 * slot, 0.16 * cellHeight, labelSize);
    const double title = 1.4 * labelSize.height(), arcRoom = 2.5 * r;
    const double gpuY = title + arcRoom + r;                                     // from the box top
    const double labelY = gpuY + r + (l.labelsInside ? 0.0 : 0.8 * labelSize.height());
    const double bufferTop = labelY + (l.labelsInside ? 0.3 * r : 0.8 * labelSize.height());
    const double boxHeight = std::min(bufferTop + buffer.height() + margin, 0.62 * cellHeight);
    l.switchSize = QSizeF(std::max(1.4 * labelSize.width(), 2.5 * r), std::max(1.8 * labelSize.height(), 1.5 * r));
    // One row: the boxes, the switch above them and the channel of hops between nodes under them
    // (a hop's lowest point is about 0.075 × its span below the boxes) as one block, centred.
    double top = grid.top(), switchY = area.top() + switchBand / 2;
    if (rows == 1) {
        const double switchRoom = withSwitch ? std::min(switchBand, 4 * l.switchSize.height()) : 0.0;
        const double channel = withSwitch || nodes < 2 ? 0.0 : 0.08 * grid.width() + 2 * r;
        const double block = switchRoom + margin + boxHeight + channel;
        top = area.top() + std::max(0.0, (area.height() - block) / 2) + switchRoom;
        switchY = top - switchRoom / 2 - margin;
    }
    for (int k = 0; k < nodes; ++k) {
        const QPointF corner(grid.left() + (k % columns) * cellWidth + margin / 2, top + (k / columns) * cellHeight + margin);
        l.nodeBoxes.emplace_back(corner, QSizeF(cellWidth - margin, boxHeight));
    }
    for (int i = 0; i < n; ++i) {
        const QRectF &box = l.nodeBoxes[size_t(i / g)];
        const QPointF at(box.left() + margin / 2 + (i % g + 0.5) * slot, box.top() + gpuY);
        l.gpus.push_back(at);
        l.angles.push_back(0);
        l.buffers.emplace_back(QPointF(at.x() - buffer.width() / 2, box.top() + bufferTop), buffer);
        l.labels.push_back(l.labelsInside ? at : QPointF(at.x(), box.top() + labelY));
    }
    l.radius = std::min(area.width(), area.height()) / 2;
    l.switchPos = withSwitch ? QPointF(area.center().x(), switchY) : area.center();
    return l;
}

QRectF ringSquare(QRectF area, QRectF overlay)
{
    const double side = std::min(area.width(), area.height());
    if (!(side > 0))
        return {};
    const auto clear = [&overlay](QPointF c, double half) {
        if (overlay.isEmpty())
            return true;
        const double dx = std::max({overlay.left() - c.x(), 0.0, c.x() - overlay.right()});
        const double dy = std::max({overlay.top() - c.y(), 0.0, c.y() - overlay.bottom()});
        return std::hypot(dx, dy) >= half;
    };
    // Smallest v in [from, to] with clear(v), `to` being clear: clearance grows monotonically
    // away from the overlay, so bisection finds it.
    const auto firstClear = [](double from, double to, const auto &isClear) {
        if (isClear(from))
            return from;
        for (int i = 0; i < 40; ++i) {
            const double m = (from + to) / 2;
            (isClear(m) ? to : from) = m;
        }
        return to;
    };
    // Largest circle in the corner away from the overlay (bottom-right).
    double lo = 0, hi = side / 2;
    for (int i = 0; i < 40; ++i) {
        const double h = (lo + hi) / 2;
        (clear(QPointF(area.right() - h, area.bottom() - h), h) ? lo : hi) = h;
    }
    const double half = lo;
    // Then centre it in the free space, first across, then down.
    double x = area.right() - half, y = area.bottom() - half;
    x = (firstClear(area.left() + half, x, [&](double v) { return clear(QPointF(v, y), half); }) + x) / 2;
    y = (firstClear(area.top() + half, y, [&](double v) { return clear(QPointF(x, v), half); }) + y) / 2;
    return {x - half, y - half, 2 * half, 2 * half};
}

QRectF chunkRect(const RingLayout &layout, int rank, int chunk)
{
    if (rank < 0 || size_t(rank) >= layout.buffers.size() || chunk < 0 || layout.chunkColumns < 1)
        return {};
    const QPointF origin = layout.buffers[size_t(rank)].topLeft();
    const double s = layout.chunkSize;
    return {origin + QPointF((chunk % layout.chunkColumns) * s, (chunk / layout.chunkColumns) * s), QSizeF(s, s)};
}

TransferCurve transferCurve(const RingLayout &layout, const Transfer &t)
{
    TransferCurve c{layout.position(t.sender), {}, layout.position(t.receiver)};
    const QPointF mid = (c.from + c.to) / 2;
    const bool viaSwitch = t.sender == kSwitch || t.receiver == kSwitch;
    c.control = viaSwitch ? mid : mid + unit(mid - layout.centre) * layout.bulge;
    if (!layout.nodeBoxes.empty() && !viaSwitch && layout.ranksPerNode > 0) {
        // Node layouts: a hop inside a node arcs over its GPUs, a hop between nodes dips under the
        // boxes (a quadratic's midpoint lies halfway to its control), so neither crosses the GPUs
        // between its ends.
        const size_t node = size_t(t.sender / layout.ranksPerNode);
        const bool sameNode = node == size_t(t.receiver / layout.ranksPerNode);
        const double span = std::abs(c.to.x() - c.from.x());
        if (sameNode) {
            c.control = mid - QPointF(0, std::min(0.5 * span, 4 * layout.nodeRadius) + 2 * layout.nodeRadius);
        } else if (node < layout.nodeBoxes.size()) {
            const double below = layout.nodeBoxes[node].bottom() - std::max(c.from.y(), c.to.y());
            c.control = QPointF(mid.x(), std::max(c.from.y(), c.to.y()) + 2 * below + 0.15 * span + 2 * layout.nodeRadius);
        }
    }
    return c;
}

TransferCurve transferArrow(const RingLayout &layout, const Transfer &t)
{
    TransferCurve c = transferCurve(layout, t);
    // Distance from a rank's centre to its outline along d: circle, or the switch's box.
    const auto inset = [&layout](int rank, QPointF d) {
        if (rank != kSwitch)
            return layout.nodeRadius + 1;
        const double hx = layout.switchSize.width() / 2, hy = layout.switchSize.height() / 2;
        return std::min(d.x() != 0 ? hx / std::abs(d.x()) : 1e300, d.y() != 0 ? hy / std::abs(d.y()) : 1e300) + 1;
    };
    const QPointF from = c.from, to = c.to;
    const QPointF dFrom = unit((c.control == from ? to : c.control) - from);
    const QPointF dTo = unit((c.control == to ? from : c.control) - to);
    c.from += dFrom * inset(t.sender, dFrom);
    c.to += dTo * inset(t.receiver, dTo);
    return c;
}

QPointF chunkPosition(const RingLayout &layout, const Transfer &t, double progress)
{
    // Quadratic Bezier; with the control at the midpoint this is the straight line, linear in progress.
    const TransferCurve c = transferCurve(layout, t);
    const double p = std::isfinite(progress) ? std::clamp(progress, 0.0, 1.0) : 0.0;
    return c.from * ((1 - p) * (1 - p)) + c.control * (2 * (1 - p) * p) + c.to * (p * p);
}

std::vector<double> stepStartTimes(const CollectiveSchedule &schedule)
{
    std::vector<double> times;
    for (const Transfer &t : schedule.transfers) {
        if (times.empty() || times.back() != t.startSeconds)   // transfers of a step share their start
            times.push_back(t.startSeconds);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

std::vector<StepSpan> stepSpans(const CollectiveSchedule &schedule)
{
    std::vector<StepSpan> spans;
    for (const Transfer &t : schedule.transfers) {
        if (spans.empty() || spans.back().step != t.step)
            spans.push_back({t.step, t.phase, t.startSeconds, t.endSeconds});
        StepSpan &s = spans.back();
        s.startSeconds = std::min(s.startSeconds, t.startSeconds);
        s.endSeconds = std::max(s.endSeconds, t.endSeconds);
    }
    // Transfers come ordered by step; merge anyway should a producer interleave them.
    std::stable_sort(spans.begin(), spans.end(), [](const StepSpan &a, const StepSpan &b) { return a.step < b.step; });
    std::vector<StepSpan> merged;
    for (const StepSpan &s : spans) {
        if (!merged.empty() && merged.back().step == s.step) {
            merged.back().startSeconds = std::min(merged.back().startSeconds, s.startSeconds);
            merged.back().endSeconds = std::max(merged.back().endSeconds, s.endSeconds);
        } else {
            merged.push_back(s);
        }
    }
    return merged;
}

int spanAt(const std::vector<StepSpan> &spans, double seconds)
{
    if (spans.empty())
        return -1;
    int started = 0;
    for (int i = 0; i < int(spans.size()); ++i) {
        const StepSpan &s = spans[size_t(i)];
        if (s.startSeconds <= seconds) {
            started = i;
            if (seconds < s.endSeconds)
                return i;
        }
    }
    // Between steps or past the end: the last one that has started.
    return started;
}

std::vector<std::vector<int>> bufferContributors(const CollectiveSchedule &schedule, double seconds)
{
    const int n = schedule.ranks, chunks = std::max(1, schedule.chunks);
    if (n <= 0 || n > kDetailedRingRanks)
        return {};
    // One bit per rank whose data a chunk sums; row n is the switch.
    std::vector<std::vector<std::uint32_t>> mask(size_t(n) + 1, std::vector<std::uint32_t>(size_t(chunks), 0));
    for (int r = 0; r < n; ++r)
        std::fill(mask[size_t(r)].begin(), mask[size_t(r)].end(), std::uint32_t(1) << r);
    const auto row = [n](int rank) { return rank == kSwitch ? n : rank; };
    const auto &ts = schedule.transfers;
    struct Update
    {
        size_t row, chunk;
        std::uint32_t bits;
    };
    std::vector<Update> pending;
    for (size_t i = 0; i < ts.size();) {
        // Transfers of one step run concurrently: all read the state from before the step.
        size_t j = i;
        pending.clear();
        for (; j < ts.size() && ts[j].step == ts[i].step; ++j) {
            const Transfer &t = ts[j];
            const int from = row(t.sender), to = row(t.receiver);
            if (t.endSeconds > seconds || from < 0 || from > n || to < 0 || to > n || t.chunk < 0 || t.chunk >= chunks)
                continue;
            pending.push_back({size_t(to), size_t(t.chunk), mask[size_t(from)][size_t(t.chunk)]});
        }
        for (const Update &u : pending)
            mask[u.row][u.chunk] |= u.bits;
        i = j;
    }
    std::vector<std::vector<int>> out(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(chunks)));
    for (size_t r = 0; r < size_t(n); ++r)
        for (size_t c = 0; c < size_t(chunks); ++c)
            out[r][c] = std::popcount(mask[r][c]);
    return out;
}

std::vector<int> focusRanks(const CollectiveSchedule &schedule)
{
    std::vector<int> focus{0};
    for (const Transfer &t : schedule.transfers) {
        if (t.sender == 0 && t.receiver != kSwitch)
            focus.push_back(t.receiver);
        if (t.receiver == 0 && t.sender != kSwitch)
            focus.push_back(t.sender);
    }
    std::sort(focus.begin(), focus.end());
    focus.erase(std::unique(focus.begin(), focus.end()), focus.end());
    return focus;
}

RingView::RingView(QWidget *parent)
    : AnimatedView(parent)
{
    relayout();   // the overlay, and so the minimum size, is known before the first resize
}

void RingView::setSchedule(const CollectiveSchedule &schedule)
{
    // Copy all but the transfers, then only those a large ring animates.
    m_schedule = CollectiveSchedule{};
    m_schedule.algorithm = schedule.algorithm;
    m_schedule.ranks = schedule.ranks;
    m_schedule.ranksPerNode = schedule.ranksPerNode;
    m_schedule.bytes = schedule.bytes;
    m_schedule.chunks = schedule.chunks;
    m_schedule.phases = schedule.phases;
    m_schedule.steps = schedule.steps;
    m_schedule.totalSeconds = schedule.totalSeconds;
    m_schedule.bytesSentPerRank = schedule.bytesSentPerRank;
    m_schedule.error = schedule.error;

    m_spans = stepSpans(schedule);
    m_boundaries = stepStartTimes(schedule);
    m_hasSwitch = std::any_of(schedule.transfers.cbegin(), schedule.transfers.cend(),
                              [](const Transfer &t) { return t.sender == kSwitch || t.receiver == kSwitch; });
    if (schedule.ranks <= kDetailedRingRanks) {
        m_focus.clear();
        m_schedule.transfers = schedule.transfers;
    } else {
        m_focus = focusRanks(schedule);
        std::vector<bool> isFocus(size_t(std::max(0, schedule.ranks)), false);
        for (const int r : m_focus)
            if (r >= 0 && r < schedule.ranks)
                isFocus[size_t(r)] = true;
        const auto focused = [&isFocus](int rank) { return rank >= 0 && size_t(rank) < isFocus.size() && isFocus[size_t(rank)]; };
        for (const Transfer &t : schedule.transfers)
            if (focused(t.sender) || focused(t.receiver))
                m_schedule.transfers.push_back(t);
    }
    relayout();
    updateGeometry();   // the overlay, and so the minimum size, depends on the schedule
    clampTime();
    timeChanged();   // replay at the same time in the new schedule
    update();
}

QSize RingView::minimumSizeHint() const
{
    // The overlay text, and a ring of about 200 px below it.
    const QSizeF ring = QSizeF(200, 200) * scale();
    return QSizeF(std::max(m_overlayRect.width(), ring.width()) + 16 * scale(),
                  m_overlayRect.height() + ring.height() + 16 * scale()).toSize();
}

QSize RingView::sizeHint() const
{
    const QSize minimum = minimumSizeHint();
    return QSize(std::max(minimum.width() + int(300 * scale()), int(620 * scale())),
                 std::max(minimum.height() + int(160 * scale()), int(460 * scale())));
}

QStringList RingView::overlayLines(bool widest) const
{
    const CollectiveSchedule &s = m_schedule;
    const int span = widest ? int(m_spans.size()) - 1 : m_span;
    QString phase;
    if (widest) {
        for (const std::string &name : s.phases)
            if (translated(name).size() > phase.size())
                phase = translated(name);
    } else if (span >= 0 && size_t(span) < m_spans.size()) {
        const int index = m_spans[size_t(span)].phase;
        if (index >= 0 && size_t(index) < s.phases.size())
            phase = translated(s.phases[size_t(index)]);
    }
    const double stepSeconds = span >= 0 && size_t(span) < m_spans.size()
                                   ? m_spans[size_t(span)].endSeconds - m_spans[size_t(span)].startSeconds : 0.0;
    const double sent = widest ? s.bytesSentPerRank : m_sent;
    return {algorithmTitle(s.algorithm),
            tr("Phase: %1").arg(phase),
            !widest && time() <= 0 ? tr("Step 0 of %1: nothing sent yet").arg(m_spans.size())
                                   : tr("Step %1 of %2").arg(span + 1).arg(m_spans.size()),
            tr("Step time: %1").arg(fmt::seconds(stepSeconds)),
            tr("Sent so far by GPU 0: %1 of %2").arg(fmt::bytes(sent), fmt::bytes(s.bytesSentPerRank)),
            tr("Total: %1").arg(fmt::seconds(s.totalSeconds))};
}

void RingView::layoutView()
{
    const double pad = 8 * scale();
    const QRectF area = QRectF(rect()).adjusted(pad, pad, -pad, -pad);
    // Overlay block (top-left) measured with final values, so it does not grow while playing.
    const QFontMetricsF title(scaledFont(1, true)), body(scaledFont());
    const QStringList lines = overlayLines(true);
    double width = 0;
    for (qsizetype i = 0; i < lines.size(); ++i)
        width = std::max(width, (i == 0 ? title : body).horizontalAdvance(lines[i]));
    const double legend = m_schedule.ranks <= kDetailedRingRanks ? 2.4 * body.height() : 0.0;
    const QSizeF overlay(width + pad, title.height() + (lines.size() - 1) * body.height() + legend + pad);
    m_overlayRect = QRectF(area.topLeft(), overlay);

    const QFontMetricsF labels(scaledFont(0.85));
    const QSizeF labelSize(labels.horizontalAdvance(tr("GPU %1").arg(std::max(0, m_schedule.ranks - 1))), labels.height());
    // Trees and node layouts go under the overlay, across the whole width.
    const QRectF belowOverlay(area.left(), m_overlayRect.bottom() + pad, area.width(), area.bottom() - m_overlayRect.bottom() - pad);
    const bool topology = m_schedule.algorithm == Algorithm::Hierarchical || m_schedule.algorithm == Algorithm::InNetwork;
    if (topology && m_schedule.ranks <= kDetailedRingRanks) {
        // Nodes as boxes (and the switch above them).
        m_layout = layoutNodes(m_schedule.ranks, m_schedule.ranksPerNode, belowOverlay, m_schedule.chunks, labelSize,
                               m_schedule.algorithm == Algorithm::InNetwork);
        return;
    }
    if (m_schedule.algorithm == Algorithm::Tree && m_schedule.ranks <= kDetailedRingRanks) {
        // The tree as a tree.
        m_layout = layoutTree(m_schedule.ranks, belowOverlay, m_schedule.chunks, labelSize);
        return;
    }
    const QRectF ringArea = ringSquare(area, m_overlayRect);
    m_layout = layoutRing(m_schedule.ranks, m_schedule.ranksPerNode, ringArea, m_schedule.chunks, labelSize);
}

void RingView::timeChanged()
{
    m_span = spanAt(m_spans, time());
    m_sent = bytesSentBy(m_schedule, 0, time());
    m_inFlight.clear();
    for (size_t i = 0; i < m_schedule.transfers.size(); ++i) {
        const Transfer &t = m_schedule.transfers[i];
        if (t.startSeconds <= time() && time() < t.endSeconds)
            m_inFlight.push_back(i);
    }
    m_buffers = bufferContributors(m_schedule, time());
}

void RingView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette &pal = palette();
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    const QColor muted = pal.color(QPalette::PlaceholderText);
    const QColor strong = theme::color(theme::Part::DpComm);
    const int n = m_schedule.ranks;
    // Viridis steps, ordered in lightness: "summed by 2" never looks like "1" (planmapmapping.h).
    const auto ramp = [&](int contributors) { return sequentialColor(n > 1 ? double(contributors - 1) / (n - 1) : 1.0); };
    const auto letter = [](int chunk) { return chunk < 26 ? QString(QChar('A' + chunk)) : QString::number(chunk + 1); };

    if (!m_schedule.error.empty() || n <= 0 || m_schedule.transfers.empty()) {
        drawMessage(p, !m_schedule.error.empty() ? tr("No schedule to show: %1").arg(translated(m_schedule.error))
                                                 : tr("No collective to show"));
        return;
    }
    p.setFont(scaledFont());
    const RingLayout &l = m_layout;
    const double lineWidth = 1.2 * scale();

    // Node grouping: a light band (detailed) or thin arc (large) behind each node's GPUs.
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF arcRect(l.centre - QPointF(l.nodeArcRadius, l.nodeArcRadius), QSizeF(2, 2) * l.nodeArcRadius);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(l.detailed ? theme::mix(base, text, 0.07) : muted, l.detailed ? l.nodeArcWidth : l.nodeArcWidth * scale(),
                  Qt::SolidLine, l.detailed ? Qt::RoundCap : Qt::FlatCap));
    for (const RingLayout::NodeArc &arc : l.nodes) {
        QPainterPath path;
        path.arcMoveTo(arcRect, -arc.startAngle * 180 / std::numbers::pi);
        path.arcTo(arcRect, -arc.startAngle * 180 / std::numbers::pi, -(arc.endAngle - arc.startAngle) * 180 / std::numbers::pi);
        p.drawPath(path);
    }

    // Node layouts: each node a light box, named.
    if (!l.nodeBoxes.empty()) {
        p.setFont(scaledFont(0.8));
        for (size_t k = 0; k < l.nodeBoxes.size(); ++k) {
            p.setPen(QPen(theme::mix(base, text, 0.25), lineWidth));
            p.setBrush(theme::mix(base, text, 0.05));
            p.drawRoundedRect(l.nodeBoxes[k], 6 * scale(), 6 * scale());
            p.setPen(muted);
            p.drawText(l.nodeBoxes[k].adjusted(6 * scale(), 2 * scale(), 0, 0), Qt::AlignLeft | Qt::AlignTop,
                       tr("Node %1").arg(k));
        }
        p.setFont(scaledFont());
    }
    if (l.detailed) {
        // Tree edges, child to parent, under the GPUs.
        p.setPen(QPen(theme::mix(base, text, 0.3), lineWidth));
        for (size_t r = 0; r < l.parents.size(); ++r)
            if (l.parents[r] >= 0)
                p.drawLine(l.gpus[r], l.gpus[size_t(l.parents[r])]);
        p.setPen(QPen(text, lineWidth));
        p.setBrush(base);
        for (const QPointF &c : l.gpus)
            p.drawEllipse(c, l.nodeRadius, l.nodeRadius);
        p.setFont(scaledFont(0.85));
        const QFontMetricsF labelMetrics(p.font());
        p.setFont(scaledFont());
        // Buffers: one square per chunk, coloured by how many GPUs' data it sums.
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setFont(scaledFont(0.7));
        const QFontMetricsF chunkMetrics(p.font());
        for (int r = 0; r < n && size_t(r) < m_buffers.size(); ++r)
            for (int c = 0; c < int(m_buffers[size_t(r)].size()); ++c) {
                const QRectF square = chunkRect(l, r, c);
                const QColor fill = ramp(m_buffers[size_t(r)][size_t(c)]);
                p.setPen(QPen(muted, 1));
                p.setBrush(fill);
                p.drawRect(square);
                if (square.height() >= chunkMetrics.height() * 0.9) {   // chunks named A, B, C ...
                    p.setPen(theme::textOn(fill));
                    p.drawText(square, Qt::AlignCenter, letter(c));
                }
            }
        p.setFont(scaledFont());
        // The GPUs sending and receiving now, ringed.
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setBrush(Qt::NoBrush);
        for (const size_t i : m_inFlight)
            for (const int rank : {m_schedule.transfers[i].sender, m_schedule.transfers[i].receiver})
                if (rank >= 0 && rank < n) {
                    p.setPen(QPen(theme::currentPointColor(), 3 * scale()));
                    p.drawEllipse(l.gpus[size_t(rank)], l.nodeRadius + 2 * scale(), l.nodeRadius + 2 * scale());
                }
        p.setRenderHint(QPainter::Antialiasing, false);
    } else {
        p.setPen(QPen(theme::mix(base, text, 0.15), lineWidth));
        p.drawEllipse(l.centre, l.radius, l.radius);
        p.setPen(QPen(theme::mix(base, text, 0.55), 2 * l.nodeRadius, Qt::SolidLine, Qt::RoundCap));
        p.drawPoints(QPolygonF(QList<QPointF>(l.gpus.cbegin(), l.gpus.cend())));
        p.setPen(QPen(strong, 2 * l.nodeRadius + lineWidth, Qt::SolidLine, Qt::RoundCap));
        for (const int r : m_focus)
            p.drawPoint(l.position(r));
        p.setPen(text);
        // GPU 0 sits at 12 o'clock; its label goes just inside the ring (transfers bow outward).
        const QPointF label = l.position(0) + QPointF(0, l.nodeRadius + 3 * scale());
        const double labelWidth = 200 * scale();
        p.drawText(QRectF(label.x() - labelWidth / 2, label.y(), labelWidth, QFontMetricsF(p.font()).height()),
                   Qt::AlignHCenter | Qt::AlignTop, tr("GPU 0"));
        const int nodes = m_schedule.ranksPerNode > 0 ? (n + m_schedule.ranksPerNode - 1) / m_schedule.ranksPerNode : n;
        const QString count = tr("%1 GPUs in %2 nodes").arg(n).arg(nodes);
        const QRectF countRect(l.centre.x() - l.radius, l.centre.y() + (m_hasSwitch ? l.switchSize.height() : -l.radius * 0.1),
                               2 * l.radius, 3 * QFontMetricsF(p.font()).height());
        p.drawText(countRect, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                   count + QLatin1Char('\n') + tr("transfers of GPU 0 and its peers"));
    }

    // Transfers in flight: arrows from sender to receiver, then the switch over their ends, then
    // the chunks moving along them on top.
    QColor arrowColor = strong;
    arrowColor.setAlphaF(0.75f);
    const double head = 7 * scale();
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const size_t i : m_inFlight) {
        const TransferCurve a = transferArrow(l, m_schedule.transfers[i]);
        p.setPen(QPen(arrowColor, lineWidth));
        p.setBrush(Qt::NoBrush);
        QPainterPath path(a.from);
        path.quadTo(a.control, a.to);
        p.drawPath(path);
        p.setPen(Qt::NoPen);
        p.setBrush(arrowColor);
        p.drawPolygon(arrowHead(a.to, a.to - a.control, head));
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    if (m_hasSwitch) {
        const QRectF box(l.switchPos - QPointF(l.switchSize.width() / 2, l.switchSize.height() / 2), l.switchSize);
        p.setPen(QPen(text, lineWidth));
        p.setBrush(theme::mix(base, text, 0.1));
        p.drawRect(box);
        p.drawText(box, Qt::AlignCenter, tr("Switch"));
    }
    p.setPen(QPen(text, 1));
    for (const size_t i : m_inFlight) {
        const Transfer &t = m_schedule.transfers[i];
        const double span = t.endSeconds - t.startSeconds;
        const QPointF at = chunkPosition(l, t, span > 0 ? (time() - t.startSeconds) / span : 1.0);
        const double s = l.movingChunkSize;
        const QColor fill = ramp(t.contributors);
        const QRectF square(at - QPointF(s / 2, s / 2), QSizeF(s, s));
        p.setPen(QPen(text, 1));
        p.setBrush(fill);
        p.drawRect(square);
        if (l.detailed && s >= QFontMetricsF(scaledFont(0.7)).height() * 0.9) {
            p.setFont(scaledFont(0.7));
            p.setPen(theme::textOn(fill));
            p.drawText(square, Qt::AlignCenter, letter(t.chunk));
            p.setFont(scaledFont());
        }
    }

    // GPU labels last, so a chunk leaving or reaching a GPU never hides its name.
    if (l.detailed) {
        p.setFont(scaledFont(0.85));
        const QFontMetricsF labelMetrics(p.font());
        for (int i = 0; i < n && size_t(i) < l.labels.size(); ++i) {
            const QString label = tr("GPU %1").arg(i);
            const QSizeF size(labelMetrics.horizontalAdvance(label) + 4, labelMetrics.height());
            const QRectF box(l.labels[size_t(i)] - QPointF(size.width() / 2, size.height() / 2), size);
            p.setPen(Qt::NoPen);
            p.setBrush(palette().color(QPalette::Base));
            p.drawRoundedRect(box, 3, 3);
            p.setPen(palette().color(QPalette::Text));
            p.drawText(box, Qt::AlignCenter, label);
        }
        p.setFont(scaledFont());
    }

    // Overlay: what is happening now.
    p.setPen(text);
    const QStringList lines = overlayLines(false);
    const QFontMetricsF title(scaledFont(1, true)), body(scaledFont());
    QPointF at = m_overlayRect.topLeft();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        p.setFont(scaledFont(1, i == 0));
        const QFontMetricsF &metrics = i == 0 ? title : body;
        p.drawText(QRectF(at, QSizeF(m_overlayRect.width(), metrics.height())), Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
        at.ry() += metrics.height();
    }
    if (l.detailed) {
        // Legend of the chunk colour ramp: from one GPU's data to fully reduced.
        p.setFont(scaledFont());
        at.ry() += 0.2 * body.height();
        p.drawText(QRectF(at, QSizeF(m_overlayRect.width(), body.height())), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("Chunk colour: GPUs summed, 1 to %1").arg(n));
        at.ry() += body.height();
        const double s = 0.8 * body.height();
        p.setFont(scaledFont(0.7));
        for (int k = 0; k < kLegendSwatches; ++k) {
            const int contributors = 1 + (n - 1) * k / (kLegendSwatches - 1);
            const QColor fill = ramp(contributors);
            const QRectF swatch(at + QPointF(k * 1.25 * s, 0.1 * s), QSizeF(s, s));
            p.setPen(QPen(muted, 1));
            p.setBrush(fill);
            p.drawRect(swatch);
            p.setPen(theme::textOn(fill));
            p.drawText(swatch, Qt::AlignCenter, QString::number(contributors));   // GPUs summed
        }
        p.setFont(scaledFont());
    }
}

} // namespace ts
