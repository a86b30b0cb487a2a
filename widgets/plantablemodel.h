// SPDX-License-Identifier: MIT
// The ranked plans of a plan search as a table; sorts on raw values (Qt::UserRole).
#pragma once

#include "planner.h"

#include <QAbstractTableModel>

#include <vector>

namespace ts {

class PlanTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { ColTrain, ColDelta, ColCost, ColFramework, ColTp, ColPp, ColDp, ColCp, ColEp, ColMicro, ColSchedule, ColSplit, ColZero,
                  ColRecompute, ColOverlap,
                  ColStep, ColMfu, ColMemory, ColComm, ColEqual, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    /// The ranked plans, and the current plan (inserted at its place, marked) when given.
    void setPlans(std::vector<PlanCandidate> plans, const PlanCandidate *current = nullptr);
    const PlanCandidate &plan(int row) const { return m_plans[size_t(row)]; }
    /// Whether `row` is the current plan (not a search result).
    bool isCurrent(int row) const { return row == m_currentRow; }
    int currentRow() const { return m_currentRow; }
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<PlanCandidate> m_plans;
    int m_currentRow = -1;
    double m_currentSeconds = 0;   // the current plan's time to train (0: none)
};

} // namespace ts
