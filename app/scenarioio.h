// SPDX-License-Identifier: MIT
// Scenario files: JSON with "format": "trainscope-scenario/1" and sections workload, training,
// cluster and plan. Sections may name a preset and override its fields. Keys: README.md.
#pragma once

#include "analysis.h"
#include "calibration.h"
#include "inputs.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ts {

inline constexpr char kScenarioFormat[] = "trainscope-scenario/1";
inline constexpr qint64 kMaxScenarioFileBytes = 1 << 20;

struct ScenarioError
{
    QString key;       // "plan.tp", or empty for whole-file problems
    QString message;
    QString text() const { return key.isEmpty() ? message : key + QStringLiteral(": ") + message; }
};

struct LoadedScenario
{
    Scenario scenario;
    QString name;
    QString description;
    QStringList notes;   // what was derived (e.g. a shape from a parameter count)
};

std::optional<LoadedScenario> parseScenario(const QByteArray &json, ScenarioError *error);
std::optional<LoadedScenario> loadScenarioFile(const QString &path, ScenarioError *error);

/// Every input written out explicitly (no preset references), so that it reads back identically.
/// The scenario file's `plan` section: the one writer of plan keys (files, `plan` rows, report).
QJsonObject planToJson(const Plan &plan);
QJsonObject scenarioToJson(const Scenario &scenario, const QString &name = {}, const QString &description = {});
/// Atomic save (QSaveFile).
bool saveScenarioFile(const QString &path, const QJsonObject &json, QString *error);
/// The scenario's inputs as "section.key" -> text (the Compare tab's table of differing inputs).
QMap<QString, QString> scenarioInputs(const Scenario &scenario);
/// Reads one nccl-tests log file (several collectives give one log each); false with a message
/// that names the file.
bool readNcclLogFile(const QString &path, std::vector<NcclLog> *logs, QString *error);

} // namespace ts

namespace ts {

/// Inputs from a named preset, with the same rules as a scenario file section.
bool workloadFromPreset(const QString &name, Workload *workload, ScenarioError *error);
bool gpuFromPreset(const QString &name, Gpu *gpu, ScenarioError *error);
bool linkFromPreset(const QString &name, Link *link, std::optional<Transport> *transport, ScenarioError *error);
/// The inter-node link presets, for the analysis' "faster network" variant (parsed once).
const std::vector<LinkChoice> &interNodeLinkChoices();
/// A whole cluster section from a cluster preset (GPU, links, counts).
bool clusterFromPreset(const QString &name, Cluster *cluster, ScenarioError *error);

} // namespace ts
