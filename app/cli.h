// SPDX-License-Identifier: MIT
// Command-line interface: `trainscope eval|sweep|collectives SCENARIO.json ...`.
#pragma once

#include <QStringList>

class QTextStream;

namespace ts {

/// True when the arguments ask for a subcommand rather than the GUI.
bool isCommandLineInvocation(const QStringList &arguments);

/// Runs the subcommand; returns the process exit code. Exit codes: 0 success, 1 infeasible plan,
/// 2 usage error or bad scenario file.
int runCommandLine(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace ts
