// SPDX-License-Identifier: MIT
#include "collectivestablemodel.h"

#include "formatting.h"
#include "units.h"

#include <cmath>

namespace ts {

namespace {

QString gigabytesPerSecond(double bytesPerSecond)
{
    if (!std::isfinite(bytesPerSecond))
        return QStringLiteral("—");
    return CollectivesTableModel::tr("%1 GB/s").arg(bytesPerSecond / units::kBytesPerGB, 0, 'f', 1);
}

bool isNumeric(int column) { return column >= CollectivesTableModel::SizeColumn; }

} // namespace

CollectivesTableModel::CollectivesTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CollectivesTableModel::setRows(const QList<CollectiveRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int CollectivesTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CollectivesTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CollectivesTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CollectiveRow &row = m_rows[index.row()];
    const int column = index.column();

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case CollectiveColumn: return row.collective;
        case AlgorithmColumn: return row.algorithm;
        case SizeColumn: return fmt::bytes(row.bytes);
        case TimeColumn: return fmt::seconds(row.seconds);
        case AlgBwColumn: return gigabytesPerSecond(row.algBytesPerSecond);
        case BusBwColumn: return gigabytesPerSecond(row.busBytesPerSecond);
        }
        break;
    case Qt::UserRole:
        switch (column) {
        case CollectiveColumn: return row.collective;
        case AlgorithmColumn: return row.algorithm;
        case SizeColumn: return row.bytes;
        case TimeColumn: return row.seconds;
        case AlgBwColumn: return row.algBytesPerSecond;
        case BusBwColumn: return row.busBytesPerSecond;
        }
        break;
    case Qt::ToolTipRole:
        // Link speeds are quoted in Gb/s, so bandwidths show both.
        if (column == AlgBwColumn)
            return fmt::bandwidth(row.algBytesPerSecond);
        if (column == BusBwColumn)
            return row.busBandwidthMeaning.isEmpty() ? fmt::bandwidth(row.busBytesPerSecond)
                                                     : fmt::bandwidth(row.busBytesPerSecond) + QStringLiteral("\n")
                                                           + row.busBandwidthMeaning;
        break;
    case Qt::TextAlignmentRole:
        if (isNumeric(column))
            return (Qt::AlignRight | Qt::AlignVCenter).toInt();
        break;
    }
    return {};
}

QVariant CollectivesTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (section) {
        case CollectiveColumn: return tr("Collective");
        case AlgorithmColumn: return tr("Algorithm / protocol");
        case SizeColumn: return tr("Size");
        case TimeColumn: return tr("Time");
        case AlgBwColumn: return tr("algbw");
        case BusBwColumn: return tr("busbw");
        }
        break;
    case Qt::ToolTipRole:
        switch (section) {
        case SizeColumn:
            return tr("Buffer size, nccl-tests convention: the output of an all-gather, the input of a reduce-scatter");
        case TimeColumn: return tr("Time of one collective");
        case AlgBwColumn: return tr("Algorithm bandwidth, as nccl-tests reports it: size over time");
        case AlgorithmColumn: return tr("The algorithm, with the protocol (LL, LL128, Simple) NCCL's tuner would give it at this size");
        case BusBwColumn:
            return tr("Bus bandwidth, as nccl-tests reports it (algbw × its flat-ring factor): a ring's link load; NVLS and "
                      "in-network reduction can exceed the link rate (each row's tooltip says)");
        }
        break;
    case Qt::TextAlignmentRole:
        if (isNumeric(section))
            return (Qt::AlignRight | Qt::AlignVCenter).toInt();
        break;
    }
    return {};
}

} // namespace ts
