// SPDX-License-Identifier: MIT
// Base of the teaching tabs: a playback clock, its controls, the presentation scale, and "rebuild
// only when shown". A tab asks its source (the document, wired by the main window) for what to
// draw; it never calls the model itself.
#pragma once

#include <QWidget>

class QLabel;

namespace ts {

class AnimatedView;
class AnimationClock;
class AnimationControls;

class AnimationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AnimationPanel(QWidget *parent = nullptr);
    /// The scenario changed: rebuild now if visible, else when shown.
    void invalidate();
    /// Larger type and strokes in the view and its controls (presentation mode); while presenting
    /// (scale above 1) the pickers hide and only the drawing and playback remain.
    void setPresentationScale(double scale);
    AnimationClock *clock() const { return m_clock; }
    /// The drawing alone (for slides).
    QWidget *drawing() const;
    AnimationControls *controls() const { return m_controls; }

protected:
    void showEvent(QShowEvent *event) override;
    /// Rebuild now (a picker of the tab changed).
    void rebuildNow();
    virtual void rebuild() = 0;
    /// A grey, word-wrapped note under the view.
    static QLabel *noteLabel(QWidget *parent);
    /// The panel's animated view (for the presentation scale).
    void setAnimatedView(AnimatedView *view) { m_animatedView = view; }
    /// The row of pickers above the view (hidden while presenting).
    void setPickers(QWidget *pickers) { m_pickers = pickers; }
    AnimationClock *m_clock;
    AnimationControls *m_controls;

private:
    AnimatedView *m_animatedView = nullptr;
    QWidget *m_pickers = nullptr;
    bool m_dirty = true;
};

} // namespace ts
