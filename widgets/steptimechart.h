// SPDX-License-Identifier: MIT
// Where a step's time goes, for the current plan and its variants: one horizontal stacked bar each.
#pragma once

#include "chartdata.h"
#include "chartframe.h"
#include "theme.h"

#include <QList>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ts {

class StepTimeChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit StepTimeChart(QWidget *parent = nullptr);

    /// Shows the bars, first one on top. Cheap when only values change (slider drags).
    void setBars(const QList<StepTimeBar> &bars);

signals:
    /// A bar segment or legend entry was clicked; the id names the model's explanation.
    void partActivated(const QString &explanationId);

protected:
    void paletteChanged() override;

private:
    void refresh();
    void rebuild(const QList<theme::Part> &parts, const QStringList &categories);
    void showTooltip(theme::Part part, int setIndex);

    QBarCategoryAxis *m_categoryAxis = nullptr;
    QValueAxis *m_valueAxis = nullptr;
    QHorizontalStackedBarSeries *m_series = nullptr;

    QList<StepTimeBar> m_bars;
    // What the series was built for; when unchanged only values are replaced.
    QList<theme::Part> m_parts;
    QStringList m_categories;
};

} // namespace ts
