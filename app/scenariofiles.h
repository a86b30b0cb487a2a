// SPDX-License-Identifier: MIT
// The document's file lifecycle in the window: new, open (dialogs, drops, recent files), save,
// save as, "save changes?", autosave and recovery. Messages go to the window it is given.
#pragma once

#include <QObject>
#include <QString>

class QMainWindow;
class QMenu;

namespace ts {

class Autosave;
class RecentFiles;
class ScenarioDocument;
struct LoadedScenario;

class ScenarioFiles : public QObject
{
    Q_OBJECT
public:
    static const QString kDefaultScenario;   // the built-in default (resource path)
    ScenarioFiles(ScenarioDocument *document, QMainWindow *window, QMenu *recentMenu);
    ~ScenarioFiles() override;

    /// Opens a scenario file; on failure shows why (a dialog when interactive, the status bar
    /// always) and keeps the current scenario.
    bool openFile(const QString &path, bool interactive = true);
    void load(const LoadedScenario &loaded, const QString &source);
    bool saveTo(const QString &path);
    void newScenario();
    void open();
    bool save();
    bool saveAs();
    /// Asks to save unsaved changes; false when the user cancels.
    bool maybeSave();
    /// Offers unsaved edits of instances that are gone (a crash or a kill) back.
    void offerRecovery();
    /// The window closes on purpose: this instance's autosave goes.
    void closing();
    Autosave *autosave() const { return m_autosave; }

private:
    ScenarioDocument *m_doc;
    QMainWindow *m_window;
    RecentFiles *m_recent;
    Autosave *m_autosave;
};

/// Presets > Examples (open, asking to save first), Models and Clusters (each applied as one undo
/// step, its source as tooltip).
void fillPresetsMenu(QMenu *menu, ScenarioDocument *document, ScenarioFiles *files);

} // namespace ts
