// SPDX-License-Identifier: MIT
// A slider paired with a spin box and a unit: linear, logarithmic, or snapping to a list of
// legal values (which come from the model). No cost logic here.
#pragma once

#include <QWidget>

#include <vector>

class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace ts {

namespace slidermap {
inline constexpr int kResolution = 1000;   // slider positions for continuous scales
enum class Scale { Linear, Log, Steps };
/// Slider position -> value, and back (nearest position). Steps: position is the index.
double toValue(int position, double min, double max, Scale scale, const std::vector<double> &steps);
int toPosition(double value, double min, double max, Scale scale, const std::vector<double> &steps);
} // namespace slidermap

class QuantitySlider : public QWidget
{
    Q_OBJECT
public:
    QuantitySlider(const QString &label, const QString &unit, QWidget *parent = nullptr);

    void setRange(double min, double max, slidermap::Scale scale, int decimals = 0);
    /// Snap the slider to these values (ascending). The spin box still accepts any value in range,
    /// so that a value the model rejects is shown with its reason rather than silently changed.
    void setSteps(const std::vector<double> &steps);
    void setValue(double value);   // does not emit
    double value() const;
    /// Shows the model's reason next to the control; empty clears it.
    void setProblem(const QString &message);
    void setHelp(const QString &tooltip);
    /// Words shown instead of the minimum value ("every layer" for 0).
    void setMinimumText(const QString &text);
    QString label() const;

signals:
    void valueEdited(double value);
    void editFinished();

private:
    void syncSlider();
    void onSliderMoved(int position);

    QLabel *m_label;
    QLabel *m_problem;
    QSlider *m_slider;
    QDoubleSpinBox *m_spin;
    double m_min = 0, m_max = 1;
    slidermap::Scale m_scale = slidermap::Scale::Linear;
    std::vector<double> m_steps;
    bool m_updating = false;
};

} // namespace ts
