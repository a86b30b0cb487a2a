// SPDX-License-Identifier: MIT
// Scaling against GPU count: weak (the global batch grows with the GPUs) or strong (the batch is
// kept), speedup or efficiency (one quantity on the axis), the ideal, and Amdahl's and
// Gustafson's laws for the current communication share as optional overlays; the current plan
// marked. GPU counts and speedups on log2 scales labelled 64, 1K, 16K, 1M.
#pragma once

#include "chartdata.h"
#include "chartframe.h"

QT_BEGIN_NAMESPACE
class QCategoryAxis;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QVBoxLayout;
QT_END_NAMESPACE

namespace ts {

class ScalingChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit ScalingChart(QWidget *parent = nullptr);

    /// Shows the curves. NaN points (infeasible counts) are skipped; empty data shows a note.
    void setData(const ScalingChartData &data);
    /// Weak (true) or strong scaling; speedup (true) or efficiency; the two laws drawn or not.
    void setView(bool weak, bool speedup, bool laws);
    /// Shows or hides the pickers above the chart (hidden on printed pages).
    void setControlsVisible(bool visible);
    /// "64", "1K", "16K", "1M": powers of two as axis labels.
    static QString powerOfTwoLabel(double value);

signals:
    /// A curve was clicked: the explanation of the scaling figures.
    void explanationRequested(const QString &id);

protected:
    void paletteChanged() override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void refresh();
    void fixLawsSize();
    void placeControls();
    QString lawsText(double serialFraction) const;
    void showTooltip(double log2Gpus);
    const ScalingCurves &curves() const;

    QCategoryAxis *m_gpuAxis = nullptr;
    QCategoryAxis *m_valueAxis = nullptr;
    QLineSeries *m_model = nullptr;
    QLineSeries *m_ideal = nullptr;
    QLineSeries *m_amdahl = nullptr;
    QLineSeries *m_gustafson = nullptr;
    QScatterSeries *m_current = nullptr;
    QLabel *m_emptyNote = nullptr;
    QComboBox *m_mode = nullptr;
    QComboBox *m_quantity = nullptr;
    QCheckBox *m_laws = nullptr;
    QWidget *m_header = nullptr;
    QVBoxLayout *m_headerRows = nullptr;
    QList<int> m_controlRows;   // as placed

    ScalingChartData m_data;
};

} // namespace ts
