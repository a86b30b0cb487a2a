// SPDX-License-Identifier: MIT
// Imports nccl-tests logs, shows each tier's fit and measured against fitted, applies the fit.
// Reading and fitting come from its source (the app: the file reader and the document's cluster).
#pragma once

#include "calibration.h"

#include <QDialog>

#include <functional>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace ts {

class CalibrationChart;

class CalibrationDialog : public QDialog
{
    Q_OBJECT
public:
    struct Source
    {
        /// Reads one file's logs (several collectives: one each); false with a message naming it.
        std::function<bool(const QString &path, std::vector<NcclLog> *logs, QString *error)> read;
        /// Fits one log against the open scenario's topology and links.
        std::function<TierFit(const NcclLog &log)> fit;
    };
    explicit CalibrationDialog(Source source, QWidget *parent = nullptr);
    /// Adds logs; returns the error of the first log that could not be used (empty when all were).
    QString addLogs(const QStringList &paths);
    const std::vector<TierFit> &fits() const { return m_fits; }
    /// Fits again (the scenario's cluster changed).
    void refresh();

signals:
    void applyRequested(const std::vector<ts::TierFit> &fits);

private:
    Source m_source;
    std::vector<NcclLog> m_logs;
    std::vector<TierFit> m_fits;
    QTableWidget *m_table;
    CalibrationChart *m_chart;
    QLabel *m_error;
    QPushButton *m_apply;
};

} // namespace ts
