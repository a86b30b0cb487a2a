// SPDX-License-Identifier: MIT
// An evaluation as flat, named, unit-suffixed values: the JSON, CSV and text outputs of the
// command line and the app's exports all come from here, so their keys stay one contract.
#pragma once

#include "evaluation.h"
#include "inputs.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace ts {

/// The `trainscope eval` JSON document (keys documented in README.md).
QJsonObject evaluationToJson(const Scenario &scenario, const Evaluation &evaluation, const QStringList &notes = {});

/// Rows of (key, value, unit) for CSV and text outputs, in a stable order.
struct ReportRow
{
    QString key;
    double value;
    QString unit;
    QString label;
};
QList<ReportRow> evaluationRows(const Evaluation &evaluation);

QString evaluationText(const Scenario &scenario, const Evaluation &evaluation, const QString &name,
                       const QStringList &notes);
QString evaluationCsv(const Evaluation &evaluation);

} // namespace ts
