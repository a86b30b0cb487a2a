// SPDX-License-Identifier: MIT
#include "layoutboundary.h"

#include <QEvent>

namespace ts {

LayoutBoundary::LayoutBoundary(QWidget *held, QWidget *parent)
    : QWidget(parent)
    , m_held(held)
{
    m_held->setParent(this);
    m_hint = m_held->sizeHint();
    m_minimumHint = minimumSizeHint();
    setSizePolicy(m_held->sizePolicy());
}

QSize LayoutBoundary::sizeHint() const { return m_held->sizeHint(); }
// A minimum size set on the held widget counts as its hint does (as a layout would take it).
QSize LayoutBoundary::minimumSizeHint() const { return m_held->minimumSizeHint().expandedTo(m_held->minimumSize()); }

bool LayoutBoundary::event(QEvent *event)
{
    // The held widget asks its parent to relay out after each change inside it: pass that on only
    // when its size hints moved.
    if (event->type() == QEvent::LayoutRequest) {
        const QSize hint = m_held->sizeHint(), minimumHint = minimumSizeHint();
        if (hint != m_hint || minimumHint != m_minimumHint) {
            m_hint = hint;
            m_minimumHint = minimumHint;
            updateGeometry();
        }
        return true;
    }
    return QWidget::event(event);
}

void LayoutBoundary::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_held->setGeometry(rect());
}

} // namespace ts
