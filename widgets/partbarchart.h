// SPDX-License-Identifier: MIT
// A stacked bar chart of theme parts (step-time parts, memory parts), one bar per scenario
// variant: the series is rebuilt only when the parts change (other bars relabel the axis and
// resize the bar sets), and only changed values are replaced (each change makes Qt Charts lay
// the chart out again). Clicking a part asks for its explanation.
#pragma once

#include "chartframe.h"
#include "theme.h"

#include <functional>

QT_BEGIN_NAMESPACE
class QAbstractBarSeries;
class QBarCategoryAxis;
class QValueAxis;
QT_END_NAMESPACE

namespace ts {

class PartBarChart : public ChartFrame
{
    Q_OBJECT
signals:
    /// A bar segment or legend entry was clicked; the id names the model's explanation.
    void partActivated(const QString &explanationId);

protected:
    /// horizontal: bars run left to right, categories on the left axis.
    PartBarChart(bool horizontal, QWidget *parent);
    void paletteChanged() override;
    /// Recomputes parts, categories and values from the chart's bars (calls setValues).
    virtual void refresh() = 0;
    virtual void showTooltip(theme::Part part, int barIndex) = 0;
    /// The series was rebuilt (add series that sit beside the bars here).
    virtual void seriesRebuilt() {}
    /// Shows `parts` stacked in each of `categories`; value(part index, category index) in axis units.
    void setValues(const QList<theme::Part> &parts, const QStringList &categories,
                   const std::function<double(int, int)> &value);
    /// The parts in `order` for which `nonZero(part)` holds: parts zero in every bar stay out
    /// of the legend.
    static QList<theme::Part> presentParts(const QList<theme::Part> &order, const std::function<bool(theme::Part)> &nonZero);

    QBarCategoryAxis *m_categoryAxis;
    QValueAxis *m_valueAxis;

private:
    bool m_horizontal;
    QAbstractBarSeries *m_series = nullptr;
    QList<theme::Part> m_parts;
    QStringList m_categories;
};

} // namespace ts
