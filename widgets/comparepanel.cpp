// SPDX-License-Identifier: MIT
#include "comparepanel.h"

#include "chartdata.h"
#include "formatting.h"
#include "steptimechart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ts {

ComparePanel::ComparePanel(QWidget *parent)
    : QWidget(parent)
    , m_chart(new StepTimeChart(this))
    , m_figures(new QTableWidget(this))
    , m_inputs(new QTableWidget(this))
    , m_unpinRow(new QWidget(this))
{
    auto *hint = new QLabel(tr("Pin scenarios with View > Pin for Comparison (Ctrl+D): up to four, compared with the current one. "
                               "Double-click a pinned column's header to rename it; ★ marks the best plan that fits."), this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    for (QTableWidget *t : {m_figures, m_inputs}) {
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->setAlternatingRowColors(true);
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);   // names and values whole
        t->setWordWrap(false);
    }
    for (QTableWidget *t : {m_figures, m_inputs})
        connect(t->horizontalHeader(), &QHeaderView::sectionDoubleClicked, this, &ComparePanel::rename);
    auto *tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(m_figures);
    tables->addWidget(m_inputs);
    // The figures carry a value and its difference per pin; the differing inputs are a few short rows.
    tables->setStretchFactor(0, 2);
    tables->setStretchFactor(1, 1);
    new QHBoxLayout(m_unpinRow);
    auto *column = new QVBoxLayout(this);
    column->addWidget(hint);
    column->addWidget(m_unpinRow);
    column->addWidget(m_chart, 2);
    column->addWidget(tables, 3);
}

void ComparePanel::rename(int index)
{
    if (index < 0 || index >= m_pinnedNames.size())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename pinned plan"), tr("Name"), QLineEdit::Normal,
                                               m_pinnedNames[index], &ok).trimmed();
    if (ok && !name.isEmpty())
        emit renameRequested(index, name);
}

void ComparePanel::setScenarios(const QList<ComparedScenario> &pinned, const ComparedScenario &current)
{
    QList<ComparedScenario> all = pinned;
    all << current;
    m_pinnedNames.clear();
    for (const ComparedScenario &p : pinned)
        m_pinnedNames << p.name;
    QList<StepTimeBar> bars;
    for (const ComparedScenario &p : all)
        if (p.evaluation.feasible)
            bars << StepTimeBar{p.name, {}, p.evaluation.breakdown, &p == &all.back()};
    m_chart->setBars(bars);

    // Headline figures, one column per scenario; each pinned value with its difference to the
    // current plan, and the best of the row marked.
    struct Figure
    {
        const char *name;
        QString (*text)(const ComparedScenario &);
        double (*value)(const ComparedScenario &);   // nullptr: not compared
        bool lowerIsBetter;
    };
    // Time to train and GPU-hours as the headline cards give them.
    static const auto trainSeconds = [](const ComparedScenario &p) { return calendarTrainSeconds(p.evaluation, p.economics); };
    static const auto gpuHours = [](const ComparedScenario &p) { return calendarGpuHours(p.evaluation, p.economics); };
    static const Figure figures[] = {
        {QT_TR_NOOP("Step time"), [](const ComparedScenario &p) { return fmt::seconds(p.evaluation.breakdown.stepSeconds); },
         [](const ComparedScenario &p) { return p.evaluation.breakdown.stepSeconds; }, true},
        {QT_TR_NOOP("Time to train"), [](const ComparedScenario &p) { return fmt::duration(trainSeconds(p)); },
         [](const ComparedScenario &p) { return trainSeconds(p); }, true},
        {QT_TR_NOOP("GPU-hours"), [](const ComparedScenario &p) { return fmt::count(gpuHours(p)); },
         [](const ComparedScenario &p) { return gpuHours(p); }, true},
        {QT_TR_NOOP("MFU"), [](const ComparedScenario &p) { return fmt::mfu(p.evaluation.mfu, p.evaluation.flopsApplicable); },
         [](const ComparedScenario &p) { return p.evaluation.mfu; }, false},
        {QT_TR_NOOP("Tokens/s"), [](const ComparedScenario &p) { return fmt::count(p.evaluation.tokensPerSecond); },
         [](const ComparedScenario &p) { return p.evaluation.tokensPerSecond; }, false},
        {QT_TR_NOOP("Communication"), [](const ComparedScenario &p) { return fmt::percent(p.evaluation.communicationFraction); },
         [](const ComparedScenario &p) { return p.evaluation.communicationFraction; }, true},
        {QT_TR_NOOP("Pipeline efficiency"), [](const ComparedScenario &p) { return fmt::percent(p.evaluation.pipelineEfficiency); },
         [](const ComparedScenario &p) { return p.evaluation.pipelineEfficiency; }, false},
        {QT_TR_NOOP("Memory per GPU"), [](const ComparedScenario &p) { return fmt::memory(p.evaluation.memory.totalBytes); },
         [](const ComparedScenario &p) { return p.evaluation.memory.totalBytes; }, true},
        {QT_TR_NOOP("Fits in HBM"), [](const ComparedScenario &p) { return p.evaluation.memory.fits ? tr("yes") : tr("no"); }, nullptr,
         true},
    };
    QStringList headers;
    for (const ComparedScenario &p : all)
        headers << p.name;
    m_figures->clear();
    m_figures->setColumnCount(int(all.size()));
    m_figures->setRowCount(int(std::size(figures)));
    m_figures->setHorizontalHeaderLabels(headers);
    const ComparedScenario &now = all.back();
    for (int r = 0; r < int(std::size(figures)); ++r) {
        const Figure &f = figures[r];
        m_figures->setVerticalHeaderItem(r, new QTableWidgetItem(tr(f.name)));
        int best = -1;
        if (f.value)
            for (int c = 0; c < all.size(); ++c) {
                // Only plans that run and fit can win.
                if (!all[c].evaluation.feasible || !all[c].evaluation.memory.fits)
                    continue;
                const double v = f.value(all[c]);
                if (best < 0 || (f.lowerIsBetter ? v < f.value(all[best]) : v > f.value(all[best])))
                    best = c;
            }
        for (int c = 0; c < all.size(); ++c) {
            const Evaluation &e = all[c].evaluation;
            QString text = e.feasible ? f.text(all[c]) : tr("infeasible");
            const double change = f.value && e.feasible && now.evaluation.feasible && f.value(now) != 0 ? f.value(all[c]) / f.value(now) - 1 : 0.0;
            if (c + 1 < all.size() && std::abs(change) >= 0.0005)   // pinned: the difference to the current plan
                text += QStringLiteral("  (%1%2)").arg(change > 0 ? QStringLiteral("+") : QString(), fmt::percent(change));
            // Every plan as good as the best (ties included) is marked; alone, nothing is compared.
            const bool isBest = all.size() > 1 && best >= 0 && e.feasible && e.memory.fits
                                && std::abs(f.value(all[c]) - f.value(all[best])) <= 1e-9 * std::abs(f.value(all[best]));
            auto *item = new QTableWidgetItem(isBest ? QStringLiteral("★ ") + text : text);
            if (isBest) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setToolTip(tr("The best of the compared plans that fit"));
            }
            m_figures->setItem(r, c, item);
        }
    }
    // Inputs that differ between any two of them.
    QList<QMap<QString, QString>> flat;
    for (const ComparedScenario &p : all)
        flat << p.inputs;
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
    m_inputs->setVisible(!differing.isEmpty());   // alone, or pinned copies of the same inputs: nothing differs
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

} // namespace ts
