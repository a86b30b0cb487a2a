// SPDX-License-Identifier: MIT
#include "scenariofiles.h"

#include "autosave.h"
#include "presets.h"
#include "recentfiles.h"
#include "scenariodocument.h"
#include "scenarioio.h"
#include "settings.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

namespace ts {

namespace {
const QString kFileFilter = QStringLiteral("Trainscope scenarios (*.json);;All files (*)");
}

const QString ScenarioFiles::kDefaultScenario = QStringLiteral(":/scenarios/default.json");

ScenarioFiles::ScenarioFiles(ScenarioDocument *document, QMainWindow *window, QMenu *recentMenu)
    : QObject(window)
    , m_doc(document)
    , m_window(window)
    , m_recent(new RecentFiles(recentMenu, this))
    , m_autosave(new Autosave(document, this))
{
    connect(m_recent, &RecentFiles::activated, this, [this](const QString &path) {
        if (maybeSave())
            openFile(path);
    });
}

ScenarioFiles::~ScenarioFiles() = default;

void ScenarioFiles::load(const LoadedScenario &loaded, const QString &source)
{
    m_doc->load(loaded, source.startsWith(QLatin1Char(':')) ? QString() : source);
    if (!loaded.name.isEmpty())
        m_window->statusBar()->showMessage(loaded.name, 5000);
}

bool ScenarioFiles::openFile(const QString &path, bool interactive)
{
    ScenarioError error;
    const auto loaded = loadScenarioFile(path, &error);
    if (!loaded) {
        const QString message = tr("Could not open %1:\n%2").arg(QDir::toNativeSeparators(path), error.text());
        if (interactive)
            QMessageBox::warning(m_window, tr("Open scenario"), message);
        m_window->statusBar()->showMessage(message);
        return false;
    }
    load(*loaded, path);
    if (!path.startsWith(QLatin1Char(':'))) {
        m_recent->add(path);
        settings::lastScenario.set(QFileInfo(path).absoluteFilePath());
    }
    return true;
}

bool ScenarioFiles::saveTo(const QString &path)
{
    QString error;
    if (!m_doc->save(path, &error)) {
        QMessageBox::warning(m_window, tr("Save scenario"), tr("Could not save %1:\n%2").arg(path, error));
        return false;
    }
    m_recent->add(path);
    settings::lastScenario.set(QFileInfo(path).absoluteFilePath());
    m_autosave->discard();
    m_window->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 3000);
    return true;
}

void ScenarioFiles::newScenario()
{
    if (maybeSave())
        openFile(kDefaultScenario);
}

void ScenarioFiles::open()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open scenario"), QString(), kFileFilter);
    if (!path.isEmpty())
        openFile(path);
}

bool ScenarioFiles::save() { return m_doc->filePath().isEmpty() ? saveAs() : saveTo(m_doc->filePath()); }

bool ScenarioFiles::saveAs()
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save scenario"), m_doc->filePath(), kFileFilter);
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return saveTo(path);
}

bool ScenarioFiles::maybeSave()
{
    if (!m_doc->isModified())
        return true;
    const auto answer = QMessageBox::warning(m_window, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void ScenarioFiles::offerRecovery()
{
    // Newest first; one is restored per start (the window shows one document), the rest wait.
    for (const QString &path : m_autosave->orphans()) {
        const QFileInfo info(path);
        const auto answer = QMessageBox::question(
            m_window, tr("Recover unsaved changes"),
            tr("Trainscope found unsaved changes from %1 that were never saved (the window did not close normally). "
               "Restore them?")
                .arg(QLocale().toString(info.lastModified(), QLocale::ShortFormat)),
            QMessageBox::Yes | QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            QFile::remove(path);
            continue;
        }
        ScenarioError error;
        if (auto loaded = loadScenarioFile(path, &error)) {
            load(*loaded, {});
            m_doc->edit(m_doc->scenario(), tr("Recovered"));   // mark as unsaved
            QFile::remove(path);
            return;
        }
        QMessageBox::warning(m_window, tr("Recover unsaved changes"),
                             tr("The autosaved scenario could not be read:\n%1").arg(error.text()));
        QFile::remove(path);
    }
}

void ScenarioFiles::closing() { m_autosave->discard(); }

void fillPresetsMenu(QMenu *menu, ScenarioDocument *document, ScenarioFiles *files)
{
    QMenu *examples = menu->addMenu(QObject::tr("&Examples"));
    for (const auto &[label, path] : Presets::examples())
        examples->addAction(label, files, [files, path = path] {
            if (files->maybeSave())
                files->openFile(path);
        });
    const std::tuple<QString, Presets::Kind, QString> menus[] = {{QObject::tr("&Models"), Presets::Models, QStringLiteral("model")},
                                                                 {QObject::tr("&Clusters"), Presets::Clusters, QStringLiteral("cluster")}};
    for (const auto &[title, kind, key] : menus) {
        QMenu *sub = menu->addMenu(title);
        for (const PresetChoice &choice : Presets::choices(kind))
            sub->addAction(choice.label, document, [document, key = key, name = choice.name] { document->choosePreset(key, name); })
                ->setToolTip(choice.source);
    }
    menu->setToolTipsVisible(true);
}

} // namespace ts
