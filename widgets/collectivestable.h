// SPDX-License-Identifier: MIT
// The collectives of one step as a table, in nccl-tests terms (size, time, algbw, busbw).
#pragma once

#include "chartdata.h"

#include <QAbstractTableModel>
#include <QList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QSortFilterProxyModel;
class QTableView;
QT_END_NAMESPACE

namespace ts {

/// Display strings in Qt::DisplayRole; Qt::UserRole holds the raw SI value (text for text
/// columns) so sorting is numeric.
class CollectivesTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { CollectiveColumn, AlgorithmColumn, SizeColumn, TimeColumn, AlgBwColumn, BusBwColumn, ColumnCount };

    explicit CollectivesTableModel(QObject *parent = nullptr);

    void setRows(const QList<CollectiveRow> &rows);
    const QList<CollectiveRow> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<CollectiveRow> m_rows;
};

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
