// SPDX-License-Identifier: MIT
#include "planmapview.h"

#include "formatting.h"
#include "theme.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace ts {

namespace {
constexpr double kMaxLabels = 16;   // axis labels drawn at most; the rest in tooltips
}

PlanMapView::PlanMapView(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setCursor(Qt::PointingHandCursor);
}

QString PlanMapView::axisText(Field field, double value)
{
    switch (field) {
    case Field::Recompute: return QLatin1String(nameOf(Recompute(int(value))));
    case Field::Zero: return QString::number(int(value));
    case Field::Gpus: return fmt::count(value);
    case Field::GlobalBatch: return fmt::count(value);
    default: return QString::number(value, 'g', 6);
    }
}

QString PlanMapView::metricText(PlanMapMetric metric, double value)
{
    switch (metric) {
    case PlanMapMetric::TimeToTrain: return fmt::duration(value);
    case PlanMapMetric::Mfu: return fmt::percent(value);
    case PlanMapMetric::StepTime: return fmt::seconds(value);
    case PlanMapMetric::MemoryPerGpu: return fmt::memory(value);
    }
    return {};
}

void PlanMapView::setMap(const PlanMap &map, const QString &xTitle, const QString &yTitle, const QString &metricTitle)
{
    m_map = map;
    m_xTitle = xTitle;
    m_yTitle = yTitle;
    m_metricTitle = metricTitle;
    relayout();
    update();
}

void PlanMapView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void PlanMapView::relayout()
{
    const QFontMetricsF fm(font());
    const double line = fm.height();
    // Left: y title and labels; bottom: x labels and title; right: the legend bar.
    double labelWidth = 0;
    for (double y : m_map.ys)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(axisText(m_map.request.y, y)));
    const double left = line * 1.6 + labelWidth + 6, bottom = line * 2.6, right = line * 5.5, top = line * 0.6;
    m_mapping.plot = QRectF(left, top, std::max(10.0, width() - left - right), std::max(10.0, height() - top - bottom));
    m_mapping.columns = int(m_map.xs.size());
    m_mapping.rows = int(m_map.ys.size());
    m_legend = QRectF(m_mapping.plot.right() + line * 0.8, m_mapping.plot.top(), line * 0.9, m_mapping.plot.height());
}

void PlanMapView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    if (m_map.xs.empty() || m_map.ys.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No plans to map for these axes."));
        return;
    }
    const QFontMetricsF fm(font());
    const PlanMapMapping &m = m_mapping;
    const QColor grid = pal.color(QPalette::Window);
    for (int iy = 0; iy < m.rows; ++iy)
        for (int ix = 0; ix < m.columns; ++ix) {
            const PlanMapCell &c = m_map.at(ix, iy);
            const QRectF r = m.cell(ix, iy);
            if (!c.feasible) {   // cannot run: blank with a cross
                p.fillRect(r, pal.color(QPalette::AlternateBase));
                p.setPen(QPen(pal.color(QPalette::PlaceholderText), 1));
                const QRectF in = r.adjusted(r.width() * 0.3, r.height() * 0.3, -r.width() * 0.3, -r.height() * 0.3);
                p.drawLine(in.topLeft(), in.bottomRight());
                p.drawLine(in.topRight(), in.bottomLeft());
                continue;
            }
            const QColor color = sequentialColor(planMapGoodness(c.value, m_map.minValue, m_map.maxValue, m_map.lowerIsBetter));
            if (c.fits || m_map.request.metric == PlanMapMetric::MemoryPerGpu) {
                p.fillRect(r, color);
            }
            if (!c.fits) {   // runs but does not fit in HBM: hatched
                p.fillRect(r, QBrush(theme::errorColor(), Qt::BDiagPattern));
            }
        }
    // Cell borders when cells are large enough to show them.
    if (m.cellWidth() >= 6 && m.cellHeight() >= 6) {
        p.setPen(QPen(grid, 1));
        for (int ix = 0; ix <= m.columns; ++ix)
            p.drawLine(QPointF(m.plot.left() + ix * m.cellWidth(), m.plot.top()), QPointF(m.plot.left() + ix * m.cellWidth(), m.plot.bottom()));
        for (int iy = 0; iy <= m.rows; ++iy)
            p.drawLine(QPointF(m.plot.left(), m.plot.top() + iy * m.cellHeight()), QPointF(m.plot.right(), m.plot.top() + iy * m.cellHeight()));
    }
    // The current plan: an outline in the text colour.
    if (m_map.currentX >= 0 && m_map.currentY >= 0) {
        const QRectF r = m.cell(m_map.currentX, m_map.currentY).adjusted(1.5, 1.5, -1.5, -1.5);
        p.setPen(QPen(pal.color(QPalette::Text), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
    }
    // Axis labels (thinned when crowded) and titles.
    p.setPen(pal.color(QPalette::WindowText));
    const int xStep = std::max(1, int(std::ceil(m.columns / kMaxLabels)));
    for (int ix = 0; ix < m.columns; ix += xStep) {
        const QRectF r = m.cell(ix, 0);
        p.drawText(QRectF(r.left() - 40, m.plot.bottom() + 2, r.width() + 80, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                   axisText(m_map.request.x, m_map.xs[size_t(ix)]));
    }
    const int yStep = std::max(1, int(std::ceil(m.rows / kMaxLabels)));
    for (int iy = 0; iy < m.rows; iy += yStep) {
        const QRectF r = m.cell(0, iy);
        p.drawText(QRectF(0, r.center().y() - fm.height() / 2, m.plot.left() - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   axisText(m_map.request.y, m_map.ys[size_t(iy)]));
    }
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(m.plot.left(), m.plot.bottom() + fm.height() * 1.3, m.plot.width(), fm.height() * 1.2), Qt::AlignHCenter, m_xTitle);
    p.save();
    p.translate(fm.height() * 0.2, m.plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-m.plot.height() / 2, 0, m.plot.height(), fm.height() * 1.2), Qt::AlignHCenter, m_yTitle);
    p.restore();
    p.setFont(font());
    // Legend: the ramp, best at the top, with its two ends.
    for (int i = 0; i < int(m_legend.height()); ++i) {
        const double goodness = 1.0 - i / std::max(1.0, m_legend.height() - 1);
        p.fillRect(QRectF(m_legend.left(), m_legend.top() + i, m_legend.width(), 1), sequentialColor(goodness));
    }
    const double best = m_map.lowerIsBetter ? m_map.minValue : m_map.maxValue;
    const double worst = m_map.lowerIsBetter ? m_map.maxValue : m_map.minValue;
    const QRectF labels(m_legend.right() + 4, m_legend.top(), width() - m_legend.right() - 4, m_legend.height());
    p.drawText(labels, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, tr("best\n%1").arg(metricText(m_map.request.metric, best)));
    p.drawText(labels, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, tr("worst\n%1").arg(metricText(m_map.request.metric, worst)));
}

QString PlanMapView::cellTooltip(int ix, int iy) const
{
    const PlanMapCell &c = m_map.at(ix, iy);
    QString text = QStringLiteral("<b>%1 %2, %3 %4</b>")
                       .arg(m_xTitle.toHtmlEscaped(), axisText(m_map.request.x, m_map.xs[size_t(ix)]),
                            m_yTitle.toHtmlEscaped(), axisText(m_map.request.y, m_map.ys[size_t(iy)]));
    if (ix == m_map.currentX && iy == m_map.currentY)
        text += tr(" (current plan)");
    if (!c.feasible)
        return text + QStringLiteral("<br>") + tr("Cannot run: %1").arg(QString::fromStdString(c.problem).toHtmlEscaped());
    text += QStringLiteral("<br>%1: %2").arg(m_metricTitle.toHtmlEscaped(), metricText(m_map.request.metric, c.value));
    if (!c.fits)
        text += QStringLiteral("<br>") + tr("Does not fit in HBM");
    return text + QStringLiteral("<br><i>") + tr("Click to apply this plan") + QStringLiteral("</i>");
}

void PlanMapView::mouseMoveEvent(QMouseEvent *event)
{
    int ix = 0, iy = 0;
    if (m_mapping.cellAt(event->position(), &ix, &iy))
        QToolTip::showText(event->globalPosition().toPoint(), cellTooltip(ix, iy), this);
    else
        QToolTip::hideText();
}

void PlanMapView::mousePressEvent(QMouseEvent *event)
{
    int ix = 0, iy = 0;
    if (event->button() == Qt::LeftButton && m_mapping.cellAt(event->position(), &ix, &iy) && m_map.at(ix, iy).feasible)
        emit cellActivated(ix, iy);
}

} // namespace ts
