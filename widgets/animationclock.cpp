// SPDX-License-Identifier: MIT
#include "animationclock.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace ts {

namespace {
// Boundaries this close to the current time count as "here", so repeated steps always move.
double tolerance(double time) { return 1e-12 * std::max(1.0, std::abs(time)); }
} // namespace

double nextBoundary(const std::vector<double> &boundaries, double time, double fallback)
{
    double best = fallback;
    bool found = false;
    for (const double b : boundaries) {
        if (b > time + tolerance(time) && (!found || b < best)) {
            best = b;
            found = true;
        }
    }
    return best;
}

double previousBoundary(const std::vector<double> &boundaries, double time, double fallback)
{
    double best = fallback;
    bool found = false;
    for (const double b : boundaries) {
        if (b < time - tolerance(time) && (!found || b > best)) {
            best = b;
            found = true;
        }
    }
    return best;
}

std::vector<double> uniqueTimes(std::vector<double> times)
{
    std::erase_if(times, [](double t) { return !std::isfinite(t); });
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end(),
                            [](double a, double b) { return std::abs(a - b) <= tolerance(std::max(a, b)); }),
                times.end());
    return times;
}

AnimationClock::AnimationClock(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setTimerType(Qt::PreciseTimer);
    m_timer->setInterval(kTickMs);
    connect(m_timer, &QTimer::timeout, this, &AnimationClock::tick);
}

void AnimationClock::setDuration(double modelSeconds)
{
    const double d = std::isfinite(modelSeconds) ? std::max(0.0, modelSeconds) : 0.0;
    if (d == m_duration)
        return;
    m_duration = d;
    emit durationChanged(d);
    if (d <= 0)
        pause();
    if (m_time > d)
        setTimeInternal(d);
}

void AnimationClock::setPlaybackSeconds(double wallSeconds)
{
    if (std::isfinite(wallSeconds) && wallSeconds > 0)
        m_playbackSeconds = wallSeconds;
}

void AnimationClock::setSpeed(double speed)
{
    const double s = std::isfinite(speed) ? std::clamp(speed, kMinSpeed, kMaxSpeed) : 1.0;
    if (s == m_speed)
        return;
    m_speed = s;
    emit speedChanged(s);
}

void AnimationClock::setLoop(bool loop)
{
    if (loop == m_loop)
        return;
    m_loop = loop;
    emit loopChanged(loop);
}

void AnimationClock::play()
{
    if (m_playing || m_duration <= 0)
        return;
    if (m_time >= m_duration)   // replay from the start rather than stopping at once
        setTimeInternal(0);
    resetStats();
    m_playing = true;
    m_wall.start();
    m_timer->start();
    emit playingChanged(true);
}

void AnimationClock::pause()
{
    if (!m_playing)
        return;
    m_playing = false;
    m_timer->stop();   // no ticks while paused
    emit playingChanged(false);
}

void AnimationClock::togglePlay()
{
    if (m_playing)
        pause();
    else
        play();
}

void AnimationClock::stepForward(const std::vector<double> &boundaries)
{
    pause();
    setTimeInternal(std::min(m_duration, nextBoundary(boundaries, m_time, m_duration)));
}

void AnimationClock::stepBack(const std::vector<double> &boundaries)
{
    pause();
    setTimeInternal(std::max(0.0, previousBoundary(boundaries, m_time, 0.0)));
}

void AnimationClock::seek(double modelSeconds)
{
    if (!std::isfinite(modelSeconds))
        return;
    setTimeInternal(std::clamp(modelSeconds, 0.0, m_duration));
    if (m_playing)
        m_wall.restart();   // the next tick advances from here, not from before the seek
}

FrameStats AnimationClock::stats() const
{
    FrameStats s;
    s.frames = m_frames;
    s.meanIntervalMs = m_frames > 0 ? m_sumIntervalMs / m_frames : 0.0;
    s.maxIntervalMs = m_maxIntervalMs;
    return s;
}

void AnimationClock::resetStats()
{
    m_frames = 0;
    m_sumIntervalMs = 0;
    m_maxIntervalMs = 0;
}

void AnimationClock::tick()
{
    // Advance by the wall time actually elapsed, so a late frame catches up instead of slowing down.
    const double intervalMs = double(m_wall.nsecsElapsed()) * 1e-6;
    m_wall.restart();
    ++m_frames;
    m_sumIntervalMs += intervalMs;
    m_maxIntervalMs = std::max(m_maxIntervalMs, intervalMs);

    const double rate = m_duration / m_playbackSeconds * m_speed;   // model seconds per wall second
    double t = m_time + intervalMs * 1e-3 * rate;
    if (t >= m_duration) {
        if (m_loop && m_duration > 0) {
            t = std::fmod(t, m_duration);
        } else {
            setTimeInternal(m_duration);
            pause();
            return;
        }
    }
    setTimeInternal(t);
}

void AnimationClock::setTimeInternal(double t)
{
    if (t == m_time)
        return;
    m_time = t;
    emit timeChanged(t);
}

} // namespace ts
