// SPDX-License-Identifier: MIT
#include "plantablemodel.h"

#include "formatting.h"

#include <QFont>

#include <algorithm>

namespace ts {

void PlanTableModel::setPlans(std::vector<PlanCandidate> plans, const PlanCandidate *current)
{
    beginResetModel();
    m_plans = std::move(plans);
    m_currentRow = -1;
    m_currentSeconds = current ? current->calendarTrainSeconds() : 0.0;
    if (current) {
        // At its rank: after every plan that is faster (or as fast: the search found it first).
        const auto at = std::find_if(m_plans.begin(), m_plans.end(),
                                     [&](const PlanCandidate &c) { return c.trainSeconds > current->trainSeconds * (1 + 1e-9); });
        m_currentRow = int(at - m_plans.begin());
        m_plans.insert(at, *current);
    }
    endResetModel();
}

int PlanTableModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_plans.size()); }
int PlanTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    static const char *names[] = {"Time to train", "vs current", "Cost", "Framework", "TP", "PP", "DP", "CP", "EP", "b", "Schedule",
                                  "Split", "ZeRO", "Recompute", "Overlap", "Step", "MFU", "Memory/GPU", "Comm.", "Same figures"};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ColTrain: return tr("Time to train the token budget with failures and checkpoints, as the headline card gives it");
        case ColCost: return tr("Cost of the token budget with failures and checkpoints, at the scenario's price per GPU-hour");
        case ColDelta: return tr("Time to train relative to the current plan (negative: faster)");
        case ColFramework: return tr("The framework that runs the plan, whose memory layout and synchronisation the figures assume");
        case ColSplit: return tr("Layers per pipeline stage: even; first..last stage layers; or embedding and loss counted as layers");
        case ColZero:
            return tr("ZeRO stage; \"3 in 8\": sharded within groups of 8 ranks and replicated across them (FSDP HYBRID_SHARD)");
        case ColOverlap:
            return tr("Communication hidden behind compute: TP (tensor-parallel overlap), EP (expert all-to-alls), DP (gradient sync)");
        case ColEp: return tr("Expert parallelism: the ranks a mixture-of-experts layer's experts are split over (1 for dense models)");
        case ColEqual: return tr("Other plans with the same time and memory (choices that change nothing here), folded into this row");
        default: break;
        }
    }
    return {};
}

QVariant PlanTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PlanCandidate &c = m_plans[size_t(index.row())];
    const Plan &p = c.scenario.plan;
    const bool raw = role == Qt::UserRole;
    const bool current = index.row() == m_currentRow;
    if (role == Qt::TextAlignmentRole)
        return index.column() == ColSchedule || index.column() == ColRecompute || index.column() == ColFramework
                       || index.column() == ColSplit || index.column() == ColOverlap ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && current) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    const bool withoutFailures = !c.economicsProblem.field.empty();
    if (role == Qt::ToolTipRole && withoutFailures && (index.column() == ColTrain || index.column() == ColCost))
        return tr("Without failures: %1: %2").arg(QString::fromStdString(c.economicsProblem.field), QString::fromStdString(c.economicsProblem.message));
    if (role == Qt::ToolTipRole && current)
        return c.fits ? tr("Your current plan") : tr("Your current plan: it does not fit in HBM with the plan margin");
    if (role != Qt::DisplayRole && !raw)
        return {};
    const double seconds = c.calendarTrainSeconds();
    const double delta = m_currentSeconds > 0 ? seconds / m_currentSeconds - 1 : 0.0;
    switch (index.column()) {
    case ColTrain:
        if (raw)
            return seconds;
        // Failures that outpace checkpoints leave only the failure-free time, and the cell says so.
        return (current ? tr("%1 (current)").arg(fmt::duration(seconds)) : fmt::duration(seconds))
               + (withoutFailures ? tr(" without failures") : QString());
    case ColDelta:
        if (raw)
            return delta;
        return m_currentSeconds > 0 && !current ? QVariant(QStringLiteral("%1%2").arg(delta > 0 ? QStringLiteral("+") : QString(),
                                                                                       fmt::percent(delta)))
                                                : QVariant(QStringLiteral("—"));
    case ColCost:
        return raw ? QVariant(c.costUsd) : QVariant(c.costUsd > 0 ? QStringLiteral("$") + fmt::count(c.costUsd) : QStringLiteral("—"));
    case ColTp: return p.tp;
    case ColPp: return p.pp;
    case ColDp: return p.dp;
    case ColCp: return raw ? QVariant(p.cp * 4 + int(p.cpComm)) : QVariant(fmt::contextParallel(p));
    case ColEp: return p.ep;
    case ColMicro: return c.scenario.training.microBatch;
    case ColFramework: return QString::fromLatin1(nameOf(resolveFramework(p)));
    case ColSchedule: return fmt::schedule(p);
    case ColSplit: return fmt::pipelineSplit(p);
    case ColZero: return raw ? QVariant(p.zeroStage * 1e6 + p.shardGroup) : QVariant(fmt::sharding(p));
    case ColRecompute: return QString::fromStdString(recomputeText(c.scenario.training));
    case ColOverlap: return fmt::overlaps(p);
    case ColStep: return raw ? QVariant(c.breakdown.stepSeconds) : QVariant(fmt::seconds(c.breakdown.stepSeconds));
    case ColMfu: {
        const bool applicable = c.scenario.training.computeSecondsOverride <= 0;
        return raw ? QVariant(applicable ? c.mfu : -1.0) : QVariant(fmt::mfu(c.mfu, applicable));
    }
    case ColMemory: return raw ? QVariant(c.memoryBytes) : QVariant(fmt::memory(c.memoryBytes));
    case ColComm: return raw ? QVariant(c.communicationFraction) : QVariant(fmt::percent(c.communicationFraction));
    case ColEqual: return raw ? QVariant(c.equivalentPlans) : QVariant(c.equivalentPlans > 0 ? QString::number(c.equivalentPlans) : QString());
    }
    return {};
}

} // namespace ts
