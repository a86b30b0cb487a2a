// SPDX-License-Identifier: MIT
// Geometry and mapping functions of the widgets, headless and data-driven.
#include "../model/fixtures.h"
#include "chartmath.h"
#include "formatting.h"
#include "collectivestablemodel.h"
#include "plantablemodel.h"
#include "planmapmapping.h"
#include "quantityslider.h"
#include "scalingchart.h"
#include "steptimechart.h"
#include "wraplabel.h"


#include <QAbstractItemModelTester>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QPaintEngine>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QTest>

#include <cmath>

using namespace ts;
using slidermap::Scale;

namespace {
// A paint device that records what reaches it: lines drawn as lines, and pixmaps.
class RecordingEngine : public QPaintEngine
{
public:
    RecordingEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice *) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState &) override {}
    void drawLines(const QLineF *, int count) override { lines += count; }
    void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override { ++pixmaps; }
    void drawImage(const QRectF &, const QImage &, const QRectF &, Qt::ImageConversionFlags) override { ++pixmaps; }
    void drawPath(const QPainterPath &) override {}
    void drawPolygon(const QPointF *, int, PolygonDrawMode) override {}
    void drawTextItem(const QPointF &, const QTextItem &) override {}
    Type type() const override { return QPaintEngine::User; }
    int lines = 0, pixmaps = 0;
};
class RecordingDevice : public QPaintDevice
{
public:
    QPaintEngine *paintEngine() const override { return &engine; }
    int metric(PaintDeviceMetric metric) const override
    {
        switch (metric) {
        case PdmWidth: return 800;
        case PdmHeight: return 500;
        case PdmWidthMM: return 211;
        case PdmHeightMM: return 132;
        case PdmDpiX: case PdmDpiY: case PdmPhysicalDpiX: case PdmPhysicalDpiY: return 96;
        case PdmDepth: return 32;
        case PdmNumColors: return 0x7fffffff;
        case PdmDevicePixelRatio: return 1;
        case PdmDevicePixelRatioScaled: return int(QPaintDevice::devicePixelRatioFScale());
        default: return QPaintDevice::metric(metric);
        }
    }
    mutable RecordingEngine engine;
};
} // namespace

class TestWidgets : public QObject
{
    Q_OBJECT
private slots:
    // WrapLabel answers heightForWidth as QLabel does, for each text it is given (its remembered
    // heights never outlive the text), and its width hints do not depend on the text.
    void wrapLabelHeightsFollowTheText()
    {
        WrapLabel wrap;
        QLabel plain;
        plain.setWordWrap(true);
        const QString shortText = QStringLiteral("fits in HBM");
        const QString longText = QStringLiteral("15.0T tokens on 1024 GPUs · 99.4% goodput, 97 interruptions, "
                                                "with a checkpoint every 30 minutes and a restart of 10 minutes each");
        // Three widths a text, then five: remembered entries wrap around, and a new text must not
        // meet an older text's height for the same width.
        for (const QString &text : {shortText, longText, shortText, longText}) {
            wrap.setText(text);
            plain.setText(text);
            for (int width : {60, 120, 240, 120})
                QCOMPARE(wrap.heightForWidth(width), plain.heightForWidth(width));
        }
        for (int width : {60, 120, 240, 480, 960, 60, 120})
            QCOMPARE(wrap.heightForWidth(width), plain.heightForWidth(width));
        wrap.setText(longText);
        QVERIFY(wrap.heightForWidth(60) > 3 * wrap.heightForWidth(960));   // it wraps
        const QSize hintLong = wrap.sizeHint(), minimumLong = wrap.minimumSizeHint();
        wrap.setText(shortText);
        QCOMPARE(wrap.sizeHint().width(), hintLong.width());
        QCOMPARE(wrap.minimumSizeHint(), minimumLong);
        QVERIFY(minimumLong.width() < hintLong.width());
        QCOMPARE(wrap.sizeHint().height(), wrap.heightForWidth(hintLong.width()));   // not shown: at the hint's width
    }

    // A variant that comes, goes or is renamed (the "Network: ..." bar while the
    // inter-node bandwidth is dragged) relabels the axis and resizes the bar sets in place; the
    // series is rebuilt only when the parts change. Every bar keeps its own values.
    void stepTimeBarsChangeInPlace()
    {
        const auto step = [](double computeSeconds, double tpSeconds) {
            Breakdown b;
            b.computeSeconds = computeSeconds;
            b.tpCommExposedSeconds = tpSeconds;
            b.stepSeconds = computeSeconds + tpSeconds;
            return b;
        };
        const Breakdown current = step(2.0, 0.5), faster = step(2.0, 0.25), fix = step(2.25, 0.125);
        const StepTimeBar currentBar{QStringLiteral("Current plan"), {}, current, true};
        const StepTimeBar fixBar{QStringLiteral("Recommended fix"), {}, fix, false};
        const auto fasterBar = [&](const QString &preset) {
            return StepTimeBar{QStringLiteral("Network: %1").arg(preset), {}, faster, false};
        };

        StepTimeChart stepChart;
        QChart *chart = stepChart.findChild<QChartView *>()->chart();
        const auto series = [chart] { return qobject_cast<QAbstractBarSeries *>(chart->series().value(0)); };
        const auto categories = [chart] {
            const QList<QAbstractAxis *> axes = chart->axes(Qt::Vertical);
            return axes.isEmpty() ? QStringList() : qobject_cast<QBarCategoryAxis *>(axes.first())->categories();
        };
        // Bar set s (compute, TP) as drawn bottom-up.
        const auto values = [&series](int s) {
            QList<double> out;
            const QBarSet *set = series()->barSets().at(s);
            for (int i = 0; i < set->count(); ++i)
                out.append(set->at(i));
            return out;
        };

        stepChart.setBars({currentBar, fasterBar(QStringLiteral("roce-800")), fixBar});
        QAbstractBarSeries *first = series();
        QVERIFY(first);
        QCOMPARE(first->barSets().size(), 2);
        QCOMPARE(categories(), (QStringList{QStringLiteral("Recommended fix"), QStringLiteral("Network: roce-800"),
                                            QStringLiteral("Current plan")}));
        QCOMPARE(values(0), (QList<double>{2.25, 2.0, 2.0}));
        QCOMPARE(values(1), (QList<double>{0.125, 0.25, 0.5}));

        stepChart.setBars({currentBar, fixBar});   // the faster network went
        QVERIFY(series() == first);   // not rebuilt
        QCOMPARE(categories(), (QStringList{QStringLiteral("Recommended fix"), QStringLiteral("Current plan")}));
        QCOMPARE(values(0), (QList<double>{2.25, 2.0}));
        QCOMPARE(values(1), (QList<double>{0.125, 0.5}));

        stepChart.setBars({currentBar, fasterBar(QStringLiteral("ib-ndr")), fixBar});   // and came back renamed
        QVERIFY(series() == first);   // not rebuilt
        QCOMPARE(categories(), (QStringList{QStringLiteral("Recommended fix"), QStringLiteral("Network: ib-ndr"),
                                            QStringLiteral("Current plan")}));
        QCOMPARE(values(0), (QList<double>{2.25, 2.0, 2.0}));
        QCOMPARE(values(1), (QList<double>{0.125, 0.25, 0.5}));

        Breakdown bubbly = current;   // a new part: rebuilt, with a third bar set
        bubbly.ppBubbleSeconds = 0.5;
        stepChart.setBars({StepTimeBar{QStringLiteral("Current plan"), {}, bubbly, true}, fixBar});
        QVERIFY(series());
        QCOMPARE(series()->barSets().size(), 3);
        QCOMPARE(values(2), (QList<double>{0.0, 0.5}));
    }

    void sliderMapping_data()
    {
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<int>("scale");
        QTest::addColumn<int>("position");
        QTest::addColumn<double>("value");
        QTest::newRow("linear start") << 0.0 << 100.0 << int(Scale::Linear) << 0 << 0.0;
        QTest::newRow("linear mid") << 0.0 << 100.0 << int(Scale::Linear) << 500 << 50.0;
        QTest::newRow("linear end") << 0.0 << 100.0 << int(Scale::Linear) << 1000 << 100.0;
        QTest::newRow("log start") << 1e8 << 1e12 << int(Scale::Log) << 0 << 1e8;
        QTest::newRow("log mid") << 1e8 << 1e12 << int(Scale::Log) << 500 << 1e10;
        QTest::newRow("log end") << 1.0 << 65536.0 << int(Scale::Log) << 1000 << 65536.0;
        QTest::newRow("log quarter") << 1.0 << 65536.0 << int(Scale::Log) << 250 << 16.0;
    }
    void sliderMapping()
    {
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(int, scale);
        QFETCH(int, position);
        QFETCH(double, value);
        const double v = slidermap::toValue(position, min, max, Scale(scale), {});
        QVERIFY(qAbs(v - value) <= 1e-9 * qMax(1.0, qAbs(value)));
        QCOMPARE(slidermap::toPosition(value, min, max, Scale(scale), {}), position);
    }

    void sliderSnapsToSteps()
    {
        const std::vector<double> steps{1, 2, 4, 8, 16};
        QCOMPARE(slidermap::toValue(3, 0, 0, Scale::Steps, steps), 8.0);
        QCOMPARE(slidermap::toValue(99, 0, 0, Scale::Steps, steps), 16.0);
        QCOMPARE(slidermap::toPosition(5, 0, 0, Scale::Steps, steps), 2);    // 5 is nearest 4 on a log scale
        QCOMPARE(slidermap::toPosition(10, 0, 0, Scale::Steps, steps), 3);
        QCOMPARE(slidermap::toPosition(1000, 0, 0, Scale::Steps, steps), 4);
        QCOMPARE(slidermap::toPosition(3, 0, 0, Scale::Steps, {}), 0);
    }

    void niceAxis_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("nice");
        QTest::newRow("493.5") << 493.5 << 500.0;
        QTest::newRow("7") << 7.0 << 8.0;
        QTest::newRow("1.2") << 1.2 << 1.2;
        QTest::newRow("1.21") << 1.21 << 1.5;
        QTest::newRow("21") << 21.0 << 25.0;
        QTest::newRow("0.031") << 0.031 << 0.04;
        QTest::newRow("8.5") << 8.5 << 10.0;
        QTest::newRow("zero") << 0.0 << 1.0;
        QTest::newRow("nan") << qQNaN() << 1.0;
    }
    void niceAxis()
    {
        QFETCH(double, value);
        QFETCH(double, nice);
        QVERIFY(qAbs(chartmath::niceAxisMax(value) - nice) < 1e-12);
    }

    // Every nice maximum fills at least three quarters of the plot and gets 4-6 whole tick intervals.
    // The memory chart's span: whole bars up to 2x the larger of HBM and the current plan, no further.
    void memoryAxisSpanCutsHugeVariants()
    {
        QCOMPARE(chartmath::memoryAxisSpan(90, 80, 70), 90.0);      // all bars whole
        QCOMPARE(chartmath::memoryAxisSpan(2600, 80, 73), 160.0);   // ZeRO-0 of 175B cut at 2 x HBM
        QCOMPARE(chartmath::memoryAxisSpan(2600, 80, 300), 600.0);  // the current plan over HBM stays whole
        QCOMPARE(chartmath::memoryAxisSpan(50, 0, 0), 50.0);        // nothing to compare with
    }

    void niceAxisFillAndTicks()
    {
        for (double value = 1e-4; value < 1e6; value *= 1.013) {
            const double max = chartmath::niceAxisMax(value);
            QVERIFY2(value <= max * (1 + 1e-9) && value / max >= 0.75 - 1e-9, qPrintable(QString::number(value)));
            const double intervals = max / chartmath::niceTickInterval(max);
            QVERIFY2(qAbs(intervals - std::round(intervals)) < 1e-6 && intervals >= 4 - 1e-9 && intervals <= 6 + 1e-9,
                     qPrintable(QString::number(max)));
        }
        QCOMPARE(chartmath::niceTickInterval(1.5), 0.25);
        QCOMPARE(chartmath::niceTickInterval(20.0), 5.0);
        QCOMPARE(chartmath::niceTickInterval(0.8), 0.2);
    }

    // A legend row that does not fit the chart's width goes beside the plot: no elided labels.
    void legendPlacement()
    {
        QCOMPARE(chartmath::legendRowWidth({50, 30}, 10, 8), (10 + 4 + 50 + 8) + (10 + 4 + 30 + 8.0));
        QCOMPARE(chartmath::legendRowWidth({}, 10, 8), 0.0);
        QVERIFY(chartmath::legendFitsBelow(400, 400));
        QVERIFY(!chartmath::legendFitsBelow(401, 400));
    }

    // A chart's header controls wrap to the next row where the row would overflow.
    void controlRowsWrap()
    {
        using Rows = QList<int>;
        QCOMPARE(chartmath::controlRows({100, 80, 120}, 6, 400), (Rows{0, 0, 0}));
        QCOMPARE(chartmath::controlRows({100, 80, 120}, 6, 312), (Rows{0, 0, 0}));   // exactly fits
        QCOMPARE(chartmath::controlRows({100, 80, 120}, 6, 311), (Rows{0, 0, 1}));
        QCOMPARE(chartmath::controlRows({100, 80, 120}, 6, 150), (Rows{0, 1, 2}));
        QCOMPARE(chartmath::controlRows({100, 80, 120}, 6, 50), (Rows{0, 1, 2}));   // wider than the chart: alone
        QCOMPARE(chartmath::controlRows({50, 50, 50, 50}, 10, 110), (Rows{0, 0, 1, 1}));
        QCOMPARE(chartmath::controlRows({}, 6, 100), Rows{});
    }

    void timeUnits()
    {
        QCOMPARE(chartmath::chooseTimeUnit(0.4935).symbol, QStringLiteral("ms"));
        QCOMPARE(chartmath::chooseTimeUnit(14.4).symbol, QStringLiteral("s"));
        QCOMPARE(chartmath::chooseTimeUnit(2e-4).symbol, QStringLiteral("µs"));
        QCOMPARE(chartmath::chooseTimeUnit(0.4935).scale, 1e3);
    }

    void log2Axis()
    {
        const chartmath::Range r = chartmath::log2Range(3, 1000);
        QCOMPARE(r.min, 2.0);
        QCOMPARE(r.max, 1024.0);
        const QList<double> ticks = chartmath::log2Ticks(2, 1024);
        QCOMPARE(ticks.first(), 2.0);
        QCOMPARE(ticks.last(), 1024.0);
        QVERIFY(chartmath::log2Ticks(-1, 4).isEmpty());
    }

    void formatting()
    {
        QCOMPARE(fmt::seconds(0.4935), QStringLiteral("493.5 ms"));
        QCOMPARE(fmt::bytes(14e9), QStringLiteral("14.0 GB (13.04 GiB)"));
        QCOMPARE(fmt::memory(14e9), QStringLiteral("13.04 GiB"));   // memory in the cards' unit
        QCOMPARE(fmt::energy(5969.45 * 3.6e9), QStringLiteral("5.97 GWh"));
        QCOMPARE(fmt::energy(820 * 3.6e9), QStringLiteral("820 MWh"));
        QCOMPARE(fmt::memory(512.0 * 1024 * 1024), QStringLiteral("512.0 MiB"));
        QCOMPARE(fmt::bandwidth(50e9), QStringLiteral("50.00 GB/s (400.0 Gb/s)"));
        QCOMPARE(fmt::percent(0.993), QStringLiteral("99.3%"));
        QCOMPARE(fmt::seconds(qQNaN()), QStringLiteral("—"));
        QCOMPARE(fmt::count(7e9), QStringLiteral("7.00B"));
        Workload qwen{"qwen3-32b", 64, 5120, 64, 8, 25600, MlpKind::SwiGlu, false, false, 151936, 4096};
        qwen.headDim = 128;
        qwen.qkNorm = true;
        QCOMPARE(fmt::workloadShape(qwen), QStringLiteral("64 layers, hidden 5120, 64 heads of 128 (8 KV), QK norm, FFN 25600 (swiglu), vocab 151936, sequence 4096"));
        qwen.headDim = 0;
        qwen.qkNorm = false;
        QCOMPARE(fmt::workloadShape(qwen), QStringLiteral("64 layers, hidden 5120, 64 heads (8 KV), FFN 25600 (swiglu), vocab 151936, sequence 4096"));
        const Workload deepSeek = fixtures::deepSeekV3();
        QCOMPARE(fmt::workloadShape(deepSeek),
                 QStringLiteral("61 layers, hidden 7168, latent attention, 128 heads of 128 + 64 rotary (value 128), KV latent 512, "
                                "Q latent 1536, FFN 18432 (swiglu), vocab 129280, sequence 4096; 256 experts of 2048, 8 per token from 4 of 8 groups, "
                                "shared 2048, first 3 layers dense; 1 multi-token-prediction layer(s)"));
    }

    // The table models keep Qt's model contract through resets, and sort on raw values.
    void tableModelsKeepTheContract()
    {
        PlanTableModel plans;
        QAbstractItemModelTester planTester(&plans, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<PlanCandidate> candidates(3);
        for (int i = 0; i < 3; ++i) {
            candidates[size_t(i)].scenario.plan.tp = 1 << i;
            candidates[size_t(i)].breakdown.stepSeconds = 3.0 - i;
            candidates[size_t(i)].mfu = 0.3 + 0.1 * i;
            candidates[size_t(i)].trainSeconds = 10.0 * (i + 1);
        }
        plans.setPlans(candidates);
        QCOMPARE(plans.rowCount(), 3);
        QCOMPARE(plans.columnCount(), int(PlanTableModel::ColumnCount));
        QCOMPARE(plans.data(plans.index(2, PlanTableModel::ColTp), Qt::DisplayRole).toInt(), 4);
        QCOMPARE(plans.data(plans.index(0, PlanTableModel::ColStep), Qt::UserRole).toDouble(), 3.0);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&plans);
        proxy.setSortRole(Qt::UserRole);
        proxy.sort(PlanTableModel::ColStep);
        QCOMPARE(proxy.data(proxy.index(0, PlanTableModel::ColTp)).toInt(), 4);   // 1 s step first
        // The current plan goes in at its rank, marked, with every row's time relative to it.
        PlanCandidate current;
        current.trainSeconds = 25;
        plans.setPlans(candidates, &current);
        QCOMPARE(plans.rowCount(), 4);
        QCOMPARE(plans.currentRow(), 2);
        QVERIFY(plans.isCurrent(2));
        QCOMPARE(plans.data(plans.index(0, PlanTableModel::ColDelta), Qt::UserRole).toDouble(), 10.0 / 25 - 1);
        QCOMPARE(plans.data(plans.index(3, PlanTableModel::ColDelta), Qt::DisplayRole).toString(), QStringLiteral("+20.0%"));
        // A row whose failures outpace its checkpoints shows the failure-free time, and says so.
        candidates[0].economicsProblem = {"operations.failure_rate", "failures come faster than checkpoints can save work"};
        plans.setPlans(candidates);
        QVERIFY2(plans.data(plans.index(0, PlanTableModel::ColTrain), Qt::DisplayRole).toString().endsWith(QLatin1String(" without failures")),
                 qPrintable(plans.data(plans.index(0, PlanTableModel::ColTrain), Qt::DisplayRole).toString()));
        QVERIFY(plans.data(plans.index(0, PlanTableModel::ColTrain), Qt::ToolTipRole).toString().contains(QLatin1String("operations.failure_rate")));
        QVERIFY(!plans.data(plans.index(1, PlanTableModel::ColTrain), Qt::DisplayRole).toString().contains(QLatin1String("without")));
        plans.setPlans({});
        QCOMPARE(plans.rowCount(), 0);
        QCOMPARE(plans.currentRow(), -1);

        CollectivesTableModel collectives;
        QAbstractItemModelTester collectivesTester(&collectives, QAbstractItemModelTester::FailureReportingMode::QtTest);
        collectives.setRows({{QStringLiteral("all_reduce"), QStringLiteral("ring / Simple"), 1e9, 0.01, 1e11, 1.75e11, {}},
                             {QStringLiteral("all_gather"), QStringLiteral("ring / LL128"), 1e6, 1e-4, 1e10, 8.75e9, {}}});
        QCOMPARE(collectives.rowCount(), 2);
        QCOMPARE(collectives.data(collectives.index(1, CollectivesTableModel::SizeColumn), Qt::UserRole).toDouble(), 1e6);
        collectives.setRows({});
        QCOMPARE(collectives.rowCount(), 0);
    }

    void powerOfTwoLabels()
    {
        QCOMPARE(ScalingChart::powerOfTwoLabel(64), QStringLiteral("64"));
        QCOMPARE(ScalingChart::powerOfTwoLabel(1024), QStringLiteral("1K"));
        QCOMPARE(ScalingChart::powerOfTwoLabel(16384), QStringLiteral("16K"));
        QCOMPARE(ScalingChart::powerOfTwoLabel(1 << 20), QStringLiteral("1M"));
        QCOMPARE(ScalingChart::powerOfTwoLabel(0.5), QStringLiteral("0.5"));
    }

    // A sweep where only the current count runs (64 GPUs of a 72-GPU rack doubled to 128) says why
    // the others cannot, instead of a chart with one dot.
    void scalingChartSaysWhyOtherCountsCannotRun()
    {
        ScalingChart chart;
        ScalingChartData data;
        const Problem rack{"cluster.gpus", "gpus (128) must be a multiple of gpus_per_node (72)"};
        for (double g : {32.0, 64.0, 128.0, 256.0}) {
            const bool runs = g == 64;
            data.weak.gpus.push_back(g);
            data.weak.speedup.push_back(runs ? 64 : std::nan(""));
            data.weak.efficiency.push_back(runs ? 1 : std::nan(""));
            data.weak.ideal.push_back(g);
            data.weak.amdahl.push_back(g);
            data.weak.gustafson.push_back(g);
            data.weak.problems.push_back(runs ? Problem{} : g < 64 ? Problem{"plan.ep", "ep (64) must divide 32"} : rack);
        }
        data.weak.currentSpeedup = 64;
        data.weak.currentEfficiency = 1;
        data.strong = data.weak;
        data.currentGpus = 64;
        chart.resize(640, 360);
        chart.show();
        chart.setData(data);
        QApplication::processEvents();
        const auto visibleNote = [&chart]() -> QString {
            for (const QLabel *label : chart.findChildren<QLabel *>())
                if (label->isVisible() && label->text().contains(QLatin1String("can run")))
                    return label->text();
            return {};
        };
        QVERIFY2(visibleNote().contains(QLatin1String("Only 64 GPUs can run")), qPrintable(visibleNote()));
        // The reason above, where one scales to, without its field name (the tooltip has it).
        QVERIFY2(visibleNote().contains(QLatin1String("gpus (128) must be a multiple of gpus_per_node (72)")), qPrintable(visibleNote()));
        QVERIFY(!visibleNote().contains(QLatin1String("cluster.gpus")));
        // With two counts running the curve speaks for itself.
        data.weak.speedup[2] = 120;
        data.weak.efficiency[2] = 0.94;
        data.weak.problems[2] = {};
        data.strong = data.weak;
        chart.setData(data);
        QApplication::processEvents();
        QVERIFY(visibleNote().isEmpty());
    }

    // The scaling chart keeps its grid and axis lines as cached pixmaps on screen (antialiased,
    // they were most of its drawing per slider step), but a printed chart gets them as lines.
    void scalingChartRedrawsCheaply()
    {
        ScalingChart chart;
        ScalingChartData data;
        for (double g = 64; g <= 4096; g *= 2) {
            data.weak.gpus.push_back(g);
            data.weak.speedup.push_back(0.9 * g);
            data.weak.efficiency.push_back(0.9);
            data.weak.ideal.push_back(g);
            data.weak.amdahl.push_back(g / (0.1 * g + 0.9));
            data.weak.gustafson.push_back(0.1 + 0.9 * g);
        }
        data.weak.currentSpeedup = 0.9 * 1024;
        data.weak.currentEfficiency = 0.9;
        data.strong = data.weak;
        data.currentGpus = 1024;
        data.serialFraction = 0.1;
        chart.resize(640, 360);
        chart.show();
        chart.setData(data);
        QApplication::processEvents();
        const QGraphicsView *view = chart.findChild<QGraphicsView *>();
        QVERIFY(view);
        const auto lineItems = [view] {
            QList<QGraphicsItem *> lines;
            for (QGraphicsItem *item : view->scene()->items())
                if (item->type() == QGraphicsLineItem::Type && item->isVisible())
                    lines.append(item);
            return lines;
        };
        QVERIFY(lineItems().size() >= 10);   // grid and ticks of both axes
        for (QGraphicsItem *item : lineItems())
            QCOMPARE(item->cacheMode(), QGraphicsItem::DeviceCoordinateCache);

        RecordingDevice page;
        QPainter painter(&page);
        chart.renderChart(&painter, QRectF(0, 0, 800, 500));
        painter.end();
        QCOMPARE(page.engine.pixmaps, 0);
        QVERIFY(page.engine.lines >= lineItems().size());
        for (QGraphicsItem *item : lineItems())   // and cached again on screen
            QCOMPARE(item->cacheMode(), QGraphicsItem::DeviceCoordinateCache);

        // The laws' box shows the share, which changes on every slider step: at a fixed size, as
        // wide as its widest text, a new share does not lay the Plan tab out again.
        QCheckBox *laws = chart.findChild<QCheckBox *>();
        QVERIFY(laws);
        QVERIFY(laws->text().contains(QStringLiteral("10.0%")));
        QCOMPARE(laws->minimumSize(), laws->maximumSize());
        for (const double share : {0.0, 0.5, 1.0}) {   // every share's text fits the box
            data.serialFraction = share;
            chart.setData(data);
            QVERIFY(laws->sizeHint().width() <= laws->width());
        }
        // Sized in the font the chart gives it: a larger font makes a larger box.
        const int width = laws->width();
        QFont large = chart.font();
        large.setPointSizeF(large.pointSizeF() * 2);
        chart.setFont(large);
        QVERIFY(laws->width() > width);
        QVERIFY(laws->sizeHint().width() <= laws->width());

        // In a narrow chart the controls wrap: the laws' box stays whole inside the chart, under the
        // pickers; at full width it is back on their row.
        chart.setFont(QFont());
        const QList<QComboBox *> pickers = chart.findChildren<QComboBox *>();
        QCOMPARE(pickers.size(), 2);
        const auto inChart = [&chart](const QWidget *w) {
            return QRect(QPoint(0, 0), chart.size()).contains(QRect(w->mapTo(&chart, QPoint(0, 0)), w->size()));
        };
        const auto below = [&] {
            return laws->mapTo(&chart, QPoint(0, 0)).y() >= pickers[1]->mapTo(&chart, QPoint(0, pickers[1]->height())).y();
        };
        QVERIFY(pickers[0]->width() + pickers[1]->width() + laws->width() + 40 < 640);
        QVERIFY(pickers[0]->width() + pickers[1]->width() + laws->width() > 300);
        for (const int chartWidth : {640, 300, 640}) {
            chart.resize(chartWidth, 360);
            QApplication::processEvents();
            QVERIFY2(inChart(laws) && inChart(pickers[1]), qPrintable(QString::number(chartWidth)));
            QCOMPARE(below(), chartWidth == 300);
        }
    }

    // Plan map geometry: row 0 at the bottom, the cell under a point, outside is none.
    void planMapMapping()
    {
        const PlanMapMapping m{QRectF(10, 20, 400, 300), 4, 3};
        QCOMPARE(m.cell(0, 0), QRectF(10, 220, 100, 100));
        QCOMPARE(m.cell(3, 2), QRectF(310, 20, 100, 100));
        int ix = -1, iy = -1;
        QVERIFY(m.cellAt(QPointF(315, 25), &ix, &iy));
        QCOMPARE(ix, 3);
        QCOMPARE(iy, 2);
        QVERIFY(m.cellAt(QPointF(10, 319.9), &ix, &iy));
        QCOMPARE(ix, 0);
        QCOMPARE(iy, 0);
        QVERIFY(!m.cellAt(QPointF(9, 100), &ix, &iy));
        QVERIFY(!m.cellAt(QPointF(100, 321), &ix, &iy));
        // Goodness: the best end is 1 whichever way the metric runs.
        QCOMPARE(planMapGoodness(10, 10, 20, true), 1.0);
        QCOMPARE(planMapGoodness(20, 10, 20, true), 0.0);
        QCOMPARE(planMapGoodness(20, 10, 20, false), 1.0);
        QCOMPARE(planMapGoodness(15, 15, 15, true), 1.0);   // one value: all best
        // The ramp grows lighter (relative luminance, sRGB linearised) from 0 to 1, so its steps
        // stay apart in grey.
        const auto luminance = [](const QColor &c) {
            const auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
            return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
        };
        double previous = -1;
        for (int k = 0; k <= 20; ++k) {
            const double y = luminance(sequentialColor(k / 20.0));
            QVERIFY(y > previous);
            previous = y;
        }
    }
};

QTEST_MAIN(TestWidgets)
#include "tst_widgets.moc"
