// SPDX-License-Identifier: MIT
#include "quantity.h"

#include "units.h"

#include <QJsonValue>
#include <QRegularExpression>

#include <cmath>

namespace ts {

namespace {

struct Unit
{
    const char *symbol;
    Dimension dimension;
    double factor;   // to SI base unit
};

using namespace units;
constexpr double kBitsToBytes = 1.0 / kBitsPerByte;

// Case-sensitive on purpose: "Gb/s" (bits) and "GB/s" (bytes) differ by 8x.
const Unit kUnits[] = {
    {"B", Dimension::Bytes, 1},
    {"kB", Dimension::Bytes, kBytesPerKB},
    {"KB", Dimension::Bytes, kBytesPerKB},
    {"MB", Dimension::Bytes, kBytesPerMB},
    {"GB", Dimension::Bytes, kBytesPerGB},
    {"TB", Dimension::Bytes, kBytesPerTB},
    {"PB", Dimension::Bytes, 1e15},
    {"KiB", Dimension::Bytes, kBytesPerKiB},
    {"MiB", Dimension::Bytes, kBytesPerMiB},
    {"GiB", Dimension::Bytes, kBytesPerGiB},
    {"TiB", Dimension::Bytes, kBytesPerTiB},
    {"s", Dimension::Seconds, 1},
    {"ms", Dimension::Seconds, 1e-3},
    {"us", Dimension::Seconds, 1e-6},
    {"\u00b5s", Dimension::Seconds, 1e-6},
    {"ns", Dimension::Seconds, 1e-9},
    {"min", Dimension::Seconds, 60},
    {"h", Dimension::Seconds, kSecondsPerHour},
    {"d", Dimension::Seconds, kSecondsPerDay},
    {"B/s", Dimension::BytesPerSecond, 1},
    {"kB/s", Dimension::BytesPerSecond, kBytesPerKB},
    {"MB/s", Dimension::BytesPerSecond, kBytesPerMB},
    {"GB/s", Dimension::BytesPerSecond, kBytesPerGB},
    {"TB/s", Dimension::BytesPerSecond, kBytesPerTB},
    {"KiB/s", Dimension::BytesPerSecond, kBytesPerKiB},
    {"MiB/s", Dimension::BytesPerSecond, kBytesPerMiB},
    {"GiB/s", Dimension::BytesPerSecond, kBytesPerGiB},
    {"b/s", Dimension::BytesPerSecond, kBitsToBytes},
    {"kb/s", Dimension::BytesPerSecond, 1e3 * kBitsToBytes},
    {"Mb/s", Dimension::BytesPerSecond, 1e6 * kBitsToBytes},
    {"Gb/s", Dimension::BytesPerSecond, 1e9 * kBitsToBytes},
    {"Tb/s", Dimension::BytesPerSecond, 1e12 * kBitsToBytes},
    {"Gbps", Dimension::BytesPerSecond, 1e9 * kBitsToBytes},
    {"Mbps", Dimension::BytesPerSecond, 1e6 * kBitsToBytes},
    {"Tbps", Dimension::BytesPerSecond, 1e12 * kBitsToBytes},
    {"FLOP/s", Dimension::FlopsPerSecond, 1},
    {"GFLOP/s", Dimension::FlopsPerSecond, 1e9},
    {"TFLOP/s", Dimension::FlopsPerSecond, 1e12},
    {"PFLOP/s", Dimension::FlopsPerSecond, 1e15},
    {"k", Dimension::Count, 1e3},
    {"K", Dimension::Count, 1e3},
    {"M", Dimension::Count, 1e6},
    {"B", Dimension::Count, 1e9},
    {"G", Dimension::Count, 1e9},
    {"T", Dimension::Count, 1e12},
    {"%", Dimension::Ratio, 0.01},
    {"W", Dimension::Watts, 1},
    {"kW", Dimension::Watts, 1e3},
    {"MW", Dimension::Watts, 1e6},
};

const char *dimensionName(Dimension d)
{
    switch (d) {
    case Dimension::Bytes: return "a size";
    case Dimension::Seconds: return "a time";
    case Dimension::BytesPerSecond: return "a bandwidth";
    case Dimension::FlopsPerSecond: return "a compute rate";
    case Dimension::Count: return "a count";
    case Dimension::Ratio: return "a number";
    case Dimension::Watts: return "a power";
    }
    return "a value";
}

} // namespace

QString dimensionHint(Dimension d)
{
    switch (d) {
    case Dimension::Bytes: return QStringLiteral("a size in bytes or a string such as \"25 MB\" or \"80 GiB\"");
    case Dimension::Seconds: return QStringLiteral("a time in seconds or a string such as \"5 us\" or \"3.5 ms\"");
    case Dimension::BytesPerSecond:
        return QStringLiteral("a bandwidth in bytes/s or a string such as \"400 Gb/s\" or \"50 GB/s\"");
    case Dimension::FlopsPerSecond: return QStringLiteral("FLOP/s or a string such as \"989 TFLOP/s\"");
    case Dimension::Count: return QStringLiteral("a number or a string such as \"7B\" or \"300e9\"");
    case Dimension::Ratio: return QStringLiteral("a number");
    case Dimension::Watts: return QStringLiteral("a power in watts or a string such as \"700 W\" or \"10.2 kW\"");
    }
    return {};
}

bool parseQuantity(const QString &text, Dimension dimension, double *out, QString *error)
{
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)\\s*([^\\s\\d].*?)?\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch()) {
        *error = QStringLiteral("\"%1\" is not %2; expected %3").arg(text, QLatin1String(dimensionName(dimension)),
                                                                      dimensionHint(dimension));
        return false;
    }
    bool ok = false;
    const double number = match.captured(1).toDouble(&ok);
    const QString unit = match.captured(2);
    if (!ok || !std::isfinite(number)) {
        *error = QStringLiteral("\"%1\" is not a finite number").arg(text);
        return false;
    }
    if (unit.isEmpty()) {
        *out = number;
        return true;
    }
    bool knownElsewhere = false;
    for (const Unit &u : kUnits) {
        if (unit != QString::fromUtf8(u.symbol))
            continue;
        if (u.dimension == dimension) {
            *out = number * u.factor;
            return true;
        }
        knownElsewhere = true;
    }
    *error = knownElsewhere
                 ? QStringLiteral("unit \"%1\" in \"%2\" is not %3; expected %4")
                       .arg(unit, text, QLatin1String(dimensionName(dimension)), dimensionHint(dimension))
                 : QStringLiteral("unknown unit \"%1\" in \"%2\"; expected %3").arg(unit, text, dimensionHint(dimension));
    return false;
}

bool parseQuantity(const QJsonValue &value, Dimension dimension, double *out, QString *error)
{
    if (value.isDouble()) {
        *out = value.toDouble();
        if (!std::isfinite(*out)) {
            *error = QStringLiteral("must be a finite number");
            return false;
        }
        return true;
    }
    if (value.isString())
        return parseQuantity(value.toString(), dimension, out, error);
    *error = QStringLiteral("must be %1").arg(dimensionHint(dimension));
    return false;
}

} // namespace ts
