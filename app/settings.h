// SPDX-License-Identifier: MIT
// Typed settings: each option keeps its key and default at the point of use.
#pragma once

#include <QSettings>
#include <QVariant>

namespace ts {

template<typename T>
struct SettingOption
{
    const char *key;
    T defaultValue;

    T get() const { return QSettings().value(QLatin1String(key), QVariant::fromValue(defaultValue)).template value<T>(); }
    void set(const T &value) const { QSettings().setValue(QLatin1String(key), QVariant::fromValue(value)); }
};

namespace settings {
inline const SettingOption<QStringList> recentFiles{"files/recent", {}};
inline const SettingOption<QString> lastScenario{"files/last", {}};
inline const SettingOption<QByteArray> windowGeometry{"window/geometry", {}};
inline const SettingOption<QByteArray> windowState{"window/state", {}};
inline constexpr int kMaxRecentFiles = 8;
} // namespace settings

} // namespace ts
