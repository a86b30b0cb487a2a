// SPDX-License-Identifier: MIT
// The Compare tab: pinned scenarios beside the current one: step-time bars, headline figures and
// the inputs that differ.
#pragma once

#include "evaluation.h"

#include <QList>
#include <QMap>
#include <QWidget>

class QTableWidget;

namespace ts {

class StepTimeChart;

/// One compared scenario: its name, evaluation, and inputs as "section.key" -> text.
struct ComparedScenario
{
    QString name;
    Evaluation evaluation;
    QMap<QString, QString> inputs;
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
