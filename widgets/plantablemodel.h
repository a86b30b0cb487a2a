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
    enum Column { ColTp, ColPp, ColDp, ColCp, ColMicro, ColSchedule, ColZero, ColRecompute, ColOverlap, ColStep, ColTrain,
                  ColMfu, ColMemory, ColComm, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setPlans(std::vector<PlanCandidate> plans);
    const PlanCandidate &plan(int row) const { return m_plans[size_t(row)]; }
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<PlanCandidate> m_plans;
};

} // namespace ts
