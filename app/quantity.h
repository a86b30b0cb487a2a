// SPDX-License-Identifier: MIT
// Physical quantities at the edge: "400 Gb/s", "80 GiB", "5 us", "989 TFLOP/s" -> SI base units.
#pragma once

#include <QString>

class QJsonValue;

namespace ts {

enum class Dimension { Bytes, Seconds, BytesPerSecond, FlopsPerSecond, Count, Ratio, Watts };

/// Parses a bare number (SI base unit) or a string "<number> <unit>" of the given dimension.
/// On failure returns false and sets `error` to a message that says what is allowed.
bool parseQuantity(const QJsonValue &value, Dimension dimension, double *out, QString *error);
bool parseQuantity(const QString &text, Dimension dimension, double *out, QString *error);

/// Examples of accepted units, for messages: "a size such as '25 MB' or '80 GiB'".
QString dimensionHint(Dimension dimension);

} // namespace ts
