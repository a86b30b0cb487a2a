// SPDX-License-Identifier: MIT
// Autosave of unsaved edits, one file per running instance: autosave-<pid>.json beside a lock
// that instance holds. Recovery offers only the files of instances that are gone (their lock is
// stale), never the edits of another window that is still open.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QLockFile;
class QTimer;

namespace ts {

class ScenarioDocument;

class Autosave : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDelayMs = 2000;   // after the last edit
    /// Writes `document` kDelayMs after each change while it has unsaved edits.
    explicit Autosave(ScenarioDocument *document, QObject *parent = nullptr);
    ~Autosave() override;
    /// The folder of the autosave files (AppLocalDataLocation).
    static QString directory();
    /// This instance's file.
    QString path() const;
    /// Autosave files left by instances that are no longer running, newest first.
    QStringList orphans() const;
    /// Writes now (when there are unsaved edits).
    void write();
    /// Removes this instance's file (saved, or closed on purpose).
    void discard();

private:
    ScenarioDocument *m_doc;
    QTimer *m_timer;
    std::unique_ptr<QLockFile> m_lock;
    QString m_path;
};

} // namespace ts
