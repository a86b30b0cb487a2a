// SPDX-License-Identifier: MIT
// The plan map as a heatmap: one cell per plan, coloured by the metric (bright = better), plans
// that do not fit hatched, plans that cannot run crossed, the current plan ringed. Hover for the
// figures, click a cell to apply that plan.
#pragma once

#include "planmap.h"
#include "planmapmapping.h"

#include <QString>
#include <QWidget>

namespace ts {

class PlanMapView : public QWidget
{
    Q_OBJECT
public:
    explicit PlanMapView(QWidget *parent = nullptr);
    /// The map and the words for its axes and metric (formatted by the caller's functions).
    void setMap(const PlanMap &map, const QString &xTitle, const QString &yTitle, const QString &metricTitle);
    const PlanMap &map() const { return m_map; }
    const PlanMapMapping &mapping() const { return m_mapping; }
    /// Text of one axis value and of one metric value.
    static QString axisText(Field field, double value);
    static QString metricText(PlanMapMetric metric, double value);

    QSize minimumSizeHint() const override { return {320, 220}; }
    QSize sizeHint() const override { return {760, 520}; }

signals:
    void cellActivated(int ix, int iy);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    void relayout();
    QString cellTooltip(int ix, int iy) const;

    PlanMap m_map;
    QString m_xTitle, m_yTitle, m_metricTitle;
    PlanMapMapping m_mapping;
    QRectF m_legend;
};

} // namespace ts
