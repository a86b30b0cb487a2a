// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "evaluate.h"
#include "reportdata.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QStatusBar>

namespace ts {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Trainscope"));
    m_summary = new QPlainTextEdit(this);
    m_summary->setReadOnly(true);
    m_summary->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setCentralWidget(m_summary);
    resize(1100, 800);
}

void MainWindow::setScenario(const LoadedScenario &loaded, const QString &source)
{
    const Evaluation e = evaluate(loaded.scenario);
    m_summary->setPlainText(evaluationText(loaded.scenario, e, loaded.name, loaded.notes));
    setWindowTitle(tr("%1 — Trainscope").arg(loaded.name.isEmpty() ? source : loaded.name));
    statusBar()->showMessage(source);
}

void MainWindow::showLoadError(const QString &source, const QString &message)
{
    statusBar()->showMessage(tr("Could not open %1: %2").arg(source, message));
}

} // namespace ts
