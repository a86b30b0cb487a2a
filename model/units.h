// SPDX-License-Identifier: MIT
// Units used inside model/: SI base units only (bytes, seconds, FLOP, bytes/s, FLOP/s).
// Vendor figures are converted exactly once, at the edge, with these named helpers.
#pragma once

namespace ts::units {

inline constexpr double kBytesPerKB = 1e3;
inline constexpr double kBytesPerMB = 1e6;
inline constexpr double kBytesPerGB = 1e9;
inline constexpr double kBytesPerTB = 1e12;
inline constexpr double kBytesPerKiB = 1024.0;
inline constexpr double kBytesPerMiB = 1024.0 * 1024.0;
inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kBytesPerTiB = kBytesPerGiB * 1024.0;
inline constexpr double kBitsPerByte = 8.0;
inline constexpr double kSecondsPerHour = 3600.0;
inline constexpr double kSecondsPerDay = 86400.0;
inline constexpr double kFlopPerTFlop = 1e12;

/// Link speed quoted in Gb/s per direction (InfiniBand "400G") -> bytes/s per direction.
constexpr double gigabitsPerSecondToBytesPerSecond(double gigabitsPerSecond)
{
    return gigabitsPerSecond * 1e9 / kBitsPerByte;
}
/// bytes/s -> Gb/s, for display of link requirements.
constexpr double bytesPerSecondToGigabitsPerSecond(double bytesPerSecond)
{
    return bytesPerSecond * kBitsPerByte / 1e9;
}
/// NVLink figures are quoted bidirectional in GB/s ("900 GB/s"): per direction is half.
constexpr double bidirectionalGBpsToBytesPerSecondPerDirection(double gigabytesPerSecondBidirectional)
{
    return gigabytesPerSecondBidirectional * kBytesPerGB / 2.0;
}

} // namespace ts::units
