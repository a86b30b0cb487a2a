// SPDX-License-Identifier: MIT
// Capacity planning: the plan search tab, the comparison of pinned scenarios, and the dialog that
// calibrates the fabric from nccl-tests logs.
#pragma once

#include "calibration.h"
#include "evaluation.h"
#include "inputs.h"
#include "planner.h"
#include "report.h"

#include <QAbstractTableModel>
#include <QDialog>
#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTableWidget;
class QThread;

namespace ts {

class CalibrationChart;
class StepTimeChart;

/// The ranked plans; sorts on raw values (Qt::UserRole).
class PlanTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
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

class PlanSearchPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PlanSearchPanel(QWidget *parent = nullptr);
    ~PlanSearchPanel() override;
    void setScenario(const Scenario &scenario);
    void startSearch();
    void cancelSearch();
    bool isSearching() const { return m_thread != nullptr; }
    PlanTableModel *model() const { return m_model; }
    void applyRow(int row);

signals:
    void applyRequested(const ts::Scenario &scenario);
    void searchFinished();

private:
    void finish(const PlanSearchResult &result);

    Scenario m_base;
    PlanTableModel *m_model;
    QTableView *m_table;
    QPushButton *m_search;
    QPushButton *m_cancel;
    QPushButton *m_apply;
    QProgressBar *m_progress;
    QLabel *m_summary;
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
};

class ComparePanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxPinned = 4;
    explicit ComparePanel(QWidget *parent = nullptr);
    /// The pinned scenarios and the current one (shown last).
    void setScenarios(const QList<PinnedScenario> &pinned, const PinnedScenario &current);

signals:
    void unpinRequested(int index);

private:
    StepTimeChart *m_chart;
    QTableWidget *m_figures;
    QTableWidget *m_inputs;
    QWidget *m_unpinRow;
};

/// Imports nccl-tests logs, fits each tier, plots measured against fitted, applies the fit.
class CalibrationDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CalibrationDialog(QWidget *parent = nullptr);
    /// Adds logs; returns the error of the first log that could not be used (empty when all were).
    QString addLogs(const QStringList &paths);
    const std::vector<TierFit> &fits() const { return m_fits; }
    /// The cluster whose topology and links the logs are fitted against (the open scenario's).
    void setCluster(const Cluster &cluster);

signals:
    void applyRequested(const std::vector<ts::TierFit> &fits);

private:
    void refresh();

    std::vector<NcclLog> m_logs;
    std::vector<TierFit> m_fits;
    Cluster m_cluster;
    QTableWidget *m_table;
    CalibrationChart *m_chart;
    QLabel *m_error;
    QPushButton *m_apply;
};

} // namespace ts
