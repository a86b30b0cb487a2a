// SPDX-License-Identifier: MIT
#include "pipelinetimelineview.h"

#include "animationclock.h"
#include "formatting.h"
#include "theme.h"

#include <QEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace ts {

namespace {

constexpr double kHeaderLines = 3.4;
constexpr double kStripLines = 5;
constexpr double kAxisLines = 1.6;
constexpr double kMaxRowLines = 7;

QColor opColor(PipelineOp op)
{
    return theme::opColor(op == PipelineOp::Backward ? 'B' : op == PipelineOp::WeightGrad ? 'W' : 'F');
}

QString opName(PipelineOp op)
{
    switch (op) {
    case PipelineOp::Forward: return PipelineTimelineView::tr("Forward (F)");
    case PipelineOp::Backward: return PipelineTimelineView::tr("Backward (B)");
    case PipelineOp::WeightGrad: return PipelineTimelineView::tr("Weight gradient (W)");
    }
    return {};
}

QPolygonF arrowHead(QPointF tip, QPointF direction, double length)
{
    const double l = std::hypot(direction.x(), direction.y());
    const QPointF d = l > 0 ? direction / l : QPointF(1, 0), n(-d.y(), d.x());
    return QPolygonF({tip, tip - d * length + n * length * 0.45, tip - d * length - n * length * 0.45});
}

} // namespace

PipelineTimelineLayout layoutPipelineTimeline(QRectF area, int stages, double makespan, double lineHeight,
                                              double labelWidth)
{
    PipelineTimelineLayout l;
    l.labelWidth = labelWidth;
    const double gap = 0.5 * lineHeight;
    l.header = QRectF(area.left(), area.top(), area.width(), kHeaderLines * lineHeight);
    // The activations strip takes at most a fifth of the height: the stages come first.
    const double stripHeight = std::min(kStripLines * lineHeight, 0.2 * area.height()), axisHeight = kAxisLines * lineHeight;
    const double rowsTop = l.header.bottom() + gap;
    const double available = area.bottom() - rowsTop - gap - stripHeight - axisHeight;
    // Rows share the rest, but not taller than a few lines: a two-stage pipeline stays compact.
    const double rowsHeight = std::max(0.0, std::min(available, stages * kMaxRowLines * lineHeight));
    const QRectF rowsArea(area.left(), rowsTop, area.width(), rowsHeight);
    l.rows = makeTimelineMapping(rowsArea, stages, makespan, QMarginsF(labelWidth + gap, 0, 2 * gap, 0));
    l.strip = QRectF(l.rows.plot.left(), rowsArea.bottom() + gap, l.rows.plot.width(), stripHeight);
    l.axis = QRectF(l.rows.plot.left(), l.strip.bottom(), l.rows.plot.width(), axisHeight);
    return l;
}

namespace {
// Hand-offs of `op` between neighbouring stages: to the neighbour whose op on the same chunk of
// the same micro-batch comes after this one (forward runs down the stages and backward up; in
// DualPipeV's V, chunk 1 runs the other way).
std::vector<Handoff> handoffs(const std::vector<PipelineEvent> &events, PipelineOp op)
{
    std::map<std::tuple<int, int, int>, size_t> byKey;   // (stage, micro-batch, chunk) -> event
    for (size_t i = 0; i < events.size(); ++i) {
        const PipelineEvent &e = events[i];
        if (e.op == op)
            byKey[{e.stage, e.microBatch, e.chunk}] = i;
    }
    std::vector<Handoff> out;
    for (const auto &[key, from] : byKey) {
        const auto &[stage, microBatch, chunk] = key;
        for (int direction : {op == PipelineOp::Forward ? 1 : -1, op == PipelineOp::Forward ? -1 : 1}) {
            const auto next = byKey.find({stage + direction, microBatch, chunk});
            if (next != byKey.end() && events[next->second].startSeconds >= events[from].endSeconds - 1e-12) {
                out.push_back({from, next->second, events[next->second].startSeconds - events[from].endSeconds});
                break;
            }
        }
    }
    return out;
}
} // namespace

std::vector<Handoff> forwardHandoffs(const std::vector<PipelineEvent> &events) { return handoffs(events, PipelineOp::Forward); }

std::vector<Handoff> backwardHandoffs(const std::vector<PipelineEvent> &events) { return handoffs(events, PipelineOp::Backward); }

bool hasP2pDelay(const std::vector<Handoff> &handoffs, double makespan)
{
    // Without p2p time some hand-off is immediate (the first micro-batch's); with it none is.
    const double eps = 1e-9 * std::max(makespan, 1e-30);
    return !handoffs.empty()
           && std::all_of(handoffs.cbegin(), handoffs.cend(), [eps](const Handoff &h) { return h.gapSeconds > eps; });
}

std::vector<std::vector<std::pair<double, double>>> idleSpansPerStage(const std::vector<PipelineEvent> &events,
                                                                     int stages, double makespan)
{
    // One pass over the events: large simulations hold millions of them.
    std::vector<std::vector<std::pair<double, double>>> busy(size_t(std::max(0, stages)));
    for (const PipelineEvent &e : events)
        if (e.stage >= 0 && e.stage < stages)
            busy[size_t(e.stage)].emplace_back(e.startSeconds, e.endSeconds);
    const double eps = 1e-12 * std::max(makespan, 1e-30);
    std::vector<std::vector<std::pair<double, double>>> idle(busy.size());
    for (size_t s = 0; s < busy.size(); ++s) {
        std::sort(busy[s].begin(), busy[s].end());
        double free = 0;
        for (const auto &[start, end] : busy[s]) {
            if (start > free + eps)
                idle[s].emplace_back(free, start);
            free = std::max(free, end);
        }
        if (makespan > free + eps)
            idle[s].emplace_back(free, makespan);
    }
    return idle;
}

std::vector<std::pair<double, double>> idleSpans(const std::vector<PipelineEvent> &events, int stage, double makespan)
{
    if (stage < 0)
        return {};
    return idleSpansPerStage(events, stage + 1, makespan)[size_t(stage)];
}

const PipelineEvent *eventAt(const TimelineMapping &mapping, const std::vector<PipelineEvent> &events, QPointF point)
{
    const int stage = mapping.rowAt(point.y());
    if (stage < 0 || point.x() < mapping.plot.left() || point.x() > mapping.plot.right())
        return nullptr;
    for (const PipelineEvent &e : events) {
        if (e.stage == stage && mapping.blockRect(e).contains(point))   // cheap stage test first
            return &e;
    }
    return nullptr;
}

std::vector<double> eventStartTimes(const PipelineSimulation &simulation)
{
    std::vector<double> times;
    times.reserve(simulation.events.size() + 1);
    for (const PipelineEvent &e : simulation.events)
        times.push_back(e.startSeconds);
    times.push_back(simulation.makespanSeconds);
    return uniqueTimes(std::move(times));
}

QString blockLabel(const PipelineEvent &event, bool interleaved)
{
    return interleaved ? QStringLiteral("%1.%2").arg(event.microBatch + 1).arg(event.chunk + 1)
                       : QString::number(event.microBatch + 1);
}

PipelineTimelineView::PipelineTimelineView(QWidget *parent)
    : AnimatedView(parent)
{
    setMouseTracking(true);   // tool tips on the blocks
    relayout();               // layout getters valid before the first resize
}

void PipelineTimelineView::setSimulation(const PipelineSimulation &simulation, double closedFormBubbleFraction,
                                         const QString &scheduleName)
{
    m_sim = simulation;
    m_viewStart = m_viewSpan = 0;   // a new schedule is shown whole
    m_closedForm = closedFormBubbleFraction;
    m_name = scheduleName;
    m_stages = 0;
    int microBatches = 0, chunks = 0;
    m_hasW = false;
    for (const PipelineEvent &e : m_sim.events) {
        m_stages = std::max(m_stages, e.stage + 1);
        microBatches = std::max(microBatches, e.microBatch + 1);
        chunks = std::max(chunks, e.chunk + 1);
        m_hasW = m_hasW || e.op == PipelineOp::WeightGrad;
    }
    m_microBatches = microBatches;
    m_chunks = std::max(1, chunks);
    m_boundaries = hasData() ? eventStartTimes(m_sim) : std::vector<double>{};
    m_inFlight = hasData() ? inFlightProfile(m_sim, 0) : std::vector<InFlightPoint>{};
    m_peakInFlight = 0;
    for (const InFlightPoint &point : m_inFlight)
        m_peakInFlight = std::max(m_peakInFlight, point.microBatches);
    m_idle = idleSpansPerStage(m_sim.events, m_stages, m_sim.makespanSeconds);
    // Arrows would clutter large schedules; they are drawn only when hand-offs actually wait.
    const bool small = static_cast<long long>(m_stages) * microBatches <= kMaxArrowBlocks;
    m_handoffs = small ? forwardHandoffs(m_sim.events) : std::vector<Handoff>{};
    m_gradientHandoffs = small ? backwardHandoffs(m_sim.events) : std::vector<Handoff>{};
    m_drawArrows = small && hasP2pDelay(m_handoffs, m_sim.makespanSeconds);
    clampTime();
    relayout();
    updateGeometry();
    update();
}

QSize PipelineTimelineView::minimumSizeHint() const { return (QSizeF(360, 240) * scale()).toSize(); }

QSize PipelineTimelineView::sizeHint() const
{
    const double line = QFontMetricsF(scaledFont()).height();
    const double rows = std::clamp(m_stages, 2, 16) * 1.8 * line;
    return QSizeF(760 * scale(), (kHeaderLines + kStripLines + kAxisLines + 2) * line + rows).toSize();
}

void PipelineTimelineView::layoutView()
{
    const QFontMetricsF metrics(scaledFont());
    const double pad = 8 * scale();
    const double labelWidth = metrics.horizontalAdvance(tr("Stage %1").arg(std::max(1, m_stages)));
    m_layout = layoutPipelineTimeline(QRectF(rect()).adjusted(pad, pad, -pad, -pad), m_stages,
                                      m_sim.makespanSeconds, metrics.height(), labelWidth);
    if (m_viewSpan > 0 && m_viewSpan < m_sim.makespanSeconds) {
        m_layout.rows.t0 = m_viewStart;
        m_layout.rows.t1 = m_viewStart + m_viewSpan;
    }
    m_cacheValid = false;
}

void PipelineTimelineView::setViewWindow(double start, double span)
{
    const double makespan = m_sim.makespanSeconds;
    if (!(makespan > 0) || !std::isfinite(start) || !std::isfinite(span) || span <= 0 || span >= makespan) {
        m_viewStart = 0;
        m_viewSpan = 0;
    } else {
        m_viewSpan = std::max(span, makespan / 500);   // at most 500x: blocks stay blocks
        m_viewStart = std::clamp(start, 0.0, makespan - m_viewSpan);
    }
    relayout();
    update();
}

void PipelineTimelineView::wheelEvent(QWheelEvent *event)
{
    const TimelineMapping &m = m_layout.rows;
    if (!hasData() || event->angleDelta().y() == 0) {
        AnimatedView::wheelEvent(event);
        return;
    }
    // Zoom around the time under the pointer: it stays under the pointer.
    const double at = m.xToSeconds(std::clamp(event->position().x(), m.plot.left(), m.plot.right()));
    const double span = (m.t1 - m.t0) * std::pow(0.8, event->angleDelta().y() / 120.0);
    const double fraction = m.plot.width() > 0 ? (event->position().x() - m.plot.left()) / m.plot.width() : 0.5;
    setViewWindow(at - std::clamp(fraction, 0.0, 1.0) * span, span);
    event->accept();
}

void PipelineTimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    setViewWindow(0, 0);
    event->accept();
}

void PipelineTimelineView::timeChanged()
{
    // Playback pages a zoomed window along so the playhead stays in view.
    if (m_viewSpan > 0 && (time() < m_layout.rows.t0 || time() > m_layout.rows.t1))
        setViewWindow(time() - 0.1 * m_viewSpan, m_viewSpan);
}

void PipelineTimelineView::renderCache()
{
    m_chrome = blankPixmap();
    m_content = blankPixmap();
    m_outline = blankPixmap();
    {
        QPainter painter(&m_chrome);
        renderChrome(painter);
    }
    {
        QPainter painter(&m_content);
        renderContent(painter, false);
    }
    {
        QPainter painter(&m_outline);
        renderContent(painter, true);
    }
    m_cacheValid = true;
}

void PipelineTimelineView::renderChrome(QPainter &p) const
{
    const QPalette &pal = palette();
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    const QColor muted = pal.color(QPalette::PlaceholderText);
    const PipelineTimelineLayout &l = m_layout;
    const TimelineMapping &m = l.rows;
    const QFontMetricsF metrics(scaledFont());
    const double line = metrics.height();
    p.setRenderHint(QPainter::Antialiasing, false);

    // Header: title, the bubble measured on this drawing against the closed form, legend.
    QString title = tr("%1 stages × %2 micro-batches").arg(m_stages).arg(m_microBatches);
    if (!m_name.isEmpty())
        title = tr("%1: %2").arg(m_name, title);
    if (m_chunks > 1)
        title += tr(" × %1 chunks").arg(m_chunks);
    p.setPen(text);
    p.setFont(scaledFont(1, true));
    p.drawText(QRectF(l.header.left(), l.header.top(), l.header.width(), line), Qt::AlignLeft | Qt::AlignVCenter, title);
    p.setFont(scaledFont());
    // The closed form counts compute only; the drawing also shows waits for p2p transfers. The
    // short wording when the long one does not fit (presentation mode, narrow windows).
    QString bubble = tr("Bubble: measured %1 of the time (from the drawing, p2p waits included) vs closed form %2 "
                        "(compute only)")
                         .arg(fmt::percent(m_sim.bubbleFraction), fmt::percent(m_closedForm));
    if (QFontMetricsF(p.font()).horizontalAdvance(bubble) > l.header.width())
        bubble = tr("Bubble %1 drawn (with p2p waits), %2 closed form").arg(fmt::percent(m_sim.bubbleFraction), fmt::percent(m_closedForm));
    p.drawText(QRectF(l.header.left(), l.header.top() + line, l.header.width(), line), Qt::AlignLeft | Qt::AlignVCenter, bubble);
    struct Entry
    {
        QString label;
        QBrush brush;
    };
    std::vector<Entry> legend{{tr("Forward"), opColor(PipelineOp::Forward)}, {tr("Backward"), opColor(PipelineOp::Backward)}};
    if (m_hasW)
        legend.push_back({tr("Weight gradient (W)"), opColor(PipelineOp::WeightGrad)});
    legend.push_back({tr("Idle (bubble)"), QBrush(theme::color(theme::Part::PpBubble), Qt::BDiagPattern)});
    if (m_drawArrows) {
        legend.push_back({tr("→ activation transfer (p2p)"), Qt::NoBrush});
        legend.push_back({tr("→ gradient transfer"), Qt::NoBrush});
    }
    double x = l.header.left();
    const double y = l.header.top() + 2 * line, swatch = 0.8 * line;
    for (const Entry &e : legend) {
        if (e.brush.style() != Qt::NoBrush) {
            p.setPen(QPen(muted, 1));
            p.setBrush(e.brush);
            p.drawRect(QRectF(x, y + (line - swatch) / 2, swatch, swatch));
            x += swatch + 0.3 * line;
        }
        // Arrow entries in their arrows' colours: activations p2p blue, gradients backward green.
        p.setPen(e.brush.style() != Qt::NoBrush ? text : e.label.contains(tr("gradient")) ? theme::backwardColor()
                                                                                        : theme::color(theme::Part::PpP2p));
        const double w = metrics.horizontalAdvance(e.label);
        p.drawText(QRectF(x, y, w + 2, line), Qt::AlignLeft | Qt::AlignVCenter, e.label);
        x += w + line;
    }

    // Rows: alternate shading, stage labels (thinned out when rows are shorter than the text).
    const double rowHeight = m.rowHeight();
    const int every = rowHeight > 0 ? std::max(1, int(std::ceil(0.9 * line / rowHeight))) : 1;
    for (int s = 0; s < m.stages; ++s) {
        const QRectF band = m.stageRow(s);
        if (s % 2 == 1)
            p.fillRect(band, theme::mix(base, text, 0.035));
        if (s % every == 0 || s == m.stages - 1) {
            p.setPen(text);
            p.drawText(QRectF(l.header.left(), band.center().y() - line / 2, l.labelWidth, line),
                       Qt::AlignRight | Qt::AlignVCenter, tr("Stage %1").arg(s + 1));
        }
    }

    // Time axis: grid through rows and strip, labels below, unit at the end.
    drawTimeGrid(p, m, m.plot.top(), l.strip.bottom());
    drawTimeAxis(p, m, l.axis, l.axis.translated(0, 0.1 * line));
    p.setPen(muted);
    p.drawLine(QPointF(m.plot.left(), l.strip.bottom()), QPointF(m.plot.right(), l.strip.bottom()));

    // Strip: title line, then the plot with its scale.
    p.setPen(text);
    p.drawText(QRectF(l.strip.left(), l.strip.top(), l.strip.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
               m_chunks > 1
                   // Interleaved: each count is one chunk's activations (1/v of the stage's layers), so
                   // the peak can exceed m; in whole micro-batches it is peak / v.
                   ? tr("Stage 1: activations in flight (chunks of 1/%1 of the stage), peak %2 = %3 micro-batches' worth")
                         .arg(m_chunks)
                         .arg(m_peakInFlight)
                         .arg(QLocale().toString(double(m_peakInFlight) / m_chunks, 'f', 1))
                   : tr("Stage 1: activations in flight (micro-batches), peak %1").arg(m_peakInFlight));
    p.setPen(muted);
    p.drawText(QRectF(l.header.left(), l.strip.top() + line, l.labelWidth, line), Qt::AlignRight | Qt::AlignTop,
               QString::number(m_peakInFlight));
    p.drawText(QRectF(l.header.left(), l.strip.bottom() - line, l.labelWidth, line), Qt::AlignRight | Qt::AlignBottom,
               QStringLiteral("0"));
}

void PipelineTimelineView::renderContent(QPainter &p, bool outlined) const
{
    const QPalette &pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const TimelineMapping &m = m_layout.rows;
    const double line = QFontMetricsF(scaledFont()).height();
    p.setRenderHint(QPainter::Antialiasing, false);
    // Zoomed in: what lies outside the window stays out of the plot.
    p.setClipRect(QRectF(m.plot.left(), 0, m.plot.width() + 1, height()));

    // Idle time hatched in each row.
    const QBrush hatch(theme::color(theme::Part::PpBubble), Qt::BDiagPattern);
    p.setPen(Qt::NoPen);
    for (int s = 0; s < int(m_idle.size()); ++s)
        for (const auto &[start, end] : m_idle[size_t(s)])
            p.fillRect(m.spanRect(s, start, end), hatch);

    // Blocks, with their micro-batch where the label fits.
    const QFont labelFont = scaledFont(0.8);
    const QFontMetricsF labelMetrics(labelFont);
    p.setFont(labelFont);
    for (const PipelineEvent &e : m_sim.events) {
        const QRectF r = m.blockRect(e);
        const QColor fill = opColor(e.op);
        if (outlined) {   // not played yet: the block's outline in its colour, readable numbers
            p.setPen(r.width() > 3 ? QPen(fill, 1.5 * scale()) : QPen(fill, 1));
            p.setBrush(base);
            p.drawRect(r.adjusted(0.75, 0.75, -0.75, -0.75));
        } else {
            p.setPen(r.width() > 3 ? QPen(base, 1) : QPen(Qt::NoPen));   // separates back-to-back blocks
            p.setBrush(fill);
            p.drawRect(r);
        }
        const QString label = blockLabel(e, m_chunks > 1);
        if (r.width() >= labelMetrics.horizontalAdvance(label) + 4 && r.height() >= 0.9 * labelMetrics.height()) {
            p.setPen(outlined ? palette().color(QPalette::Text) : theme::textOn(fill));
            p.drawText(r, Qt::AlignCenter, label);
        }
    }

    // Forward activation transfers: each takes the p2p time (the shortest hand-off gap, as every
    // transfer is the same size); a longer gap is the receiver being busy, drawn as idle or work.
    if (m_drawArrows) {
        p.setRenderHint(QPainter::Antialiasing, true);
        QColor arrow = theme::color(theme::Part::PpP2p);
        arrow.setAlphaF(0.8f);
        const double head = 5 * scale();
        double transferSeconds = std::numeric_limits<double>::infinity();
        for (const Handoff &h : m_handoffs)
            transferSeconds = std::min(transferSeconds, h.gapSeconds);
        // Activations go down a stage (from the bottom of the sender), gradients up (from its top).
        QColor gradient = theme::backwardColor();
        gradient.setAlphaF(0.8f);
        for (const auto &[list, colour, down] : {std::tuple{&m_handoffs, arrow, true}, std::tuple{&m_gradientHandoffs, gradient, false}})
            for (const Handoff &h : *list) {
                const QRectF a = m.blockRect(m_sim.events[h.from]), b = m.blockRect(m_sim.events[h.to]);
                const double sent = m_sim.events[h.from].endSeconds;
                const QPointF from(a.right(), down ? a.bottom() : a.top());
                const QPointF to(m.secondsToX(sent + transferSeconds), down ? b.top() : b.bottom());
                p.setPen(QPen(colour, 1.2 * scale(), down ? Qt::SolidLine : Qt::DashLine));
                p.drawLine(from, to);
                p.setPen(Qt::NoPen);
                p.setBrush(colour);
                p.drawPolygon(arrowHead(to, to - from, head));
            }
    }

    // Stage 1's activations in flight as a step plot (fill and outline).
    if (!m_inFlight.empty() && m_peakInFlight > 0) {
        const QRectF plot = m_layout.strip.adjusted(0, line, 0, 0);
        const auto yOf = [&plot, this](int count) { return plot.bottom() - double(count) / m_peakInFlight * plot.height(); };
        QPainterPath path(QPointF(m.secondsToX(m_inFlight.front().seconds), yOf(0)));
        for (size_t i = 0; i < m_inFlight.size(); ++i) {
            const double x0 = m.secondsToX(m_inFlight[i].seconds);
            const double x1 = m.secondsToX(i + 1 < m_inFlight.size() ? m_inFlight[i + 1].seconds : m.t1);
            path.lineTo(x0, yOf(m_inFlight[i].microBatches));
            path.lineTo(x1, yOf(m_inFlight[i].microBatches));
        }
        path.lineTo(m.secondsToX(m.t1), yOf(0));
        QColor fill = theme::color(theme::Part::Activations);
        fill.setAlphaF(0.35f);
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(QPen(theme::color(theme::Part::Activations), 1.5 * scale()));
        p.setBrush(fill);
        p.drawPath(path);
    }
}

void PipelineTimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    if (!hasData()) {
        drawMessage(p, !m_sim.error.empty() ? tr("No pipeline schedule: %1").arg(translated(m_sim.error))
                                            : tr("No pipeline schedule to show"));
        return;
    }
    if (!m_cacheValid || outdated(m_chrome))
        renderCache();
    const TimelineMapping &m = m_layout.rows;
    p.drawPixmap(0, 0, m_chrome);
    // Played part filled, the rest outlined with readable numbers: playback fills the schedule in.
    const double x = m.secondsToX(time());
    if (time() < m.t1) {
        p.drawPixmap(0, 0, m_outline);
        p.setClipRect(QRectF(0, 0, x, height()));
    }
    p.drawPixmap(0, 0, m_content);
    p.setClipping(false);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(theme::currentPointColor(), 2 * scale()));
    p.drawLine(QPointF(x, m.plot.top()), QPointF(x, m_layout.strip.bottom()));
}

void PipelineTimelineView::mouseMoveEvent(QMouseEvent *event)
{
    QWidget::mouseMoveEvent(event);
    const PipelineEvent *e = hasData() ? eventAt(m_layout.rows, m_sim.events, event->position()) : nullptr;
    if (!e) {
        QToolTip::hideText();
        return;
    }
    QString text = tr("Stage %1, micro-batch %2").arg(e->stage + 1).arg(e->microBatch + 1);
    if (m_chunks > 1)
        text += tr(", chunk %1").arg(e->chunk + 1);
    text += QLatin1Char('\n') + opName(e->op) + QLatin1Char('\n')
            + tr("Start %1, end %2").arg(fmt::seconds(e->startSeconds), fmt::seconds(e->endSeconds)) + QLatin1Char('\n')
            + tr("Duration %1").arg(fmt::seconds(e->endSeconds - e->startSeconds));
    QToolTip::showText(event->globalPosition().toPoint(), text, this, m_layout.rows.blockRect(*e).toAlignedRect());
}

void PipelineTimelineView::leaveEvent(QEvent *event)
{
    QWidget::leaveEvent(event);
    QToolTip::hideText();
}

} // namespace ts
