// SPDX-License-Identifier: MIT
#include "warningsview.h"

#include "theme.h"
#include "wraplabel.h"

#include <QAction>
#include <QClipboard>
#include <QFrame>
#include <QGuiApplication>
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
    // Nothing to do when nothing changed (most steps of a slider drag).
    if (warnings == m_shown)
        return;
    // The same warnings with other figures in their text (a percentage that moves with a slider):
    // update the rows in place rather than rebuild frames, rich-text labels, buttons and layout
    // every step (trainscope-bench slider_update_p99_ms, median of 4 runs 14.3 -> 12.5 ms).
    bool sameRows = warnings.size() == m_shown.size();
    for (qsizetype i = 0; sameRows && i < warnings.size(); ++i)
        sameRows = warnings[i].code == m_shown[i].code;
    m_shown = warnings;
    if (sameRows) {
        for (qsizetype i = 0; i < warnings.size(); ++i)
            fillRow(m_rows[i], warnings[i]);
        return;
    }
    for (const Row &row : std::as_const(m_rows)) {
        m_list->removeWidget(row.frame);
        delete row.frame;
    }
    m_rows.clear();
    m_empty->setVisible(warnings.isEmpty());
    for (qsizetype i = 0; i < warnings.size(); ++i) {
        const Row row = addRow(int(i));
        fillRow(row, warnings[i]);
        m_rows.append(row);
    }
}

WarningsView::Row WarningsView::addRow(int index)
{
    Row r;
    r.frame = new QFrame(m_list->parentWidget());
    r.frame->setFrameShape(QFrame::StyledPanel);
    auto *layout = new QHBoxLayout(r.frame);
    r.marker = new QFrame(r.frame);
    r.marker->setFixedWidth(4);
    r.marker->setAutoFillBackground(true);
    layout->addWidget(r.marker);
    auto *texts = new QVBoxLayout;
    texts->setSpacing(0);
    r.message = new WrapLabel(r.frame);
    r.message->setTextFormat(Qt::PlainText);
    QFont bold = r.message->font();
    bold.setBold(true);
    r.message->setFont(bold);
    r.recommendation = new WrapLabel(r.frame);
    r.recommendation->setTextFormat(Qt::PlainText);
    texts->addWidget(r.message);
    texts->addWidget(r.recommendation);
    layout->addLayout(texts, 1);
    auto *copy = new QAction(tr("Copy warning"), r.frame);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, [message = r.message, recommendation = r.recommendation] {
        QGuiApplication::clipboard()->setText(message->text() + QLatin1Char('\n') + recommendation->text());
    });
    r.frame->addAction(copy);
    r.frame->setContextMenuPolicy(Qt::ActionsContextMenu);
    r.apply = new QPushButton(r.frame);
    layout->addWidget(r.apply, 0, Qt::AlignTop);
    connect(r.apply, &QPushButton::clicked, this, [this, index] { emit applyRequested(index); });
    m_list->insertWidget(1 + index, r.frame);
    return r;
}

void WarningsView::fillRow(const Row &row, const WarningItem &w)
{
    row.frame->setObjectName(w.code);
    QPalette p = row.marker->palette();
    p.setColor(QPalette::Window, w.error ? theme::errorColor() : theme::warningColor());
    row.marker->setPalette(p);
    // setText relays the page out even for the same text: only a changed one is set.
    if (row.message->text() != w.message)
        row.message->setText(w.message);
    if (row.recommendation->text() != w.recommendation)
        row.recommendation->setText(w.recommendation);
    row.apply->setEnabled(w.canApply);
    row.apply->setToolTip(w.canApply ? tr("Change the plan as recommended (undoable)") : tr("No automatic change for this one"));
    row.apply->setText(w.error ? tr("Repair") : tr("Apply"));
}

} // namespace ts
