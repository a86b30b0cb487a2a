// SPDX-License-Identifier: MIT
#include "animationpanel.h"

#include "animatedview.h"
#include "animationclock.h"
#include "animationcontrols.h"

#include <QLabel>

namespace ts {

AnimationPanel::AnimationPanel(QWidget *parent)
    : QWidget(parent)
    , m_clock(new AnimationClock(this))
    , m_controls(new AnimationControls(this))
{
    m_controls->setClock(m_clock);
    m_controls->setShortcutScope(this);   // Space, Left, Right, L while this tab has focus
    setFocusPolicy(Qt::StrongFocus);
}

QWidget *AnimationPanel::drawing() const { return m_animatedView; }

void AnimationPanel::invalidate()
{
    m_dirty = true;
    if (isVisible())
        rebuildNow();
}

void AnimationPanel::rebuildNow()
{
    rebuild();
    m_dirty = false;
}

void AnimationPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        rebuildNow();
}

void AnimationPanel::setPresentationScale(double scale)
{
    if (m_animatedView)
        m_animatedView->setPresentationScale(scale);
    m_controls->setPresentationScale(scale);
    if (m_pickers)
        m_pickers->setVisible(scale <= 1.0);
}

QLabel *AnimationPanel::noteLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

} // namespace ts
