// SPDX-License-Identifier: MIT
// The open scenario: its inputs, file, undo history and the cached evaluation. Views are updated
// by the app's wiring from its `changed` signal and never hold the document.
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <QObject>
#include <QStringList>

class QUndoStack;

namespace ts {

struct LoadedScenario;

class ScenarioDocument : public QObject
{
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject *parent = nullptr);

    const Scenario &scenario() const { return m_scenario; }
    const Evaluation &evaluation() const { return m_evaluation; }
    /// The last scenario that evaluated feasibly, shown greyed while the current one is invalid.
    const Scenario &lastValidScenario() const { return m_lastValidScenario; }
    const Evaluation &lastValidEvaluation() const { return m_lastValidEvaluation; }

    QString name() const { return m_name; }
    QString description() const { return m_description; }
    QString filePath() const { return m_filePath; }
    QStringList notes() const { return m_notes; }
    bool isModified() const;
    QUndoStack *undoStack() const { return m_undo; }

    /// Replaces the scenario through the undo stack. Edits with the same `mergeKey` merge into one
    /// undo step until finishEdit() (a slider drag is one step); -1 never merges.
    void edit(const Scenario &scenario, const QString &text, int mergeKey = -1, const QString &note = {});
    void finishEdit();

    /// Replaces everything (open, new, restore): clears the undo history.
    void load(const LoadedScenario &loaded, const QString &filePath);
    bool save(const QString &path, QString *error);
    /// The document as scenario JSON text (for autosave).
    QByteArray toJson() const;

    /// Used by the undo command: sets without recording.
    void setScenarioDirect(const Scenario &scenario);
    int editSerial() const { return m_editSerial; }

signals:
    void changed();
    void filePathChanged(const QString &path);
    void modificationChanged(bool modified);

private:
    void reevaluate();

    Scenario m_scenario;
    Evaluation m_evaluation;
    Scenario m_lastValidScenario;
    Evaluation m_lastValidEvaluation;
    QString m_name, m_description, m_filePath;
    QStringList m_notes;
    QUndoStack *m_undo;
    int m_editSerial = 0;
};

} // namespace ts
