// SPDX-License-Identifier: MIT
// The collectives of one step as a table, in nccl-tests terms (size, time, algbw, busbw).
#pragma once

#include "chartdata.h"

#include <QList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QSortFilterProxyModel;
class QTableView;
QT_END_NAMESPACE

namespace ts {

class CollectivesTableModel;

/// A titled, sortable table of collectives. Rows keep the given order until a header is clicked.
class CollectivesView : public QWidget
{
    Q_OBJECT
public:
    explicit CollectivesView(QWidget *parent = nullptr);

    void setRows(const QList<CollectiveRow> &rows);
    /// The title above the table; hidden when empty.
    void setTitle(const QString &title);
    CollectivesTableModel *tableModel() const { return m_model; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

private:
    QLabel *m_title = nullptr;
    QTableView *m_table = nullptr;
    CollectivesTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
};

} // namespace ts
