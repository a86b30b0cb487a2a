// SPDX-License-Identifier: MIT
// The open scenario: its inputs, file, undo history and the cached evaluation. Views are updated
// by the app's wiring from its `changed` signal and never hold the document.
#pragma once

#include "analysis.h"
#include "evaluation.h"
#include "fields.h"
#include "calibration.h"
#include "explain.h"
#include "inputs.h"
#include "planmap.h"
#include "planner.h"
#include "teaching.h"

#include <functional>

#include <bitset>
#include <optional>

#include <QMetaType>
#include <QObject>
#include <QStringList>

class QUndoStack;

namespace ts {

struct LoadedScenario;

/// What one change of the document touched, so views refresh only what they show.
struct DocumentChange
{
    std::bitset<size_t(Field::Count)> fields;   // inputs whose value changed
    bool otherInputs = false;   // something outside the field table changed (presets, a loaded file)
    bool planValid = true;      // the scenario evaluates; otherwise views keep the last valid one
    bool touches(Field f) const { return otherInputs || fields.test(size_t(f)); }
};

class ScenarioDocument : public QObject
{
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject *parent = nullptr);

    const Scenario &scenario() const { return m_scenario; }
    /// Everything the views show for the current scenario, computed once per change.
    const Analysis &analysis() const { return m_analysis; }
    const Evaluation &evaluation() const { return m_analysis.evaluation; }
    /// The last analysis that evaluated feasibly, shown greyed while the current one is invalid.
    const Analysis &lastValidAnalysis() const { return m_lastValidAnalysis; }
    const Scenario &lastValidScenario() const { return m_lastValidAnalysis.scenario; }
    const Evaluation &lastValidEvaluation() const { return m_lastValidAnalysis.evaluation; }

    /// What the teaching tabs replay, for the last valid scenario (model/teaching.h).
    RingDemo ringDemo(const RingRequest &request) const;
    PipelineDemo pipelineDemo(std::optional<Schedule> schedule) const;
    StepTimelinePair stepTimelines() const;
    /// The plan map of the last valid scenario.
    PlanMap planMap(const PlanMapRequest &request) const;
    /// Applies the plan of cell (ix, iy) as one undo step.
    void applyPlanMapCell(const PlanMap &map, int ix, int iy);
    /// A plan search over a copy of the current scenario, to run on a worker thread: progress in
    /// [0, 1], returning false from it stops the search.
    std::function<PlanSearchResult(const std::function<bool(double)> &)> planSearchJob(int top) const;
    /// Fits one nccl-tests log against the current scenario's topology and links.
    TierFit fitTier(const NcclLog &log) const;
    /// The formula behind figure `id`, with the values of the last valid scenario substituted.
    Explanation explanation(const std::string &id) const;

    QString name() const { return m_name; }
    QString description() const { return m_description; }
    QString filePath() const { return m_filePath; }
    QStringList notes() const { return m_notes; }
    bool isModified() const;
    QUndoStack *undoStack() const { return m_undo; }

    /// Sets one input (an SI value, model/fields.h) through the undo stack, with the rule that keeps
    /// the plan consistent. Edits of the same field merge into one undo step ("Set TP to 8") until
    /// finishEdit(): a slider drag is one step.
    void edit(Field field, double siValue);
    /// Replaces the scenario through the undo stack (presets, a warning's fix). Edits with the same
    /// `mergeKey` merge until finishEdit(); -1 never merges.
    void edit(const Scenario &scenario, const QString &text, int mergeKey = -1, const QString &note = {});
    void finishEdit();
    /// Applies preset `name` of `kind` ("model", "gpu", "intra_node", "inter_node", "cluster") as
    /// one undo step; false with the reason when it cannot.
    bool choosePreset(const QString &kind, const QString &name, QString *error = nullptr);
    /// Applies the recommendation of warning `index` of the current evaluation as one undo step.
    void applyWarning(int index);
    /// Whether an invalid plan has a nearest valid one: TP, PP or CP snapped to the nearest valid
    /// degree (DP follows), DP from the GPU count, or the nearest global batch the plan accepts.
    bool canRepair() const;
    /// Applies that repair as one undo step ("Repair TP to 4").
    void repair();
    /// The value of one input in SI units (model/fields.h).
    double fieldValue(Field field) const;

    /// Replaces everything (open, new, restore): clears the undo history.
    void load(const LoadedScenario &loaded, const QString &filePath);
    bool save(const QString &path, QString *error);
    /// The document as scenario JSON text (for autosave).
    QByteArray toJson() const;

    /// Used by the undo command: sets without recording.
    void setScenarioDirect(const Scenario &scenario);
    int editSerial() const { return m_editSerial; }

signals:
    void changed(const ts::DocumentChange &change);
    void filePathChanged(const QString &path);
    void modificationChanged(bool modified);

private:
    void reevaluate();
    std::optional<std::pair<Field, double>> repairEdit() const;

    Scenario m_scenario;
    AnalysisOptions m_options;
    Analysis m_analysis;
    Analysis m_lastValidAnalysis;
    QString m_name, m_description, m_filePath;
    QStringList m_notes;
    QUndoStack *m_undo;
    int m_editSerial = 0;
    Field m_lastField = Field::None;   // the input edited last, the first a repair moves
};

} // namespace ts

Q_DECLARE_METATYPE(ts::DocumentChange)
