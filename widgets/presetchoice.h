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
    QString accuracy; // GPUs: how the model compared with measured runs on it (the picker's tooltip)
};

} // namespace ts
