// SPDX-License-Identifier: MIT
// The document without a window: typed changes, a drag that is one undo step, invalid values kept
// (never clamped) with the last valid evaluation beside them, undo and redo.
#include "fields.h"
#include "presenter.h"
#include "scenariodocument.h"
#include "scenarioio.h"

#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

using namespace ts;

class TestScenarioDocument : public QObject
{
    Q_OBJECT
private:
    static DocumentChange lastChange(const QSignalSpy &spy) { return spy.last().at(0).value<DocumentChange>(); }

    static void loadDefault(ScenarioDocument &doc)
    {
        ScenarioError error;
        const auto loaded = loadScenarioFile(QStringLiteral(":/scenarios/default.json"), &error);
        QVERIFY2(loaded, qPrintable(error.text()));
        doc.load(*loaded, {});
    }

private slots:
    void initTestCase() { qRegisterMetaType<DocumentChange>(); }

    void editNamesTheField()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        QSignalSpy spy(&doc, &ScenarioDocument::changed);
        const int tp = doc.scenario().plan.tp;
        const int gpus = doc.scenario().cluster.gpus;
        const int newTp = tp == 8 ? 4 : 8;
        doc.edit(Field::Tp, newTp);
        doc.finishEdit();
        QCOMPARE(spy.count(), 1);
        const DocumentChange c = lastChange(spy);
        QVERIFY(c.fields.test(size_t(Field::Tp)));
        QVERIFY(c.fields.test(size_t(Field::Dp)));    // DP follows so the GPUs stay
        QVERIFY(!c.fields.test(size_t(Field::Gpus)));
        QVERIFY(!c.otherInputs);
        QVERIFY(c.planValid);
        QCOMPARE(doc.scenario().cluster.gpus, gpus);
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set TP to %1").arg(newTp));
    }

    void dragIsOneUndoStep()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        const Scenario before = doc.scenario();
        QSignalSpy spy(&doc, &ScenarioDocument::changed);
        const int steps = doc.undoStack()->count();
        for (int i = 1; i <= 40; ++i)
            doc.edit(Field::InterBandwidth, i * 10e9);
        doc.finishEdit();
        QCOMPARE(spy.count(), 40);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(doc.scenario().cluster.interNode.bytesPerSecond, 400e9);
        QVERIFY(doc.isModified());
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
        QVERIFY(!doc.isModified());
        QVERIFY(lastChange(spy).fields.test(size_t(Field::InterBandwidth)));
        doc.undoStack()->redo();
        QCOMPARE(doc.scenario().cluster.interNode.bytesPerSecond, 400e9);
        // A second drag after finishEdit is its own step.
        doc.edit(Field::InterBandwidth, 100e9);
        doc.finishEdit();
        QCOMPARE(doc.undoStack()->count(), steps + 2);
    }

    void invalidValuesAreKept()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        const Evaluation valid = doc.evaluation();
        QVERIFY(valid.feasible);
        QSignalSpy spy(&doc, &ScenarioDocument::changed);
        doc.edit(Field::Tp, 3);   // does not divide the heads or the GPUs
        doc.finishEdit();
        QCOMPARE(doc.scenario().plan.tp, 3);   // what the user typed is kept, not clamped
        QVERIFY(!doc.evaluation().feasible);
        QVERIFY(!doc.evaluation().problem.field.empty());
        QVERIFY(!lastChange(spy).planValid);
        QVERIFY(doc.lastValidEvaluation().feasible);
        QCOMPARE(doc.lastValidEvaluation().breakdown.stepSeconds, valid.breakdown.stepSeconds);
        doc.undoStack()->undo();
        QVERIFY(doc.evaluation().feasible);
        QVERIFY(lastChange(spy).planValid);
        // An out-of-range parameter count changes nothing and says why.
        const int count = spy.count();
        doc.edit(Field::Parameters, 1);
        QCOMPARE(spy.count(), count + 1);
        QVERIFY(doc.notes().join(QString()).contains(QStringLiteral("workload.parameters")));
    }

    void loadTouchesEverything()
    {
        ScenarioDocument doc;
        QSignalSpy spy(&doc, &ScenarioDocument::changed);
        loadDefault(doc);
        QCOMPARE(spy.count(), 1);
        QVERIFY(lastChange(spy).otherInputs);
        QVERIFY(lastChange(spy).touches(Field::LocalSgd));
        QVERIFY(!doc.isModified());
        // A preset-style replacement (GPU changed) is reported as touching everything.
        Scenario s = doc.scenario();
        s.cluster.gpu.peakFlops16 *= 2;
        doc.edit(s, QStringLiteral("GPU preset"));
        QVERIFY(lastChange(spy).otherInputs);
    }

    // Picking a GPU brings its node's NVLink when the link was the old GPU's own (node_link), in
    // the same undo step: H100's 18-link nvlink4 becomes H800's 8-link nvlink4-h800 and back, B200
    // takes nvlink5; a link the user chose (PCIe) stays, and so does one under a custom GPU.
    void gpuPresetBringsItsNodeLink()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        QCOMPARE(QString::fromStdString(doc.scenario().cluster.gpu.name), QStringLiteral("h100-sxm"));
        QCOMPARE(QString::fromStdString(doc.scenario().cluster.intraNode.name), QStringLiteral("nvlink4"));
        const auto choose = [&](const char *kind, const char *name) {
            QString error;
            QVERIFY2(doc.choosePreset(QLatin1String(kind), QLatin1String(name), &error), qPrintable(error));
        };
        const auto link = [&] { return QString::fromStdString(doc.scenario().cluster.intraNode.name); };
        choose("gpu", "h800");
        QCOMPARE(link(), QStringLiteral("nvlink4-h800"));
        QCOMPARE(doc.scenario().cluster.intraNode.bytesPerSecond, 200e9);
        QCOMPARE(doc.undoStack()->count(), 1);
        choose("gpu", "h100-sxm");
        QCOMPARE(link(), QStringLiteral("nvlink4"));
        choose("gpu", "b200");
        QCOMPARE(link(), QStringLiteral("nvlink5"));
        doc.undoStack()->undo();
        QCOMPARE(link(), QStringLiteral("nvlink4"));
        QCOMPARE(QString::fromStdString(doc.scenario().cluster.gpu.name), QStringLiteral("h100-sxm"));
        choose("intra_node", "pcie5");
        choose("gpu", "h800");
        QCOMPARE(link(), QStringLiteral("pcie5"));
        choose("gpu", "mi300x");   // no node_link: the link stays
        QCOMPARE(link(), QStringLiteral("pcie5"));
    }

    // Presets and warnings' fixes go through the document as one undo step each.
    void presetsAndFixesAreUndoSteps()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        QString error;
        QVERIFY2(doc.choosePreset(QStringLiteral("model"), QStringLiteral("llama3-8b"), &error), qPrintable(error));
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Choose llama3-8b"));
        QCOMPARE(doc.fieldValue(Field::Parameters), fieldValue(doc.scenario(), Field::Parameters));
        QVERIFY(!doc.choosePreset(QStringLiteral("model"), QStringLiteral("no-such-model"), &error));
        QVERIFY2(error.contains(QLatin1String("no-such-model")), qPrintable(error));
        QCOMPARE(doc.undoStack()->count(), 1);
        // A plan with a warning that has a fix: the fix is one undo step; out of range does nothing.
        doc.edit(Field::Bucket, 1e6);   // 1 MB DP buckets: latency-bound
        doc.finishEdit();
        const int before = doc.undoStack()->count();
        doc.applyWarning(-1);
        doc.applyWarning(kMaxWarnings);
        QCOMPARE(doc.undoStack()->count(), before);
        for (int i = 0; i < doc.evaluation().warningCount; ++i)
            if (doc.evaluation().warnings[size_t(i)].changeCount > 0) {
                doc.applyWarning(i);
                QCOMPARE(doc.undoStack()->count(), before + 1);
                QVERIFY(doc.undoStack()->undoText().startsWith(QLatin1String("Apply: ")));
                return;
            }
        QFAIL("no warning with a fix on 1 MB buckets");
    }

    // What the teaching tabs replay comes from the last valid scenario while the inputs are invalid.
    void demosFollowTheLastValidScenario()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        const PipelineDemo valid = doc.pipelineDemo(std::nullopt);
        QVERIFY2(valid.error.empty(), valid.error.c_str());
        doc.edit(Field::Tp, 3);   // does not divide the heads: invalid, kept
        QVERIFY(!doc.evaluation().feasible);
        const PipelineDemo kept = doc.pipelineDemo(std::nullopt);
        QVERIFY(kept.error.empty());
        QCOMPARE(kept.simulation.makespanSeconds, valid.simulation.makespanSeconds);
        QVERIFY(doc.ringDemo({}).error.empty());
        QVERIFY(doc.stepTimelines().overlapped.error.empty());
        QVERIFY(!doc.explanation("step_time_s").formula.empty());
    }

    // An invalid plan offers the nearest one that runs, moving the input just changed.
    void repairsTheInputJustChanged()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        QVERIFY(!doc.canRepair());   // valid: nothing to repair
        doc.edit(Field::Tp, 3);      // 64 heads: TP 3 does not divide them, and DP would be fractional
        doc.finishEdit();
        QVERIFY(!doc.evaluation().feasible);
        QVERIFY(doc.canRepair());
        const int steps = doc.undoStack()->count();
        doc.repair();
        QVERIFY2(doc.evaluation().feasible, doc.evaluation().problem.message.c_str());
        QVERIFY(doc.scenario().plan.tp == 2 || doc.scenario().plan.tp == 4);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().plan.tp, 3);   // what the user typed is kept in the history
    }

    // MXFP8 (no block-scaled tensor cores) and NVFP4 (no FP4 tensor cores) cannot run on Hopper:
    // Repair moves the recipe to current scaling, the FP8 recipe Hopper runs, and keeps FP8.
    void repairsAnFp8RecipeTheGpuLacks()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        QVERIFY(!doc.scenario().cluster.gpu.mxfp8);
        // Choose the recipe; the field the reason names; Repair runs.
        const auto chooseAndRepair = [&](Fp8Recipe recipe, const char *problemField) {
            doc.edit(Field::Fp8Recipe, int(recipe));   // also turns FP8 on, with a note
            doc.finishEdit();
            QCOMPARE(doc.evaluation().problem.field, std::string(problemField));
            QVERIFY(doc.canRepair());
            doc.repair();
            QVERIFY2(doc.evaluation().feasible, doc.evaluation().problem.message.c_str());
        };
        for (Fp8Recipe recipe : {Fp8Recipe::Mxfp8, Fp8Recipe::Nvfp4}) {
            chooseAndRepair(recipe, "training.fp8_recipe");
            QCOMPARE(doc.scenario().training.fp8Recipe, Fp8Recipe::Tensorwise);
            QCOMPARE(doc.scenario().training.precision, Precision::Fp8);
        }
        // On a GPU with FP4, NVFP4 with TP overlap: Repair keeps NVFP4 and turns the overlap off.
        Scenario s = doc.scenario();
        s.cluster.gpu.peakFlops4 = 9000e12;
        s.plan.tp = 2;
        s.plan.dp = s.cluster.gpus / (s.plan.tp * s.plan.pp * s.plan.cp);
        s.plan.tpOverlap = true;
        s.plan.sequenceParallel = true;
        doc.setScenarioDirect(s);
        chooseAndRepair(Fp8Recipe::Nvfp4, "plan.tp_overlap");
        QCOMPARE(doc.scenario().training.fp8Recipe, Fp8Recipe::Nvfp4);
        QCOMPARE(doc.scenario().plan.tpOverlap, false);
    }

    // The MFU card's bands are dense BF16/FP8 runs'; NVFP4 against the FP4 peak publishes 20-24%
    // (Megatron-Bridge's Llama rows), so its card is not coloured as poor, and a BF16 plan with the
    // same low MFU is.
    void mfuCardBandsAreNotFp4s()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        Scenario s = doc.scenario();
        Evaluation e = doc.evaluation();
        QVERIFY(e.feasible);
        e.mfu = 0.22;
        const auto toneOf = [](const QList<CardData> &cards) {
            for (const CardData &c : cards)
                if (c.id == QLatin1String("mfu"))
                    return c.tone;
            return CardData::Bad;
        };
        QCOMPARE(toneOf(headlineCards(s, e)), CardData::Warn);
        s.training.precision = Precision::Fp8;
        s.training.fp8Recipe = Fp8Recipe::Nvfp4;
        QCOMPARE(toneOf(headlineCards(s, e)), CardData::Normal);
    }

    // Ulysses hands each CP rank a share of the heads: CP 2 cannot split Llama 3 70B's one kv head
    // per TP 8 rank, so Repair keeps CP 2 and moves K and V around the ring instead.
    void repairsAnExchangeThatCannotSplitTheHeads()
    {
        ScenarioDocument doc;
        loadDefault(doc);
        doc.edit(Field::CpComm, int(CpComm::A2a));   // no effect at CP 1
        doc.finishEdit();
        QVERIFY(doc.evaluation().feasible);
        doc.edit(Field::Cp, 2);
        doc.finishEdit();
        QCOMPARE(doc.evaluation().problem.field, std::string("plan.cp_comm"));
        QVERIFY(doc.canRepair());
        doc.repair();
        QVERIFY2(doc.evaluation().feasible, doc.evaluation().problem.message.c_str());
        QCOMPARE(doc.scenario().plan.cp, 2);
        QCOMPARE(doc.scenario().plan.cpComm, CpComm::P2p);
    }
};

QTEST_MAIN(TestScenarioDocument)
#include "tst_scenariodocument.moc"
