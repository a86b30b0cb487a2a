// SPDX-License-Identifier: MIT
#include "animationcontrols.h"

#include "animationclock.h"
#include "formatting.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>
#include <array>
#include <cmath>

namespace ts {

namespace {
constexpr std::array kSpeeds{0.25, 0.5, 1.0, 2.0, 4.0, 8.0};
constexpr int kBaseIconPx = 16;
} // namespace

AnimationControls::AnimationControls(QWidget *parent)
    : QWidget(parent)
    , m_play(new QToolButton(this))
    , m_back(new QToolButton(this))
    , m_forward(new QToolButton(this))
    , m_loop(new QToolButton(this))
    , m_speed(new QComboBox(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_time(new QLabel(this))
    , m_baseFont(font())
{
    m_back->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
    m_back->setToolTip(tr("Step back to the previous step start (Left)"));
    m_back->setAccessibleName(tr("Step back"));
    m_forward->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    m_forward->setToolTip(tr("Step forward to the next step start (Right)"));
    m_forward->setAccessibleName(tr("Step forward"));
    m_loop->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    m_loop->setCheckable(true);
    m_loop->setToolTip(tr("Loop: start again at the end (L)"));
    m_loop->setAccessibleName(tr("Loop"));
    for (const double s : kSpeeds)
        m_speed->addItem(tr("%1×").arg(s), s);
    m_speed->setCurrentIndex(int(std::find(kSpeeds.begin(), kSpeeds.end(), 1.0) - kSpeeds.begin()));
    m_speed->setToolTip(tr("Playback speed (1× plays the whole schedule in a few seconds)"));
    m_speed->setAccessibleName(tr("Playback speed"));
    m_slider->setRange(0, kSliderSteps);
    m_slider->setToolTip(tr("Time in the schedule: drag to seek"));
    m_slider->setAccessibleName(tr("Time"));
    m_time->setToolTip(tr("Current time and length of the replayed schedule"));
    m_time->setTextInteractionFlags(Qt::TextSelectableByMouse);
    updatePlaying(false);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_back);
    layout->addWidget(m_play);
    layout->addWidget(m_forward);
    layout->addWidget(m_loop);
    layout->addWidget(m_speed);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_time);

    connect(m_play, &QToolButton::clicked, this, [this] {
        if (m_clock)
            m_clock->togglePlay();
    });
    connect(m_back, &QToolButton::clicked, this, &AnimationControls::stepBack);
    connect(m_forward, &QToolButton::clicked, this, &AnimationControls::stepForward);
    connect(m_loop, &QToolButton::toggled, this, [this](bool on) {
        if (m_clock)
            m_clock->setLoop(on);
    });
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_clock && index >= 0)
            m_clock->setSpeed(m_speed->itemData(index).toDouble());
    });
    // valueChanged covers dragging, clicks on the groove and the keyboard; updates from the
    // clock are made with signals blocked, so they do not seek back.
    connect(m_slider, &QSlider::valueChanged, this, &AnimationControls::seekToSlider);

    createShortcuts(this);
    updateTime();
}

void AnimationControls::setClock(AnimationClock *clock)
{
    for (const QMetaObject::Connection &c : std::as_const(m_clockConnections))
        disconnect(c);
    m_clockConnections.clear();
    m_clock = clock;
    if (clock) {
        m_clockConnections << connect(clock, &AnimationClock::timeChanged, this, &AnimationControls::updateTime)
                           << connect(clock, &AnimationClock::durationChanged, this, &AnimationControls::updateTime)
                           << connect(clock, &AnimationClock::playingChanged, this, &AnimationControls::updatePlaying)
                           << connect(clock, &AnimationClock::speedChanged, this, &AnimationControls::updateSpeed)
                           << connect(clock, &AnimationClock::loopChanged, this, [this](bool on) {
                                  const QSignalBlocker blocker(m_loop);
                                  m_loop->setChecked(on);
                              });
        const QSignalBlocker blocker(m_loop);
        m_loop->setChecked(clock->loop());
        updateSpeed(clock->speed());
        updatePlaying(clock->isPlaying());
    }
    updateTime();
}

AnimationClock *AnimationControls::clock() const { return m_clock; }

void AnimationControls::setStepBoundaries(std::function<std::vector<double>()> boundaries)
{
    m_boundaries = std::move(boundaries);
}

void AnimationControls::setShortcutScope(QWidget *scope)
{
    createShortcuts(scope ? scope : this);
}

void AnimationControls::createShortcuts(QWidget *scope)
{
    for (QShortcut *s : m_shortcuts)
        delete s;
    m_shortcuts.clear();
    const auto add = [this, scope](QKeySequence key, auto slot) {
        auto *s = new QShortcut(key, scope);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, slot);
        m_shortcuts.push_back(s);
    };
    add(QKeySequence(Qt::Key_Space), [this] {
        if (m_clock)
            m_clock->togglePlay();
    });
    add(QKeySequence(Qt::Key_Left), [this] { stepBack(); });
    add(QKeySequence(Qt::Key_Right), [this] { stepForward(); });
    add(QKeySequence(Qt::Key_L), [this] { m_loop->toggle(); });
}

void AnimationControls::setPresentationScale(double scale)
{
    m_scale = std::isfinite(scale) ? std::clamp(scale, 0.5, 4.0) : 1.0;
    QFont f = m_baseFont;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * m_scale);
    else
        f.setPixelSize(int(std::lround(f.pixelSize() * m_scale)));
    setFont(f);
    const int icon = int(std::lround(kBaseIconPx * m_scale));
    for (QToolButton *b : {m_back, m_play, m_forward, m_loop})
        b->setIconSize(QSize(icon, icon));
    updateTime();   // the time label's minimum width follows the font
    updateGeometry();
}

QSize AnimationControls::minimumSizeHint() const
{
    return QSize(int(320 * m_scale), QWidget::minimumSizeHint().height());
}

QSize AnimationControls::sizeHint() const
{
    return QSize(int(560 * m_scale), QWidget::sizeHint().height());
}

void AnimationControls::updatePlaying(bool playing)
{
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setToolTip(playing ? tr("Pause (Space)") : tr("Play (Space)"));
    m_play->setAccessibleName(playing ? tr("Pause") : tr("Play"));
}

void AnimationControls::updateTime()
{
    const double duration = m_clock ? m_clock->duration() : 0.0;
    const double time = m_clock ? m_clock->time() : 0.0;
    const bool enabled = m_clock && duration > 0;
    for (QWidget *w : std::initializer_list<QWidget *>{m_play, m_back, m_forward, m_slider})
        w->setEnabled(enabled);
    {
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(enabled ? int(std::lround(time / duration * kSliderSteps)) : 0);
    }
    m_time->setText(tr("t = %1 of %2").arg(fmt::seconds(time), fmt::seconds(duration)));
    // Room for the widest time of this duration, so the slider does not jitter while playing.
    const QFontMetrics metrics(m_time->font());
    const QString widest = tr("t = %1 of %2").arg(fmt::seconds(duration), fmt::seconds(duration));
    m_time->setMinimumWidth(metrics.horizontalAdvance(widest) + 2 * metrics.horizontalAdvance(QLatin1Char('0')));
}

void AnimationControls::updateSpeed(double speed)
{
    const int index = m_speed->findData(speed);
    if (index >= 0) {
        const QSignalBlocker blocker(m_speed);
        m_speed->setCurrentIndex(index);
    }
}

void AnimationControls::stepForward()
{
    if (m_clock)
        m_clock->stepForward(m_boundaries ? m_boundaries() : std::vector<double>{});
}

void AnimationControls::stepBack()
{
    if (m_clock)
        m_clock->stepBack(m_boundaries ? m_boundaries() : std::vector<double>{});
}

void AnimationControls::seekToSlider(int value)
{
    if (m_clock)
        m_clock->seek(double(value) / kSliderSteps * m_clock->duration());
}

} // namespace ts
