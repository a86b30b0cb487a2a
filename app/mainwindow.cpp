// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "animationclock.h"
#include "pipelinepanel.h"
#include "ringpanel.h"
#include "steptimelinepanel.h"
#include "calibration.h"
#include "calibrationdialog.h"
#include "comparepanel.h"
#include "plansearchpanel.h"
#include "collectivestable.h"
#include "evaluate.h"
#include "explanationview.h"
#include "headlinecards.h"
#include "memorychart.h"
#include "presenter.h"
#include "presets.h"
#include "report.h"
#include "scalingchart.h"
#include "scenariodocument.h"
#include "scenarioedit.h"
#include "scenarioio.h"
#include "settings.h"
#include "shape.h"
#include "steptimechart.h"
#include "warningsview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

namespace ts {

namespace {
constexpr int kAutosaveDelayMs = 2000;   // after the last edit
const QString kDefaultScenario = QStringLiteral(":/scenarios/default.json");
const QString kFileFilter = QStringLiteral("Trainscope scenarios (*.json);;All files (*)");
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_doc(new ScenarioDocument(this))
    , m_panel(new ParameterPanel(this))
    , m_views(new QWidget(this))
    , m_cards(new HeadlineCards(m_views))
    , m_stepChart(new StepTimeChart(m_views))
    , m_scalingChart(new ScalingChart(m_views))
    , m_memoryChart(new MemoryChart(m_views))
    , m_collectives(new CollectivesView(m_views))
    , m_warnings(new WarningsView(m_views))
    , m_explanation(new ExplanationView(m_views))
    , m_tabs(new QTabWidget(m_views))
    , m_mainTabs(new QTabWidget(this))
    , m_ringPanel(new RingPanel(m_mainTabs))
    , m_pipelinePanel(new PipelinePanel(m_mainTabs))
    , m_stepPanel(new StepTimelinePanel(m_mainTabs))
    , m_planSearch(new PlanSearchPanel(m_mainTabs))
    , m_compare(new ComparePanel(m_mainTabs))
    , m_autosaveTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);

    auto *dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(QStringLiteral("ParametersDock"));
    dock->setWidget(m_panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    m_tabs->addTab(m_warnings, tr("Warnings"));
    m_tabs->addTab(m_explanation, tr("Explain"));
    m_tabs->addTab(m_collectives, tr("Collectives"));
    auto *grid = new QGridLayout();
    grid->setSpacing(8);
    grid->addWidget(m_stepChart, 0, 0);
    grid->addWidget(m_scalingChart, 0, 1);
    grid->addWidget(m_memoryChart, 1, 0);
    grid->addWidget(m_tabs, 1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    auto *column = new QVBoxLayout(m_views);
    column->setContentsMargins(8, 8, 8, 8);
    column->addWidget(m_cards);
    column->addLayout(grid, 1);
    m_mainTabs->addTab(m_views, tr("Plan"));
    m_mainTabs->addTab(m_ringPanel, tr("All-reduce"));
    m_mainTabs->addTab(m_pipelinePanel, tr("Pipeline"));
    m_mainTabs->addTab(m_stepPanel, tr("Step timeline"));
    m_mainTabs->addTab(m_planSearch, tr("Plan search"));
    m_mainTabs->addTab(m_compare, tr("Compare"));
    connect(m_mainTabs, &QTabWidget::currentChanged, this, [this] { refreshCompare(); });
    connect(m_planSearch, &PlanSearchPanel::applyRequested, this, [this](const Scenario &s) {
        m_doc->edit(s, tr("Apply searched plan"));
        m_doc->finishEdit();
    });
    connect(m_compare, &ComparePanel::unpinRequested, this, &MainWindow::unpin);
    // The teaching tabs ask the document for what to replay.
    m_ringPanel->setSource([this](const RingRequest &r) { return m_doc->ringDemo(r); });
    m_pipelinePanel->setSource([this](std::optional<Schedule> s) { return m_doc->pipelineDemo(s); });
    m_stepPanel->setSource([this] { return m_doc->stepTimelines(); });
    m_planSearch->setJobSource([this] { return m_doc->planSearchJob(PlanSearchPanel::kPlansShown); });
    m_mainTabs->setDocumentMode(true);
    setCentralWidget(m_mainTabs);

    const Presets &presets = Presets::builtin();
    auto choices = [&](Presets::Kind kind) {
        QList<PresetChoice> out;
        for (const QJsonObject &o : presets.all(kind))
            out << PresetChoice{o.value(QLatin1String("name")).toString(), o.value(QLatin1String("label")).toString()};
        return out;
    };
    m_panel->setPresetLists(choices(Presets::Models), choices(Presets::Gpus), choices(Presets::Links));

    connect(m_panel, &ParameterPanel::fieldEdited, this, [this](Field f, double v) { editField(f, v, false); });
    connect(m_panel, &ParameterPanel::editFinished, m_doc, &ScenarioDocument::finishEdit);
    connect(m_panel, &ParameterPanel::presetChosen, this, [this](const QString &kind, const QString &name) {
        Scenario s = m_doc->scenario();
        QString error;
        if (!applyPreset(&s, kind, name, &error)) {
            statusBar()->showMessage(error);
            return;
        }
        m_doc->edit(s, tr("Choose %1").arg(name));
        m_doc->finishEdit();
    });
    connect(m_doc, &ScenarioDocument::changed, this, &MainWindow::refreshViews);
    connect(m_doc, &ScenarioDocument::changed, m_autosaveTimer, qOverload<>(&QTimer::start));
    connect(m_doc, &ScenarioDocument::modificationChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &ScenarioDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_cards, &HeadlineCards::activated, this, &MainWindow::showExplanation);
    connect(m_stepChart, &StepTimeChart::partActivated, this, &MainWindow::showExplanation);
    connect(m_memoryChart, &MemoryChart::partActivated, this, &MainWindow::showExplanation);
    connect(m_warnings, &WarningsView::applyRequested, this, &MainWindow::applyWarning);

    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(kAutosaveDelayMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::writeAutosave);

    createActions();
    restoreGeometry(settings::windowGeometry.get());
    restoreState(settings::windowState.get());
    if (settings::windowGeometry.get().isEmpty())
        resize(1600, 1000);

    ScenarioError error;
    if (auto loaded = loadScenarioFile(kDefaultScenario, &error))
        setScenario(*loaded, {});
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] { newScenario(); });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] { open(); });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    file->addSeparator();
    file->addAction(tr("&Calibrate from nccl-tests…"), this, [this] { openCalibration(); });
    file->addSeparator();
    file->addAction(tr("&Export Views…"), QKeySequence(tr("Ctrl+E")), this, [this] { exportViews(); });
    file->addAction(tr("Export &Report (PDF)…"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] { exportReport(); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    updateRecentMenu();

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_doc->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_doc->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *present = view->addAction(tr("&Presentation Mode"));
    present->setShortcut(QKeySequence(Qt::Key_F11));
    present->setCheckable(true);
    connect(present, &QAction::toggled, this, &MainWindow::setPresentationMode);
    view->addSeparator();
    // Space, Left, Right and L drive the animation of the tab that has focus (AnimationControls).
    view->addAction(tr("P&in for Comparison"), QKeySequence(tr("Ctrl+D")), this, [this] { pinCurrent(); });
    view->addSeparator();
    for (int i = 0; i < m_mainTabs->count(); ++i)
        view->addAction(m_mainTabs->tabText(i), this, [this, i] { m_mainTabs->setCurrentIndex(i); })
            ->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));

    QMenu *presetsMenu = menuBar()->addMenu(tr("&Presets"));
    QMenu *examples = presetsMenu->addMenu(tr("&Examples"));
    const std::pair<QString, QString> exampleFiles[] = {
        {tr("Llama 3 70B on 1024 H100"), QStringLiteral(":/scenarios/default.json")},
        {tr("Seed: gradient sync, 7B on 8 GPUs"), QStringLiteral(":/scenarios/seed-gradient-sync.json")},
        {tr("Seed: 4-stage pipeline"), QStringLiteral(":/scenarios/seed-pipeline.json")},
        {tr("1T parameters on 16,384 H100"), QStringLiteral(":/scenarios/trillion.json")},
    };
    for (const auto &[label, path] : exampleFiles)
        examples->addAction(label, this, [this, path = path] {
            if (maybeSave())
                openFile(path);
        });
    QMenu *models = presetsMenu->addMenu(tr("&Models"));
    for (const QJsonObject &o : Presets::builtin().all(Presets::Models)) {
        const QString name = o.value(QLatin1String("name")).toString();
        QAction *a = models->addAction(o.value(QLatin1String("label")).toString(), this, [this, name] {
            Scenario s = m_doc->scenario();
            if (applyPreset(&s, QStringLiteral("model"), name, nullptr)) {
                m_doc->edit(s, tr("Model %1").arg(name));
                m_doc->finishEdit();
            }
        });
        a->setToolTip(o.value(QLatin1String("source")).toString());
    }
    QMenu *clusters = presetsMenu->addMenu(tr("&Clusters"));
    for (const QJsonObject &o : Presets::builtin().all(Presets::Clusters)) {
        const QString name = o.value(QLatin1String("name")).toString();
        QAction *a = clusters->addAction(o.value(QLatin1String("label")).toString(), this, [this, name] {
            Scenario s = m_doc->scenario();
            if (applyPreset(&s, QStringLiteral("cluster"), name, nullptr)) {
                m_doc->edit(s, tr("Cluster %1").arg(name));
                m_doc->finishEdit();
            }
        });
        a->setToolTip(o.value(QLatin1String("source")).toString());
    }
    presetsMenu->setToolTipsVisible(true);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Trainscope"), this, [this] {
        QMessageBox::about(this, tr("About Trainscope"),
                           tr("<b>Trainscope %1</b><p>Models the cost of distributed deep-learning training: step time, "
                              "communication, pipeline bubbles, scaling and memory. Click any figure to see its formula "
                              "and source.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::editField(Field field, double value, bool finished)
{
    m_doc->edit(field, value);
    if (finished)
        m_doc->finishEdit();
}

void MainWindow::refreshViews()
{
    const Scenario &s = m_doc->scenario();
    const Evaluation &e = m_doc->evaluation();
    const bool stale = !e.feasible;
    // While the inputs are invalid, the views keep the last valid picture, greyed.
    const Analysis &va = stale ? m_doc->lastValidAnalysis() : m_doc->analysis();
    const Scenario &vs = va.scenario;
    const Evaluation &ve = va.evaluation;

    const double parameters = fieldValue(s, Field::Parameters);
    m_panel->setScenario(s, m_doc->analysis().degrees, parameters,
                         m_doc->notes().join(QLatin1Char('\n')), e.problem);
    if (ve.feasible) {
        m_panel->setEffectiveBucket(ve.dpBucketBytes);
        m_cards->setCards(headlineCards(vs, ve));
        m_stepChart->setBars(stepTimeVariants(va));
        m_scalingChart->setData(scalingData(va));
        m_memoryChart->setBars(memoryBars(va));
        m_collectives->setTitle(collectivesTitle(vs));
        m_collectives->setRows(collectiveRows(vs, ve));
        if (!m_explainedId.isEmpty())
            m_explanation->setExplanation(explanationText(vs, ve, m_explainedId));
    }
    // The animations follow every change; each rebuilds only while shown.
    if (ve.feasible)
        for (AnimationPanel *panel : {static_cast<AnimationPanel *>(m_ringPanel), static_cast<AnimationPanel *>(m_pipelinePanel),
                                      static_cast<AnimationPanel *>(m_stepPanel)})
            panel->invalidate();
    refreshCompare();
    m_warnings->setWarnings(stale ? QList<WarningItem>{} : warningItems(s, e));
    m_tabs->setTabText(0, m_warnings->count() ? tr("Warnings (%1)").arg(m_warnings->count()) : tr("Warnings"));
    m_cards->setStale(stale);
    m_stepChart->setStale(stale);
    m_scalingChart->setStale(stale);
    m_memoryChart->setStale(stale);
    if (stale)
        statusBar()->showMessage(tr("Invalid plan: %1: %2 (showing the last valid result)")
                                     .arg(QString::fromStdString(e.problem.field), QString::fromStdString(e.problem.message)));
    else
        statusBar()->clearMessage();
    updateTitle();
}

void MainWindow::refreshCompare()
{
    if (m_mainTabs->currentWidget() != m_compare)
        return;   // rebuilt when shown
    auto compared = [](const PinnedScenario &p) { return ComparedScenario{p.name, p.evaluation, scenarioInputs(p.scenario)}; };
    QList<ComparedScenario> pinned;
    for (const PinnedScenario &p : m_pinned)
        pinned << compared(p);
    m_compare->setScenarios(pinned, compared({tr("Current"), m_doc->scenario(), m_doc->evaluation()}));
}

bool MainWindow::pinCurrent()
{
    if (m_pinned.size() >= ComparePanel::kMaxPinned) {
        statusBar()->showMessage(tr("At most %1 scenarios can be pinned: unpin one first.").arg(ComparePanel::kMaxPinned), 5000);
        return false;
    }
    const QString name = tr("Pin %1: %2").arg(m_pinned.size() + 1).arg(QString::fromStdString(m_doc->scenario().workload.name));
    m_pinned << PinnedScenario{name, m_doc->scenario(), m_doc->evaluation()};
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
            Scenario s = m_doc->scenario();
            for (const TierFit &f : fits)
                applyFit(s.cluster, f);
            m_doc->edit(s, tr("Apply fabric calibration"));
            m_doc->finishEdit();
        });
    }
    m_calibration->refresh();   // fitted against the scenario's cluster as it is now
    m_calibration->show();
    m_calibration->raise();
    return m_calibration;
}

AnimationPanel *MainWindow::currentAnimation() const
{
    return qobject_cast<AnimationPanel *>(m_mainTabs->currentWidget());
}

void MainWindow::setPresentationMode(bool on)
{
    constexpr double kPresentationScale = 1.6;   // readable from the back of a classroom
    for (AnimationPanel *panel : {static_cast<AnimationPanel *>(m_ringPanel), static_cast<AnimationPanel *>(m_pipelinePanel),
                                  static_cast<AnimationPanel *>(m_stepPanel)})
        panel->setPresentationScale(on ? kPresentationScale : 1.0);
    if (on)
        showFullScreen();
    else
        showNormal();
}

void MainWindow::showExplanation(const QString &id)
{
    m_explainedId = id;
    const bool stale = !m_doc->evaluation().feasible;
    m_explanation->setExplanation(explanationText(stale ? m_doc->lastValidScenario() : m_doc->scenario(),
                                                  stale ? m_doc->lastValidEvaluation() : m_doc->evaluation(), id));
    m_tabs->setCurrentWidget(m_explanation);
}

void MainWindow::applyWarning(int index)
{
    const Evaluation &e = m_doc->evaluation();
    if (index < 0 || index >= e.warningCount)
        return;
    const Warning &w = e.warnings[size_t(index)];
    const WarningText text = describe(w, m_doc->scenario());
    m_doc->edit(ts::applyWarning(m_doc->scenario(), w), tr("Apply: %1").arg(QString::fromStdString(text.code)));
    m_doc->finishEdit();
}

void MainWindow::setScenario(const LoadedScenario &loaded, const QString &source)
{
    m_doc->load(loaded, source.startsWith(QLatin1Char(':')) ? QString() : source);
    if (!loaded.name.isEmpty())
        statusBar()->showMessage(loaded.name, 5000);
}

bool MainWindow::openFile(const QString &path, bool interactive)
{
    ScenarioError error;
    const auto loaded = loadScenarioFile(path, &error);
    if (!loaded) {
        const QString message = tr("Could not open %1:\n%2").arg(QDir::toNativeSeparators(path), error.text());
        if (interactive)
            QMessageBox::warning(this, tr("Open scenario"), message);
        statusBar()->showMessage(message);
        return false;
    }
    setScenario(*loaded, path);
    if (!path.startsWith(QLatin1Char(':'))) {
        addRecent(path);
        settings::lastScenario.set(QFileInfo(path).absoluteFilePath());
    }
    return true;
}

bool MainWindow::saveTo(const QString &path)
{
    QString error;
    if (!m_doc->save(path, &error)) {
        QMessageBox::warning(this, tr("Save scenario"), tr("Could not save %1:\n%2").arg(path, error));
        return false;
    }
    addRecent(path);
    settings::lastScenario.set(QFileInfo(path).absoluteFilePath());
    QFile::remove(autosavePath());
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 3000);
    return true;
}

void MainWindow::newScenario()
{
    if (maybeSave())
        openFile(kDefaultScenario);
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(), kFileFilter);
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::save()
{
    return m_doc->filePath().isEmpty() ? saveAs() : saveTo(m_doc->filePath());
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), m_doc->filePath(), kFileFilter);
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return saveTo(path);
}

bool MainWindow::maybeSave()
{
    if (!m_doc->isModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::exportViews()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export views"), QString(),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportWidget(m_views, path, windowTitle(), &error))
        QMessageBox::warning(this, tr("Export views"), error);
}

void MainWindow::exportReport()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Export report"), QString(), tr("PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".pdf");
    const bool stale = !m_doc->evaluation().feasible;
    ReportInput input{stale ? m_doc->lastValidScenario() : m_doc->scenario(),
                      stale ? m_doc->lastValidEvaluation() : m_doc->evaluation(), m_doc->name(), m_doc->description(),
                      m_doc->notes(), m_pinned};
    QString error;
    if (!writeReport(path, input, &error))
        QMessageBox::warning(this, tr("Export report"), error);
    else
        statusBar()->showMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(path)), 5000);
}

QString MainWindow::autosavePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/autosave.json");
}

void MainWindow::writeAutosave()
{
    if (!m_doc->isModified())
        return;
    QDir().mkpath(QFileInfo(autosavePath()).absolutePath());
    QFile file(autosavePath());
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(m_doc->toJson());
}

void MainWindow::offerAutosaveRecovery()
{
    const QFileInfo info(autosavePath());
    if (!info.exists())
        return;
    const auto answer = QMessageBox::question(
        this, tr("Recover unsaved changes"),
        tr("Trainscope found unsaved changes from %1. Restore them?").arg(QLocale().toString(info.lastModified(), QLocale::ShortFormat)),
        QMessageBox::Yes | QMessageBox::No);
    if (answer == QMessageBox::Yes) {
        ScenarioError error;
        if (auto loaded = loadScenarioFile(info.absoluteFilePath(), &error)) {
            setScenario(*loaded, {});
            m_doc->edit(m_doc->scenario(), tr("Recovered"));   // mark as unsaved
        }
    }
    QFile::remove(info.absoluteFilePath());
}

void MainWindow::addRecent(const QString &path)
{
    QStringList recent = settings::recentFiles.get();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > settings::kMaxRecentFiles)
        recent.removeLast();
    settings::recentFiles.set(recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = settings::recentFiles.get();
    for (const QString &path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (maybeSave())
                openFile(path);
        })->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::updateTitle()
{
    QString title = m_doc->name();
    if (!m_doc->filePath().isEmpty())
        title = QFileInfo(m_doc->filePath()).fileName();
    if (title.isEmpty())
        title = tr("Untitled");
    setWindowTitle(tr("%1[*] — Trainscope").arg(title));
    setWindowModified(m_doc->isModified());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    settings::windowGeometry.set(saveGeometry());
    settings::windowState.set(saveState());
    QFile::remove(autosavePath());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().size() == 1 && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString path = event->mimeData()->urls().first().toLocalFile();
    if (maybeSave())
        openFile(path);
    event->acceptProposedAction();
}

} // namespace ts
