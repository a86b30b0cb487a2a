// SPDX-License-Identifier: MIT
#include "chartframe.h"

#include "chartmath.h"

#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarLegendMarker>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>

#include <QEvent>
#include <QFontMetricsF>
#include <QtCharts/QLegendMarker>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGridLayout>
#include <QLabel>
#include <QToolTip>

namespace ts {

namespace {
constexpr double kStaleOpacity = 0.35;
} // namespace

ChartFrame::ChartFrame(QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
{
    // Redrawn up to 60 times a second while a slider moves: animations would only lag behind.
    m_chart->setAnimationOptions(QChart::NoAnimation);
    // Qt Charts' default frame and margins take about 40 px: the plot needs them on small screens.
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setBackgroundRoundness(0);

    m_view = new QChartView(m_chart);  // owns the chart
    // Bars are axis-aligned: crisp and cheaper without. Charts of curves turn it on.
    m_view->setRenderHint(QPainter::Antialiasing, false);
    m_view->setFrameShape(QFrame::NoFrame);

    m_staleNote = new QLabel(tr("Last valid result"));
    m_staleNote->setBackgroundRole(QPalette::ToolTipBase);
    m_staleNote->setForegroundRole(QPalette::ToolTipText);
    m_staleNote->setAutoFillBackground(true);
    m_staleNote->setMargin(4);
    m_staleNote->hide();

    // All in one grid cell: the notes overlay the chart's corner, so showing one does not move the plot.
    m_layout = new QGridLayout(this);
    m_layout->setContentsMargins(QMargins());
    m_layout->addWidget(m_view, 1, 0);
    m_layout->setRowStretch(1, 1);
    addOverlay(m_staleNote, Qt::AlignTop | Qt::AlignRight);
}

void ChartFrame::setStale(bool stale)
{
    m_stale = stale;
    m_chart->setOpacity(stale ? kStaleOpacity : 1.0);
    m_staleNote->setVisible(stale);
}

// Small enough for two rows of charts under the cards at 1280x720; the legend and axis titles
// still fit.
QSize ChartFrame::minimumSizeHint() const { return {300, 180}; }
QSize ChartFrame::sizeHint() const { return {560, 340}; }

void ChartFrame::addOverlay(QWidget *widget, Qt::Alignment alignment)
{
    m_layout->addWidget(widget, 1, 0, alignment);
}

namespace {
void setAxisLineCache(QGraphicsScene *scene, QGraphicsItem::CacheMode mode)
{
    const QList<QGraphicsItem *> items = scene->items();
    for (QGraphicsItem *item : items)
        if (item->type() == QGraphicsLineItem::Type && item->cacheMode() != mode)
            item->setCacheMode(mode);
}
} // namespace

void ChartFrame::cacheAxisLines()
{
    m_cachesAxisLines = true;
    setAxisLineCache(m_view->scene(), QGraphicsItem::DeviceCoordinateCache);
}

void ChartFrame::renderChart(QPainter *painter, const QRectF &target)
{
    // A cached line would reach a PDF or SVG page as a pixmap.
    if (m_cachesAxisLines)
        setAxisLineCache(m_view->scene(), QGraphicsItem::NoCache);
    m_view->scene()->render(painter, target, m_view->sceneRect());
    if (m_cachesAxisLines)
        setAxisLineCache(m_view->scene(), QGraphicsItem::DeviceCoordinateCache);
}

void ChartFrame::setHeader(QWidget *header)
{
    header->setParent(this);
    header->setBackgroundRole(QPalette::Base);   // one surface with the chart below
    header->setAutoFillBackground(true);
    m_layout->addWidget(header, 0, 0);
}

void ChartFrame::applyPalette()
{
    m_chart->setTheme(chartmath::isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(palette().base());
    m_chart->setBackgroundRoundness(0);
    placeLegend();
    paletteChanged();
}

Qt::Alignment ChartFrame::legendAlignment() const { return m_chart->legend()->alignment(); }

void ChartFrame::placeLegend()
{
    QLegend *legend = m_chart->legend();
    const QFontMetricsF metrics(legend->font());
    QList<double> labels;
    for (const QLegendMarker *marker : legend->markers())
        if (marker->isVisible())
            labels.append(metrics.horizontalAdvance(marker->label()));
    const double marker = metrics.height();
    const double row = chartmath::legendRowWidth(labels, marker, marker);
    const Qt::Alignment wanted = chartmath::legendFitsBelow(row, width() - 8) ? Qt::AlignBottom : Qt::AlignRight;
    if (legend->alignment() != wanted) {
        legend->setAlignment(wanted);
        legendPlaced(wanted == Qt::AlignRight);
    }
}

void ChartFrame::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeLegend();
}

void ChartFrame::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void ChartFrame::setPartBars(QAbstractBarSeries *bars, const QList<theme::Part> &parts, const QStringList &categories,
                             QBarCategoryAxis *categoryAxis, QAbstractAxis *valueAxis, const PartHovered &hovered,
                             const PartClicked &clicked)
{
    m_chart->removeAllSeries();  // deletes the series, their bar sets and legend markers
    categoryAxis->clear();
    categoryAxis->append(categories);

    bars->setBarWidth(0.6);
    for (const theme::Part part : parts) {
        auto *set = new QBarSet(theme::label(part));
        set->append(QList<qreal>(categories.size(), 0.0));  // values come from the caller's refresh
        connect(set, &QBarSet::hovered, this, [hovered, part](bool on, int index) {
            if (on)
                hovered(part, index);
            else
                QToolTip::hideText();
        });
        connect(set, &QBarSet::clicked, this, [clicked, part] { clicked(part); });
        bars->append(set);
    }
    m_chart->addSeries(bars);
    bars->attachAxis(categoryAxis);
    bars->attachAxis(valueAxis);

    // Colours after addSeries, which applies the theme's; base-coloured borders separate segments.
    const QList<QBarSet *> sets = bars->barSets();
    for (qsizetype i = 0; i < sets.size(); ++i) {
        sets[i]->setColor(theme::color(parts[i]));
        sets[i]->setBorderColor(palette().color(QPalette::Base));
    }
    // A legend entry explains its part, like a segment does.
    const QList<QLegendMarker *> markers = m_chart->legend()->markers(bars);
    for (QLegendMarker *marker : markers) {
        auto *barMarker = qobject_cast<QBarLegendMarker *>(marker);
        const qsizetype i = barMarker ? sets.indexOf(barMarker->barset()) : -1;
        if (i < 0)
            continue;
        connect(marker, &QLegendMarker::clicked, this, [clicked, part = parts[i]] { clicked(part); });
    }
    placeLegend();
}

QString ChartFrame::distinctCategory(QString label, const QStringList &categories)
{
    while (categories.contains(label))
        label += QChar(0x200B);   // a zero-width space keeps them apart, unseen
    return label;
}

void ChartFrame::setRangeFromZero(QValueAxis *axis, double max)
{
    // Every range change lays the chart out again.
    if (axis->max() != max || axis->min() != 0) {
        axis->setRange(0, max);
        axis->setTickInterval(chartmath::niceTickInterval(max));
    }
}

} // namespace ts
