// SPDX-License-Identifier: MIT
#pragma once
#include <QSize>
#include <QWidget>

namespace ts {

/// Holds one widget and fills itself with it, outside any layout. Qt relays out every ancestor up
/// to the window whenever a label anywhere below changes its text (QLayout::activate always calls
/// updateGeometry on its widget), and a QTabWidget repaints whole on each such request. Below a
/// boundary a new figure relays out the held widget only; the boundary passes a change on only
/// when the held widget's size hints really changed. Its size hints are the held widget's.
class LayoutBoundary : public QWidget
{
public:
    explicit LayoutBoundary(QWidget *held, QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QWidget *m_held;
    QSize m_hint, m_minimumHint;   // as last passed on
};

} // namespace ts
