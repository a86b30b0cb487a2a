// SPDX-License-Identifier: MIT
#include "capacitypanels.h"

#include "calibrationchart.h"
#include "chartdata.h"
#include "evaluate.h"
#include "formatting.h"
#include "scenarioio.h"
#include "steptimechart.h"

#include "theme.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

namespace ts {

namespace {
constexpr int kPlansShown = 50;

enum PlanColumn { ColTp, ColPp, ColDp, ColCp, ColMicro, ColSchedule, ColZero, ColRecompute, ColOverlap, ColStep, ColTrain,
                  ColMfu, ColMemory, ColComm, ColumnCount };

// Flattens a scenario's JSON into "section.key" -> text, for the table of differing inputs.
QMap<QString, QString> flatten(const QJsonObject &o, const QString &prefix = {})
{
    QMap<QString, QString> out;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject())
            out.insert(flatten(it.value().toObject(), key));
        else
            out.insert(key, it.value().toVariant().toString());
    }
    return out;
}
} // namespace

// ---- Plan table ----

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
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *names[] = {"TP", "PP", "DP", "CP", "b", "Schedule", "ZeRO", "Recompute", "Overlap", "Step",
                                  "Time to train", "MFU", "Memory/GPU", "Comm."};
    return tr(names[section]);
}

QVariant PlanTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
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

// ---- Plan search ----

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

void PlanSearchPanel::setScenario(const Scenario &scenario) { m_base = scenario; }

void PlanSearchPanel::startSearch()
{
    if (m_thread)
        return;
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_search->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_summary->setText(tr("Searching…"));
    const Scenario base = m_base;
    auto cancel = m_cancelFlag;
    QPointer<PlanSearchPanel> self(this);
    auto result = std::make_shared<PlanSearchResult>();
    m_thread = QThread::create([base, cancel, self, result] {
        PlanSearchOptions options;
        options.top = kPlansShown;
        *result = searchPlans(base, options, [cancel, self](double fraction) {
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

// ---- Comparison ----

ComparePanel::ComparePanel(QWidget *parent)
    : QWidget(parent)
    , m_chart(new StepTimeChart(this))
    , m_figures(new QTableWidget(this))
    , m_inputs(new QTableWidget(this))
    , m_unpinRow(new QWidget(this))
{
    auto *hint = new QLabel(tr("Pin scenarios with View > Pin for Comparison (Ctrl+D): up to four, compared with the current one."), this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    for (QTableWidget *t : {m_figures, m_inputs}) {
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->setAlternatingRowColors(true);
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    }
    auto *tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(m_figures);
    tables->addWidget(m_inputs);
    new QHBoxLayout(m_unpinRow);
    auto *column = new QVBoxLayout(this);
    column->addWidget(hint);
    column->addWidget(m_unpinRow);
    column->addWidget(m_chart, 1);
    column->addWidget(tables, 1);
}

void ComparePanel::setScenarios(const QList<PinnedScenario> &pinned, const PinnedScenario &current)
{
    QList<PinnedScenario> all = pinned;
    all << current;
    QList<StepTimeBar> bars;
    for (const PinnedScenario &p : all)
        if (p.evaluation.feasible)
            bars << StepTimeBar{p.name, {}, p.evaluation.breakdown, &p == &all.back()};
    m_chart->setBars(bars);

    // Headline figures, one column per scenario.
    struct Figure
    {
        const char *name;
        QString (*text)(const Evaluation &);
    };
    static const Figure figures[] = {
        {QT_TR_NOOP("Step time"), [](const Evaluation &e) { return fmt::seconds(e.breakdown.stepSeconds); }},
        {QT_TR_NOOP("Time to train"), [](const Evaluation &e) { return fmt::duration(e.trainSeconds); }},
        {QT_TR_NOOP("GPU-hours"), [](const Evaluation &e) { return fmt::count(e.gpuHours); }},
        {QT_TR_NOOP("MFU"), [](const Evaluation &e) { return fmt::percent(e.mfu); }},
        {QT_TR_NOOP("Tokens/s"), [](const Evaluation &e) { return fmt::count(e.tokensPerSecond); }},
        {QT_TR_NOOP("Communication"), [](const Evaluation &e) { return fmt::percent(e.communicationFraction); }},
        {QT_TR_NOOP("Pipeline efficiency"), [](const Evaluation &e) { return fmt::percent(e.pipelineEfficiency); }},
        {QT_TR_NOOP("Memory per GPU"), [](const Evaluation &e) { return fmt::bytes(e.memory.totalBytes); }},
        {QT_TR_NOOP("Fits in HBM"), [](const Evaluation &e) { return e.memory.fits ? tr("yes") : tr("no"); }},
    };
    QStringList headers;
    for (const PinnedScenario &p : all)
        headers << p.name;
    m_figures->clear();
    m_figures->setColumnCount(int(all.size()));
    m_figures->setRowCount(int(std::size(figures)));
    m_figures->setHorizontalHeaderLabels(headers);
    for (int r = 0; r < int(std::size(figures)); ++r) {
        m_figures->setVerticalHeaderItem(r, new QTableWidgetItem(tr(figures[r].name)));
        for (int c = 0; c < all.size(); ++c)
            m_figures->setItem(r, c, new QTableWidgetItem(all[c].evaluation.feasible ? figures[r].text(all[c].evaluation)
                                                                                      : tr("infeasible")));
    }
    // Inputs that differ between any two of them.
    QList<QMap<QString, QString>> flat;
    for (const PinnedScenario &p : all)
        flat << flatten(scenarioToJson(p.scenario));
    QStringList differing;
    for (auto it = flat.front().begin(); it != flat.front().end(); ++it)
        for (const auto &other : flat)
            if (other.value(it.key()) != it.value()) {
                differing << it.key();
                break;
            }
    m_inputs->clear();
    m_inputs->setColumnCount(int(all.size()));
    m_inputs->setRowCount(int(differing.size()));
    m_inputs->setHorizontalHeaderLabels(headers);
    for (int r = 0; r < differing.size(); ++r) {
        m_inputs->setVerticalHeaderItem(r, new QTableWidgetItem(differing[r]));
        for (int c = 0; c < flat.size(); ++c)
            m_inputs->setItem(r, c, new QTableWidgetItem(flat[c].value(differing[r])));
    }
    // One "Unpin" button per pinned scenario.
    QLayout *row = m_unpinRow->layout();
    while (QLayoutItem *item = row->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (int i = 0; i < pinned.size(); ++i) {
        auto *button = new QPushButton(tr("Unpin %1").arg(pinned[i].name), m_unpinRow);
        connect(button, &QPushButton::clicked, this, [this, i] { emit unpinRequested(i); });
        row->addWidget(button);
    }
    m_unpinRow->setVisible(!pinned.isEmpty());
}

// ---- Calibration ----

CalibrationDialog::CalibrationDialog(QWidget *parent)
    : QDialog(parent)
    , m_table(new QTableWidget(this))
    , m_chart(new CalibrationChart(this))
    , m_error(new QLabel(this))
    , m_apply(new QPushButton(tr("Apply to scenario"), this))
{
    setWindowTitle(tr("Calibrate fabric from nccl-tests"));
    auto *add = new QPushButton(tr("Add logs…"), this);
    add->setToolTip(tr("all_reduce_perf, all_gather_perf, reduce_scatter_perf ... output, as printed (NCCL INFO lines are fine)"));
    m_apply->setToolTip(tr("Use the fitted latency and bandwidth for each tier (undoable)"));
    m_apply->setEnabled(false);
    auto *close = new QPushButton(tr("Close"), this);
    m_error->setWordWrap(true);
    QPalette warn = m_error->palette();
    warn.setColor(QPalette::WindowText, theme::errorColor());
    m_error->setPalette(warn);
    m_table->setColumnCount(8);
    m_table->setHorizontalHeaderLabels({tr("Log"), tr("Tier"), tr("Collective"), tr("Ranks"), tr("Sizes"), tr("Latency per step"),
                                        tr("Link (per direction)"), tr("Residual (rms / max)")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    buttons->addWidget(close);
    auto *column = new QVBoxLayout(this);
    column->addWidget(m_table);
    column->addWidget(m_chart, 1);
    column->addWidget(m_error);
    column->addLayout(buttons);
    resize(900, 700);
    connect(add, &QPushButton::clicked, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("nccl-tests logs"), QString(),
                                                                tr("Logs (*.log *.txt *.out);;All files (*)"));
        if (!paths.isEmpty())
            addLogs(paths);
    });
    connect(m_apply, &QPushButton::clicked, this, [this] { emit applyRequested(m_fits); });
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
}

QString CalibrationDialog::addLogs(const QStringList &paths)
{
    QString firstError;
    for (const QString &path : paths) {
        QFile file(path);
        std::vector<NcclLog> logs;
        ParseError error;
        if (!file.open(QIODevice::ReadOnly))
            error.message = QStringLiteral("cannot open %1: %2").arg(path, file.errorString()).toStdString();
        else if (parseNcclLogs(file.readAll().toStdString(), QFileInfo(path).fileName().toStdString(), &logs, &error)) {
            m_logs.insert(m_logs.end(), logs.begin(), logs.end());   // several collectives: one row each
            continue;
        }
        if (firstError.isEmpty())
            firstError = QString::fromStdString(error.message);
    }
    m_error->setText(firstError);
    m_error->setVisible(!firstError.isEmpty());
    refresh();
    return firstError;
}

void CalibrationDialog::setCluster(const Cluster &cluster)
{
    m_cluster = cluster;
    refresh();
}

void CalibrationDialog::refresh()
{
    m_fits.clear();
    QList<CalibrationSeries> series;
    m_table->setRowCount(int(m_logs.size()));
    for (size_t i = 0; i < m_logs.size(); ++i) {
        const TierFit fit = fitTier(m_logs[i], m_cluster);
        m_fits.push_back(fit);
        const int r = int(i);
        auto set = [this, r](int c, const QString &text) { m_table->setItem(r, c, new QTableWidgetItem(text)); };
        set(0, QString::fromStdString(fit.source));
        set(1, QString::fromStdString(fit.tier));
        set(2, QString::fromLatin1(nameOf(fit.collective)));
        set(3, QString::number(fit.ranks));
        set(4, QString::number(fit.points));
        set(5, fit.error.empty() ? fmt::seconds(fit.latencySeconds) + (fit.latencyIdentified ? QString() : tr(" (kept)"))
                                 : QString::fromStdString(fit.error));
        set(6, fit.error.empty() ? tr("%1 (%2 of line rate)").arg(fmt::bandwidth(fit.linkBytesPerSecond),
                                                                 fmt::percent(fit.linkBytesPerSecond / fit.lineRateBytesPerSecond))
                                 : QString());
        QString notes;
        for (const std::string &n : fit.notes)
            notes += QString::fromStdString(n) + QLatin1Char('\n');
        set(7, fit.error.empty() ? fmt::percent(fit.rmsRelativeResidual) + QStringLiteral(" / ") + fmt::percent(fit.maxRelativeResidual)
                                 : QString());
        // What the fit could not explain (latency not identifiable, capped at line rate, poor regime).
        for (int c = 0; c < m_table->columnCount(); ++c)
            if (QTableWidgetItem *item = m_table->item(r, c))
                item->setToolTip(notes.trimmed());
        if (!notes.isEmpty())
            m_table->item(r, 0)->setText(m_table->item(r, 0)->text() + QStringLiteral(" ⚠"));
        CalibrationSeries s;
        s.name = QString::fromStdString(fit.source);
        for (const NcclSample &sample : m_logs[i].samples)
            if (sample.bytes > 0) {
                s.bytes.push_back(sample.bytes);
                s.measuredSeconds.push_back(sample.seconds);
            }
        s.fittedSeconds = fit.fittedSeconds;
        series << s;
    }
    m_table->resizeColumnsToContents();
    m_chart->setSeries(series);
    m_apply->setEnabled(!m_fits.empty() && std::all_of(m_fits.begin(), m_fits.end(), [](const TierFit &f) { return f.error.empty(); }));
}

} // namespace ts
