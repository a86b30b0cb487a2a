// SPDX-License-Identifier: MIT
// Where a step's time goes, for the current plan and its variants: one horizontal stacked bar each.
#pragma once

#include "chartdata.h"
#include "partbarchart.h"

#include <QList>

namespace ts {

class StepTimeChart : public PartBarChart
{
    Q_OBJECT
public:
    explicit StepTimeChart(QWidget *parent = nullptr);

    /// Shows the bars, first one on top. Cheap when only values change (slider drags).
    void setBars(const QList<StepTimeBar> &bars);

protected:
    void refresh() override;
    void showTooltip(theme::Part part, int setIndex) override;

private:
    QList<StepTimeBar> m_bars;
};

} // namespace ts
