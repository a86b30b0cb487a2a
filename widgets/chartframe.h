// SPDX-License-Identifier: MIT
// What the Qt Charts adapters share: a chart in a frameless view, themed from the palette, and a
// "Last valid result" note over its corner while the inputs are invalid.
#pragma once

#include "theme.h"

#include <QList>
#include <QStringList>
#include <QWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAbstractBarSeries;
class QBarCategoryAxis;
class QChart;
class QChartView;
class QGridLayout;
class QLabel;
class QValueAxis;
QT_END_NAMESPACE

namespace ts {

class ChartFrame : public QWidget
{
    Q_OBJECT
public:
    /// Draws the chart's scene (plot, axes, legend) into `target` of `painter`: vectors on a PDF
    /// or SVG painter, for printed pages.
    void renderChart(QPainter *painter, const QRectF &target);
    /// Places the legend again once the chart has laid out its markers (a chart never shown has
    /// none visible before its first layout, so its first placement counts no labels).
    void settleLegend() { placeLegend(); }
    /// Greys the chart out with a "Last valid result" note while the inputs are invalid.
    void setStale(bool stale);
    /// Where the legend sits: Qt::AlignBottom, or Qt::AlignRight when its labels do not fit a row.
    Qt::Alignment legendAlignment() const;
    bool isStale() const { return m_stale; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    explicit ChartFrame(QWidget *parent);

    QChart *chart() const { return m_chart; }
    QChartView *chartView() const { return m_view; }
    /// Lays `widget` over the chart; overlays do not move the plot when they show.
    void addOverlay(QWidget *widget, Qt::Alignment alignment);
    /// A row above the chart (pickers for what it shows).
    void setHeader(QWidget *header);

    /// Keeps the axes' grid lines, ticks and axis lines (straight QGraphicsLineItems) as cached
    /// pixmaps on screen. Antialiased, they cost more to draw than the curves of a chart redrawn
    /// for every slider step, and they change only when the axes do. Call after the axes change
    /// (new ticks make new items). Printed charts are drawn without the cache, as vectors.
    void cacheAxisLines();

    /// Applies the palette's chart theme, then paletteChanged(). Derived constructors call it last,
    /// once their axes and series exist, as setTheme restyles them.
    void applyPalette();
    /// Restyles what setTheme overrode. Not called from this constructor.
    virtual void paletteChanged() {}
    /// The legend moved beside the plot (true) or back under it: the plot is narrower.
    virtual void legendPlaced(bool beside) { Q_UNUSED(beside); }

    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    /// Legend under the plot when its labels fit one row, else at the right (chartmath::legendFitsBelow).
    void placeLegend();

    // For the stacked bar charts of theme parts (step time, memory).
    using PartHovered = std::function<void(theme::Part part, int index)>;
    using PartClicked = std::function<void(theme::Part part)>;
    /// Replaces every series by `bars`: a zero-valued set per part with a value per category, in
    /// the parts' colours, on the two axes. Hovering a segment calls `hovered`; clicking it or its
    /// legend entry calls `clicked`.
    void setPartBars(QAbstractBarSeries *bars, const QList<theme::Part> &parts, const QStringList &categories,
                     QBarCategoryAxis *categoryAxis, QAbstractAxis *valueAxis, const PartHovered &hovered,
                     const PartClicked &clicked);
    /// `label`, made distinct from `categories` (the axis would merge equal ones).
    static QString distinctCategory(QString label, const QStringList &categories);
    /// Sets `axis` to [0, max] with nice ticks, only if that changes it.
    static void setRangeFromZero(QValueAxis *axis, double max);

private:
    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QGridLayout *m_layout = nullptr;
    QLabel *m_staleNote = nullptr;
    bool m_stale = false;
    bool m_cachesAxisLines = false;
};

} // namespace ts
