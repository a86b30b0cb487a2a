// SPDX-License-Identifier: MIT
// Memory per GPU by part, for the current plan and its variants, against the HBM capacity.
#pragma once

#include "chartdata.h"
#include "partbarchart.h"

#include <QList>

QT_BEGIN_NAMESPACE
class QLineSeries;
QT_END_NAMESPACE

namespace ts {

class MemoryChart : public PartBarChart
{
    Q_OBJECT
public:
    explicit MemoryChart(QWidget *parent = nullptr);

    /// Shows one stacked bar per entry, left to right, and the current bar's HBM capacity as a
    /// line. Bars that do not fit get a warning mark. Cheap when only values change.
    void setBars(const QList<MemoryBar> &bars);

protected:
    void refresh() override;
    void showTooltip(theme::Part part, int setIndex) override;
    void seriesRebuilt() override;

private:
    QLineSeries *m_capacityLine = nullptr;
    QList<MemoryBar> m_bars;
};

} // namespace ts
