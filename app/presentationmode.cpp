// SPDX-License-Identifier: MIT
#include "presentationmode.h"

#include "animationpanel.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>

namespace ts {

PresentationMode::PresentationMode(QMainWindow *window, QDockWidget *dock, QList<AnimationPanel *> panels)
    : QObject(window)
    , m_window(window)
    , m_dock(dock)
    , m_panels(std::move(panels))
    , m_action(new QAction(tr("&Presentation Mode"), window))
{
    m_action->setShortcut(QKeySequence(Qt::Key_F11));
    m_action->setCheckable(true);
    connect(m_action, &QAction::toggled, this, &PresentationMode::setOn);
    window->addAction(m_action);   // F11 works with the menu bar hidden
    auto *leave = new QAction(window);
    leave->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(leave, &QAction::triggered, this, [this] { setOn(false); });
    window->addAction(leave);
}

void PresentationMode::setOn(bool on)
{
    if (on == m_on)
        return;
    m_on = on;
    for (AnimationPanel *panel : m_panels)
        panel->setPresentationScale(on ? kDrawingScale : 1.0);
    m_dock->setVisible(!on);
    m_window->menuBar()->setVisible(!on);
    m_window->statusBar()->setVisible(!on);
    if (on) {
        m_normalFont = m_window->font();
        QFont large = m_normalFont;
        large.setPointSizeF(m_normalFont.pointSizeF() * kTextScale);
        m_window->setFont(large);
        m_window->showFullScreen();
    } else {
        m_window->setFont(m_normalFont);
        m_window->showNormal();
    }
    m_action->setChecked(on);
}

} // namespace ts
