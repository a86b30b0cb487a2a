// SPDX-License-Identifier: MIT
// The window offscreen: sliders drive the model and the views, undo restores, files round-trip,
// bad values show a message, warnings apply, and screenshots and the report are written for review.
#include "animationclock.h"
#include "pipelinepanel.h"
#include "ringpanel.h"
#include "steptimelinepanel.h"
#include "autosave.h"
#include "help.h"
#include "calibrationdialog.h"
#include "scenariofiles.h"
#include "comparepanel.h"
#include "plansearchpanel.h"
#include "plantablemodel.h"
#include "planview.h"
#include "evaluate.h"
#include "explanationview.h"
#include "formatting.h"
#include "headlinecards.h"
#include "layoutboundary.h"
#include "mainwindow.h"
#include "memorychart.h"
#include "parameterpanel.h"
#include "quantityslider.h"
#include "report.h"
#include "scenariodocument.h"
#include "scenarioio.h"
#include "warningsview.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QFrame>
#include <QGuiApplication>
#include <QComboBox>
#include <QProgressBar>
#include <QSet>
#include <QVBoxLayout>
#include <QMenuBar>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTableWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QLockFile>
#include <QTest>
#include <QUndoStack>

using namespace ts;

namespace {
QString outputDir()
{
    const QString dir = QStringLiteral(TRAINSCOPE_TEST_OUTPUT_DIR);
    QDir().mkpath(dir);
    return dir;
}

QuantitySlider *sliderFor(MainWindow &w, const QString &label)
{
    for (QuantitySlider *s : w.panel()->findChildren<QuantitySlider *>())
        if (s->label() == label)
            return s;
    return nullptr;
}

// The parameter panel's combo box that `is` picks out (by an item it holds), or null.
template<typename Predicate>
QComboBox *panelCombo(MainWindow &w, Predicate is)
{
    for (QComboBox *c : w.panel()->findChildren<QComboBox *>())
        if (is(c))
            return c;
    return nullptr;
}

QString cardValue(MainWindow &w, const QString &id)
{
    for (HeadlineCard *c : w.cards()->cards())
        if (c->id() == id)
            return c->valueText();
    return {};
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x2f, 0x2f, 0x2f));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    return p;
}
// Counts paint events of the spin boxes of the given sliders.
class SpinPaints : public QObject
{
public:
    explicit SpinPaints(const QList<QuantitySlider *> &sliders)
    {
        for (QuantitySlider *s : sliders)
            for (QWidget *w : s->findChildren<QWidget *>())
                m_watched.insert(w);
    }
    int count = 0;

protected:
    bool eventFilter(QObject *o, QEvent *e) override
    {
        if (e->type() == QEvent::Paint && m_watched.contains(static_cast<QWidget *>(o)))
            ++count;
        return false;
    }

private:
    QSet<QWidget *> m_watched;
};
// Counts events of one type sent to the given objects.
class EventCounter : public QObject
{
public:
    EventCounter(QEvent::Type type, const QList<QObject *> &targets)
        : m_type(type)
        , m_targets(targets.begin(), targets.end())
    {
    }
    int count = 0;

protected:
    bool eventFilter(QObject *o, QEvent *e) override
    {
        if (e->type() == m_type && m_targets.contains(o))
            ++count;
        return false;
    }

private:
    QEvent::Type m_type;
    QSet<QObject *> m_targets;
};
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("TrainscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("TrainscopeTest"));
    }

    void defaultScenarioShown()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.document()->evaluation().feasible);
        QVERIFY(!cardValue(w, QStringLiteral("step_time_s")).isEmpty());
        QVERIFY(w.windowTitle().contains(QLatin1String("Trainscope")));
    }

    // The GPU picker's items say how the model fared against measured runs on each GPU.
    void gpuPickerShowsMeasuredAccuracy()
    {
        MainWindow w;
        QComboBox *gpus = panelCombo(w, [](QComboBox *c) { return c->findData(QStringLiteral("b200")) >= 0; });
        QVERIFY(gpus);
        const QString b200 = gpus->itemData(gpus->findData(QStringLiteral("b200")), Qt::ToolTipRole).toString();
        QVERIFY2(b200.contains(QLatin1String("upper bound")), qPrintable(b200));
        QVERIFY(gpus->itemData(gpus->findData(QStringLiteral("h100-sxm")), Qt::ToolTipRole).toString().contains(QLatin1String("H100 runs")));
    }

    // Inputs that apply only under another one are greyed out until it does, and keep their value.
    void dependentInputsFollowTheirCondition()
    {
        MainWindow w;
        QComboBox *recipe = panelCombo(w, [](QComboBox *c) { return c->findText(QStringLiteral("MXFP8 (Blackwell)")) >= 0; });
        QVERIFY(recipe);
        QCOMPARE(w.document()->scenario().training.precision, Precision::Bf16);
        QVERIFY(!recipe->isEnabled());
        w.editField(Field::Precision, double(int(Precision::Fp8)));
        QCOMPARE(w.document()->scenario().training.precision, Precision::Fp8);
        QVERIFY(recipe->isEnabled());
        w.editField(Field::Fp8Recipe, double(int(Fp8Recipe::Tensorwise)));
        w.editField(Field::Precision, double(int(Precision::Bf16)));
        QVERIFY(!recipe->isEnabled());
        QCOMPARE(w.document()->scenario().training.fp8Recipe, Fp8Recipe::Tensorwise);   // kept
        QCOMPARE(recipe->currentIndex(), int(Fp8Recipe::Tensorwise));
        // The K/V exchange applies only with context parallelism.
        QComboBox *cpComm = panelCombo(w, [](QComboBox *c) { return c->findText(QStringLiteral("All-to-all (Ulysses)")) >= 0; });
        QVERIFY(cpComm);
        QCOMPARE(w.document()->scenario().plan.cp, 1);
        QVERIFY(!cpComm->isEnabled());
        w.editField(Field::Cp, 2);
        QVERIFY(cpComm->isEnabled());
        w.editField(Field::CpComm, double(int(CpComm::AllGather)));
        QCOMPARE(w.document()->scenario().plan.cpComm, CpComm::AllGather);
        QCOMPARE(cpComm->currentIndex(), int(CpComm::AllGather));

        // Megatron's recompute modules: a box per module, live under Megatron-LM; a click toggles
        // its flag (one undo step), turns selective recompute on, and the boxes show the list.
        QCheckBox *mlp = nullptr, *core = nullptr;
        for (QCheckBox *c : w.panel()->findChildren<QCheckBox *>()) {
            if (c->text() == QStringLiteral("Dense MLP"))
                mlp = c;
            if (c->text() == QStringLiteral("Core attention"))
                core = c;
        }
        QVERIFY(mlp && core);
        w.editField(Field::Framework, double(int(Framework::Fsdp)));
        QVERIFY(!mlp->isEnabled());
        w.editField(Field::Framework, double(int(Framework::Megatron)));
        w.editField(Field::Recompute, double(int(Recompute::None)));
        QVERIFY(mlp->isEnabled());
        QVERIFY(core->isChecked() && !mlp->isChecked());   // Megatron-Core's default, core_attn
        const int undoBefore = w.document()->undoStack()->count();
        mlp->click();
        QCOMPARE(w.document()->scenario().training.recomputeModules, unsigned(kRecomputeCoreAttn | kRecomputeMlp));
        QCOMPARE(w.document()->scenario().training.recompute, Recompute::Selective);
        QCOMPARE(w.document()->undoStack()->count(), undoBefore + 1);
        core->click();
        QCOMPARE(w.document()->scenario().training.recomputeModules, unsigned(kRecomputeMlp));
        w.document()->undoStack()->undo();
        QVERIFY(core->isChecked() && mlp->isChecked());
    }

    void everySliderDrivesTheModel_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("position");
        for (const char *label : {"Parameters", "Sequence length", "Global batch", "Micro-batch size", "Token budget", "GPUs",
                                  "Tensor parallel (TP)", "Pipeline parallel (PP)", "Context parallel (CP)", "Data parallel (DP)",
                                  "Intra-node bandwidth", "Inter-node bandwidth", "Intra-node latency", "Inter-node latency",
                                  "DP bucket", "Straggler jitter", "Gradient compression"})
            QTest::newRow(label) << QString::fromLatin1(label) << 1;
    }
    void everySliderDrivesTheModel()
    {
        QFETCH(QString, label);
        MainWindow w;
        QuantitySlider *slider = sliderFor(w, label);
        QVERIFY2(slider, qPrintable(label));
        QSlider *track = slider->findChild<QSlider *>();
        const Scenario before = w.document()->scenario();
        const QString stepBefore = cardValue(w, QStringLiteral("step_time_s"));
        // Move to a different position: the scenario must change.
        const int target = track->value() < (track->minimum() + track->maximum()) / 2 ? track->maximum() : track->minimum();
        track->setValue(target);
        QVERIFY2(!(w.document()->scenario() == before), qPrintable(label));
        QCOMPARE(w.document()->undoStack()->count(), 1);
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->scenario() == before);
        QCOMPARE(cardValue(w, QStringLiteral("step_time_s")), stepBefore);
    }

    void dragIsOneUndoStep()
    {
        MainWindow w;
        QuantitySlider *gpus = sliderFor(w, QStringLiteral("Global batch"));
        QSlider *track = gpus->findChild<QSlider *>();
        const Scenario before = w.document()->scenario();
        const QString stepBefore = cardValue(w, QStringLiteral("step_time_s"));
        track->setSliderDown(true);
        for (int i = 0; i < 40; ++i)
            track->setValue(track->value() + 3);
        track->setSliderDown(false);
        QCOMPARE(w.document()->undoStack()->count(), 1);
        QVERIFY(cardValue(w, QStringLiteral("step_time_s")) != stepBefore);
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->scenario() == before);
        QVERIFY(!w.document()->isModified());
    }

    // The spin box's arrows move between valid degrees; a typed value is kept as typed.
    void spinArrowsStepThroughValidDegrees()
    {
        MainWindow w;
        QuantitySlider *tp = sliderFor(w, QStringLiteral("Tensor parallel (TP)"));
        QDoubleSpinBox *spin = tp->findChild<QDoubleSpinBox *>();
        spin->setValue(4);
        spin->stepBy(1);
        QCOMPARE(spin->value(), 8.0);
        spin->stepBy(-2);
        QCOMPARE(spin->value(), 2.0);
        spin->setValue(3);   // typed: kept (and judged invalid), not snapped
        QCOMPARE(w.document()->scenario().plan.tp, 3);
        spin->stepBy(1);
        QCOMPARE(spin->value(), 4.0);
        spin->setValue(3);
        spin->stepBy(-1);
        QCOMPARE(spin->value(), 2.0);
    }

    void badValueShowsMessage()
    {
        MainWindow w;
        w.show();
        QuantitySlider *tp = sliderFor(w, QStringLiteral("Tensor parallel (TP)"));
        QDoubleSpinBox *spin = tp->findChild<QDoubleSpinBox *>();
        const QString stepBefore = cardValue(w, QStringLiteral("step_time_s"));
        spin->setValue(3);   // 64 heads are not divisible by 3; 1024 GPUs neither
        QVERIFY(!w.document()->evaluation().feasible);
        bool shown = false;
        for (QLabel *l : w.panel()->findChildren<QLabel *>())
            if (l->isVisible() && (l->text().contains(QLatin1String("tp (3)")) || l->text().contains(QLatin1String("must equal"))))
                shown = true;
        QVERIFY(shown);
        // The last valid picture stays, struck through.
        QCOMPARE(cardValue(w, QStringLiteral("step_time_s")), stepBefore);
        QVERIFY(w.cards()->isStale());
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->evaluation().feasible);
        QVERIFY(!w.cards()->isStale());
    }

    // An edit repaints what it changed, not every control of the panel: the panel sets each
    // control on every edit, and a spin box repaints on any setValue, so an unchanged value must
    // not reach it (half of each slider step's time, trainscope-bench slider_update).
    void anEditRepaintsOnlyTheControlsItChanged()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QList<QuantitySlider *> unchanged;
        for (const char *label : {"GPUs", "Tensor parallel (TP)", "Pipeline parallel (PP)", "Global batch", "Sequence length"}) {
            QuantitySlider *slider = sliderFor(w, QString::fromLatin1(label));
            QVERIFY2(slider && slider->isVisible(), label);
            unchanged << slider;
        }
        QApplication::processEvents();
        SpinPaints paints(unchanged);
        qApp->installEventFilter(&paints);
        for (double gbps : {123.0, 321.0, 555.0}) {
            w.editField(Field::InterBandwidth, gbps * 1e9 / 8);
            QApplication::processEvents();
        }
        qApp->removeEventFilter(&paints);
        QVERIFY(w.document()->evaluation().feasible);
        QCOMPARE(paints.count, 0);
        // A value that does change still shows.
        w.editField(Field::Gpus, 2048);
        QCOMPARE(unchanged.front()->value(), 2048.0);
    }

    // New figures on the cards relay out the plan view only: the tab widget above it would repaint
    // whole on every layout request (trainscope-bench slider_update).
    void newFiguresDoNotRelayOutTheWindow()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::processEvents();
        EventCounter requests(QEvent::LayoutRequest, {w.mainTabs(), &w});
        qApp->installEventFilter(&requests);
        const QString before = cardValue(w, QStringLiteral("step_time_s"));
        // As a hand drags the slider: most steps change figures, few change what the view needs.
        for (int step = 0; step < 100; ++step) {
            w.editField(Field::InterBandwidth, (200.0 + step) * 1e9 / 8);
            QApplication::processEvents();
            QApplication::processEvents();
        }
        qApp->removeEventFilter(&requests);
        QVERIFY(cardValue(w, QStringLiteral("step_time_s")) != before);
        QVERIFY2(requests.count <= 2, qPrintable(QString::number(requests.count)));
    }

    // The boundary still passes on a change of the held widget's size hints.
    void layoutBoundaryPassesOnRealSizeChanges()
    {
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *held = new QLabel(QStringLiteral("one line"));
        auto *boundary = new LayoutBoundary(held, &window);
        layout->addWidget(boundary);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(boundary->minimumSizeHint(), held->minimumSizeHint());
        EventCounter requests(QEvent::LayoutRequest, {&window});
        qApp->installEventFilter(&requests);
        held->setText(QStringLiteral("two"));   // shorter text: the label's hints move
        QApplication::processEvents();          // the boundary's request to its parent is posted...
        QApplication::processEvents();          // ... and handled in the next round
        qApp->removeEventFilter(&requests);
        QVERIFY(requests.count > 0);
        QCOMPARE(held->geometry(), boundary->rect());
        held->setMinimumHeight(300);
        QApplication::processEvents();
        QApplication::processEvents();
        QVERIFY(window.height() >= 300);
        QCOMPARE(held->height(), boundary->height());
    }

    // A file that cannot run shows its reason at the input it names, not also at whichever input
    // comes first in the table (a load changes them all).
    void openedFileShowsItsReasonOnce()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mxfp8-on-h100.json"));
        MainWindow w;
        w.editField(Field::Precision, int(Precision::Fp8));
        w.editField(Field::Fp8Recipe, int(Fp8Recipe::Mxfp8));
        QVERIFY(!w.document()->evaluation().feasible);
        QVERIFY(w.saveTo(path));
        MainWindow other;
        other.show();
        QVERIFY(other.openFile(path, false));
        QCOMPARE(other.document()->evaluation().problem.field, std::string("training.fp8_recipe"));
        int shown = 0;
        for (QLabel *l : other.panel()->findChildren<QLabel *>())
            if (l->isVisible() && l->text().contains(QLatin1String("block-scaled FP8 tensor cores")))
                ++shown;
        QCOMPARE(shown, 1);
    }

    void nanAndExtremesNeverCrash()
    {
        MainWindow w;
        for (Field f : {Field::Gpus, Field::Tp, Field::GlobalBatch, Field::InterBandwidth, Field::IntraEfficiency, Field::Jitter,
                        Field::Parameters, Field::SeqLen, Field::Bucket})
            for (double v : {0.0, -1.0, 1e12, std::nan("")}) {
                w.editField(f, v);
                const Evaluation &e = w.document()->evaluation();
                QVERIFY(e.feasible || !e.problem.field.empty());
            }
    }

    void saveOpenRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.json"));
        MainWindow w;
        w.editField(Field::Zero, 2);
        w.editField(Field::OverlapDp, 0);
        QVERIFY(w.document()->isModified());
        QVERIFY(w.saveTo(path));
        QVERIFY(!w.document()->isModified());
        const Scenario saved = w.document()->scenario();
        MainWindow other;
        QVERIFY(other.openFile(path, false));
        QVERIFY(other.document()->scenario() == saved);
        QCOMPARE(other.document()->filePath(), path);
        QVERIFY(!other.openFile(dir.filePath(QStringLiteral("missing.json")), false));
        QVERIFY(other.document()->scenario() == saved);   // a failed open keeps what was there
    }

    void applyingAWarningChangesThePlan()
    {
        MainWindow w;
        QVERIFY(w.openFile(QStringLiteral(":/scenarios/seed-gradient-sync.json"), false));
        const Evaluation e = w.document()->evaluation();
        QVERIFY(e.warningCount > 0);
        QCOMPARE(e.warnings[0].code, WarningCode::CommunicationDominates);
        QCOMPARE(e.warnings[0].changes[0].field, Field::InNetworkReduction);
        QVERIFY(!w.document()->scenario().cluster.inNetworkReduction);
        const QList<QPushButton *> buttons = w.warningsView()->findChildren<QPushButton *>();
        QVERIFY(!buttons.isEmpty());
        buttons.first()->click();
        QVERIFY(w.document()->scenario().cluster.inNetworkReduction);   // "turn cluster.in_network_reduction on"
        QVERIFY(w.document()->evaluation().communicationFraction < e.communicationFraction);
        QCOMPARE(w.document()->undoStack()->count(), 1);
    }

    // A drag that only moves the figures in the warnings' text updates their rows in place
    // (the same labels and buttons); other warnings rebuild them; Apply still reports its row.
    void warningRowsUpdateInPlace()
    {
        WarningsView view;
        const WarningItem dp{QStringLiteral("gradient_sync_exposed"), QStringLiteral("Gradient sync exposed for 27.6% of the step."),
                             QStringLiteral("Overlap it."), true, false};
        const WarningItem tp{QStringLiteral("tp_comm_exposed"), QStringLiteral("TP in the open for 11.5% of the step."),
                             QStringLiteral("Turn TP overlap on."), false, false};
        view.setWarnings({dp, tp});
        QCOMPARE(view.count(), 2);
        const QList<QLabel *> labelsBefore = view.findChildren<QLabel *>();
        const QList<QPushButton *> buttonsBefore = view.findChildren<QPushButton *>();
        QCOMPARE(buttonsBefore.size(), 2);

        WarningItem dpMoved = dp, tpMoved = tp;
        dpMoved.message = QStringLiteral("Gradient sync exposed for 26.9% of the step.");
        tpMoved.canApply = true;
        view.setWarnings({dpMoved, tpMoved});
        QCOMPARE(view.findChildren<QLabel *>(), labelsBefore);     // the same widgets
        QCOMPARE(view.findChildren<QPushButton *>(), buttonsBefore);
        bool sawNewText = false;
        for (const QLabel *label : view.findChildren<QLabel *>())
            sawNewText = sawNewText || label->text().contains(QStringLiteral("26.9%"));
        QVERIFY(sawNewText);
        // The text is plain (no selection): the row's context menu copies message and recommendation.
        QFrame *row = view.findChild<QFrame *>(QStringLiteral("gradient_sync_exposed"));
        QVERIFY(row);
        QCOMPARE(row->contextMenuPolicy(), Qt::ActionsContextMenu);
        QCOMPARE(row->actions().size(), 1);
        row->actions().first()->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), dpMoved.message + QLatin1Char('\n') + dpMoved.recommendation);
        QVERIFY(buttonsBefore[1]->isEnabled());   // the second row's button follows its warning
        QSignalSpy applied(&view, &WarningsView::applyRequested);
        buttonsBefore[1]->click();
        QCOMPARE(applied.size(), 1);
        QCOMPARE(applied.first().first().toInt(), 1);

        WarningItem error = tp;
        error.code = QStringLiteral("does_not_fit_memory");
        error.error = true;
        view.setWarnings({error});   // other codes: rebuilt
        QCOMPARE(view.count(), 1);
        const QList<QPushButton *> rebuilt = view.findChildren<QPushButton *>();
        QCOMPARE(rebuilt.size(), 1);
        QCOMPARE(rebuilt.first()->text(), QStringLiteral("Repair"));
        view.setWarnings({});
        QCOMPARE(view.count(), 0);
        QVERIFY(view.findChildren<QPushButton *>().isEmpty());
    }

    void autosaveAfterEdits()
    {
        MainWindow w;
        const QString path = w.files()->autosave()->path();
        QFile::remove(path);
        w.editField(Field::Zero, 3);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), 5000);
        ScenarioError error;
        const auto saved = loadScenarioFile(path, &error);
        QVERIFY2(saved, qPrintable(error.text()));
        QCOMPARE(saved->scenario.plan.zeroStage, 3);
        // Saving removes it; so does closing on purpose.
        QVERIFY(w.saveTo(QDir::temp().filePath(QStringLiteral("trainscope-autosave-test.json"))));
        QVERIFY(!QFile::exists(path));
    }

    // Recovery offers the autosave of an instance that is gone, never that of one still running.
    void autosaveRecoveryOnlyForDeadInstances()
    {
        MainWindow w;
        const QString dir = Autosave::directory();
        for (const QString &f : QDir(dir).entryList({QStringLiteral("autosave*")}, QDir::Files))
            QFile::remove(dir + QLatin1Char('/') + f);
        const QByteArray json = w.document()->toJson();
        auto write = [&](const QString &name) {
            QFile f(dir + QLatin1Char('/') + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(json);
        };
        write(QStringLiteral("autosave-live.json"));
        write(QStringLiteral("autosave-dead.json"));
        QLockFile live(dir + QStringLiteral("/autosave-live.lock"));   // another window, still open
        QVERIFY(live.tryLock(0));
        const QStringList orphans = w.files()->autosave()->orphans();
        QCOMPARE(orphans.size(), 1);
        QVERIFY(orphans.front().endsWith(QLatin1String("autosave-dead.json")));
        live.unlock();
        QCOMPARE(w.files()->autosave()->orphans().size(), 2);   // it closed without saving: offered now
        for (const QString &f : QDir(dir).entryList({QStringLiteral("autosave-*")}, QDir::Files))
            QFile::remove(dir + QLatin1Char('/') + f);
    }

    void animationsFollowTheScenario()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.mainTabs()->setCurrentWidget(w.pipelinePanel());
        QTest::qWait(10);
        const double before = w.pipelinePanel()->clock()->duration();
        QVERIFY(before > 0);
        w.editField(Field::Pp, 8);   // more stages: a different schedule, replayed at once
        QVERIFY(w.pipelinePanel()->clock()->duration() != before);
        w.mainTabs()->setCurrentWidget(w.ringPanel());
        QTest::qWait(10);
        QVERIFY(w.ringPanel()->clock()->duration() > 0);
        w.ringPanel()->setAlgorithm(QStringLiteral("tree"));
        w.ringPanel()->clock()->play();
        QTRY_VERIFY_WITH_TIMEOUT(w.ringPanel()->clock()->time() > 0, 2000);
        w.ringPanel()->clock()->pause();
        auto visibleCombos = [&w] {
            const QList<QComboBox *> all = w.ringPanel()->findChildren<QComboBox *>();
            return std::count_if(all.begin(), all.end(), [](QComboBox *c) { return c->isVisible(); });
        };
        const auto combosBefore = visibleCombos();   // algorithm, buffer, playback speed
        w.setPresentationMode(true);
        QVERIFY(w.isFullScreen() || QGuiApplication::platformName() == QLatin1String("offscreen"));
        // Only the tabs, the drawing and its playback: no dock, menus, status bar or pickers.
        QVERIFY(!w.panel()->isVisible());
        QVERIFY(!w.menuBar()->isVisible());
        QCOMPARE(visibleCombos(), combosBefore - 2);   // only the playback speed is left
        QVERIFY(w.font().pointSizeF() > QApplication::font().pointSizeF());
        w.resize(1280, 720);
        QTest::qWait(20);
        QVERIFY(w.grab().save(outputDir() + QStringLiteral("/presentation-ring-1280x720.png")));
        w.mainTabs()->setCurrentWidget(w.pipelinePanel());
        QTest::qWait(20);
        QVERIFY(w.grab().save(outputDir() + QStringLiteral("/presentation-pipeline-1280x720.png")));
        w.setPresentationMode(false);
        QVERIFY(w.panel()->isVisible());
        QVERIFY(w.menuBar()->isVisible());
    }

    // Help's tour names every tab; its shortcuts list names the View menu's tab keys.
    void helpCoversEveryTab()
    {
        MainWindow w;
        const QString tour = help::tourHtml();
        for (int i = 0; i < w.mainTabs()->count(); ++i)
            QVERIFY2(tour.contains(QStringLiteral("<b>%1</b>").arg(w.mainTabs()->tabText(i))), qPrintable(w.mainTabs()->tabText(i)));
        QVERIFY(help::shortcutsHtml().contains(QStringLiteral("Alt+%1").arg(w.mainTabs()->count())));
    }

    // The window works down to 1024x640 (a 1280x720 projector with room to spare).
    void fitsSmallScreens()
    {
        MainWindow w;
        w.show();
        for (int i = 0; i < w.mainTabs()->count(); ++i) {
            QWidget *tab = w.mainTabs()->widget(i);
            w.mainTabs()->setCurrentWidget(tab);
            QTest::qWait(5);
            const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
            QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 640,
                     qPrintable(QStringLiteral("tab %1: minimum %2x%3").arg(w.mainTabs()->indexOf(tab)).arg(minimum.width()).arg(minimum.height())));
        }
    }

    void planSearchAppliesTheBestPlan()
    {
        MainWindow w;
        w.mainTabs()->setCurrentWidget(w.planSearchPanel());   // default: Llama 3 70B on 1024 H100
        QSignalSpy finished(w.planSearchPanel(), &PlanSearchPanel::searchFinished);
        // The progress bar shows only while the search runs (an idle empty bar reads as a text field).
        auto *progress = w.planSearchPanel()->findChild<QProgressBar *>();
        QVERIFY(progress && progress->isHidden());
        w.planSearchPanel()->startSearch();
        QVERIFY(!progress->isHidden());
        // A bound on a hang, not a speed test (trainscope-bench times the search): under the
        // sanitizers the half-million-plan search of the default scenario takes 15-25 s.
        QVERIFY(finished.wait(120000));
        QVERIFY(progress->isHidden());
        PlanTableModel *plans = w.planSearchPanel()->model();
        QVERIFY(plans->rowCount() > 1);
        // The current plan is listed at its rank; the best plan is not it (the default is not optimal).
        QVERIFY(plans->currentRow() > 0);
        // Its time to train is the headline card's: with failures and checkpoints.
        QCOMPARE(plans->data(plans->index(plans->currentRow(), PlanTableModel::ColTrain), Qt::UserRole).toDouble(),
                 w.document()->analysis().economics.goodput.trainSeconds);
        w.resize(1280, 720);
        w.show();
        w.planSearchPanel()->findChild<QTableView *>()->selectRow(0);
        QTest::qWait(50);
        QVERIFY(w.grab().save(outputDir() + QStringLiteral("/plan-search-1280x720.png")));
        const Scenario best = plans->plan(0).scenario;
        w.planSearchPanel()->applyRow(plans->currentRow());   // applying the current plan does nothing
        QCOMPARE(w.document()->undoStack()->count(), 0);
        w.planSearchPanel()->applyRow(0);
        QVERIFY(w.document()->scenario() == best);
        QVERIFY(w.document()->evaluation().memory.fits);
        QCOMPARE(plans->rowCount(), 0);   // results of the old scenario are cleared
        w.document()->undoStack()->undo();
        QVERIFY(!(w.document()->scenario() == best));
    }

    void compareAndCalibrate()
    {
        MainWindow w;
        const auto starred = [&w] {
            const QList<QTableWidget *> tables = w.comparePanel()->findChildren<QTableWidget *>();
            return std::any_of(tables.begin(), tables.end(), [](QTableWidget *t) {
                for (int r = 0; r < t->rowCount(); ++r)
                    for (int c = 0; c < t->columnCount(); ++c)
                        if (t->item(r, c) && t->item(r, c)->text().startsWith(QStringLiteral("★")))
                            return true;
                return false;
            });
        };
        // The current plan alone is compared with nothing: no figure is marked best.
        w.mainTabs()->setCurrentWidget(w.comparePanel());
        const QList<QTableWidget *> alone = w.comparePanel()->findChildren<QTableWidget *>();
        QVERIFY(std::any_of(alone.begin(), alone.end(), [](QTableWidget *t) { return t->columnCount() == 1 && t->rowCount() > 0; }));
        QVERIFY(!starred());
        // Time to train and GPU-hours as the headline cards give them: with failures and checkpoints
        // (the failure-free figures differ, so the comparison tells them apart).
        const Economics &x = w.document()->analysis().economics;
        QVERIFY(x.valid);
        const auto figure = [&w](const QString &name) {
            for (QTableWidget *t : w.comparePanel()->findChildren<QTableWidget *>())
                for (int r = 0; r < t->rowCount(); ++r)
                    if (t->verticalHeaderItem(r) && t->verticalHeaderItem(r)->text() == name && t->item(r, t->columnCount() - 1))
                        return t->item(r, t->columnCount() - 1)->text();
            return QString();
        };
        QCOMPARE(figure(QStringLiteral("Time to train")), fmt::duration(x.goodput.trainSeconds));
        QCOMPARE(figure(QStringLiteral("GPU-hours")), fmt::count(x.cost.gpuHours));
        QVERIFY(fmt::count(x.cost.gpuHours) != fmt::count(w.document()->evaluation().gpuHours));
        QVERIFY(w.pinCurrent());
        w.editField(Field::OverlapDp, 0);
        QVERIFY(w.pinCurrent());
        w.mainTabs()->setCurrentWidget(w.comparePanel());
        QCOMPARE(w.pinned().size(), 2);
        const QList<QTableWidget *> tables = w.comparePanel()->findChildren<QTableWidget *>();
        QVERIFY(std::any_of(tables.begin(), tables.end(), [](QTableWidget *t) {
            for (int r = 0; r < t->rowCount(); ++r)
                if (t->verticalHeaderItem(r) && t->verticalHeaderItem(r)->text() == QLatin1String("Gradient-sync overlap"))
                    return true;
            return false;
        }));
        // The best plan of each figure is starred, the pinned ones carry their difference to the current.
        QVERIFY(starred());
        // Pins can be renamed (double-click a column header).
        emit w.comparePanel()->renameRequested(0, QStringLiteral("Baseline"));
        QCOMPARE(w.pinned().front().name, QStringLiteral("Baseline"));
        for (int i = 0; i < 3; ++i)
            w.pinCurrent();
        QCOMPARE(w.pinned().size(), 4);   // at most four
        w.unpin(0);
        QCOMPARE(w.pinned().size(), 3);

        const Cluster before = w.document()->scenario().cluster;
        CalibrationDialog *dialog = w.openCalibration();
        const QString data = QStringLiteral(TRAINSCOPE_SOURCE_DIR "/tests/model/data/");
        QVERIFY(dialog->addLogs({data + QStringLiteral("all_reduce_8gpu_nvlink.log"), data + QStringLiteral("all_gather_16node_ib.log")}).isEmpty());
        QCOMPARE(int(dialog->fits().size()), 2);
        QVERIFY(dialog->addLogs({data + QStringLiteral("malformed.log")}).contains(QLatin1String("line 24")));
        emit dialog->applyRequested(dialog->fits());
        // Both tiers take the fitted links: line rates kept, efficiencies fitted, never above 1.
        const Cluster &applied = w.document()->scenario().cluster;
        // The fitted links keep their tier's name in front (the fabric and NVLink generation they were fitted under).
        QVERIFY(QString::fromStdString(applied.intraNode.name).startsWith(QString::fromStdString(before.intraNode.name) + QLatin1String(" calibrated:")));
        QVERIFY(QString::fromStdString(applied.interNode.name).startsWith(QString::fromStdString(before.interNode.name) + QLatin1String(" calibrated:")));
        QCOMPARE(nvlinkGeneration(applied.intraNode), nvlinkGeneration(before.intraNode));
        QCOMPARE(resolveIntraFabric(applied), resolveIntraFabric(before));
        QCOMPARE(applied.intraNode.bytesPerSecond, dialog->fits()[0].lineRateBytesPerSecond);
        QVERIFY(applied.intraNode.efficiency > 0 && applied.intraNode.efficiency <= 1);
        QVERIFY(applied.interNode.efficiency > 0 && applied.interNode.efficiency <= 1);
        const QPixmap shot = dialog->grab();
        QVERIFY(shot.save(outputDir() + QStringLiteral("/calibration.png")));
    }

    void cardShowsExplanation()
    {
        MainWindow w;
        w.showExplanation(QStringLiteral("step_time_s"));
        const QString text = w.explanationView()->toPlainText();
        QVERIFY(text.contains(QLatin1String("Formula")));
        QVERIFY(text.contains(QLatin1String("compute")));
        QVERIFY(text.contains(QLatin1String("Source")));
        w.showExplanation(QStringLiteral("memory.activations_bytes"));
        QVERIFY(w.explanationView()->toPlainText().contains(QLatin1String("Korthikanti")));
    }

    void screenshots()
    {
        for (bool dark : {false, true}) {
            const QPalette original = QApplication::palette();
            if (dark)
                QApplication::setPalette(darkPalette());
            {
                MainWindow w;
                w.resize(1600, 1000);
                w.show();
                QVERIFY(QTest::qWaitForWindowExposed(&w));
                w.showExplanation(QStringLiteral("step_time_s"));
                QTest::qWait(50);
                const QString path = outputDir() + (dark ? QStringLiteral("/mainwindow-dark.png") : QStringLiteral("/mainwindow-light.png"));
                QVERIFY(w.grab().save(path));
                QVERIFY(QFileInfo(path).size() > 10000);
                // The teaching tabs on the default scenario, half-way through their animation.
                const char *tabs[] = {"plan", "allreduce", "pipeline", "steptimeline"};
                for (int tab = 1; tab < 4; ++tab) {
                    w.mainTabs()->setCurrentIndex(tab);
                    QTest::qWait(20);
                    auto *panel = qobject_cast<AnimationPanel *>(w.mainTabs()->currentWidget());
                    QVERIFY(panel);
                    panel->clock()->seek(panel->clock()->duration() * 0.5);
                    QVERIFY(w.grab().save(outputDir() + QStringLiteral("/tab-%1-%2.png").arg(QLatin1String(tabs[tab]), dark ? QStringLiteral("dark") : QStringLiteral("light"))));
                }
                w.mainTabs()->setCurrentIndex(0);
                QVERIFY(w.openFile(QStringLiteral(":/scenarios/seed-gradient-sync.json"), false));
                QTest::qWait(20);
                QVERIFY(w.grab().save(outputDir() + (dark ? QStringLiteral("/seed-dark.png") : QStringLiteral("/seed-light.png"))));
            }
            QApplication::setPalette(original);
        }
    }

    // Every tab at a projector's and a desktop's size, and an invalid state: written for review.
    void screenshotsAtCommonSizes()
    {
        const char *names[] = {"plan", "allreduce", "pipeline", "steptimeline", "plansearch", "planmap", "compare"};
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            MainWindow w;
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.size(), size);   // the window fits
            QVERIFY(w.pinCurrent());      // something to compare
            w.editField(Field::Pp, 8);
            QVERIFY(w.pinCurrent());
            w.document()->undoStack()->undo();
            for (int tab = 0; tab < w.mainTabs()->count(); ++tab) {
                w.mainTabs()->setCurrentIndex(tab);
                QTest::qWait(20);
                if (auto *panel = qobject_cast<AnimationPanel *>(w.mainTabs()->currentWidget()))
                    panel->clock()->seek(panel->clock()->duration() * 0.5);
                QVERIFY(w.grab().save(outputDir() + QStringLiteral("/size-%1-%2x%3.png").arg(QLatin1String(names[tab])).arg(size.width()).arg(size.height())));
            }
            w.mainTabs()->setCurrentIndex(0);
            QTest::qWait(20);
            // The explanation of the compute time, with every value substituted, for review.
            w.showExplanation(QStringLiteral("compute_s"));
            QTest::qWait(20);
            QVERIFY(w.grab().save(outputDir() + QStringLiteral("/explain-compute-%1x%2.png").arg(size.width()).arg(size.height())));
            // No chart elides its legend: a legend whose row does not fit sits beside the plot.
            for (ChartFrame *chart : w.findChildren<ChartFrame *>()) {
                if (!chart->isVisible())
                    continue;
                QVERIFY(chart->legendAlignment() == Qt::AlignBottom || chart->legendAlignment() == Qt::AlignRight);
            }
            const QList<MemoryChart *> memoryCharts = w.findChildren<MemoryChart *>();
            QVERIFY(!memoryCharts.isEmpty());
            // Seven memory parts do not fit one row at 1280x720, they do at 1920x1080.
            QCOMPARE(memoryCharts.front()->legendAlignment(), size.width() < 1600 ? Qt::AlignRight : Qt::AlignBottom);
            w.editField(Field::Tp, 3);   // does not divide the heads
            // The reason in red at TP (the input changed), the cards struck through, the Warnings
            // tab saying the plan cannot run, with a repair.
            const QList<QPushButton *> buttons = w.warningsView()->findChildren<QPushButton *>();
            QCOMPARE(buttons.size(), 1);
            QCOMPARE(buttons.front()->text(), QStringLiteral("Repair"));
            QVERIFY(buttons.front()->isEnabled());
            QTest::qWait(20);
            QVERIFY(w.grab().save(outputDir() + QStringLiteral("/invalid-%1x%2.png").arg(size.width()).arg(size.height())));
        }
    }

    void reportPdf()
    {
        MainWindow w;
        const QString path = outputDir() + QStringLiteral("/report.pdf");
        QString error;
        QVERIFY(w.pinCurrent());
        w.editField(Field::Zero, 3);
        const ReportInput input{w.document()->scenario(), w.document()->evaluation(), w.document()->name(),
                                w.document()->description(), w.document()->notes(), w.pinned()};
        QVERIFY2(writeReport(path, input, &error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 20000);
        if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
            QSKIP("pdftotext (poppler-utils) not installed");
        QProcess p;
        p.start(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(30000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        // (pdftotext keeps the "fi" ligature of "figures", so match around it)
        // Page 1 is the summary: time with failures, cost, energy, goodput, memory, how the model
        // fared against measured runs on this GPU, the best alternative and the risks; then the
        // charts, the comparison, and the appendix.
        const QString first = text.section(QChar(u'\f'), 0, 0);
        for (const char *summary : {"Time to train", "Cost", "Energy", "Goodput", "Memory per GPU", "Measured accuracy", "Best alternative", "Risks"})
            QVERIFY2(first.contains(QLatin1String(summary)), summary);
        for (const char *section : {"Where a step", "Scaling with GPUs", "Memory per GPU against HBM", "Compared plans", "1: TP",
                                    "Appendix: inputs", "Appendix: how the", "Narayanan", "Rajbhandari", "Young 1974"})
            QVERIFY2(text.contains(QLatin1String(section)), section);
        QVERIFY(!text.contains(QLatin1String("model/")));   // sources as papers, not code paths
        QVERIFY(!first.contains(QLatin1String("This model:")));   // Llama 3 70B's preset states none
        // A model whose preset states how the cost model fared on its measured runs: both rows.
        {
            Scenario oss = w.document()->scenario();
            ScenarioError presetError;
            QVERIFY2(workloadFromPreset(QStringLiteral("gpt-oss-120b"), &oss.workload, &presetError), qPrintable(presetError.text()));
            oss.plan.tp = 1;
            oss.plan.zeroStage = 1;
            oss.plan.ep = 8;
            oss.plan.dp = oss.cluster.gpus / oss.plan.pp;
            const Evaluation e = evaluate(oss);
            QVERIFY2(e.problem.field.empty(), e.problem.message.c_str());
            const QString ossPath = outputDir() + QStringLiteral("/report-gpt-oss.pdf");
            QVERIFY2(writeReport(ossPath, ReportInput{oss, e, QStringLiteral("GPT-OSS"), {}, {}, {}}, &error), qPrintable(error));
            QProcess q;
            q.start(QStringLiteral("pdftotext"), {ossPath, QStringLiteral("-")});
            QVERIFY(q.waitForFinished(30000));
            const QString ossText = QString::fromUtf8(q.readAllStandardOutput()).simplified();   // lines joined
            QVERIFY(ossText.contains(QLatin1String("Checked against about 50 measured H100 runs")));   // the GPU's
            QVERIFY(ossText.contains(QLatin1String("This model: Against 7 measured Megatron-Bridge runs")));
            QVERIFY(ossText.contains(QLatin1String("upper bound")));
        }
        // Charts are vectors: the PDF holds no raster images.
        if (!QStandardPaths::findExecutable(QStringLiteral("pdfimages")).isEmpty()) {
            QProcess images;
            images.start(QStringLiteral("pdfimages"), {QStringLiteral("-list"), path});
            QVERIFY(images.waitForFinished(30000));
            const QStringList lines = QString::fromUtf8(images.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QCOMPARE(lines.size(), 2);   // the header only
        }
        if (!QStandardPaths::findExecutable(QStringLiteral("pdftoppm")).isEmpty()) {
            QProcess ppm;
            ppm.start(QStringLiteral("pdftoppm"), {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("60"), path,
                                                   outputDir() + QStringLiteral("/report-page")});
            QVERIFY(ppm.waitForFinished(60000));
            QCOMPARE(ppm.exitCode(), 0);
        }
    }

    void exports()
    {
        MainWindow w;
        w.resize(1600, 1000);
        QString error;
        for (const char *suffix : {"png", "svg", "pdf"}) {
            const QString path = outputDir() + QStringLiteral("/views.") + QLatin1String(suffix);
            QVERIFY2(exportWidget(w.viewsWidget(), path, QStringLiteral("test"), &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        QVERIFY(!exportWidget(w.viewsWidget(), outputDir() + QStringLiteral("/views.bmpx"), QStringLiteral("test"), &error));

        // Slides: the active tab's views each on their own, 1920x1080 with a caption and the
        // scenario's name, charts as vectors.
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QList<SlideView> plan = w.slideViews();
        QCOMPARE(plan.size(), 3);   // the Plan tab's three charts
        for (const SlideView &v : plan)
            for (const char *suffix : {"png", "svg", "pdf"}) {
                const QString path = outputDir() + QStringLiteral("/slide-%1.%2").arg(v.fileTag, QLatin1String(suffix));
                QVERIFY2(exportSlide(v, w.document()->name(), path, &error), qPrintable(error));
                QVERIFY(QFileInfo(path).size() > 1000);
            }
        QCOMPARE(QImage(outputDir() + QStringLiteral("/slide-step-time.png")).size(), QSize(kSlideWidth, kSlideHeight));
        QVERIFY(QFile(outputDir() + QStringLiteral("/slide-scaling.svg")).open(QIODevice::ReadOnly));
        if (!QStandardPaths::findExecutable(QStringLiteral("pdfimages")).isEmpty()) {
            QProcess images;
            images.start(QStringLiteral("pdfimages"), {QStringLiteral("-list"), outputDir() + QStringLiteral("/slide-memory.pdf")});
            QVERIFY(images.waitForFinished(30000));
            QCOMPARE(QString::fromUtf8(images.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 2);
        }
        w.mainTabs()->setCurrentWidget(w.pipelinePanel());   // a teaching tab: its drawing alone
        QTest::qWait(20);
        const QList<SlideView> pipeline = w.slideViews();
        QCOMPARE(pipeline.size(), 1);
        QVERIFY(pipeline.front().widget == w.pipelinePanel()->drawing());
        QVERIFY2(exportSlide(pipeline.front(), w.document()->name(), outputDir() + QStringLiteral("/slide-pipeline.png"), &error),
                 qPrintable(error));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
