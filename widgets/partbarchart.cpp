// SPDX-License-Identifier: MIT
#include "partbarchart.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

namespace ts {

PartBarChart::PartBarChart(bool horizontal, QWidget *parent)
    : ChartFrame(parent)
    , m_categoryAxis(new QBarCategoryAxis)
    , m_valueAxis(new QValueAxis)
    , m_horizontal(horizontal)
{
    chart()->addAxis(m_categoryAxis, horizontal ? Qt::AlignLeft : Qt::AlignBottom);
    chart()->addAxis(m_valueAxis, horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    m_valueAxis->setLabelFormat(QStringLiteral("%g"));
    m_valueAxis->setTickType(QValueAxis::TicksDynamic);
    m_valueAxis->setTickAnchor(0);
}

void PartBarChart::paletteChanged()
{
    // setTheme recoloured the series: have refresh() rebuild them in our colours.
    m_series = nullptr;
    refresh();
}

QList<theme::Part> PartBarChart::presentParts(const QList<theme::Part> &order, const std::function<bool(theme::Part)> &nonZero)
{
    QList<theme::Part> out;
    for (theme::Part part : order)
        if (nonZero(part))
            out.append(part);
    return out;
}

void PartBarChart::setValues(const QList<theme::Part> &parts, const QStringList &categories,
                             const std::function<double(int, int)> &value)
{
    if (!m_series || parts != m_parts) {
        m_parts = parts;
        m_categories = categories;
        m_series = m_horizontal ? static_cast<QAbstractBarSeries *>(new QHorizontalStackedBarSeries)
                                : static_cast<QAbstractBarSeries *>(new QStackedBarSeries);
        setPartBars(m_series, parts, categories, m_categoryAxis, m_valueAxis,
                    [this](theme::Part part, int index) { showTooltip(part, index); },
                    [this](theme::Part part) { emit partActivated(theme::explanationId(part)); });
        seriesRebuilt();
    } else if (categories != m_categories) {
        // The same parts over other bars (a variant came, went or was renamed, as "Network: ..."
        // does while the inter-node bandwidth is dragged past the presets): relabel the
        // axis and resize the bar sets. Rebuilding series, bar sets and legend made such a slider
        // step cost three times a usual one (trainscope-bench slider_update_p99_ms).
        m_categories = categories;
        m_categoryAxis->setCategories(categories);
        const int count = int(categories.size());
        for (QBarSet *set : m_series->barSets()) {
            if (set->count() > count)
                set->remove(count, set->count() - count);
            while (set->count() < count)
                set->append(0.0);
        }
    }
    const QList<QBarSet *> sets = m_series->barSets();
    for (qsizetype s = 0; s < sets.size(); ++s)
        for (int i = 0; i < int(categories.size()); ++i) {
            const double v = value(int(s), i);
            if (sets[s]->at(i) != v)   // every change lays the chart out again
                sets[s]->replace(i, v);
        }
}

} // namespace ts
