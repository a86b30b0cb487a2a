// SPDX-License-Identifier: MIT
// The main window: composes the views and wires them to the scenario. No formulas here.
#pragma once

#include "scenarioio.h"

#include <QMainWindow>

class QPlainTextEdit;

namespace ts {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    /// Shows a scenario; `source` names where it came from (file path or resource).
    void setScenario(const LoadedScenario &scenario, const QString &source);
    /// Shows why a scenario could not be opened, keeping what was shown before.
    void showLoadError(const QString &source, const QString &message);

private:
    QPlainTextEdit *m_summary = nullptr;
};

} // namespace ts
