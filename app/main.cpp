// SPDX-License-Identifier: MIT
#include "cli.h"
#include "mainwindow.h"
#include "scenarioio.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

#include <cstdio>
#include <memory>

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (ts::isCommandLineInvocation(arguments)) {
        QCoreApplication app(argc, argv);   // no display needed
        QTextStream out(stdout), err(stderr);
        const int code = ts::runCommandLine(arguments, out, err);
        out.flush();
        err.flush();
        return code;
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Trainscope"));
    QApplication::setOrganizationName(QStringLiteral("Trainscope"));
    QApplication::setApplicationVersion(QStringLiteral(TRAINSCOPE_VERSION));
    ts::MainWindow window;
    const QString path = arguments.value(1);
    ts::ScenarioError error;
    const QString source = path.isEmpty() ? QStringLiteral(":/scenarios/default.json") : path;
    if (auto loaded = ts::loadScenarioFile(source, &error)) {
        window.setScenario(*loaded, source);
    } else {
        std::fprintf(stderr, "trainscope: %s: %s\n", qPrintable(source), qPrintable(error.text()));
        if (auto fallback = ts::loadScenarioFile(QStringLiteral(":/scenarios/default.json"), &error))
            window.setScenario(*fallback, QStringLiteral(":/scenarios/default.json"));
        window.showLoadError(source, error.text());
    }
    window.show();
    return app.exec();
}
