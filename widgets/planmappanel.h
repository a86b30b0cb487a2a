// SPDX-License-Identifier: MIT
// The Plan map tab: two plan inputs and a metric to map, the heatmap, and what it shows. The map
// comes from the document and is rebuilt on every change while the tab is shown (live while a
// slider is dragged); clicking a cell asks to apply that plan.
#pragma once

#include "planmap.h"

#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;

namespace ts {

class PlanMapView;

class PlanMapPanel : public QWidget
{
    Q_OBJECT
public:
    using Source = std::function<PlanMap(const PlanMapRequest &)>;
    explicit PlanMapPanel(QWidget *parent = nullptr);
    void setSource(Source source);
    /// The scenario changed: rebuild now if shown, else when shown.
    void invalidate();
    PlanMapRequest request() const;
    void setAxes(Field x, Field y);
    PlanMapView *view() const { return m_view; }

signals:
    /// Apply the plan of cell (ix, iy) of `map`.
    void cellChosen(const ts::PlanMap &map, int ix, int iy);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void rebuild();

    Source m_source;
    QComboBox *m_x;
    QComboBox *m_y;
    QComboBox *m_metric;
    PlanMapView *m_view;
    QLabel *m_note;
    bool m_dirty = true;
};

} // namespace ts
