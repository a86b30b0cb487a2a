// SPDX-License-Identifier: MIT
#include "plansearchpanel.h"

#include "formatting.h"
#include "memory.h"
#include "plantablemodel.h"
#include "steptimechart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

namespace ts {

PlanSearchPanel::PlanSearchPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new PlanTableModel(this))
    , m_table(new QTableView(this))
    , m_search(new QPushButton(tr("Search plans"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_apply(new QPushButton(tr("Apply selected plan"), this))
    , m_progress(new QProgressBar(this))
    , m_summary(new QLabel(this))
    , m_chart(new StepTimeChart(this))
{
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(Qt::UserRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_search->setToolTip(tr("Evaluate every valid plan for this model, cluster and global batch (runs in the background)"));
    m_cancel->setToolTip(tr("Stop the search"));
    m_apply->setToolTip(tr("Use the selected plan (undoable); double-click a row does the same"));
    m_cancel->setEnabled(false);
    m_apply->setEnabled(false);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Finds the plan with the shortest time to train the token budget among all that fit in memory."));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_search);
    buttons->addWidget(m_cancel);
    // The progress bar shows only while a search runs: an empty bar before the first search reads
    // as a text field.
    buttons->addWidget(m_progress, 1);
    buttons->addStretch(0);
    buttons->addWidget(m_apply);
    m_progress->hide();
    // The selected plan's step beside the current plan's.
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    m_chart->hide();
    auto *column = new QVBoxLayout(this);
    column->addLayout(buttons);
    column->addWidget(m_summary);
    column->addWidget(split, 1);
    connect(m_search, &QPushButton::clicked, this, &PlanSearchPanel::startSearch);
    connect(m_cancel, &QPushButton::clicked, this, &PlanSearchPanel::cancelSearch);
    auto selectedRow = [this, proxy] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        return rows.isEmpty() ? -1 : proxy->mapToSource(rows.first()).row();
    };
    connect(m_apply, &QPushButton::clicked, this, [this, selectedRow] { applyRow(selectedRow()); });
    connect(m_table, &QTableView::doubleClicked, this, [this, proxy](const QModelIndex &i) { applyRow(proxy->mapToSource(i).row()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, selectedRow] {
        const int row = selectedRow();
        m_apply->setEnabled(row >= 0 && !m_model->isCurrent(row));
        showBreakdown(row);
    });
}

void PlanSearchPanel::scenarioChanged()
{
    // Results belong to the scenario they were searched for.
    cancelSearch();
    m_stale = m_thread != nullptr;
    if (m_model->rowCount() == 0 && !m_stale)
        return;
    m_model->setPlans({});
    m_apply->setEnabled(false);
    m_chart->hide();
    m_summary->setText(tr("The scenario changed: search again to rank the plans for it."));
}

void PlanSearchPanel::showBreakdown(int row)
{
    const int current = m_model->currentRow();
    if (row < 0 || current < 0) {
        m_chart->setVisible(false);
        return;
    }
    QList<StepTimeBar> bars{{tr("Current plan"), {}, m_model->plan(current).breakdown, true}};
    if (row != current) {
        const Plan &p = m_model->plan(row).scenario.plan;
        const QString label = p.cp > 1 ? tr("Selected: TP %1 PP %2 DP %3 CP %4").arg(p.tp).arg(p.pp).arg(p.dp).arg(fmt::contextParallel(p))
                                       : tr("Selected: TP %1 PP %2 DP %3").arg(p.tp).arg(p.pp).arg(p.dp);
        bars << StepTimeBar{label, {}, m_model->plan(row).breakdown, false};
    }
    m_chart->setBars(bars);
    m_chart->setVisible(true);
}

PlanSearchPanel::~PlanSearchPanel()
{
    if (m_thread) {
        m_cancelFlag->store(true);
        m_thread->wait();
    }
}

void PlanSearchPanel::setJobSource(std::function<Job()> source) { m_jobSource = std::move(source); }

void PlanSearchPanel::startSearch()
{
    if (m_thread || !m_jobSource)
        return;
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_stale = false;
    m_search->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->show();
    m_summary->setText(tr("Searching…"));
    const Job job = m_jobSource();
    auto cancel = m_cancelFlag;
    QPointer<PlanSearchPanel> self(this);
    auto result = std::make_shared<PlanSearchResult>();
    m_thread = QThread::create([job, cancel, self, result] {
        *result = job([cancel, self](double fraction) {
            QMetaObject::invokeMethod(self, [self, fraction] {
                if (self)
                    self->m_progress->setValue(int(fraction * 1000));
            }, Qt::QueuedConnection);
            return !cancel->load();
        });
    });
    connect(m_thread, &QThread::finished, this, [this, result] { finish(*result); });
    m_thread->start();
}

void PlanSearchPanel::cancelSearch()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void PlanSearchPanel::finish(const PlanSearchResult &result)
{
    m_thread->deleteLater();
    m_thread = nullptr;
    m_search->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->hide();
    if (m_stale) {   // searched for a scenario that has changed since
        m_stale = false;
        emit searchFinished();
        return;
    }
    m_model->setPlans(result.best, result.currentFeasible ? &result.current : nullptr);
    m_table->sortByColumn(PlanTableModel::ColTrain, Qt::AscendingOrder);
    m_table->resizeColumnsToContents();
    QString text = tr("%1 plans evaluated in %2: %3 valid, %4 fit in memory.")
                       .arg(fmt::count(double(result.evaluated)), fmt::seconds(result.seconds), fmt::count(double(result.feasible)),
                            fmt::count(double(result.fitting)));
    if (result.currentFeasible && !result.best.empty()) {
        const double slower = result.current.trainSeconds / result.best.front().trainSeconds - 1;
        text += QLatin1Char(' ')
                + (result.fasterThanCurrent == 0
                       ? tr("Your current plan is the fastest that fits.")
                       : tr("Your current plan ranks %1 of %2: %3 slower than the best.")
                             .arg(fmt::count(double(result.fasterThanCurrent + 1)), fmt::count(double(result.fitting)),
                                  fmt::percent(slower)));
        if (!result.current.fits)
            text += QLatin1Char(' ') + tr("It does not fit in HBM with the %1 margin the search keeps.").arg(fmt::percent(memoryDefaults().planMarginFraction));
    }
    if (result.cancelled)
        text += tr(" Cancelled: the table shows the best found so far.");
    if (result.best.empty() && !result.cancelled)
        text += tr(" No plan fits in memory: add GPUs, pick a GPU with more memory, or shrink the model.");
    m_summary->setText(text);
    showBreakdown(-1);
    emit searchFinished();
}

void PlanSearchPanel::applyRow(int row)
{
    if (row >= 0 && row < m_model->rowCount() && !m_model->isCurrent(row))
        emit applyRequested(m_model->plan(row).scenario);
}

} // namespace ts
