// SPDX-License-Identifier: MIT
#include "steptimelineview.h"

#include "animationclock.h"
#include "formatting.h"
#include "theme.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ts {

namespace {

constexpr double kTitleLines = 1.3;
constexpr double kBandLines = 1.4;      // one lane of phases
constexpr double kLaneLines = 1.2;      // each further lane
constexpr double kAxisLines = 1.6;
constexpr double kMaxRowLines = 4.0;   // rows grow with the window, up to a point: blocks stay bars, not walls
constexpr int kMessageRows = 2;   // room for the message of a timeline with an error

QColor streamColor(Stream stream)
{
    switch (stream) {
    case Stream::Compute: return theme::color(theme::Part::Compute);
    case Stream::TpComm: return theme::color(theme::Part::TpComm);
    case Stream::PpP2p: return theme::color(theme::Part::PpP2p);
    case Stream::DpComm: return theme::color(theme::Part::DpComm);
    case Stream::Optimizer: return theme::color(theme::Part::Optimizer);
    }
    return theme::color(theme::Part::Compute);
}

} // namespace

std::vector<Stream> visibleStreams(const StepTimeline &timeline)
{
    std::vector<Stream> out;
    for (const Stream s : kStreamOrder) {
        if (std::any_of(timeline.intervals.cbegin(), timeline.intervals.cend(),
                        [s](const StreamInterval &i) { return i.stream == s; }))
            out.push_back(s);
    }
    return out;
}

std::vector<int> phaseLanes(const std::vector<LifecyclePhase> &phases, const std::vector<double> &labelSeconds)
{
    std::vector<int> lanes(phases.size(), 0);
    std::vector<double> laneEnd;   // end of the last span placed in each lane
    for (size_t i = 0; i < phases.size(); ++i) {
        const LifecyclePhase &p = phases[i];
        if (p.endSeconds <= p.startSeconds)
            continue;
        // A label wider than its span reaches back from the span's end (drawn right-aligned there).
        const double start = std::min(p.startSeconds, i < labelSeconds.size() ? p.endSeconds - labelSeconds[i] : p.startSeconds);
        const double tolerance = 1e-12 * std::max(1.0, std::abs(start));
        size_t lane = 0;
        while (lane < laneEnd.size() && laneEnd[lane] > start + tolerance)
            ++lane;
        if (lane == laneEnd.size())
            laneEnd.push_back(p.endSeconds);
        else
            laneEnd[lane] = p.endSeconds;
        lanes[i] = int(lane);
    }
    return lanes;
}

StepTimelineLayout layoutStepTimelines(QRectF area, const StepTimeline &on, const StepTimeline &off, double line,
                                       double labelWidth, const std::function<double(const std::string &)> &textWidth)
{
    StepTimelineLayout l;
    l.labelWidth = labelWidth;
    const double gap = 0.5 * line;
    const double t1 = std::max(on.stepSeconds, off.stepSeconds);
    const std::array<const StepTimeline *, 2> timelines{&on, &off};
    std::array<int, 2> rows{};
    std::array<double, 2> bandHeight{};
    for (size_t i = 0; i < 2; ++i) {
        const bool ok = timelines[i]->error.empty();
        l.panels[i].streams = ok ? visibleStreams(*timelines[i]) : std::vector<Stream>{};
        rows[i] = ok ? int(l.panels[i].streams.size()) : kMessageRows;
        // Seconds a label takes on the plot (its width in pixels over the plot's pixels per second).
        std::vector<double> labelSeconds;
        const double plotWidth = area.width() - labelWidth - 3 * gap;
        if (textWidth && t1 > 0 && plotWidth > 0)
            for (const LifecyclePhase &ph : timelines[i]->phases)
                labelSeconds.push_back((textWidth(ph.name) + 0.5 * line) * t1 / plotWidth);
        l.panels[i].lanes = phaseLanes(timelines[i]->phases, labelSeconds);
        const std::vector<int> &lanes = l.panels[i].lanes;
        l.panels[i].phaseLanes = ok && !lanes.empty() ? *std::max_element(lanes.cbegin(), lanes.cend()) + 1 : 1;
        bandHeight[i] = (kBandLines + kLaneLines * (l.panels[i].phaseLanes - 1)) * line;
    }
    const double fixed = 2 * kTitleLines * line + bandHeight[0] + bandHeight[1] + 2 * gap;
    const double available = area.height() - kAxisLines * line - fixed - 2 * gap;
    const double rowHeight = std::clamp(available / std::max(1, rows[0] + rows[1]), 0.0, kMaxRowLines * line);
    const QMarginsF margins(labelWidth + gap, 0, 2 * gap, 0);
    double y = area.top();
    for (size_t i = 0; i < 2; ++i) {
        StepPanelLayout &p = l.panels[i];
        p.title = QRectF(area.left(), y, area.width(), kTitleLines * line);
        const QRectF rowsArea(area.left(), p.title.bottom() + bandHeight[i] + gap, area.width(), rows[i] * rowHeight);
        p.rows = makeTimelineMapping(rowsArea, int(p.streams.size()), t1, margins);
        p.phaseBand = QRectF(p.rows.plot.left(), p.title.bottom(), p.rows.plot.width(), bandHeight[i]);
        p.frame = QRectF(area.left(), y, area.width(), rowsArea.bottom() - y);
        y = rowsArea.bottom() + 2 * gap;
    }
    const TimelineMapping &last = l.panels[1].rows;
    l.axis = QRectF(last.plot.left(), last.plot.bottom(), last.plot.width(), kAxisLines * line);
    return l;
}

int intervalAt(const StepPanelLayout &panel, const StepTimeline &timeline, QPointF point)
{
    const int row = panel.rows.rowAt(point.y());
    if (row < 0 || size_t(row) >= panel.streams.size())
        return -1;
    const Stream stream = panel.streams[size_t(row)];
    for (size_t i = 0; i < timeline.intervals.size(); ++i) {
        const StreamInterval &s = timeline.intervals[i];
        if (s.stream == stream && panel.rows.spanRect(row, s.startSeconds, s.endSeconds).contains(point))
            return int(i);
    }
    return -1;
}

std::vector<double> timelineBoundaries(const StepTimeline &on, const StepTimeline &off)
{
    std::vector<double> times;
    for (const StepTimeline *t : {&on, &off}) {
        for (const LifecyclePhase &p : t->phases) {
            times.push_back(p.startSeconds);
            times.push_back(p.endSeconds);
        }
        times.push_back(t->stepSeconds);
    }
    return uniqueTimes(std::move(times));
}

StepTimelineView::StepTimelineView(QWidget *parent)
    : AnimatedView(parent)
{
    setMouseTracking(true);   // tool tips on the intervals
    relayout();               // layout getters valid before the first resize
}

QString StepTimelineView::streamLabel(Stream stream)
{
    switch (stream) {
    case Stream::Compute: return tr("Compute");
    case Stream::TpComm: return tr("TP comm");
    case Stream::PpP2p: return tr("Pipeline p2p");
    case Stream::DpComm: return tr("DP buckets");
    case Stream::Optimizer: return tr("Optimizer");
    }
    return {};
}

void StepTimelineView::setTimelines(const StepTimeline &overlapOn, const StepTimeline &overlapOff)
{
    m_timelines = {overlapOn, overlapOff};
    m_boundaries = timelineBoundaries(overlapOn, overlapOff);
    clampTime();
    relayout();
    updateGeometry();
    update();
}

double StepTimelineView::duration() const
{
    const double d = std::max(m_timelines[0].stepSeconds, m_timelines[1].stepSeconds);
    return std::isfinite(d) ? std::max(0.0, d) : 0.0;
}

bool StepTimelineView::hasData() const
{
    return std::any_of(m_timelines.cbegin(), m_timelines.cend(),
                       [](const StepTimeline &t) { return !t.error.empty() || !t.intervals.empty(); });
}

QSize StepTimelineView::minimumSizeHint() const { return (QSizeF(360, 260) * scale()).toSize(); }

QSize StepTimelineView::sizeHint() const
{
    const double line = QFontMetricsF(scaledFont()).height();
    const double rows = double(std::max<size_t>(2, visibleStreams(m_timelines[0]).size())
                               + std::max<size_t>(2, visibleStreams(m_timelines[1]).size()));
    return QSizeF(760 * scale(), (2 * (kTitleLines + kBandLines + 1.5) + kAxisLines + 1) * line + rows * 1.6 * line).toSize();
}

void StepTimelineView::layoutView()
{
    const QFontMetricsF metrics(scaledFont());
    double labelWidth = 0;
    for (const Stream s : kStreamOrder)
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(streamLabel(s)));
    for (const StepTimeline &t : m_timelines)   // zero-length phases are labelled in this column
        for (const LifecyclePhase &p : t.phases)
            if (p.endSeconds <= p.startSeconds)
                labelWidth = std::max(labelWidth, metrics.horizontalAdvance(translated(p.name)) + metrics.height());
    const double pad = 8 * scale();
    m_layout = layoutStepTimelines(QRectF(rect()).adjusted(pad, pad, -pad, -pad), m_timelines[0], m_timelines[1],
                                   metrics.height(), labelWidth,
                                   [&metrics](const std::string &name) { return metrics.horizontalAdvance(translated(name)); });
    m_cacheValid = false;
}

void StepTimelineView::renderCache()
{
    m_cache = blankPixmap();
    QPainter p(&m_cache);
    renderPanel(p, 0);
    renderPanel(p, 1);

    // Shared time axis under the second panel.
    p.setRenderHint(QPainter::Antialiasing, false);
    drawTimeAxis(p, m_layout.panels[1].rows, m_layout.axis, m_layout.axis);
    m_cacheValid = true;
}

void StepTimelineView::renderPanel(QPainter &p, int index) const
{
    const StepTimeline &t = m_timelines[size_t(index)];
    const StepPanelLayout &panel = m_layout.panels[size_t(index)];
    const TimelineMapping &m = panel.rows;
    const QPalette &pal = palette();
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    const QColor muted = pal.color(QPalette::PlaceholderText);
    const QFontMetricsF metrics(scaledFont());
    const double line = metrics.height();
    p.setRenderHint(QPainter::Antialiasing, false);

    // Title with this panel's step time; the second one also says how much longer it is.
    QString title = index == 0 ? tr("Gradient sync overlapped with backward") : tr("Gradient sync after backward");
    if (t.error.empty()) {
        title = tr("%1: step %2").arg(title, fmt::seconds(t.stepSeconds));
        const StepTimeline &other = m_timelines[0];
        if (index == 1 && other.error.empty() && other.stepSeconds > 0) {
            const double diff = t.stepSeconds - other.stepSeconds;
            title += QLatin1Char(' ') + tr("(%1%2 vs overlapped)").arg(diff >= 0 ? QStringLiteral("+") : QString(), fmt::seconds(diff));
        }
    }
    p.setFont(scaledFont(1, true));
    p.setPen(text);
    p.drawText(panel.title, Qt::AlignLeft | Qt::AlignVCenter, title);
    p.setFont(scaledFont());
    if (!t.error.empty()) {
        p.setPen(muted);
        p.drawText(m.plot, Qt::AlignCenter | Qt::TextWordWrap, tr("No timeline: %1").arg(translated(t.error)));
        return;
    }

    // Grid lines at the ticks, through the band and the rows.
    drawTimeGrid(p, m, panel.phaseBand.top(), m.plot.bottom());

    // Lifecycle phases: labelled spans, zero-length ones as markers labelled to their left.
    const QRectF band = panel.phaseBand.adjusted(0, 0.1 * line, 0, -0.15 * line);
    const std::vector<int> &lanes = panel.lanes;
    const double laneHeight = band.height() / std::max(1, panel.phaseLanes);
    int shade = 0;
    for (size_t k = 0; k < t.phases.size(); ++k) {
        const LifecyclePhase &ph = t.phases[k];
        const double x0 = m.secondsToX(ph.startSeconds), x1 = m.secondsToX(ph.endSeconds);
        const QString name = translated(ph.name);
        if (ph.endSeconds <= ph.startSeconds) {
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(Qt::NoPen);
            p.setBrush(text);
            const double s = 0.35 * line;
            p.drawPolygon(QPolygonF({QPointF(x0 - s, band.top()), QPointF(x0 + s, band.top()), QPointF(x0, band.top() + 1.4 * s)}));
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setPen(QPen(text, 1.5 * scale()));
            p.drawLine(QPointF(x0, band.top()), QPointF(x0, band.bottom()));
            const double w = metrics.horizontalAdvance(name);
            p.drawText(QRectF(x0 - s - w - 0.2 * line, band.top(), w + 2, band.height()), Qt::AlignRight | Qt::AlignVCenter, name);
            continue;
        }
        const QRectF span(x0, band.top() + lanes[k] * laneHeight, std::max(1.0, x1 - x0), laneHeight);
        p.setPen(QPen(theme::mix(base, text, 0.35), 1));
        p.setBrush(theme::mix(base, text, shade++ % 2 == 0 ? 0.07 : 0.14));
        p.drawRect(span);
        p.setPen(text);
        const double w = metrics.horizontalAdvance(name);
        if (w + 4 <= span.width())
            p.drawText(span, Qt::AlignCenter, name);
        else   // its lane keeps room before the span's end: the whole name, right-aligned there
            p.drawText(QRectF(span.right() - w - 4, span.top(), w + 2, span.height()), Qt::AlignRight | Qt::AlignVCenter, name);
    }

    // Stream rows: shading, labels, intervals labelled where they fit.
    const QFont labelFont = scaledFont(0.8);
    const QFontMetricsF labelMetrics(labelFont);
    for (int r = 0; r < m.stages; ++r) {
        const QRectF row = m.stageRow(r);
        if (r % 2 == 1)
            p.fillRect(row, theme::mix(base, text, 0.035));
        p.setPen(text);
        p.drawText(QRectF(panel.title.left(), row.top(), m_layout.labelWidth, row.height()), Qt::AlignRight | Qt::AlignVCenter,
                   streamLabel(panel.streams[size_t(r)]));
    }
    p.setFont(labelFont);
    for (const StreamInterval &s : t.intervals) {
        const auto it = std::find(panel.streams.cbegin(), panel.streams.cend(), s.stream);
        if (it == panel.streams.cend())
            continue;
        const QRectF r = m.spanRect(int(it - panel.streams.cbegin()), s.startSeconds, s.endSeconds);
        // Compute in the Pipeline tab's colours: forward, backward, weight gradient.
        const QColor fill = s.stream == Stream::Compute && !s.label.empty() ? theme::opColor(s.label[0]) : streamColor(s.stream);
        p.setPen(r.width() > 3 ? QPen(base, 1) : QPen(Qt::NoPen));   // separates back-to-back intervals
        p.setBrush(fill);
        p.drawRect(r);
        const QString label = QString::fromStdString(s.label);   // data ("F3", "bucket 12"), not UI text
        if (r.width() >= labelMetrics.horizontalAdvance(label) + 4 && r.height() >= 0.9 * labelMetrics.height()) {
            p.setPen(theme::textOn(fill));
            p.drawText(r, Qt::AlignCenter, label);
        }
    }
    p.setFont(scaledFont());

    // End of this step: a dashed line, so the two panels' lengths compare at a glance.
    const double xEnd = m.secondsToX(t.stepSeconds);
    p.setPen(QPen(text, 1.5 * scale(), Qt::DashLine));
    p.drawLine(QPointF(xEnd, panel.phaseBand.top()), QPointF(xEnd, m.plot.bottom()));
}

void StepTimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    if (!hasData()) {
        drawMessage(p, tr("No step timeline to show"));
        return;
    }
    if (!m_cacheValid || outdated(m_cache))
        renderCache();
    p.drawPixmap(0, 0, m_cache);
    // Playhead on the shared axis, through each panel that has a timeline.
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(theme::currentPointColor(), 2 * scale()));
    for (size_t i = 0; i < 2; ++i) {
        const StepPanelLayout &panel = m_layout.panels[i];
        if (!m_timelines[i].error.empty())
            continue;
        const double x = panel.rows.secondsToX(time());
        p.drawLine(QPointF(x, panel.phaseBand.top()), QPointF(x, panel.rows.plot.bottom()));
    }
}

void StepTimelineView::mouseMoveEvent(QMouseEvent *event)
{
    QWidget::mouseMoveEvent(event);
    for (size_t i = 0; i < 2; ++i) {
        const StepTimeline &t = m_timelines[i];
        const int hit = t.error.empty() ? intervalAt(m_layout.panels[i], t, event->position()) : -1;
        if (hit < 0)
            continue;
        const StreamInterval &s = t.intervals[size_t(hit)];
        const QString text = streamLabel(s.stream) + QStringLiteral(": ") + QString::fromStdString(s.label) + QLatin1Char('\n')
                             + tr("Start %1, end %2").arg(fmt::seconds(s.startSeconds), fmt::seconds(s.endSeconds))
                             + QLatin1Char('\n') + tr("Duration %1").arg(fmt::seconds(s.endSeconds - s.startSeconds));
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
        return;
    }
    QToolTip::hideText();
}

void StepTimelineView::leaveEvent(QEvent *event)
{
    QWidget::leaveEvent(event);
    QToolTip::hideText();
}

} // namespace ts
