// SPDX-License-Identifier: MIT
// Memory per GPU by part, for the current plan and its variants, against the HBM capacity.
#pragma once

#include "chartdata.h"
#include "chartframe.h"
#include "theme.h"

#include <QList>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QLineSeries;
class QStackedBarSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ts {

class MemoryChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit MemoryChart(QWidget *parent = nullptr);

    /// Shows one stacked bar per entry, left to right, and the current bar's HBM capacity as a
    /// line. Bars that do not fit get a warning mark. Cheap when only values change.
    void setBars(const QList<MemoryBar> &bars);

signals:
    /// A bar segment or legend entry was clicked; the id names the model's explanation.
    void partActivated(const QString &explanationId);

protected:
    void paletteChanged() override;

private:
    void refresh();
    void rebuild(const QList<theme::Part> &parts, const QStringList &categories);
    void showTooltip(theme::Part part, int index);

    QBarCategoryAxis *m_categoryAxis = nullptr;
    QValueAxis *m_valueAxis = nullptr;
    QStackedBarSeries *m_series = nullptr;
    QLineSeries *m_capacityLine = nullptr;

    QList<MemoryBar> m_bars;
    // What the series were built for; when unchanged only values are replaced.
    QList<theme::Part> m_parts;
    QStringList m_categories;
};

} // namespace ts
