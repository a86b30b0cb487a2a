// SPDX-License-Identifier: MIT
// Preset catalogue: GPUs, links, models and clusters, read from the JSON files in resources/.
#pragma once

#include "presetchoice.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace ts {

class Presets
{
public:
    enum Kind { Gpus, Links, Models, Clusters, KindCount };

    /// The catalogue compiled into the binary (":/presets/*.json").
    static const Presets &builtin();

    /// The preset object named `name`, or an empty object.
    QJsonObject find(Kind kind, const QString &name) const;
    QList<QJsonObject> all(Kind kind) const { return m_entries[kind]; }
    QStringList names(Kind kind) const;
    /// Errors met while reading the files (empty when all parsed).
    QStringList loadErrors() const { return m_errors; }

    static QString kindLabel(Kind kind);
    /// Name, label and source of each built-in preset of `kind`, for pickers and menus.
    static QList<PresetChoice> choices(Kind kind);
    /// The example scenarios shipped as resources: (menu label, resource path).
    static QList<std::pair<QString, QString>> examples();

private:
    Presets();
    QList<QJsonObject> m_entries[KindCount];
    QStringList m_errors;
};

} // namespace ts
