// SPDX-License-Identifier: MIT
// The Plan search tab: runs a search in the background with progress and cancel, shows the ranked
// plans, and asks to apply one. The search itself comes from the document (a job over a copy of
// the scenario), so the tab never calls the model.
#pragma once

#include "planner.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QThread;

namespace ts {

class PlanTableModel;
class StepTimeChart;

class PlanSearchPanel : public QWidget
{
    Q_OBJECT
public:
    /// One search: reports progress in [0, 1] and returns false from it to stop. Runs on a worker
    /// thread, so it must own everything it reads.
    using Job = std::function<PlanSearchResult(const std::function<bool(double)> &progress)>;
    static constexpr int kPlansShown = 50;
    explicit PlanSearchPanel(QWidget *parent = nullptr);
    ~PlanSearchPanel() override;
    /// Where a search comes from (the document, for its current scenario).
    void setJobSource(std::function<Job()> source);
    void startSearch();
    void cancelSearch();
    bool isSearching() const { return m_thread != nullptr; }
    PlanTableModel *model() const { return m_model; }
    void applyRow(int row);
    /// The scenario changed: results of the old one are cleared (a running search is cancelled).
    void scenarioChanged();

signals:
    void applyRequested(const ts::Scenario &scenario);
    void searchFinished();

private:
    void finish(const PlanSearchResult &result);
    void showBreakdown(int row);

    std::function<Job()> m_jobSource;
    PlanTableModel *m_model;
    QTableView *m_table;
    QPushButton *m_search;
    QPushButton *m_cancel;
    QPushButton *m_apply;
    QProgressBar *m_progress;
    QLabel *m_summary;
    StepTimeChart *m_chart;
    bool m_stale = false;   // the running search is for a scenario that has changed
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
};

} // namespace ts
