// SPDX-License-Identifier: MIT
#include "presets.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace ts {

namespace {
struct FileSpec
{
    const char *path;
    const char *arrayKey;
};
const FileSpec kFiles[Presets::KindCount] = {
    {":/presets/gpus.json", "gpus"},
    {":/presets/links.json", "links"},
    {":/presets/models.json", "models"},
    {":/presets/clusters.json", "clusters"},
};
} // namespace

Presets::Presets()
{
    for (int kind = 0; kind < KindCount; ++kind) {
        QFile file(QString::fromLatin1(kFiles[kind].path));
        if (!file.open(QIODevice::ReadOnly)) {
            m_errors << QStringLiteral("%1: cannot open").arg(file.fileName());
            continue;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
        if (doc.isNull()) {
            m_errors << QStringLiteral("%1: %2").arg(file.fileName(), parseError.errorString());
            continue;
        }
        for (const QJsonValue &v : doc.object().value(QLatin1String(kFiles[kind].arrayKey)).toArray())
            m_entries[kind].append(v.toObject());
    }
}

const Presets &Presets::builtin()
{
    static const Presets presets;
    return presets;
}

QJsonObject Presets::find(Kind kind, const QString &name) const
{
    for (const QJsonObject &o : m_entries[kind])
        if (o.value(QLatin1String("name")).toString() == name)
            return o;
    return {};
}

QStringList Presets::names(Kind kind) const
{
    QStringList out;
    for (const QJsonObject &o : m_entries[kind])
        out << o.value(QLatin1String("name")).toString();
    return out;
}

QString Presets::kindLabel(Kind kind)
{
    switch (kind) {
    case Gpus: return QStringLiteral("GPU");
    case Links: return QStringLiteral("link");
    case Models: return QStringLiteral("model");
    case Clusters: return QStringLiteral("cluster");
    case KindCount: break;
    }
    return {};
}

QList<PresetChoice> Presets::choices(Kind kind)
{
    QList<PresetChoice> out;
    for (const QJsonObject &o : builtin().all(kind))
        out << PresetChoice{o.value(QLatin1String("name")).toString(), o.value(QLatin1String("label")).toString(),
                            o.value(QLatin1String("source")).toString(), o.value(QLatin1String("accuracy")).toString()};
    return out;
}

QList<std::pair<QString, QString>> Presets::examples()
{
    return {{QObject::tr("Llama 3 70B on 1024 H100"), QStringLiteral(":/scenarios/default.json")},
            {QObject::tr("Seed: gradient sync, 7B on 8 GPUs"), QStringLiteral(":/scenarios/seed-gradient-sync.json")},
            {QObject::tr("Seed: 4-stage pipeline"), QStringLiteral(":/scenarios/seed-pipeline.json")},
            {QObject::tr("Overlap: Llama 3 8B on 64 H100 over 400 Gb/s RoCE"), QStringLiteral(":/scenarios/overlap.json")},
            {QObject::tr("1T parameters on 16,384 H100"), QStringLiteral(":/scenarios/trillion.json")}};
}

} // namespace ts
