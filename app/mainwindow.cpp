// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "animationpanel.h"
#include "calibrationdialog.h"
#include "collectivestable.h"
#include "comparepanel.h"
#include "explanationview.h"
#include "headlinecards.h"
#include "help.h"
#include "layoutboundary.h"
#include "memorychart.h"
#include "parameterpanel.h"
#include "pipelinepanel.h"
#include "planmappanel.h"
#include "planmapview.h"
#include "plansearchpanel.h"
#include "planview.h"
#include "presenter.h"
#include "presentationmode.h"
#include "presets.h"
#include "ringpanel.h"
#include "scalingchart.h"
#include "scenariodocument.h"
#include "scenariofiles.h"
#include "scenarioio.h"
#include "settings.h"
#include "steptimechart.h"
#include "steptimelinepanel.h"
#include "warningsview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

namespace ts {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_doc(new ScenarioDocument(this))
    , m_panel(new ParameterPanel(this))
    , m_mainTabs(new QTabWidget(this))
    , m_plan(new PlanView(m_mainTabs))
    , m_planPage(new LayoutBoundary(m_plan, m_mainTabs))
    , m_ringPanel(new RingPanel(m_mainTabs))
    , m_pipelinePanel(new PipelinePanel(m_mainTabs))
    , m_stepPanel(new StepTimelinePanel(m_mainTabs))
    , m_planSearch(new PlanSearchPanel(m_mainTabs))
    , m_planMap(new PlanMapPanel(m_mainTabs))
    , m_compare(new ComparePanel(m_mainTabs))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    m_dock = new QDockWidget(tr("Parameters"), this);
    m_dock->setObjectName(QStringLiteral("ParametersDock"));
    m_dock->setWidget(m_panel);
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, m_dock);

    // In a layout boundary: a new figure on a card relays out the plan view, not the whole window
    // (the tab widget would repaint whole on each slider step).
    m_mainTabs->addTab(m_planPage, tr("Plan"));
    m_mainTabs->addTab(m_ringPanel, tr("All-reduce"));
    m_mainTabs->addTab(m_pipelinePanel, tr("Pipeline"));
    m_mainTabs->addTab(m_stepPanel, tr("Step timeline"));
    m_mainTabs->addTab(m_planSearch, tr("Plan search"));
    m_mainTabs->addTab(m_planMap, tr("Plan map"));
    m_mainTabs->addTab(m_compare, tr("Compare"));
    m_mainTabs->setDocumentMode(true);
    setCentralWidget(m_mainTabs);

    // The document answers every view; the views ask it, never the model.
    m_ringPanel->setSource([this](const RingRequest &r) { return m_doc->ringDemo(r); });
    m_pipelinePanel->setSource([this](std::optional<Schedule> s) { return m_doc->pipelineDemo(s); });
    m_stepPanel->setSource([this] { return m_doc->stepTimelines(); });
    m_planSearch->setJobSource([this] { return m_doc->planSearchJob(PlanSearchPanel::kPlansShown); });
    m_planMap->setSource([this](const PlanMapRequest &r) { return m_doc->planMap(r); });
    connect(m_planMap, &PlanMapPanel::cellChosen, m_doc, &ScenarioDocument::applyPlanMapCell);
    m_panel->setPresetLists(Presets::choices(Presets::Models), Presets::choices(Presets::Gpus), Presets::choices(Presets::Links));

    connect(m_mainTabs, &QTabWidget::currentChanged, this, [this] { refreshCompare(); });
    connect(m_planSearch, &PlanSearchPanel::applyRequested, this,
            [this](const Scenario &s) { editScenario(s, tr("Apply searched plan")); });
    connect(m_compare, &ComparePanel::unpinRequested, this, &MainWindow::unpin);
    connect(m_compare, &ComparePanel::renameRequested, this, [this](int i, const QString &name) {
        m_pinned[i].name = name;
        refreshCompare();
    });
    connect(m_panel, &ParameterPanel::fieldEdited, this, [this](Field f, double v) { editField(f, v, false); });
    connect(m_panel, &ParameterPanel::editFinished, m_doc, &ScenarioDocument::finishEdit);
    connect(m_panel, &ParameterPanel::presetChosen, this, [this](const QString &kind, const QString &name) {
        QString error;
        if (!m_doc->choosePreset(kind, name, &error))
            statusBar()->showMessage(error);
    });
    connect(m_doc, &ScenarioDocument::changed, this, &MainWindow::refreshViews);
    connect(m_doc, &ScenarioDocument::modificationChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &ScenarioDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_plan, &PlanView::explanationRequested, this, &MainWindow::showExplanation);
    connect(m_plan->warnings(), &WarningsView::applyRequested, this, &MainWindow::applyWarning);

    createMenus();
    restoreGeometry(settings::windowGeometry.get());
    restoreState(settings::windowState.get());
    if (settings::windowGeometry.get().isEmpty()) {   // first start: most of the screen, at most 1600x1000
        const QSize available = screen()->availableGeometry().size() * 0.92;
        resize(QSize(1600, 1000).boundedTo(available).expandedTo(minimumSizeHint()));
    }
    m_files->openFile(ScenarioFiles::kDefaultScenario, false);
}

MainWindow::~MainWindow() = default;

HeadlineCards *MainWindow::cards() const { return m_plan->cards(); }
StepTimeChart *MainWindow::stepTimeChart() const { return m_plan->stepChart(); }
WarningsView *MainWindow::warningsView() const { return m_plan->warnings(); }
ExplanationView *MainWindow::explanationView() const { return m_plan->explanation(); }
QWidget *MainWindow::viewsWidget() const { return m_plan; }

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newAction = file->addAction(tr("&New"), QKeySequence::New);
    QAction *openAction = file->addAction(tr("&Open…"), QKeySequence::Open);
    m_files = new ScenarioFiles(m_doc, this, file->addMenu(tr("Open &Recent")));
    connect(newAction, &QAction::triggered, m_files, &ScenarioFiles::newScenario);
    connect(openAction, &QAction::triggered, m_files, &ScenarioFiles::open);
    file->addAction(tr("&Save"), QKeySequence::Save, m_files, &ScenarioFiles::save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, m_files, &ScenarioFiles::saveAs);
    file->addSeparator();
    file->addAction(tr("&Calibrate from nccl-tests…"), this, [this] { openCalibration(); });
    file->addSeparator();
    file->addAction(tr("&Export Views…"), QKeySequence(tr("Ctrl+E")), this, [this] { exportViewsAs(this, slideViews(), m_doc->name()); });
    file->addAction(tr("Export &Report (PDF)…"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] {
        exportReportAs(this, {m_doc->lastValidScenario(), m_doc->lastValidEvaluation(), m_doc->name(), m_doc->description(),
                              m_doc->notes(), m_pinned});
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_doc->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_doc->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addActions({undo, redo});

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_presentation = new PresentationMode(this, m_dock, animationPanels());
    view->addAction(m_presentation->action());
    QAction *dockAction = m_dock->toggleViewAction();
    dockAction->setText(tr("Pa&rameters Panel"));
    dockAction->setShortcut(QKeySequence(tr("Ctrl+P")));
    view->addAction(dockAction);
    view->addSeparator();
    // Space, Left, Right and L drive the animation of the tab that has focus (AnimationControls).
    view->addAction(tr("P&in for Comparison"), QKeySequence(tr("Ctrl+D")), this, [this] { pinCurrent(); });
    view->addSeparator();
    for (int i = 0; i < m_mainTabs->count(); ++i)
        view->addAction(m_mainTabs->tabText(i), this, [this, i] { m_mainTabs->setCurrentIndex(i); })
            ->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));

    fillPresetsMenu(menuBar()->addMenu(tr("&Presets")), m_doc, m_files);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Tour of the Tabs"), this, [this] { QMessageBox::information(this, tr("Tour of the tabs"), help::tourHtml()); });
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this,
                    [this] { QMessageBox::information(this, tr("Keyboard shortcuts"), help::shortcutsHtml()); });
    help->addAction(tr("&About Trainscope"), this, [this] { QMessageBox::about(this, tr("About Trainscope"), help::aboutHtml()); });
}

void MainWindow::editScenario(const Scenario &scenario, const QString &text)
{
    m_doc->edit(scenario, text);
    m_doc->finishEdit();
}

void MainWindow::editField(Field field, double value, bool finished)
{
    m_doc->edit(field, value);
    if (finished)
        m_doc->finishEdit();
}

void MainWindow::refreshViews(const DocumentChange &change)
{
    const Scenario &s = m_doc->scenario();
    const Evaluation &e = m_doc->evaluation();
    const bool stale = !e.feasible;
    // While the inputs are invalid, the views keep the last valid picture, greyed.
    const Analysis &va = stale ? m_doc->lastValidAnalysis() : m_doc->analysis();
    const Evaluation &ve = va.evaluation;
    // The input the user just changed: one field alone (a loaded file or a preset changes many,
    // and then the reason shows only at the input it names).
    Field changed = Field::None;
    if (change.fields.count() == 1 && !change.otherInputs)
        for (int f = 0; f < int(Field::Count) && changed == Field::None; ++f)
            if (change.fields.test(size_t(f)))
                changed = Field(f);
    m_panel->setScenario(s, m_doc->analysis().degrees, m_doc->fieldValue(Field::Parameters),
                         m_doc->notes().join(QLatin1Char('\n')), e.problem, changed);
    if (ve.feasible) {
        m_panel->setEffectiveBucket(ve.dpBucketBytes);
        m_plan->cards()->setCards(headlineCards(va.scenario, ve, va.economics));
        m_plan->stepChart()->setBars(stepTimeVariants(va));
        m_plan->scalingChart()->setData(scalingData(va));
        m_plan->memoryChart()->setBars(memoryBars(va));
        m_plan->collectives()->setTitle(collectivesTitle(va));
        m_plan->collectives()->setRows(collectiveRows(va));
        if (!m_explainedId.isEmpty())
            m_plan->explanation()->setExplanation(explanationText(m_doc->explanation(m_explainedId.toStdString())));
        for (AnimationPanel *panel : animationPanels())   // each rebuilds only while shown
            panel->invalidate();
    }
    refreshCompare();
    m_planSearch->scenarioChanged();
    m_planMap->invalidate();   // live: rebuilt on every change while shown
    m_plan->warnings()->setWarnings(stale ? QList<WarningItem>{invalidPlanItem(e.problem, m_doc->canRepair())}
                                          : warningItems(m_doc->analysis()));
    m_plan->setStale(stale);
    if (stale)
        statusBar()->showMessage(tr("The plan cannot run: %1 (the figures are the last valid plan's)")
                                     .arg(problemInWords(e.problem)));
    else
        statusBar()->clearMessage();
    updateTitle();
}

void MainWindow::refreshCompare()
{
    if (m_mainTabs->currentWidget() != m_compare)
        return;   // rebuilt when shown
    auto compared = [](const PinnedScenario &p) {
        return ComparedScenario{p.name, p.evaluation, scenarioInputs(p.scenario), p.economics};
    };
    QList<ComparedScenario> pinned;
    for (const PinnedScenario &p : m_pinned)
        pinned << compared(p);
    m_compare->setScenarios(pinned, compared({tr("Current"), m_doc->scenario(), m_doc->evaluation(), m_doc->analysis().economics}));
}

bool MainWindow::pinCurrent()
{
    if (m_pinned.size() >= ComparePanel::kMaxPinned) {
        statusBar()->showMessage(tr("At most %1 scenarios can be pinned: unpin one first.").arg(ComparePanel::kMaxPinned), 5000);
        return false;
    }
    const Plan &p = m_doc->scenario().plan;   // named by what tells pins apart: the plan
    const QString name = tr("%1: TP %2 PP %3 DP %4 on %5").arg(m_pinned.size() + 1).arg(p.tp).arg(p.pp).arg(p.dp).arg(m_doc->scenario().cluster.gpus);
    m_pinned << PinnedScenario{name, m_doc->scenario(), m_doc->evaluation(), m_doc->analysis().economics};
    statusBar()->showMessage(tr("Pinned for comparison (%1 of %2)").arg(m_pinned.size()).arg(ComparePanel::kMaxPinned), 3000);
    refreshCompare();
    return true;
}

void MainWindow::unpin(int index)
{
    if (index >= 0 && index < m_pinned.size())
        m_pinned.removeAt(index);
    refreshCompare();
}

CalibrationDialog *MainWindow::openCalibration()
{
    if (!m_calibration) {
        m_calibration = new CalibrationDialog({&readNcclLogFile, [this](const NcclLog &log) { return m_doc->fitTier(log); }}, this);
        connect(m_calibration, &CalibrationDialog::applyRequested, this, [this](const std::vector<TierFit> &fits) {
            editScenario(withFits(m_doc->scenario(), fits), tr("Apply fabric calibration"));
        });
    }
    m_calibration->refresh();   // fitted against the scenario's cluster as it is now
    m_calibration->show();
    m_calibration->raise();
    return m_calibration;
}

QList<SlideView> MainWindow::slideViews() const
{
    // The active tab's views, each on its own: the Plan tab's charts, or the tab's drawing.
    QWidget *tab = m_mainTabs->currentWidget();
    if (tab == m_planPage)
        return m_plan->slideViews();
    const QString caption = m_mainTabs->tabText(m_mainTabs->currentIndex());
    QWidget *view = tab == m_planMap ? static_cast<QWidget *>(m_planMap->view()) : tab;
    if (auto *panel = qobject_cast<AnimationPanel *>(tab))
        view = panel->drawing();
    return {{caption, caption.toLower().replace(QLatin1Char(' '), QLatin1Char('-')), view}};
}

QList<AnimationPanel *> MainWindow::animationPanels() const { return {m_ringPanel, m_pipelinePanel, m_stepPanel}; }

void MainWindow::setPresentationMode(bool on) { m_presentation->setOn(on); }

void MainWindow::showExplanation(const QString &id)
{
    m_explainedId = id;
    m_plan->explanation()->setExplanation(explanationText(m_doc->explanation(id.toStdString())));
    m_plan->showExplanationTab();
}

void MainWindow::applyWarning(int index)
{
    if (!m_doc->evaluation().feasible)
        m_doc->repair();   // the one item is the invalid plan
    else
        m_doc->applyWarning(index);
}

bool MainWindow::openFile(const QString &path, bool interactive) { return m_files->openFile(path, interactive); }
bool MainWindow::saveTo(const QString &path) { return m_files->saveTo(path); }
void MainWindow::offerAutosaveRecovery() { m_files->offerRecovery(); }

void MainWindow::updateTitle()
{
    QString title = m_doc->filePath().isEmpty() ? m_doc->name() : QFileInfo(m_doc->filePath()).fileName();
    setWindowTitle(tr("%1[*] — Trainscope").arg(title.isEmpty() ? tr("Untitled") : title));
    setWindowModified(m_doc->isModified());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_files->maybeSave()) {
        event->ignore();
        return;
    }
    settings::windowGeometry.set(saveGeometry());
    settings::windowState.set(saveState());
    m_files->closing();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    if (m_files->maybeSave())
        m_files->openFile(event->mimeData()->urls().first().toLocalFile());
    event->acceptProposedAction();
}

} // namespace ts
