// SPDX-License-Identifier: MIT
#include "autosave.h"

#include "scenariodocument.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>

namespace ts {

namespace {
QString lockPathOf(const QString &autosavePath)
{
    QString base = autosavePath;
    base.chop(int(qstrlen(".json")));
    return base + QStringLiteral(".lock");
}
} // namespace

Autosave::Autosave(ScenarioDocument *document, QObject *parent)
    : QObject(parent)
    , m_doc(document)
    , m_timer(new QTimer(this))
{
    QDir().mkpath(directory());
    m_path = directory() + QStringLiteral("/autosave-%1.json").arg(QCoreApplication::applicationPid());
    // Held while this instance runs: QLockFile records the PID and host, so a crashed instance's
    // lock is recognised as stale and its file offered back.
    m_lock = std::make_unique<QLockFile>(lockPathOf(m_path));
    m_lock->setStaleLockTime(0);
    m_lock->tryLock(0);
    m_timer->setSingleShot(true);
    m_timer->setInterval(kDelayMs);
    connect(m_timer, &QTimer::timeout, this, &Autosave::write);
    connect(m_doc, &ScenarioDocument::changed, m_timer, qOverload<>(&QTimer::start));
}

Autosave::~Autosave() = default;

QString Autosave::directory() { return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation); }

QString Autosave::path() const { return m_path; }

QStringList Autosave::orphans() const
{
    QFileInfoList files = QDir(directory()).entryInfoList({QStringLiteral("autosave*.json")}, QDir::Files);
    std::sort(files.begin(), files.end(),
              [](const QFileInfo &a, const QFileInfo &b) { return a.lastModified() > b.lastModified(); });
    QStringList out;
    for (const QFileInfo &f : files) {
        if (f.absoluteFilePath() == QFileInfo(m_path).absoluteFilePath())
            continue;
        QLockFile other(lockPathOf(f.absoluteFilePath()));
        other.setStaleLockTime(0);
        // Locked by a live instance: its edits are still open in its window.
        if (!other.tryLock(0) && other.error() == QLockFile::LockFailedError)
            continue;
        other.unlock();
        out << f.absoluteFilePath();
    }
    return out;
}

void Autosave::write()
{
    if (!m_doc->isModified())
        return;
    QFile file(m_path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(m_doc->toJson());
}

void Autosave::discard()
{
    m_timer->stop();
    QFile::remove(m_path);
}

} // namespace ts
