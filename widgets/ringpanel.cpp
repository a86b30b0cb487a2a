// SPDX-License-Identifier: MIT
#include "ringpanel.h"

#include "animationclock.h"
#include "animationcontrols.h"
#include "formatting.h"
#include "ringview.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ts {

namespace {
constexpr int kDefaultRingRanks = 8;
}

RingPanel::RingPanel(QWidget *parent)
    : AnimationPanel(parent)
    , m_view(new RingView(this))
    , m_algorithm(new QComboBox(this))
    , m_ranks(new QSpinBox(this))
    , m_size(new QComboBox(this))
    , m_note(noteLabel(this))
{
    m_algorithm->addItem(tr("Ring"), int(Algorithm::Ring));
    m_algorithm->addItem(tr("Hierarchical (2-level)"), int(Algorithm::Hierarchical));
    m_algorithm->addItem(tr("Tree"), int(Algorithm::Tree));
    m_algorithm->addItem(tr("In-network (SHARP)"), int(Algorithm::InNetwork));
    m_algorithm->addItem(tr("NVLink SHARP (NVLS)"), int(Algorithm::Nvls));
    m_algorithm->setToolTip(tr("All-reduce algorithm to replay, timed on this scenario's fabric"));
    m_ranks->setRange(2, kMaxScheduleRanks);
    m_ranks->setValue(kDefaultRingRanks);
    m_ranks->setToolTip(tr("GPUs in the all-reduce group (2 to 16 are drawn one by one)"));
    m_size->addItem(tr("One DP bucket"), 0);
    m_size->addItem(tr("All gradients of a GPU"), 1);
    m_size->setToolTip(tr("Buffer being all-reduced"));
    auto *pickerRow = new QWidget(this);
    auto *pickers = new QHBoxLayout(pickerRow);
    pickers->setContentsMargins(0, 0, 0, 0);
    setPickers(pickerRow);
    for (auto [label, widget] : {std::pair<QString, QWidget *>{tr("Algorithm"), m_algorithm}, {tr("GPUs"), m_ranks},
                                 {tr("Buffer"), m_size}}) {
        auto *form = new QFormLayout;
        form->addRow(label, widget);
        pickers->addLayout(form);
    }
    pickers->addStretch(1);
    auto *column = new QVBoxLayout(this);
    column->addWidget(pickerRow);
    column->addWidget(m_view, 1);
    column->addWidget(m_note);
    column->addWidget(m_controls);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, &RingPanel::rebuildNow);
    connect(m_ranks, &QSpinBox::valueChanged, this, &RingPanel::rebuildNow);
    connect(m_size, &QComboBox::currentIndexChanged, this, &RingPanel::rebuildNow);
    connect(m_clock, &AnimationClock::timeChanged, m_view, &RingView::setTime);
    setAnimatedView(m_view);
}

void RingPanel::setSource(Source source)
{
    m_source = std::move(source);
    invalidate();
}

void RingPanel::setAlgorithm(const QString &name)
{
    for (int i = 0; i < m_algorithm->count(); ++i)
        if (QLatin1String(nameOf(Algorithm(m_algorithm->itemData(i).toInt()))) == name)
            m_algorithm->setCurrentIndex(i);
}

void RingPanel::setRanks(int ranks) { m_ranks->setValue(ranks); }

RingRequest RingPanel::request() const
{
    return {Algorithm(m_algorithm->currentData().toInt()), m_ranks->value(), m_size->currentData().toInt() == 1};
}

void RingPanel::rebuild()
{
    if (!m_source)
        return;
    const RingRequest req = request();
    const RingDemo demo = m_source(req);
    if (!demo.error.empty())
        return;   // keeps the last drawing (the views show the last valid scenario greyed)
    const CollectiveSchedule &schedule = demo.schedule;
    m_view->setSchedule(schedule);
    m_clock->setDuration(schedule.totalSeconds);
    m_controls->setStepBoundaries([schedule] { return stepStartTimes(schedule); });
    // What NCCL's tuner would run for this buffer on this fabric, and why (its bound).
    const QString nccl = tr("NCCL would run %1 with the %2 protocol here (%3, bound by %4)")
                             .arg(QLatin1String(nameOf(demo.nccl.algorithm)), QLatin1String(nameOf(demo.nccl.protocol)),
                                  fmt::seconds(demo.nccl.seconds),
                                  demo.nccl.interNode ? tr("the NICs") : tr("the intra-node links"));
    if (!schedule.error.empty())
        m_note->setText(QString::fromStdString(schedule.error) + QStringLiteral(". ") + nccl);
    else
        m_note->setText(tr("%1 GPUs, %2 per node; %3 of gradients; all-reduce %4 as drawn (%5 per step plus latency; "
                           "the step time uses NCCL's algorithm and protocol choice, see the Collectives table)")
                            .arg(demo.group.ranks)
                            .arg(demo.group.ranksPerNode)
                            .arg(fmt::bytes(demo.bytes), fmt::seconds(schedule.totalSeconds),
                                 req.algorithm == Algorithm::Ring ? tr("chunk / bandwidth") : tr("bytes / bandwidth"))
                        + QStringLiteral(". ") + nccl);
}

} // namespace ts
