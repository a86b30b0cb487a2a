// SPDX-License-Identifier: MIT
#include "warningsview.h"

#include "theme.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace ts {

WarningsView::WarningsView(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    m_list = new QVBoxLayout(content);
    m_list->setSpacing(6);
    m_empty = new QLabel(tr("No warnings: nothing an expert would flag in this plan."), content);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_list->addWidget(m_empty);
    m_list->addStretch(1);
    scroll->setWidget(content);
    outer->addWidget(scroll);
}

void WarningsView::setWarnings(const QList<WarningItem> &warnings)
{
    // Rebuild only when the warnings change (not on every step of a slider drag).
    if (warnings == m_shown && m_list->count() == 2 + warnings.size())
        return;
    m_shown = warnings;
    while (m_list->count() > 2) {
        QLayoutItem *item = m_list->takeAt(1);
        delete item->widget();
        delete item;
    }
    m_count = int(warnings.size());
    m_empty->setVisible(warnings.isEmpty());
    for (int i = 0; i < warnings.size(); ++i) {
        const WarningItem &w = warnings[i];
        auto *frame = new QFrame(m_list->parentWidget());
        frame->setFrameShape(QFrame::StyledPanel);
        frame->setObjectName(w.code);
        auto *row = new QHBoxLayout(frame);
        auto *marker = new QFrame(frame);
        marker->setFixedWidth(4);
        marker->setAutoFillBackground(true);
        QPalette p = marker->palette();
        p.setColor(QPalette::Window, w.error ? theme::errorColor() : theme::warningColor());
        marker->setPalette(p);
        row->addWidget(marker);
        auto *text = new QLabel(QStringLiteral("<b>%1</b><br>%2").arg(w.message.toHtmlEscaped(), w.recommendation.toHtmlEscaped()), frame);
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        row->addWidget(text, 1);
        auto *apply = new QPushButton(tr("Apply"), frame);
        apply->setEnabled(w.canApply);
        apply->setToolTip(w.canApply ? tr("Change the plan as recommended (undoable)") : tr("No automatic change for this one"));
        if (w.error)
            apply->setText(tr("Repair"));
        row->addWidget(apply, 0, Qt::AlignTop);
        connect(apply, &QPushButton::clicked, this, [this, i] { emit applyRequested(i); });
        m_list->insertWidget(1 + i, frame);
    }
}

} // namespace ts
