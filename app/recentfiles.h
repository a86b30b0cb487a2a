// SPDX-License-Identifier: MIT
// File > Open Recent: the list kept in the settings, newest first, as a menu.
#pragma once

#include <QObject>

class QMenu;

namespace ts {

class RecentFiles : public QObject
{
    Q_OBJECT
public:
    explicit RecentFiles(QMenu *menu, QObject *parent = nullptr);
    /// Puts `path` first (absolute), keeping at most settings::kMaxRecentFiles.
    void add(const QString &path);

signals:
    void activated(const QString &path);

private:
    void rebuild();
    QMenu *m_menu;
};

} // namespace ts
