// SPDX-License-Identifier: MIT
// Where a step's time goes, for the current plan and its variants: one horizontal stacked bar each.
#pragma once

#include "chartdata.h"
#include "theme.h"

#include <QList>
#include <QStringList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QChart;
class QChartView;
class QHorizontalStackedBarSeries;
class QLabel;
class QValueAxis;
QT_END_NAMESPACE

namespace ts {

class StepTimeChart : public QWidget
{
    Q_OBJECT
public:
    explicit StepTimeChart(QWidget *parent = nullptr);

    /// Shows the bars, first one on top. Cheap when only values change (slider drags).
    void setBars(const QList<StepTimeBar> &bars);
    /// Greys the chart out with a "Last valid result" note while the inputs are invalid.
    void setStale(bool stale);
    bool isStale() const { return m_stale; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

signals:
    /// A bar segment or legend entry was clicked; the id names the model's explanation.
    void partActivated(const QString &explanationId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();
    void refresh();
    void rebuild(const QList<theme::Part> &parts, const QStringList &categories);
    void showTooltip(theme::Part part, int setIndex);

    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QBarCategoryAxis *m_categoryAxis = nullptr;
    QValueAxis *m_valueAxis = nullptr;
    QHorizontalStackedBarSeries *m_series = nullptr;
    QLabel *m_staleNote = nullptr;

    QList<StepTimeBar> m_bars;
    // What the series was built for; when unchanged only values are replaced.
    QList<theme::Part> m_parts;
    QStringList m_categories;
    bool m_stale = false;
};

} // namespace ts
