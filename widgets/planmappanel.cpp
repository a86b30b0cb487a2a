// SPDX-License-Identifier: MIT
#include "planmappanel.h"

#include "formatting.h"
#include "planmapview.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ts {

namespace {
QString axisTitle(Field f) { return QString::fromLatin1(fieldInfo(f).name); }
} // namespace

PlanMapPanel::PlanMapPanel(QWidget *parent)
    : QWidget(parent)
    , m_x(new QComboBox(this))
    , m_y(new QComboBox(this))
    , m_metric(new QComboBox(this))
    , m_view(new PlanMapView(this))
    , m_note(new QLabel(this))
{
    for (Field f : planMapAxes()) {
        m_x->addItem(axisTitle(f), int(f));
        m_y->addItem(axisTitle(f), int(f));
    }
    m_x->setCurrentIndex(m_x->findData(int(Field::Tp)));
    m_y->setCurrentIndex(m_y->findData(int(Field::Pp)));
    m_metric->addItem(tr("Time to train"), int(PlanMapMetric::TimeToTrain));
    m_metric->addItem(tr("MFU"), int(PlanMapMetric::Mfu));
    m_metric->addItem(tr("Step time"), int(PlanMapMetric::StepTime));
    m_metric->addItem(tr("Memory per GPU"), int(PlanMapMetric::MemoryPerGpu));
    m_x->setToolTip(tr("The input across (DP follows TP, PP, CP and the GPU count)"));
    m_y->setToolTip(tr("The input upwards"));
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    auto *pickers = new QHBoxLayout;
    for (auto [label, combo] : {std::pair<QString, QComboBox *>{tr("Across"), m_x}, {tr("Up"), m_y}, {tr("Colour"), m_metric}}) {
        auto *form = new QFormLayout;
        form->addRow(label, combo);
        pickers->addLayout(form);
    }
    pickers->addStretch(1);
    auto *column = new QVBoxLayout(this);
    column->addLayout(pickers);
    column->addWidget(m_view, 1);
    column->addWidget(m_note);
    for (QComboBox *c : {m_x, m_y, m_metric})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { invalidate(); });
    connect(m_view, &PlanMapView::cellActivated, this, [this](int ix, int iy) { emit cellChosen(m_view->map(), ix, iy); });
}

void PlanMapPanel::setSource(Source source)
{
    m_source = std::move(source);
    invalidate();
}

PlanMapRequest PlanMapPanel::request() const
{
    PlanMapRequest r;
    r.x = Field(m_x->currentData().toInt());
    r.y = Field(m_y->currentData().toInt());
    r.metric = PlanMapMetric(m_metric->currentData().toInt());
    return r;
}

void PlanMapPanel::setAxes(Field x, Field y)
{
    m_x->setCurrentIndex(m_x->findData(int(x)));
    m_y->setCurrentIndex(m_y->findData(int(y)));
}

void PlanMapPanel::invalidate()
{
    m_dirty = true;
    if (isVisible())
        rebuild();
}

void PlanMapPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        rebuild();
}

void PlanMapPanel::rebuild()
{
    m_dirty = false;
    if (!m_source)
        return;
    const PlanMapRequest r = request();
    if (r.x == r.y) {
        m_view->setMap({}, {}, {}, {});
        m_note->setText(tr("Choose two different inputs to map."));
        return;
    }
    QElapsedTimer timer;
    timer.start();
    const PlanMap map = m_source(r);
    const double seconds = double(timer.nsecsElapsed()) * 1e-9;
    m_view->setMap(map, axisTitle(r.x), axisTitle(r.y), m_metric->currentText());
    int feasible = 0, fitting = 0;
    for (const PlanMapCell &c : map.cells) {
        feasible += c.feasible;
        fitting += c.feasible && c.fits;
    }
    m_note->setText(tr("%1 plans evaluated in %2: %3 run, %4 fit in memory. Bright is better; hatched: does not fit; "
                       "crossed: cannot run; the outlined cell is the current plan. Click a cell to apply it (undoable).")
                        .arg(map.cells.size())
                        .arg(fmt::seconds(seconds))
                        .arg(feasible)
                        .arg(fitting));
}

} // namespace ts
