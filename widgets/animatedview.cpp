// SPDX-License-Identifier: MIT
#include "animatedview.h"

#include "chartmath.h"
#include "theme.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ts {

namespace {

// About six digits' room per tick label.
int maxTimeTicks(const TimelineMapping &mapping, const QFontMetricsF &metrics)
{
    return std::max(2, int(mapping.plot.width() / (6 * metrics.horizontalAdvance(QLatin1Char('0')))));
}

} // namespace

AnimatedView::AnimatedView(QWidget *parent)
    : QWidget(parent)
{
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setFocusPolicy(Qt::ClickFocus);   // so the animation shortcuts reach the page on click
}

void AnimatedView::setPresentationScale(double scale)
{
    m_scale = std::isfinite(scale) ? std::clamp(scale, 0.5, 4.0) : 1.0;
    relayout();
    updateGeometry();
    update();
}

void AnimatedView::relayout()
{
    m_layoutSize = size();
    layoutView();
}

void AnimatedView::setTime(double modelSeconds)
{
    const double t = std::isfinite(modelSeconds) ? std::clamp(modelSeconds, 0.0, std::max(0.0, duration())) : 0.0;
    if (t == m_time)
        return;
    m_time = t;
    timeChanged();
    update();
}

void AnimatedView::clampTime() { m_time = std::clamp(m_time, 0.0, std::max(0.0, duration())); }

QFont AnimatedView::scaledFont(double factor, bool bold) const
{
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * m_scale * factor);
    else
        f.setPixelSize(std::max(1, int(std::lround(f.pixelSize() * m_scale * factor))));
    f.setBold(bold);
    return f;
}

QString AnimatedView::translated(const std::string &text)
{
    return QCoreApplication::translate("Schedules", text.c_str());
}

void AnimatedView::drawMessage(QPainter &p, const QString &message) const
{
    p.setFont(scaledFont());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, message);
}

QPixmap AnimatedView::blankPixmap() const
{
    const qreal dpr = devicePixelRatioF();
    QPixmap pixmap((QSizeF(size()) * dpr).toSize());
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    return pixmap;
}

bool AnimatedView::outdated(const QPixmap &cache) const
{
    return cache.deviceIndependentSize() != QSizeF(size()) || cache.devicePixelRatio() != devicePixelRatioF();
}

void AnimatedView::drawTimeGrid(QPainter &p, const TimelineMapping &m, double top, double bottom) const
{
    const QPalette &pal = palette();
    p.setPen(QPen(theme::mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.12), 1));
    for (const double t : timeTicks(m.t0, m.t1, maxTimeTicks(m, QFontMetricsF(scaledFont())))) {
        const double x = m.secondsToX(t);
        p.drawLine(QPointF(x, top), QPointF(x, bottom));
    }
}

void AnimatedView::drawTimeAxis(QPainter &p, const TimelineMapping &m, const QRectF &axis, const QRectF &unitArea) const
{
    const QFontMetricsF metrics(scaledFont());
    const double line = metrics.height();
    const chartmath::TimeUnit unit = chartmath::chooseTimeUnit(m.t1);
    p.setFont(scaledFont());
    p.setPen(palette().color(QPalette::Text));
    for (const double t : timeTicks(m.t0, m.t1, maxTimeTicks(m, metrics))) {
        const double x = m.secondsToX(t);
        const QString label = QString::number(t * unit.scale, 'g', 4);
        const double w = metrics.horizontalAdvance(label);
        p.drawText(QRectF(x - w / 2 - 1, axis.top() + 0.1 * line, w + 2, line), Qt::AlignCenter, label);
    }
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(unitArea, Qt::AlignRight | Qt::AlignBottom, tr("time [%1]").arg(unit.symbol));
}

void AnimatedView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (size() != m_layoutSize)   // grab() of a hidden widget resends the same size
        relayout();
}

void AnimatedView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        relayout();
        update();
    }
}

} // namespace ts
