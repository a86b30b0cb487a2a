// SPDX-License-Identifier: MIT
// What choosing a preset does to a scenario (one control's edit is model/fields.h withField).
#pragma once

#include "inputs.h"

#include <QString>

namespace ts {

/// Apply a preset by kind ("model", "gpu", "intra_node", "inter_node", "cluster").
bool applyPreset(Scenario *scenario, const QString &kind, const QString &name, QString *error);

} // namespace ts
