// SPDX-License-Identifier: MIT
// Speedup and efficiency against GPU count on log-log axes, with ideal, Amdahl and Gustafson
// references and the current plan marked.
#pragma once

#include "chartdata.h"
#include "chartframe.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ts {

class ScalingChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit ScalingChart(QWidget *parent = nullptr);

    /// Shows the curves. NaN points (infeasible counts) are skipped; empty data shows a note.
    void setData(const ScalingChartData &data);

protected:
    void paletteChanged() override;

private:
    void refresh();
    void showTooltip(double gpus);

    QLogValueAxis *m_gpuAxis = nullptr;
    QLogValueAxis *m_speedupAxis = nullptr;
    QValueAxis *m_efficiencyAxis = nullptr;
    QLineSeries *m_speedup = nullptr;
    QLineSeries *m_ideal = nullptr;
    QLineSeries *m_amdahl = nullptr;
    QLineSeries *m_gustafson = nullptr;
    QLineSeries *m_efficiency = nullptr;
    QScatterSeries *m_current = nullptr;
    QLabel *m_emptyNote = nullptr;

    ScalingChartData m_data;
};

} // namespace ts
