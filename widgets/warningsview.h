// SPDX-License-Identifier: MIT
// The model's warnings, each with its recommendation and a button that applies it.
#pragma once

#include <QWidget>

class QVBoxLayout;
class QLabel;
class QFrame;
class QPushButton;

namespace ts {

struct WarningItem
{
    QString code;
    QString message;
    QString recommendation;
    bool canApply = false;
    bool error = false;   // the plan cannot run (red, first)

    bool operator==(const WarningItem &) const = default;
};

class WarningsView : public QWidget
{
    Q_OBJECT
public:
    explicit WarningsView(QWidget *parent = nullptr);
    void setWarnings(const QList<WarningItem> &warnings);
    int count() const { return int(m_shown.size()); }

signals:
    void applyRequested(int index);

private:
    // One warning's row: its colour marker, message (bold), recommendation and button, kept
    // while the warnings keep their codes so that a slider drag that only moves a figure in a
    // message updates text in place. Plain-text labels: a rich-text or selectable QLabel lays a
    // QTextDocument out again at every paint; the row's context menu copies the text instead.
    struct Row
    {
        QFrame *frame = nullptr;
        QFrame *marker = nullptr;
        QLabel *message = nullptr;
        QLabel *recommendation = nullptr;
        QPushButton *apply = nullptr;
    };
    Row addRow(int index);
    void fillRow(const Row &row, const WarningItem &w);

    QVBoxLayout *m_list;
    QLabel *m_empty;
    QList<WarningItem> m_shown;
    QList<Row> m_rows;
};

} // namespace ts
