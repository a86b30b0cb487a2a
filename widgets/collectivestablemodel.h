// SPDX-License-Identifier: MIT
// The collectives of one step as a table model, in nccl-tests terms (size, time, algbw, busbw).
#pragma once

#include "chartdata.h"

#include <QAbstractTableModel>
#include <QList>

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

} // namespace ts
