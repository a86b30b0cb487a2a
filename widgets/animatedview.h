// SPDX-License-Identifier: MIT
// What the animated views (ring, pipeline and step timelines) share: a presentation scale for
// fonts and sizes, a layout kept in step with size, font and palette, and common painting.
#pragma once

#include "timelinemapping.h"

#include <QFont>
#include <QPixmap>
#include <QSize>
#include <QWidget>

#include <string>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace ts {

class AnimatedView : public QWidget
{
    Q_OBJECT
public:
    /// Scales fonts, lines and sizes, e.g. for a projector (clamped to 0.5 .. 4).
    void setPresentationScale(double scale);
    /// Moves the playhead to `modelSeconds`, clamped to [0, duration()] (0 for NaN), and repaints.
    void setTime(double modelSeconds);
    double time() const { return m_time; }
    /// Length of what is drawn, in model seconds.
    virtual double duration() const = 0;

protected:
    explicit AnimatedView(QWidget *parent);

    double scale() const { return m_scale; }
    /// Remembers the size and calls layoutView().
    void relayout();
    /// Recomputes the geometry for the current size, font and scale. Empty here because the
    /// palette change of setBackgroundRole() calls it while only this base exists.
    virtual void layoutView() {}
    /// The playhead moved (state that follows the time, e.g. the ring's chunks).
    virtual void timeChanged() {}
    /// Keeps the playhead inside a new duration.
    void clampTime();
    QFont scaledFont(double factor = 1, bool bold = false) const;
    /// Model strings (phase names, errors) go through the translator under one context.
    static QString translated(const std::string &text);

    /// A centred note in place of a drawing with nothing to show.
    void drawMessage(QPainter &painter, const QString &message) const;
    /// A transparent pixmap the size of the view at its pixel ratio, for static renderings.
    QPixmap blankPixmap() const;
    /// Whether `cache` no longer fits the view's size or pixel ratio.
    bool outdated(const QPixmap &cache) const;
    /// Grid lines at the time ticks of `mapping`, from `top` to `bottom`.
    void drawTimeGrid(QPainter &painter, const TimelineMapping &mapping, double top, double bottom) const;
    /// Tick labels of `mapping` along the top of `axis`, and "time [unit]" at the bottom right of
    /// `unitArea`. Leaves the pen muted.
    void drawTimeAxis(QPainter &painter, const TimelineMapping &mapping, const QRectF &axis,
                      const QRectF &unitArea) const;

    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    double m_scale = 1;
    double m_time = 0;
    QSize m_layoutSize;   // size the layout was made for
};

} // namespace ts
