// SPDX-License-Identifier: MIT
// The parameter panel: sliders, pickers and toggles for every input. It shows a scenario and
// reports edits; the app applies them (and the model decides what is valid).
#pragma once

#include "presetchoice.h"
#include "evaluate.h"
#include "fields.h"
#include "inputs.h"

#include <QMap>
#include <QScrollArea>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;

namespace ts {

class QuantitySlider;




class ParameterPanel : public QScrollArea
{
    Q_OBJECT
public:
    explicit ParameterPanel(QWidget *parent = nullptr);

    void setPresetLists(const QList<PresetChoice> &models, const QList<PresetChoice> &gpus,
                        const QList<PresetChoice> &links);
    /// Shows the scenario. `problem` (may be empty) is shown next to the control of its field.
    /// `changed`: the input the user just changed; an invalid plan's reason shows there too (and
    /// it is scrolled into view), not only at the input the reason names.
    void setScenario(const Scenario &scenario, const ValidDegrees &degrees, double parameterCount,
                     const QString &shapeNote, const Problem &problem, Field changed = Field::None);
    /// The DP bucket the plan runs with (the framework's when plan.bucket is auto), bytes.
    void setEffectiveBucket(double bytes);

signals:
    void fieldEdited(ts::Field field, double siValue);   // SI, as model/fields.h defines it
    void presetChosen(const QString &kind, const QString &name);   // kind: "model", "gpu", "intra_node", "inter_node"
    void editFinished();

private:
    QuantitySlider *addSlider(QLayout *layout, Field field, const QString &label, const QString &unit,
                              const QString &help);
    QComboBox *addCombo(QLayout *layout, Field field, const QString &label, const QStringList &items, const QString &help);
    QCheckBox *addToggle(QLayout *layout, Field field, const QString &label, const QString &help);
    QComboBox *addPresetCombo(QLayout *layout, const QString &kind, const QString &label, const QString &help);
    void addRecomputeModules(QLayout *layout);
    void clearProblems();

    QMap<Field, QuantitySlider *> m_sliders;
    QMap<Field, QComboBox *> m_combos;
    QMap<Field, QCheckBox *> m_toggles;
    QMap<QString, QComboBox *> m_presetCombos;
    QMap<Field, QLabel *> m_comboProblems;
    QCheckBox *m_bucketAuto = nullptr;   // plan.bucket = auto (the framework's)
    QWidget *m_modulesRow = nullptr;     // training.recompute_modules, one box per module flag
    QMap<unsigned, QCheckBox *> m_moduleChecks;
    unsigned m_recomputeModules = 0;     // the scenario's, which a box toggles one flag of
    QLabel *m_shapeNote = nullptr;
    QLabel *m_generalProblem = nullptr;
    bool m_updating = false;
};

} // namespace ts
