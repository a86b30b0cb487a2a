// SPDX-License-Identifier: MIT
#include "cli.h"
#include "mainwindow.h"
#include "report.h"
#include "scenarioio.h"
#include "settings.h"
#include "evaluate.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFile>
#include <QIcon>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

namespace {

constexpr int kScreenshotDelayMs = 800;   // let the first layout and paint settle

// `trainscope report SCENARIO.json -o plan.pdf`: the report needs widgets, not a display.
int runReport(int argc, char *argv[], const QStringList &args)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationVersion(QStringLiteral(TRAINSCOPE_VERSION));
    QTextStream err(stderr);
    QString scenarioPath, outPath;
    for (int i = 2; i < args.size(); ++i) {
        if ((args[i] == QLatin1String("-o") || args[i] == QLatin1String("--output")) && i + 1 < args.size())
            outPath = args[++i];
        else if (scenarioPath.isEmpty() && !args[i].startsWith(QLatin1Char('-')))
            scenarioPath = args[i];
        else {
            err << "trainscope: unexpected argument \"" << args[i] << "\"\nUsage: trainscope report SCENARIO.json -o plan.pdf\n";
            return 2;
        }
    }
    if (scenarioPath.isEmpty() || outPath.isEmpty()) {
        err << "Usage: trainscope report SCENARIO.json -o plan.pdf\n";
        return 2;
    }
    ts::ScenarioError error;
    const auto loaded = ts::loadScenarioFile(scenarioPath, &error);
    if (!loaded) {
        err << "trainscope: " << scenarioPath << ": " << error.text() << "\n";
        return 2;
    }
    QString writeError;
    const ts::Evaluation e = ts::evaluate(loaded->scenario);
    if (!ts::writeReport(outPath, {loaded->scenario, e, loaded->name, loaded->description, loaded->notes, {}}, &writeError)) {
        err << "trainscope: " << writeError << "\n";
        return e.feasible ? 2 : 1;
    }
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (arguments.value(1) == QLatin1String("report"))
        return runReport(argc, argv, arguments);
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
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/org.trainscope.Trainscope.svg")));
    // --screenshot PATH [--tab N] [--size WxH]: save the window as it first appears, then quit
    // (docs, checks); 1600x1000 unless a size is given.
    QString screenshot;
    int tab = 0;
    QSize size(1600, 1000);
    for (int i = 1; i + 1 < arguments.size(); ++i) {
        if (arguments[i] == QLatin1String("--screenshot")) {
            screenshot = arguments[i + 1];
            arguments.remove(i, 2);
            --i;
        } else if (arguments[i] == QLatin1String("--tab")) {
            tab = arguments[i + 1].toInt();
            arguments.remove(i, 2);
            --i;
        } else if (arguments[i] == QLatin1String("--size")) {
            const QStringList wh = arguments[i + 1].split(QLatin1Char('x'));
            if (wh.size() == 2 && wh[0].toInt() >= 320 && wh[1].toInt() >= 240)
                size = QSize(wh[0].toInt(), wh[1].toInt());
            else
                std::fprintf(stderr, "trainscope: --size wants WIDTHxHEIGHT (at least 320x240), got %s\n", qPrintable(arguments[i + 1]));
            arguments.remove(i, 2);
            --i;
        }
    }
    ts::MainWindow window;
    const QString path = arguments.value(1);
    if (!path.isEmpty()) {
        // A file that does not load says so in a dialog (not only on stderr), over the default
        // scenario the window falls back to; never as if it had loaded.
        if (!screenshot.isEmpty() ? !window.openFile(path, false) : !(window.show(), window.openFile(path, true)))
            std::fprintf(stderr, "trainscope: could not open %s; showing the default scenario\n", qPrintable(path));
    } else if (const QString last = ts::settings::lastScenario.get(); !last.isEmpty() && QFile::exists(last)) {
        window.openFile(last, false);
    }
    window.show();
    if (!screenshot.isEmpty()) {
        window.resize(size);
        window.mainTabs()->setCurrentIndex(tab);
        QTimer::singleShot(kScreenshotDelayMs, &window, [&window, screenshot] {
            const bool saved = window.grab().save(screenshot);
            std::fprintf(stderr, saved ? "trainscope: saved %s\n" : "trainscope: could not write %s\n", qPrintable(screenshot));
            QCoreApplication::exit(saved ? 0 : 2);
        });
        return app.exec();
    }
    window.offerAutosaveRecovery();
    return app.exec();
}
