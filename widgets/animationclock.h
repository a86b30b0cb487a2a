// SPDX-License-Identifier: MIT
// The shared playback clock of the animated views: maps wall time to model time. It ticks only
// while playing (a 16 ms precise timer, about one display frame); paused it costs nothing.
#pragma once

#include <QElapsedTimer>
#include <QObject>

#include <vector>

class QTimer;

namespace ts {

/// Tick statistics since the last play() (or resetStats()), for the benchmark.
struct FrameStats
{
    int frames = 0;
    double meanIntervalMs = 0;
    double maxIntervalMs = 0;
};

/// Next boundary strictly after `time`, or `fallback` when there is none.
double nextBoundary(const std::vector<double> &boundaries, double time, double fallback);
/// Previous boundary strictly before `time`, or `fallback` when there is none.
double previousBoundary(const std::vector<double> &boundaries, double time, double fallback);
/// Sorted, de-duplicated copy of `times` (equal within a relative 1e-12).
std::vector<double> uniqueTimes(std::vector<double> times);

class AnimationClock : public QObject
{
    Q_OBJECT
public:
    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 8;
    static constexpr int kTickMs = 16;

    explicit AnimationClock(QObject *parent = nullptr);

    /// Length of the replayed schedule in model seconds; the time is clamped into it.
    void setDuration(double modelSeconds);
    double duration() const { return m_duration; }
    /// Wall seconds the whole schedule takes at speed 1 (default 6 s), whatever its model length.
    void setPlaybackSeconds(double wallSecondsForWholeSchedule);
    double playbackSeconds() const { return m_playbackSeconds; }
    void setSpeed(double speed);   // clamped to [kMinSpeed, kMaxSpeed]
    double speed() const { return m_speed; }
    void setLoop(bool loop);
    bool loop() const { return m_loop; }

    void play();
    void pause();
    void togglePlay();
    bool isPlaying() const { return m_playing; }

    /// Pause and jump to the next (previous) boundary, e.g. ring step or pipeline event starts;
    /// past the last one to the end (before the first one to 0).
    void stepForward(const std::vector<double> &stepBoundaries);
    void stepBack(const std::vector<double> &stepBoundaries);
    void seek(double modelSeconds);
    double time() const { return m_time; }

    FrameStats stats() const;
    void resetStats();

signals:
    void timeChanged(double modelSeconds);
    void playingChanged(bool playing);
    void durationChanged(double modelSeconds);
    void speedChanged(double speed);
    void loopChanged(bool loop);

private:
    void tick();
    void setTimeInternal(double modelSeconds);

    QTimer *m_timer;
    QElapsedTimer m_wall;       // since the previous tick
    double m_duration = 0;
    double m_playbackSeconds = 6;
    double m_speed = 1;
    double m_time = 0;
    bool m_loop = false;
    bool m_playing = false;
    // Frame statistics.
    int m_frames = 0;
    double m_sumIntervalMs = 0;
    double m_maxIntervalMs = 0;
};

} // namespace ts
