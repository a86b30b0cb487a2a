// SPDX-License-Identifier: MIT
// A built-in preset as pickers and menus list it.
#pragma once

#include <QString>

namespace ts {

struct PresetChoice
{
    QString name;
    QString label;
    QString source;   // where its figures come from (tooltip)
    QString accuracy; // GPUs and models: how the cost model compared with measured runs (the picker's tooltip)
};

} // namespace ts
