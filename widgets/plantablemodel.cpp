// SPDX-License-Identifier: MIT
#include "plantablemodel.h"

#include "formatting.h"

namespace ts {

void PlanTableModel::setPlans(std::vector<PlanCandidate> plans)
{
    beginResetModel();
    m_plans = std::move(plans);
    endResetModel();
}

int PlanTableModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_plans.size()); }
int PlanTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char *names[] = {"TP", "PP", "DP", "CP", "b", "Schedule", "ZeRO", "Recompute", "Overlap", "Step",
                                  "Time to train", "MFU", "Memory/GPU", "Comm."};
    return tr(names[section]);
}

QVariant PlanTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PlanCandidate &c = m_plans[size_t(index.row())];
    const Plan &p = c.scenario.plan;
    const bool raw = role == Qt::UserRole;
    if (role == Qt::TextAlignmentRole)
        return index.column() == ColSchedule || index.column() == ColRecompute ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && !raw)
        return {};
    switch (index.column()) {
    case ColTp: return p.tp;
    case ColPp: return p.pp;
    case ColDp: return p.dp;
    case ColCp: return p.cp;
    case ColMicro: return c.scenario.training.microBatch;
    case ColSchedule:
        return p.schedule == Schedule::Interleaved ? QStringLiteral("interleaved v=%1").arg(p.virtualStages)
                                                   : QString::fromLatin1(nameOf(p.schedule));
    case ColZero: return p.zeroStage;
    case ColRecompute: return QString::fromLatin1(nameOf(c.scenario.training.recompute));
    case ColOverlap: return raw ? QVariant(p.overlapDp) : QVariant(p.overlapDp ? tr("on") : tr("off"));
    case ColStep: return raw ? QVariant(c.breakdown.stepSeconds) : QVariant(fmt::seconds(c.breakdown.stepSeconds));
    case ColTrain: return raw ? QVariant(c.trainSeconds) : QVariant(fmt::duration(c.trainSeconds));
    case ColMfu: return raw ? QVariant(c.mfu) : QVariant(fmt::percent(c.mfu));
    case ColMemory: return raw ? QVariant(c.memoryBytes) : QVariant(fmt::bytes(c.memoryBytes));
    case ColComm: return raw ? QVariant(c.communicationFraction) : QVariant(fmt::percent(c.communicationFraction));
    }
    return {};
}

} // namespace ts
