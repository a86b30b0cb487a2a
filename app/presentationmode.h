// SPDX-License-Identifier: MIT
// Presentation mode (F11, Esc leaves): full screen with only the tabs, the drawings and their
// playback; the parameters dock, menus, status bar and pickers go, and all text is larger.
#pragma once

#include <QFont>
#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;

namespace ts {

class AnimationPanel;

class PresentationMode : public QObject
{
    Q_OBJECT
public:
    static constexpr double kDrawingScale = 1.6;   // the teaching drawings, readable from the back of a room
    static constexpr double kTextScale = 1.35;     // every other text
    PresentationMode(QMainWindow *window, QDockWidget *dock, QList<AnimationPanel *> panels);
    /// The checkable View menu action (F11).
    QAction *action() const { return m_action; }
    void setOn(bool on);
    bool isOn() const { return m_on; }

private:
    QMainWindow *m_window;
    QDockWidget *m_dock;
    QList<AnimationPanel *> m_panels;
    QAction *m_action;
    bool m_on = false;
    QFont m_normalFont;
};

} // namespace ts
