// SPDX-License-Identifier: MIT
#include "calibrationchart.h"

#include "chartmath.h"
#include "theme.h"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ts {

namespace {
constexpr double kMicroseconds = 1e6;   // the y axis shows microseconds, as nccl-tests prints
const theme::Part kSeriesColours[] = {theme::Part::Compute, theme::Part::DpComm, theme::Part::Optimizer, theme::Part::CpComm,
                                      theme::Part::TpComm};
} // namespace

CalibrationChart::CalibrationChart(QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_view(new QChartView(m_chart, this))
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_chart->setTheme(chartmath::isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(palette().base());
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_x->setBase(16);
    m_x->setTitleText(tr("Message size [B]"));
    m_x->setLabelFormat(QStringLiteral("%.0e"));   // short labels: 1e+03, 2e+04, ...
    m_y->setBase(10);
    m_y->setTitleText(tr("Time [µs]"));
    m_y->setLabelFormat(QStringLiteral("%.4g"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_chart->setTitle(tr("Measured (points) against the collective model with the fitted links (lines)"));
}

void CalibrationChart::setSeries(const QList<CalibrationSeries> &series)
{
    m_chart->removeAllSeries();
    double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
    for (qsizetype i = 0; i < series.size(); ++i) {
        const CalibrationSeries &s = series[i];
        const QColor colour = theme::color(kSeriesColours[i % std::size(kSeriesColours)]);
        auto *measured = new QScatterSeries;
        measured->setName(tr("%1 measured").arg(s.name));
        measured->setColor(colour);
        measured->setMarkerSize(7);
        auto *fitted = new QLineSeries;
        fitted->setName(tr("%1 fit").arg(s.name));
        fitted->setPen(QPen(colour, 2));
        for (size_t k = 0; k < s.bytes.size(); ++k) {
            if (!(s.bytes[k] > 0) || !(s.measuredSeconds[k] > 0))
                continue;   // log axes cannot show zero
            measured->append(s.bytes[k], s.measuredSeconds[k] * kMicroseconds);
            if (k < s.fittedSeconds.size() && s.fittedSeconds[k] > 0)
                fitted->append(s.bytes[k], s.fittedSeconds[k] * kMicroseconds);
            xMin = std::min(xMin, s.bytes[k]);
            xMax = std::max(xMax, s.bytes[k]);
            yMin = std::min({yMin, s.measuredSeconds[k] * kMicroseconds, k < s.fittedSeconds.size() ? s.fittedSeconds[k] * kMicroseconds : 1e300});
            yMax = std::max(yMax, s.measuredSeconds[k] * kMicroseconds);
        }
        m_chart->addSeries(measured);
        m_chart->addSeries(fitted);
        for (QAbstractSeries *x : {static_cast<QAbstractSeries *>(measured), static_cast<QAbstractSeries *>(fitted)}) {
            x->attachAxis(m_x);
            x->attachAxis(m_y);
        }
    }
    if (xMax > 0) {
        m_x->setRange(xMin / 2, xMax * 2);
        m_y->setRange(std::pow(10, std::floor(std::log10(yMin))), std::pow(10, std::ceil(std::log10(yMax))));
    }
}

} // namespace ts
