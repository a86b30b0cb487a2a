// SPDX-License-Identifier: MIT
#include "recentfiles.h"

#include "settings.h"

#include <QFileInfo>
#include <QMenu>

namespace ts {

RecentFiles::RecentFiles(QMenu *menu, QObject *parent)
    : QObject(parent)
    , m_menu(menu)
{
    rebuild();
}

void RecentFiles::add(const QString &path)
{
    QStringList recent = settings::recentFiles.get();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > settings::kMaxRecentFiles)
        recent.removeLast();
    settings::recentFiles.set(recent);
    rebuild();
}

void RecentFiles::rebuild()
{
    m_menu->clear();
    const QStringList recent = settings::recentFiles.get();
    for (const QString &path : recent)
        m_menu->addAction(QFileInfo(path).fileName(), this, [this, path] { emit activated(path); })->setToolTip(path);
    m_menu->setEnabled(!recent.isEmpty());
}

} // namespace ts
