// SPDX-License-Identifier: MIT
#include "plansearchpanel.h"

#include "formatting.h"
#include "plantablemodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
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
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_apply);
    auto *column = new QVBoxLayout(this);
    column->addLayout(buttons);
    column->addWidget(m_summary);
    column->addWidget(m_table, 1);
    connect(m_search, &QPushButton::clicked, this, &PlanSearchPanel::startSearch);
    connect(m_cancel, &QPushButton::clicked, this, &PlanSearchPanel::cancelSearch);
    auto selectedRow = [this, proxy] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        return rows.isEmpty() ? -1 : proxy->mapToSource(rows.first()).row();
    };
    connect(m_apply, &QPushButton::clicked, this, [this, selectedRow] { applyRow(selectedRow()); });
    connect(m_table, &QTableView::doubleClicked, this, [this, proxy](const QModelIndex &i) { applyRow(proxy->mapToSource(i).row()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this, selectedRow] { m_apply->setEnabled(selectedRow() >= 0); });
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
    m_search->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
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
    m_progress->setValue(1000);
    m_model->setPlans(result.best);
    m_table->resizeColumnsToContents();
    QString text = tr("%1 plans evaluated in %2: %3 valid, %4 fit in memory.")
                       .arg(result.evaluated).arg(fmt::seconds(result.seconds)).arg(result.feasible).arg(result.fitting);
    if (result.cancelled)
        text += tr(" Cancelled: the table shows the best found so far.");
    if (result.best.empty() && !result.cancelled)
        text += tr(" No plan fits in memory: add GPUs, pick a GPU with more memory, or shrink the model.");
    m_summary->setText(text);
    emit searchFinished();
}

void PlanSearchPanel::applyRow(int row)
{
    if (row >= 0 && row < m_model->rowCount())
        emit applyRequested(m_model->plan(row).scenario);
}

} // namespace ts
