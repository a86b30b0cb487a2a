// SPDX-License-Identifier: MIT
// Measured against fitted collective times on log-log axes (Qt Charts adapter).
#pragma once

#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLogValueAxis;
QT_END_NAMESPACE

namespace ts {

struct CalibrationSeries
{
    QString name;                   // log file and tier
    std::vector<double> bytes;
    std::vector<double> measuredSeconds;
    std::vector<double> fittedSeconds;
};

class CalibrationChart : public QWidget
{
    Q_OBJECT
public:
    explicit CalibrationChart(QWidget *parent = nullptr);
    void setSeries(const QList<CalibrationSeries> &series);
    QSize minimumSizeHint() const override { return {360, 240}; }
    QSize sizeHint() const override { return {640, 400}; }

private:
    QChart *m_chart;
    QChartView *m_view;
    QLogValueAxis *m_x;
    QLogValueAxis *m_y;
};

} // namespace ts
