// SPDX-License-Identifier: MIT
// Transport bar for an AnimationClock: play/pause, step, loop, speed, a seek slider and the time.
#pragma once

#include <QPointer>
#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QLabel;
class QShortcut;
class QSlider;
class QToolButton;

namespace ts {

class AnimationClock;

class AnimationControls : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kSliderSteps = 1000;

    explicit AnimationControls(QWidget *parent = nullptr);

    void setClock(AnimationClock *clock);
    AnimationClock *clock() const;
    /// Times the step buttons jump between (ring step starts, pipeline event starts, ...).
    void setStepBoundaries(std::function<std::vector<double>()> boundaries);
    /// Widget whose focus (itself or a child) enables the Space, Left, Right and L shortcuts:
    /// usually the page holding the view and these controls. Default: the controls themselves.
    /// Widget-local, so several views in one window never make the shortcuts ambiguous.
    void setShortcutScope(QWidget *scope);
    void setPresentationScale(double scale);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

private:
    void updatePlaying(bool playing);
    void updateTime();
    void updateSpeed(double speed);
    void stepForward();
    void stepBack();
    void seekToSlider(int value);
    void createShortcuts(QWidget *scope);

    QPointer<AnimationClock> m_clock;
    std::function<std::vector<double>()> m_boundaries;
    QToolButton *m_play;
    QToolButton *m_back;
    QToolButton *m_forward;
    QToolButton *m_loop;
    QComboBox *m_speed;
    QSlider *m_slider;
    QLabel *m_time;
    std::vector<QShortcut *> m_shortcuts;
    QList<QMetaObject::Connection> m_clockConnections;
    QFont m_baseFont;
    double m_scale = 1;
};

} // namespace ts
