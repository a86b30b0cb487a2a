// SPDX-License-Identifier: MIT
// The main window: composes the panel and the views and wires them to the scenario document.
// It owns no formulas, painting or undo logic.
#pragma once

#include "parameterpanel.h"
#include "report.h"

#include <QMainWindow>

class QAction;
class QMenu;
class QTabWidget;
class QTimer;

namespace ts {

class AnimationPanel;
class CalibrationDialog;
class ComparePanel;
class PlanSearchPanel;
class CollectivesView;
class PipelinePanel;
class RingPanel;
class StepTimelinePanel;
class ExplanationView;
class HeadlineCards;
class MemoryChart;
class ScalingChart;
class ScenarioDocument;
class StepTimeChart;
class WarningsView;
struct LoadedScenario;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    ScenarioDocument *document() const { return m_doc; }
    ParameterPanel *panel() const { return m_panel; }
    HeadlineCards *cards() const { return m_cards; }
    StepTimeChart *stepTimeChart() const { return m_stepChart; }
    WarningsView *warningsView() const { return m_warnings; }
    ExplanationView *explanationView() const { return m_explanation; }
    QWidget *viewsWidget() const { return m_views; }
    QTabWidget *mainTabs() const { return m_mainTabs; }
    RingPanel *ringPanel() const { return m_ringPanel; }
    PipelinePanel *pipelinePanel() const { return m_pipelinePanel; }
    StepTimelinePanel *stepTimelinePanel() const { return m_stepPanel; }
    PlanSearchPanel *planSearchPanel() const { return m_planSearch; }
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
    void setScenario(const LoadedScenario &scenario, const QString &source);
    bool saveTo(const QString &path);
    /// Offers unsaved edits from a previous run back (after a crash or kill).
    void offerAutosaveRecovery();
    static QString autosavePath();
    /// Applies the recommendation of warning `index` of the current evaluation.
    void applyWarning(int index);
    void showExplanation(const QString &id);
    /// Applies one field edit as the panel would (used by tests and the benchmark).
    void editField(Field field, double value, bool finished = true);
    /// Rebuilds every view from the document (normally called on each change).
    void refreshViews();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString &path);
    bool maybeSave();
    void newScenario();
    void open();
    bool save();
    bool saveAs();
    void exportViews();
    void exportReport();
    void writeAutosave();

    ScenarioDocument *m_doc;
    ParameterPanel *m_panel;
    QWidget *m_views;
    HeadlineCards *m_cards;
    StepTimeChart *m_stepChart;
    ScalingChart *m_scalingChart;
    MemoryChart *m_memoryChart;
    CollectivesView *m_collectives;
    WarningsView *m_warnings;
    ExplanationView *m_explanation;
    QTabWidget *m_tabs;
    QTabWidget *m_mainTabs;
    RingPanel *m_ringPanel;
    PipelinePanel *m_pipelinePanel;
    StepTimelinePanel *m_stepPanel;
    PlanSearchPanel *m_planSearch;
    ComparePanel *m_compare;
    CalibrationDialog *m_calibration = nullptr;
    QList<PinnedScenario> m_pinned;
    void refreshCompare();
    AnimationPanel *currentAnimation() const;
    QMenu *m_recentMenu = nullptr;
    QTimer *m_autosaveTimer;
    QString m_explainedId;
    QString m_editText;
};

} // namespace ts
