// SPDX-License-Identifier: MIT
#include "calibrationdialog.h"

#include "calibrationchart.h"
#include "chartdata.h"
#include "formatting.h"
#include "theme.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ts {

CalibrationDialog::CalibrationDialog(Source source, QWidget *parent)
    : QDialog(parent)
    , m_source(std::move(source))
    , m_table(new QTableWidget(this))
    , m_chart(new CalibrationChart(this))
    , m_error(new QLabel(this))
    , m_apply(new QPushButton(tr("Apply to scenario"), this))
{
    setWindowTitle(tr("Calibrate fabric from nccl-tests"));
    auto *add = new QPushButton(tr("Add logs…"), this);
    add->setToolTip(tr("all_reduce_perf, all_gather_perf, reduce_scatter_perf ... output, as printed (NCCL INFO lines are fine)"));
    m_apply->setToolTip(tr("Use the fitted latency and bandwidth for each tier (undoable)"));
    m_apply->setEnabled(false);
    auto *close = new QPushButton(tr("Close"), this);
    m_error->setWordWrap(true);
    QPalette warn = m_error->palette();
    warn.setColor(QPalette::WindowText, theme::errorColor());
    m_error->setPalette(warn);
    m_table->setColumnCount(8);
    m_table->setHorizontalHeaderLabels({tr("Log"), tr("Tier"), tr("Collective"), tr("Ranks"), tr("Sizes"), tr("Latency per step"),
                                        tr("Link (per direction)"), tr("Residual (rms / max)")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    buttons->addWidget(close);
    auto *column = new QVBoxLayout(this);
    column->addWidget(m_table);
    column->addWidget(m_chart, 1);
    column->addWidget(m_error);
    column->addLayout(buttons);
    resize(900, 700);
    connect(add, &QPushButton::clicked, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("nccl-tests logs"), QString(),
                                                                tr("Logs (*.log *.txt *.out);;All files (*)"));
        if (!paths.isEmpty())
            addLogs(paths);
    });
    connect(m_apply, &QPushButton::clicked, this, [this] { emit applyRequested(m_fits); });
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
}

QString CalibrationDialog::addLogs(const QStringList &paths)
{
    QString firstError;
    for (const QString &path : paths) {
        std::vector<NcclLog> logs;
        QString error;
        if (m_source.read && m_source.read(path, &logs, &error)) {
            m_logs.insert(m_logs.end(), logs.begin(), logs.end());   // several collectives: one row each
            continue;
        }
        if (firstError.isEmpty())
            firstError = error.isEmpty() ? tr("%1: cannot be read").arg(path) : error;
    }
    m_error->setText(firstError);
    m_error->setVisible(!firstError.isEmpty());
    refresh();
    return firstError;
}

void CalibrationDialog::refresh()
{
    m_fits.clear();
    QList<CalibrationSeries> series;
    m_table->setRowCount(int(m_logs.size()));
    for (size_t i = 0; i < m_logs.size(); ++i) {
        const TierFit fit = m_source.fit ? m_source.fit(m_logs[i]) : TierFit{};
        m_fits.push_back(fit);
        const int r = int(i);
        auto set = [this, r](int c, const QString &text) { m_table->setItem(r, c, new QTableWidgetItem(text)); };
        set(0, QString::fromStdString(fit.source));
        set(1, QString::fromStdString(fit.tier));
        set(2, QString::fromLatin1(nameOf(fit.collective)));
        set(3, QString::number(fit.ranks));
        set(4, QString::number(fit.points));
        set(5, fit.error.empty() ? fmt::seconds(fit.latencySeconds) + (fit.latencyIdentified ? QString() : tr(" (kept)"))
                                 : QString::fromStdString(fit.error));
        set(6, fit.error.empty() ? tr("%1 (%2 of line rate)").arg(fmt::bandwidth(fit.linkBytesPerSecond),
                                                                 fmt::percent(fit.linkBytesPerSecond / fit.lineRateBytesPerSecond))
                                 : QString());
        QString notes;
        for (const std::string &n : fit.notes)
            notes += QString::fromStdString(n) + QLatin1Char('\n');
        set(7, fit.error.empty() ? fmt::percent(fit.rmsRelativeResidual) + QStringLiteral(" / ") + fmt::percent(fit.maxRelativeResidual)
                                 : QString());
        // What the fit could not explain (latency not identifiable, capped at line rate, poor regime).
        for (int c = 0; c < m_table->columnCount(); ++c)
            if (QTableWidgetItem *item = m_table->item(r, c))
                item->setToolTip(notes.trimmed());
        if (!notes.isEmpty())
            m_table->item(r, 0)->setText(m_table->item(r, 0)->text() + QStringLiteral(" ⚠"));
        CalibrationSeries s;
        s.name = QString::fromStdString(fit.source);
        for (const NcclSample &sample : m_logs[i].samples)
            if (sample.bytes > 0) {
                s.bytes.push_back(sample.bytes);
                s.measuredSeconds.push_back(sample.seconds);
            }
        s.fittedSeconds = fit.fittedSeconds;
        series << s;
    }
    m_table->resizeColumnsToContents();
    m_chart->setSeries(series);
    m_apply->setEnabled(!m_fits.empty() && std::all_of(m_fits.begin(), m_fits.end(), [](const TierFit &f) { return f.error.empty(); }));
}

} // namespace ts
