// SPDX-License-Identifier: MIT
#include "animationpanels.h"

#include "animationclock.h"
#include "animationcontrols.h"
#include "collectives.h"
#include "evaluate.h"
#include "formatting.h"
#include "pipelinetimelineview.h"
#include "ringview.h"
#include "schedules.h"
#include "steptimelineview.h"
#include "units.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace ts {

namespace {
constexpr int kDefaultRingRanks = 8;
constexpr long long kMaxDrawnPipelineOps = 20000;   // stages x micro-batches x chunks drawn

QLabel *noteLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}
} // namespace

AnimationPanel::AnimationPanel(QWidget *parent)
    : QWidget(parent)
    , m_clock(new AnimationClock(this))
    , m_controls(new AnimationControls(this))
{
    m_controls->setClock(m_clock);
    m_controls->setShortcutScope(this);   // Space, Left, Right, L while this tab has focus
    setFocusPolicy(Qt::StrongFocus);
}

void AnimationPanel::setScenario(const Scenario &scenario, const Evaluation &evaluation)
{
    m_scenario = scenario;
    m_evaluation = evaluation;
    m_dirty = true;
    if (isVisible()) {
        rebuild();
        m_dirty = false;
    }
}

void AnimationPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty) {
        rebuild();
        m_dirty = false;
    }
}

// ---- All-reduce ----

RingPanel::RingPanel(QWidget *parent)
    : AnimationPanel(parent)
    , m_view(new RingView(this))
    , m_algorithm(new QComboBox(this))
    , m_ranks(new QSpinBox(this))
    , m_size(new QComboBox(this))
    , m_note(noteLabel(this))
{
    m_algorithm->addItem(tr("Ring"), QStringLiteral("ring"));
    m_algorithm->addItem(tr("Hierarchical (2-level)"), QStringLiteral("hierarchical"));
    m_algorithm->addItem(tr("Tree"), QStringLiteral("tree"));
    m_algorithm->addItem(tr("In-network (SHARP)"), QStringLiteral("in_network"));
    m_algorithm->addItem(tr("NVLink SHARP (NVLS)"), QStringLiteral("nvls"));
    m_algorithm->setToolTip(tr("All-reduce algorithm to replay, timed on this scenario's fabric"));
    m_ranks->setRange(2, kMaxScheduleRanks);
    m_ranks->setValue(kDefaultRingRanks);
    m_ranks->setToolTip(tr("GPUs in the all-reduce group (2 to 16 are drawn one by one)"));
    m_size->addItem(tr("One DP bucket"), 0);
    m_size->addItem(tr("All gradients of a GPU"), 1);
    m_size->setToolTip(tr("Buffer being all-reduced"));
    auto *pickers = new QHBoxLayout;
    auto *form = new QFormLayout;
    form->addRow(tr("Algorithm"), m_algorithm);
    auto *form2 = new QFormLayout;
    form2->addRow(tr("GPUs"), m_ranks);
    auto *form3 = new QFormLayout;
    form3->addRow(tr("Buffer"), m_size);
    pickers->addLayout(form);
    pickers->addLayout(form2);
    pickers->addLayout(form3);
    pickers->addStretch(1);
    auto *column = new QVBoxLayout(this);
    column->addLayout(pickers);
    column->addWidget(m_view, 1);
    column->addWidget(m_note);
    column->addWidget(m_controls);
    auto changed = [this] {
        rebuild();
        m_dirty = false;
    };
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, changed);
    connect(m_ranks, &QSpinBox::valueChanged, this, changed);
    connect(m_size, &QComboBox::currentIndexChanged, this, changed);
    connect(m_clock, &AnimationClock::timeChanged, m_view, &RingView::setTime);
}

void RingPanel::setAlgorithm(const QString &name)
{
    const int i = m_algorithm->findData(name);
    if (i >= 0)
        m_algorithm->setCurrentIndex(i);
}

void RingPanel::setRanks(int ranks) { m_ranks->setValue(ranks); }

void RingPanel::setPresentationScale(double scale)
{
    m_view->setPresentationScale(scale);
    m_controls->setPresentationScale(scale);
}

void RingPanel::rebuild()
{
    if (!m_evaluation.feasible)
        return;
    const Cluster &cl = m_scenario.cluster;
    const QString name = m_algorithm->currentData().toString();
    const Algorithm algorithm = name == QLatin1String("hierarchical") ? Algorithm::Hierarchical
                                : name == QLatin1String("tree")       ? Algorithm::Tree
                                : name == QLatin1String("in_network") ? Algorithm::InNetwork
                                : name == QLatin1String("nvls")       ? Algorithm::Nvls
                                                                      : Algorithm::Ring;
    const int ranks = m_ranks->value();
    // The group's placement follows the plan's DP group: GPUs per node as in the cluster, at the
    // DP stride (TP x CP ranks apart).
    const Group group = groupOf(ranks, rankStride(m_scenario.plan, ParallelDim::Dp), cl.gpusPerNode);
    Fabric fabric = fabricOf(cl);
    if (algorithm == Algorithm::InNetwork)
        fabric.inNetworkReduction = true;   // show what SHARP would do on this fabric
    const double bytes = m_size->currentData().toInt() == 0 && m_evaluation.dpBucketBytes > 0
                             ? std::min(m_evaluation.dpBucketBytes, m_evaluation.gradientBytesPerGpu)
                             : m_evaluation.gradientBytesPerGpu;
    const CollectiveSchedule schedule = allReduceSchedule(algorithm, bytes, group, fabric);
    m_view->setSchedule(schedule);
    m_clock->setDuration(schedule.totalSeconds);
    m_controls->setStepBoundaries([schedule] { return stepStartTimes(schedule); });
    // What NCCL's tuner would run for this buffer on this fabric, and why (its bound).
    const CollectiveTime chosen = collectiveTime(Collective::AllReduce, Algorithm::Auto, bytes, group, fabricOf(cl));
    const QString nccl = tr("NCCL would run %1 with the %2 protocol here (%3, bound by %4)")
                             .arg(QLatin1String(nameOf(chosen.algorithm)), QLatin1String(nameOf(chosen.protocol)),
                                  fmt::seconds(chosen.seconds),
                                  chosen.interNode ? tr("the NICs") : tr("the intra-node links"));
    if (!schedule.error.empty())
        m_note->setText(QString::fromStdString(schedule.error) + QStringLiteral(". ") + nccl);
    else
        m_note->setText(tr("%1 GPUs, %2 per node; %3 of gradients; all-reduce %4 as drawn (%5 per step plus latency; "
                           "the step time uses NCCL's algorithm and protocol choice, see the Collectives table)")
                            .arg(group.ranks)
                            .arg(group.ranksPerNode)
                            .arg(fmt::bytes(bytes), fmt::seconds(schedule.totalSeconds),
                                 algorithm == Algorithm::Ring ? tr("chunk / bandwidth") : tr("bytes / bandwidth"))
                        + QStringLiteral(". ") + nccl);
}

// ---- Pipeline ----

PipelinePanel::PipelinePanel(QWidget *parent)
    : AnimationPanel(parent)
    , m_view(new PipelineTimelineView(this))
    , m_schedule(new QComboBox(this))
    , m_note(noteLabel(this))
{
    m_schedule->addItem(tr("As planned"), -1);
    m_schedule->addItem(tr("GPipe"), int(Schedule::GPipe));
    m_schedule->addItem(tr("1F1B"), int(Schedule::OneFOneB));
    m_schedule->addItem(tr("Interleaved 1F1B"), int(Schedule::Interleaved));
    m_schedule->addItem(tr("Zero bubble (ZB-H1)"), int(Schedule::ZeroBubbleH1));
    m_schedule->setToolTip(tr("Compare schedules on the same stage times"));
    auto *top = new QHBoxLayout;
    auto *form = new QFormLayout;
    form->addRow(tr("Schedule"), m_schedule);
    top->addLayout(form);
    top->addStretch(1);
    auto *column = new QVBoxLayout(this);
    column->addLayout(top);
    column->addWidget(m_view, 1);
    column->addWidget(m_note);
    column->addWidget(m_controls);
    connect(m_schedule, &QComboBox::currentIndexChanged, this, [this] {
        rebuild();
        m_dirty = false;
    });
    connect(m_clock, &AnimationClock::timeChanged, m_view, &PipelineTimelineView::setTime);
}

void PipelinePanel::setPresentationScale(double scale)
{
    m_view->setPresentationScale(scale);
    m_controls->setPresentationScale(scale);
}

void PipelinePanel::rebuild()
{
    if (!m_evaluation.feasible)
        return;
    const Plan &pl = m_scenario.plan;
    const int choice = m_schedule->currentData().toInt();
    const Schedule schedule = choice < 0 ? pl.schedule : Schedule(choice);
    int v = schedule == Schedule::Interleaved ? std::max(2, pl.virtualStages) : 1;
    const int p = pl.pp;
    const long long m = m_evaluation.microBatches;
    QString note;
    PipelineSimulation sim;
    if (p < 2) {
        sim.error = tr("No pipeline: PP = 1. Set more pipeline stages to see the schedule.").toStdString();
    } else if (double(p) * m * v > kMaxDrawnPipelineOps) {
        sim.error = tr("%1 stages x %2 micro-batches is too many to draw; lower the global batch or PP.").arg(p).arg(m).toStdString();
    } else if (std::string problem = pipelineProblem(schedule, p, m, v); !problem.empty()) {
        sim.error = problem;
    } else {
        // Every stage's own times from the evaluation (uneven splits drawn as they run): the same
        // F, B, W and p2p that give the step time.
        const std::vector<StageTimes> stages = pipelineStageTimes(m_scenario, m_evaluation);
        sim = simulatePipeline(schedule, p, int(m), v, stages);
        const int slowest = slowestStage(stages);
        const StageTimes &st = stages[size_t(slowest)];
        const bool uneven = std::any_of(stages.begin(), stages.end(), [&](const StageTimes &t) {
            return t.forwardSeconds != st.forwardSeconds || t.backwardSeconds != st.backwardSeconds;
        });
        const double closed = pipelineBubbleSeconds(schedule, v, stages);
        const double busy = double(m) * (st.forwardSeconds + st.backwardSeconds);
        m_view->setSimulation(sim, closed / (busy + closed), QLatin1String(nameOf(schedule)));
        note = tr("p = %1 stages, m = %2 micro-batches%3; F = %4, B = %5 per micro-batch %6; p2p %7")
                   .arg(p)
                   .arg(m)
                   .arg(v > 1 ? tr(", v = %1 chunks").arg(v) : QString())
                   .arg(fmt::seconds(st.forwardSeconds), fmt::seconds(st.backwardSeconds),
                        uneven ? tr("on the slowest stage (%1; uneven split, each stage drawn at its own times)").arg(slowest + 1)
                               : tr("per stage"),
                        fmt::seconds(st.p2pSeconds));
    }
    if (!sim.ok)
        m_view->setSimulation(sim, 0, QLatin1String(nameOf(schedule)));
    m_clock->setDuration(sim.ok ? sim.makespanSeconds : 0);
    m_controls->setStepBoundaries([sim] {
        std::vector<double> starts;
        for (const PipelineEvent &e : sim.events)
            starts.push_back(e.startSeconds);
        std::sort(starts.begin(), starts.end());
        starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
        return starts;
    });
    m_note->setText(sim.ok ? note : QString::fromStdString(sim.error));
}

// ---- Step timeline ----

StepTimelinePanel::StepTimelinePanel(QWidget *parent)
    : AnimationPanel(parent)
    , m_view(new StepTimelineView(this))
    , m_note(noteLabel(this))
{
    auto *column = new QVBoxLayout(this);
    column->addWidget(m_view, 1);
    column->addWidget(m_note);
    column->addWidget(m_controls);
    connect(m_clock, &AnimationClock::timeChanged, m_view, &StepTimelineView::setTime);
}

void StepTimelinePanel::setPresentationScale(double scale)
{
    m_view->setPresentationScale(scale);
    m_controls->setPresentationScale(scale);
}

void StepTimelinePanel::rebuild()
{
    if (!m_evaluation.feasible)
        return;
    Scenario on = m_scenario, off = m_scenario;
    on.plan.overlapDp = true;
    off.plan.overlapDp = false;
    const StepTimeline a = stepTimeline(on, on == m_scenario ? m_evaluation : evaluateForSearch(on));
    const StepTimeline b = stepTimeline(off, off == m_scenario ? m_evaluation : evaluateForSearch(off));
    m_view->setTimelines(a, b);
    m_clock->setDuration(std::max(a.stepSeconds, b.stepSeconds));
    m_controls->setStepBoundaries([a] {
        std::vector<double> starts;
        for (const LifecyclePhase &p : a.phases)
            starts.push_back(p.startSeconds);
        std::sort(starts.begin(), starts.end());
        return starts;
    });
    m_note->setText(a.error.empty() ? tr("One GPU of the first pipeline stage: overlap saves %1 per step.")
                                          .arg(fmt::seconds(b.stepSeconds - a.stepSeconds))
                                    : QString::fromStdString(a.error));
}

} // namespace ts
