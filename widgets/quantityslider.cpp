// SPDX-License-Identifier: MIT
#include "quantityslider.h"

#include "theme.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace ts {

namespace slidermap {

double toValue(int position, double min, double max, Scale scale, const std::vector<double> &steps)
{
    if (scale == Scale::Steps) {
        if (steps.empty())
            return min;
        return steps[size_t(std::clamp(position, 0, int(steps.size()) - 1))];
    }
    const double f = std::clamp(position, 0, kResolution) / double(kResolution);
    if (scale == Scale::Log && min > 0)
        return std::exp(std::log(min) + f * (std::log(max) - std::log(min)));
    return min + f * (max - min);
}

int toPosition(double value, double min, double max, Scale scale, const std::vector<double> &steps)
{
    if (scale == Scale::Steps) {
        if (steps.empty())
            return 0;
        // Nearest step on a log scale for positive steps (degrees grow geometrically).
        int best = 0;
        double bestDistance = 1e300;
        for (size_t i = 0; i < steps.size(); ++i) {
            const double d = value > 0 && steps[i] > 0 ? std::abs(std::log(value / steps[i])) : std::abs(value - steps[i]);
            if (d < bestDistance) {
                bestDistance = d;
                best = int(i);
            }
        }
        return best;
    }
    if (!(max > min))
        return 0;
    double f;
    if (scale == Scale::Log && min > 0 && value > 0)
        f = (std::log(value) - std::log(min)) / (std::log(max) - std::log(min));
    else
        f = (value - min) / (max - min);
    return int(std::lround(std::clamp(f, 0.0, 1.0) * kResolution));
}

} // namespace slidermap

namespace {
// The arrows and Up/Down keys move to the next valid value (TP 4 -> 8, not 5) when the slider
// has steps; what is typed is kept as typed (the model judges it and says why).
class StepSpinBox : public QDoubleSpinBox
{
public:
    StepSpinBox(const std::vector<double> *steps, QWidget *parent)
        : QDoubleSpinBox(parent)
        , m_steps(steps)
    {
    }
    void stepBy(int n) override
    {
        if (m_steps->empty()) {
            QDoubleSpinBox::stepBy(n);
            return;
        }
        const std::vector<double> &s = *m_steps;
        const double v = value(), eps = 1e-9 * std::max(1.0, std::abs(v));
        long i = 0;
        if (n > 0)   // the first step above the value, then n - 1 more
            i = long(std::upper_bound(s.begin(), s.end(), v + eps) - s.begin()) + (n - 1);
        else         // the last step below it, then |n| - 1 more
            i = long(std::lower_bound(s.begin(), s.end(), v - eps) - s.begin()) - 1 + (n + 1);
        i = std::clamp(i, 0L, long(s.size()) - 1);
        setValue(s[size_t(i)]);
    }
    StepEnabled stepEnabled() const override
    {
        if (m_steps->empty())
            return QDoubleSpinBox::stepEnabled();
        StepEnabled e = StepNone;
        if (value() > m_steps->front())
            e |= StepDownEnabled;
        if (value() < m_steps->back())
            e |= StepUpEnabled;
        return e;
    }

private:
    const std::vector<double> *m_steps;
};
} // namespace

QuantitySlider::QuantitySlider(const QString &label, const QString &unit, QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel(label, this))
    , m_problem(new QLabel(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spin(new StepSpinBox(&m_steps, this))
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 2, 0, 2);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(1);
    m_label->setBuddy(m_spin);
    m_spin->setSuffix(unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
    m_spin->setKeyboardTracking(false);
    m_spin->setAccelerated(true);
    m_spin->setMinimumWidth(110);
    m_spin->setAlignment(Qt::AlignRight);
    m_problem->setWordWrap(true);
    m_problem->setVisible(false);
    QPalette warn = m_problem->palette();
    warn.setColor(QPalette::WindowText, theme::errorColor());
    m_problem->setPalette(warn);
    grid->addWidget(m_label, 0, 0, 1, 2);
    grid->addWidget(m_slider, 1, 0);
    grid->addWidget(m_spin, 1, 1);
    grid->addWidget(m_problem, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    m_slider->setRange(0, slidermap::kResolution);
    m_slider->setFocusPolicy(Qt::StrongFocus);

    connect(m_slider, &QSlider::valueChanged, this, &QuantitySlider::onSliderMoved);
    connect(m_slider, &QSlider::sliderReleased, this, &QuantitySlider::editFinished);
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (m_updating)
            return;
        syncSlider();
        emit valueEdited(v);
        emit editFinished();
    });
}

void QuantitySlider::setRange(double min, double max, slidermap::Scale scale, int decimals)
{
    // The spin box repaints on every setDecimals/setRange, even to the same values.
    if (min == m_min && max == m_max && scale == m_scale && decimals == m_spin->decimals() && m_spin->minimum() == min
        && m_spin->maximum() == max)
        return;
    m_updating = true;
    m_min = min;
    m_max = max;
    m_scale = scale;
    m_spin->setDecimals(decimals);
    m_spin->setRange(min, max);
    if (scale != slidermap::Scale::Steps)
        m_slider->setRange(0, slidermap::kResolution);
    m_updating = false;
    syncSlider();
}

void QuantitySlider::setSteps(const std::vector<double> &steps)
{
    if (steps == m_steps && m_scale == slidermap::Scale::Steps)
        return;
    m_updating = true;
    m_steps = steps;
    m_scale = slidermap::Scale::Steps;
    // The spin box must at least span the steps; it may accept more (a value the model then judges).
    m_spin->setDecimals(0);   // steps are counts (degrees, sizes)
    if (!steps.empty() && (m_spin->maximum() < steps.back() || m_spin->minimum() > steps.front())) {
        m_spin->setRange(std::min(m_spin->minimum(), steps.front()), std::max(m_spin->maximum(), steps.back()));
        m_min = m_spin->minimum();
        m_max = m_spin->maximum();
    }
    m_slider->setRange(0, std::max(0, int(steps.size()) - 1));
    m_slider->setPageStep(1);
    m_updating = false;
    syncSlider();
}

void QuantitySlider::setValue(double value)
{
    // QAbstractSpinBox repaints on every setValue, even to the value it shows; the panel sets
    // every control on every edit, so an unchanged value must not reach it. The spin box keeps
    // the value rounded to its decimals (QDoubleSpinBox's own rounding) and bounded.
    const double kept = std::clamp(QString::number(value, 'f', m_spin->decimals()).toDouble(), m_spin->minimum(), m_spin->maximum());
    if (kept == m_spin->value())
        return;
    m_updating = true;
    m_spin->setValue(value);
    m_updating = false;
    syncSlider();
}

double QuantitySlider::value() const { return m_spin->value(); }

void QuantitySlider::setProblem(const QString &message)
{
    m_problem->setText(message);
    m_problem->setVisible(!message.isEmpty());
}

void QuantitySlider::setHelp(const QString &tooltip)
{
    m_label->setToolTip(tooltip);
    m_slider->setToolTip(tooltip);
    m_spin->setToolTip(tooltip);
}

QString QuantitySlider::label() const { return m_label->text(); }

void QuantitySlider::syncSlider()
{
    const bool was = m_updating;
    m_updating = true;
    m_slider->setValue(slidermap::toPosition(m_spin->value(), m_min, m_max, m_scale, m_steps));
    m_updating = was;
}

void QuantitySlider::onSliderMoved(int position)
{
    if (m_updating)
        return;
    const double v = slidermap::toValue(position, m_min, m_max, m_scale, m_steps);
    m_updating = true;
    m_spin->setValue(v);
    m_updating = false;
    emit valueEdited(m_spin->value());
    if (!m_slider->isSliderDown())
        emit editFinished();   // keyboard and wheel steps are complete edits
}

void QuantitySlider::setMinimumText(const QString &text) { m_spin->setSpecialValueText(text); }

} // namespace ts
