// SPDX-License-Identifier: MIT
// The main window: composes the panel and the views and wires them to the scenario document.
// It owns no formulas, painting, file handling or undo logic.
#pragma once

#include "fields.h"
#include "scenariodocument.h"
#include "report.h"

#include <QMainWindow>

class QDockWidget;
class QTabWidget;

namespace ts {

class AnimationPanel;
class CalibrationDialog;
class ComparePanel;
class ExplanationView;
class HeadlineCards;
class ParameterPanel;
class PipelinePanel;
class PlanMapPanel;
class PlanSearchPanel;
class PlanView;
class PresentationMode;
class RingPanel;
class ScenarioDocument;
class ScenarioFiles;
class StepTimeChart;
class StepTimelinePanel;
class WarningsView;
struct LoadedScenario;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // The parts, for tests and the benchmark.
    ScenarioDocument *document() const { return m_doc; }
    ScenarioFiles *files() const { return m_files; }
    ParameterPanel *panel() const { return m_panel; }
    PlanView *planView() const { return m_plan; }
    HeadlineCards *cards() const;
    StepTimeChart *stepTimeChart() const;
    WarningsView *warningsView() const;
    ExplanationView *explanationView() const;
    QWidget *viewsWidget() const;
    QTabWidget *mainTabs() const { return m_mainTabs; }
    RingPanel *ringPanel() const { return m_ringPanel; }
    PipelinePanel *pipelinePanel() const { return m_pipelinePanel; }
    StepTimelinePanel *stepTimelinePanel() const { return m_stepPanel; }
    PlanSearchPanel *planSearchPanel() const { return m_planSearch; }
    PlanMapPanel *planMapPanel() const { return m_planMap; }
    ComparePanel *comparePanel() const { return m_compare; }

    /// Pins the current scenario for comparison (at most ComparePanel::kMaxPinned).
    bool pinCurrent();
    void unpin(int index);
    const QList<PinnedScenario> &pinned() const { return m_pinned; }
    /// Opens the calibration dialog (File > Calibrate from nccl-tests).
    CalibrationDialog *openCalibration();
    /// Full screen with larger fonts in the animations (F11).
    void setPresentationMode(bool on);

    /// Opens a scenario file; on failure shows why and keeps the current scenario.
    bool openFile(const QString &path, bool interactive = true);
    bool saveTo(const QString &path);
    /// Offers unsaved edits of a previous run that did not close normally back.
    void offerAutosaveRecovery();
    /// Applies the recommendation of warning `index` of the current evaluation.
    void applyWarning(int index);
    void showExplanation(const QString &id);
    /// Applies one field edit as the panel would (used by tests and the benchmark).
    void editField(Field field, double value, bool finished = true);
    /// Rebuilds every view from the document (normally called on each change).
    void refreshViews(const DocumentChange &change = {});

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void editScenario(const Scenario &scenario, const QString &text);
    void updateTitle();
    void refreshCompare();
    QList<AnimationPanel *> animationPanels() const;
public:
    /// What File > Export Views writes for the active tab, each view on its own.
    QList<SlideView> slideViews() const;
private:

    ScenarioDocument *m_doc;
    ParameterPanel *m_panel;
    QTabWidget *m_mainTabs;
    PlanView *m_plan;
    QWidget *m_planPage;   // the Plan tab: m_plan in a LayoutBoundary
    RingPanel *m_ringPanel;
    PipelinePanel *m_pipelinePanel;
    StepTimelinePanel *m_stepPanel;
    PlanSearchPanel *m_planSearch;
    PlanMapPanel *m_planMap;
    ComparePanel *m_compare;
    ScenarioFiles *m_files = nullptr;
    QDockWidget *m_dock = nullptr;
    PresentationMode *m_presentation = nullptr;
    CalibrationDialog *m_calibration = nullptr;
    QList<PinnedScenario> m_pinned;
    QString m_explainedId;
};

} // namespace ts
