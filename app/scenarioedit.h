// SPDX-License-Identifier: MIT
// What an edit of one control does to a scenario. Degrees stay consistent with the GPU count:
// TP, PP and CP keep the GPUs and move DP; DP moves the GPU count.
#pragma once

#include "inputs.h"
#include "parameterpanel.h"

#include <QString>

namespace ts {

struct EditResult
{
    Scenario scenario;
    QString note;   // what was derived (a shape from a parameter count), empty otherwise
};

EditResult applyFieldEdit(const Scenario &scenario, Field field, double value);

/// Apply a preset by kind ("model", "gpu", "intra_node", "inter_node", "cluster").
bool applyPreset(Scenario *scenario, const QString &kind, const QString &name, QString *error);

} // namespace ts
