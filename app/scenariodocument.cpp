// SPDX-License-Identifier: MIT
#include "scenariodocument.h"

#include "scenarioedit.h"

#include "evaluate.h"
#include "scenarioio.h"

#include <cmath>

#include <QJsonDocument>
#include <QUndoCommand>
#include <QUndoStack>

namespace ts {

namespace {

// One undoable change of the whole scenario (a small value). Commands of the same edit merge.
class SetScenarioCommand : public QUndoCommand
{
public:
    SetScenarioCommand(ScenarioDocument *doc, Scenario before, Scenario after, const QString &text, int mergeKey)
        : QUndoCommand(text)
        , m_doc(doc)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_mergeKey(mergeKey)
        , m_serial(doc->editSerial())
    {}
    void redo() override { m_doc->setScenarioDirect(m_after); }
    void undo() override { m_doc->setScenarioDirect(m_before); }
    int id() const override { return m_mergeKey; }
    bool mergeWith(const QUndoCommand *other) override
    {
        auto *o = static_cast<const SetScenarioCommand *>(other);
        if (o->m_serial != m_serial || o->m_mergeKey != m_mergeKey)
            return false;
        m_after = o->m_after;
        setObsolete(m_after == m_before);   // a drag that ends where it began leaves no step
        return true;
    }

private:
    ScenarioDocument *m_doc;
    Scenario m_before, m_after;
    int m_mergeKey;
    int m_serial;
};

} // namespace

ScenarioDocument::ScenarioDocument(QObject *parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
{
    m_options.interNodeLinks = interNodeLinkChoices();
    connect(m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modificationChanged(!clean); });
    reevaluate();
}

bool ScenarioDocument::isModified() const { return !m_undo->isClean(); }

void ScenarioDocument::edit(const Scenario &scenario, const QString &text, int mergeKey, const QString &note)
{
    if (scenario == m_scenario)
        return;
    if (!note.isEmpty())
        m_notes = {note};
    m_undo->push(new SetScenarioCommand(this, m_scenario, scenario, text, mergeKey));
}

void ScenarioDocument::edit(Field field, double siValue)
{
    m_lastField = field;
    const FieldEdit r = withField(m_scenario, field, siValue);
    if (r.scenario == m_scenario) {
        if (!r.note.empty()) {   // nothing changed, and the note says why (a value out of range)
            m_notes = {QString::fromStdString(r.note)};
            DocumentChange c;
            c.planValid = m_analysis.evaluation.feasible;
            emit changed(c);
        }
        return;
    }
    edit(r.scenario, QString::fromStdString(describeFieldChange(field, siValue)), int(field),
         QString::fromStdString(r.note));
}

void ScenarioDocument::finishEdit() { ++m_editSerial; }

void ScenarioDocument::setScenarioDirect(const Scenario &scenario)
{
    DocumentChange c;
    for (int f = int(Field::None) + 1; f < int(Field::Count); ++f)
        if (ts::fieldValue(m_scenario, Field(f)) != ts::fieldValue(scenario, Field(f)))
            c.fields.set(size_t(f));
    // Replaying the changed fields on the old scenario must give the new one; if not, something
    // the table does not cover changed too (a preset's GPU or link, a derived shape): all inputs.
    Scenario replayed = m_scenario;
    for (int f = int(Field::None) + 1; f < int(Field::Count); ++f)
        if (c.fields.test(size_t(f)))
            replayed = withField(replayed, Field(f), ts::fieldValue(scenario, Field(f))).scenario;
    c.otherInputs = c.fields.test(size_t(Field::Parameters)) || !(replayed == scenario);
    m_scenario = scenario;
    reevaluate();
    c.planValid = m_analysis.evaluation.feasible;
    emit changed(c);
}

void ScenarioDocument::reevaluate()
{
    m_analysis = analyse(m_scenario, m_options);
    if (m_analysis.evaluation.feasible)
        m_lastValidAnalysis = m_analysis;
}

void ScenarioDocument::load(const LoadedScenario &loaded, const QString &filePath)
{
    m_lastField = Field::None;
    m_undo->clear();
    m_name = loaded.name;
    m_description = loaded.description;
    m_notes = loaded.notes;
    m_scenario = loaded.scenario;
    m_lastValidAnalysis = {};
    reevaluate();
    finishEdit();
    m_undo->setClean();
    if (m_filePath != filePath) {
        m_filePath = filePath;
        emit filePathChanged(filePath);
    }
    DocumentChange c;
    c.otherInputs = true;
    c.fields.set();
    c.planValid = m_analysis.evaluation.feasible;
    emit changed(c);
}

bool ScenarioDocument::save(const QString &path, QString *error)
{
    if (!saveScenarioFile(path, scenarioToJson(m_scenario, m_name, m_description), error))
        return false;
    m_undo->setClean();
    if (m_filePath != path) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    return true;
}

QByteArray ScenarioDocument::toJson() const
{
    return QJsonDocument(scenarioToJson(m_scenario, m_name, m_description)).toJson(QJsonDocument::Indented);
}

RingDemo ScenarioDocument::ringDemo(const RingRequest &request) const
{
    return ts::ringDemo(lastValidScenario(), lastValidEvaluation(), request);
}

PipelineDemo ScenarioDocument::pipelineDemo(std::optional<Schedule> schedule) const
{
    return ts::pipelineDemo(lastValidScenario(), lastValidEvaluation(), schedule);
}

StepTimelinePair ScenarioDocument::stepTimelines() const
{
    return stepTimelinePair(lastValidScenario(), lastValidEvaluation());
}

std::function<PlanSearchResult(const std::function<bool(double)> &)> ScenarioDocument::planSearchJob(int top) const
{
    const Scenario base = m_scenario;
    return [base, top](const std::function<bool(double)> &progress) {
        PlanSearchOptions options;
        options.top = top;
        return searchPlans(base, options, progress);
    };
}

TierFit ScenarioDocument::fitTier(const NcclLog &log) const { return ts::fitTier(log, m_scenario.cluster); }

Explanation ScenarioDocument::explanation(const std::string &id) const
{
    return explain(lastValidScenario(), lastValidEvaluation(), id);
}

bool ScenarioDocument::choosePreset(const QString &kind, const QString &name, QString *error)
{
    Scenario s = m_scenario;
    if (!applyPreset(&s, kind, name, error))
        return false;
    edit(s, tr("Choose %1").arg(name));
    finishEdit();
    return true;
}

void ScenarioDocument::applyWarning(int index)
{
    const Evaluation &e = m_analysis.evaluation;
    if (index < 0 || index >= e.warningCount || size_t(index) >= m_analysis.warnings.size())
        return;
    edit(ts::applyWarning(m_scenario, e.warnings[size_t(index)]),
         tr("Apply: %1").arg(QString::fromStdString(m_analysis.warnings[size_t(index)].code)));
    finishEdit();
}

double ScenarioDocument::fieldValue(Field field) const { return ts::fieldValue(m_scenario, field); }

std::optional<std::pair<Field, double>> ScenarioDocument::repairEdit() const
{
    const Evaluation &e = m_analysis.evaluation;
    if (e.feasible)
        return std::nullopt;
    const ValidDegrees &valid = m_analysis.degrees;
    auto nearest = [](const auto &values, double x) -> std::optional<double> {
        if (values.empty() || !(x > 0))
            return std::nullopt;
        double best = double(values.front());
        for (const auto v : values)
            if (std::abs(std::log(double(v) / x)) < std::abs(std::log(best / x)))
                best = double(v);
        return best;
    };
    const Plan &pl = m_scenario.plan;
    auto repairOf = [&](Field f) -> std::optional<double> {
        switch (f) {
        case Field::Tp: return nearest(valid.tp, pl.tp);
        case Field::Pp: return nearest(valid.pp, pl.pp);
        case Field::Cp: return nearest(valid.cp, pl.cp);
        case Field::Ep: return nearest(valid.ep, pl.ep);
        case Field::GlobalBatch: return nearest(valid.globalBatch, double(m_scenario.training.globalBatch));
        // MXFP8 or NVFP4 on a GPU without their tensor cores: per-tensor current scaling, the FP8
        // recipe Hopper runs (Megatron-Bridge's FP8-CS). Only when the recipe is what cannot run.
        case Field::Fp8Recipe:
            if (e.problem.field != "training.fp8_recipe")
                return std::nullopt;
            return double(int(Fp8Recipe::Tensorwise));
        // TP overlap with NVFP4 (NVIDIA's NVFP4 recipes run without it): off. FP8 weights under
        // NVFP4 (4-bit gathers, not modelled): off.
        case Field::TpOverlap: return 0.0;
        case Field::Fp8Params: return 0.0;
        // FP8 attention on a GPU without a measured FP8 attention figure (its error names the GPU's
        // key, mapped here), off FlashAttention, under block scaling or FSDP: off.
        case Field::Fp8Attention: return 0.0;
        // FP8 on a GPU without FP8 tensor cores: BF16.
        case Field::Precision: return double(int(Precision::Bf16));
        // Ulysses cannot split this TP rank's heads over CP: the K/V ring, which can.
        case Field::CpComm: return double(int(CpComm::P2p));
        case Field::Dp: {
            const long long modelParallel = (long long)pl.tp * pl.pp * pl.cp;
            if (modelParallel > 0 && m_scenario.cluster.gpus % modelParallel == 0)
                return double(m_scenario.cluster.gpus / modelParallel);
            return std::nullopt;
        }
        default: return std::nullopt;
        }
    };
    // The input just changed first (TP 3 makes DP fractional: TP is what to move back), then the
    // one the reason names. Only a repair that runs is offered.
    // A GPU without a measured FP8 attention figure: the input to move is fp8_attention.
    const Field named = e.problem.field == "cluster.gpu.attention_efficiency_fp8" || e.problem.field == "cluster.gpu.attention_efficiency_mxfp8"
                            ? Field::Fp8Attention
                            : fieldForKey(e.problem.field);
    for (Field f : {m_lastField, named}) {
        const std::optional<double> value = repairOf(f);
        if (value && *value != fieldValue(f) && evaluate(withField(m_scenario, f, *value).scenario).feasible)
            return std::pair{f, *value};
    }
    return std::nullopt;
}

bool ScenarioDocument::canRepair() const { return repairEdit().has_value(); }

void ScenarioDocument::repair()
{
    if (const auto r = repairEdit()) {
        edit(r->first, r->second);
        finishEdit();
    }
}

PlanMap ScenarioDocument::planMap(const PlanMapRequest &request) const { return ts::planMap(lastValidScenario(), request); }

void ScenarioDocument::applyPlanMapCell(const PlanMap &map, int ix, int iy)
{
    if (ix < 0 || iy < 0 || size_t(ix) >= map.xs.size() || size_t(iy) >= map.ys.size())
        return;
    edit(planMapScenario(lastValidScenario(), map, ix, iy),
         tr("Plan map: %1, %2")
             .arg(QString::fromStdString(describeFieldChange(map.request.x, map.xs[size_t(ix)])),
                  QString::fromStdString(describeFieldChange(map.request.y, map.ys[size_t(iy)]))));
    finishEdit();
}

} // namespace ts
