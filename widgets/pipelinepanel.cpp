// SPDX-License-Identifier: MIT
#include "pipelinepanel.h"

#include "animationclock.h"
#include "animationcontrols.h"
#include "formatting.h"
#include "pipelinetimelineview.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace ts {

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
    m_schedule->addItem(tr("DualPipeV (V-shape, 2 chunks a rank)"), int(Schedule::DualPipeV));
    m_schedule->setToolTip(tr("Compare schedules on the same stage times"));
    auto *pickerRow = new QWidget(this);
    auto *top = new QHBoxLayout(pickerRow);
    top->setContentsMargins(0, 0, 0, 0);
    setPickers(pickerRow);
    auto *form = new QFormLayout;
    form->addRow(tr("Schedule"), m_schedule);
    top->addLayout(form);
    top->addStretch(1);
    auto *column = new QVBoxLayout(this);
    column->addWidget(pickerRow);
    column->addWidget(m_view, 1);
    column->addWidget(m_note);
    column->addWidget(m_controls);
    connect(m_schedule, &QComboBox::currentIndexChanged, this, &PipelinePanel::rebuildNow);
    connect(m_clock, &AnimationClock::timeChanged, m_view, &PipelineTimelineView::setTime);
    setAnimatedView(m_view);
}

void PipelinePanel::setSource(Source source)
{
    m_source = std::move(source);
    invalidate();
}

void PipelinePanel::rebuild()
{
    if (!m_source)
        return;
    const int choice = m_schedule->currentData().toInt();
    const PipelineDemo demo = m_source(choice < 0 ? std::nullopt : std::optional<Schedule>(Schedule(choice)));
    const PipelineSimulation &sim = demo.simulation;
    const QString name = QLatin1String(nameOf(demo.schedule));
    m_view->setSimulation(sim, sim.ok ? demo.closedFormBubbleFraction : 0.0, name);
    m_clock->setDuration(sim.ok ? sim.makespanSeconds : 0);
    m_controls->setStepBoundaries([sim] {
        std::vector<double> starts;
        for (const PipelineEvent &e : sim.events)
            starts.push_back(e.startSeconds);
        std::sort(starts.begin(), starts.end());
        starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
        return starts;
    });
    if (!sim.ok) {
        m_note->setText(QString::fromStdString(demo.error));
        return;
    }
    const StageTimes &st = demo.slowest;
    m_note->setText(tr("p = %1 stages, m = %2 micro-batches%3; F = %4, B = %5 per micro-batch %6; p2p %7. "
                       "Scroll over the drawing to zoom in time, double-click to see it all.")
                        .arg(demo.stages)
                        .arg(demo.microBatches)
                        .arg(demo.virtualStages > 1 ? tr(", v = %1 chunks").arg(demo.virtualStages) : QString())
                        .arg(fmt::seconds(st.forwardSeconds), fmt::seconds(st.backwardSeconds),
                             demo.uneven ? tr("on the slowest stage (%1; uneven split, each stage drawn at its own times)")
                                               .arg(demo.slowestStage + 1)
                                         : tr("per stage"),
                             fmt::seconds(st.p2pSeconds)));
}

} // namespace ts
