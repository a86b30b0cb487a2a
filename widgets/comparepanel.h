// SPDX-License-Identifier: MIT
// The Compare tab: pinned scenarios beside the current one: step-time bars, headline figures and
// the inputs that differ.
#pragma once

#include "economics.h"
#include "evaluation.h"

#include <QList>
#include <QMap>
#include <QWidget>

class QTableWidget;

namespace ts {

class StepTimeChart;

/// One compared scenario: its name, evaluation, inputs as "section.key" -> text, and the
/// analysis' cost and goodput (when valid, the time to train and GPU-hours shown are theirs, with
/// failures and checkpoints, as on the headline cards).
struct ComparedScenario
{
    QString name;
    Evaluation evaluation;
    QMap<QString, QString> inputs;
    Economics economics;
};

class ComparePanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxPinned = 4;
    explicit ComparePanel(QWidget *parent = nullptr);
    /// The pinned scenarios and the current one (shown last).
    void setScenarios(const QList<ComparedScenario> &pinned, const ComparedScenario &current);

    /// Renames pinned scenario `index` (double-click its column header).
    void rename(int index);

signals:
    void unpinRequested(int index);
    void renameRequested(int index, const QString &name);

private:
    StepTimeChart *m_chart;
    QTableWidget *m_figures;
    QTableWidget *m_inputs;
    QWidget *m_unpinRow;
    QStringList m_pinnedNames;
};

} // namespace ts
