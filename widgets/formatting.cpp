// SPDX-License-Identifier: MIT
#include "formatting.h"

#include "inputs.h"
#include "shape.h"

#include "units.h"

#include <QStringList>

#include <cmath>

namespace ts::fmt {

namespace {
QString number(double v, int significant = 4)
{
    if (!std::isfinite(v))
        return QStringLiteral("—");
    const double a = std::abs(v);
    const int decimals = a >= 1000 ? 0 : a >= 100 ? std::max(0, significant - 3) : a >= 10 ? std::max(0, significant - 2)
                                                                                      : std::max(0, significant - 1);
    return QString::number(v, 'f', decimals);
}
} // namespace

QString seconds(double s)
{
    if (!std::isfinite(s))
        return QStringLiteral("—");
    const double a = std::abs(s);
    if (a == 0)
        return QStringLiteral("0 s");
    if (a < 1e-6)
        return number(s * 1e9) + QStringLiteral(" ns");
    if (a < 1e-3)
        return number(s * 1e6) + QStringLiteral(" µs");
    if (a < 1)
        return number(s * 1e3) + QStringLiteral(" ms");
    if (a < 600)
        return number(s) + QStringLiteral(" s");
    return duration(s);
}

QString duration(double s)
{
    if (!std::isfinite(s))
        return QStringLiteral("—");
    if (s < 600)
        return seconds(s);
    if (s < 2 * units::kSecondsPerHour)
        return number(s / 60, 3) + QStringLiteral(" min");
    if (s < 2 * units::kSecondsPerDay)
        return number(s / units::kSecondsPerHour, 3) + QStringLiteral(" h");
    return number(s / units::kSecondsPerDay, 3) + QStringLiteral(" days");
}

QString bytesDecimal(double b)
{
    const double a = std::abs(b);
    if (a >= units::kBytesPerTB)
        return number(b / units::kBytesPerTB, 3) + QStringLiteral(" TB");
    if (a >= units::kBytesPerGB)
        return number(b / units::kBytesPerGB, 3) + QStringLiteral(" GB");
    if (a >= units::kBytesPerMB)
        return number(b / units::kBytesPerMB, 3) + QStringLiteral(" MB");
    if (a >= units::kBytesPerKB)
        return number(b / units::kBytesPerKB, 3) + QStringLiteral(" kB");
    return number(b, 3) + QStringLiteral(" B");
}

QString energy(double joules)
{
    const double kwh = joules / 3.6e6;
    if (std::abs(kwh) >= 1e6)
        return number(kwh / 1e6, 3) + QStringLiteral(" GWh");
    if (std::abs(kwh) >= 1e3)
        return number(kwh / 1e3, 3) + QStringLiteral(" MWh");
    return number(kwh, 3) + QStringLiteral(" kWh");
}

QString memory(double b)
{
    const double a = std::abs(b);
    if (a >= units::kBytesPerTiB)
        return number(b / units::kBytesPerTiB) + QStringLiteral(" TiB");
    if (a >= units::kBytesPerGiB)
        return number(b / units::kBytesPerGiB) + QStringLiteral(" GiB");
    if (a >= units::kBytesPerMiB)
        return number(b / units::kBytesPerMiB) + QStringLiteral(" MiB");
    return number(b, 3) + QStringLiteral(" B");
}

QString bytes(double b)
{
    const double a = std::abs(b);
    QString binary;
    if (a >= units::kBytesPerTiB)
        binary = number(b / units::kBytesPerTiB) + QStringLiteral(" TiB");
    else if (a >= units::kBytesPerGiB)
        binary = number(b / units::kBytesPerGiB) + QStringLiteral(" GiB");
    else if (a >= units::kBytesPerMiB)
        binary = number(b / units::kBytesPerMiB) + QStringLiteral(" MiB");
    else
        return bytesDecimal(b);
    return bytesDecimal(b) + QStringLiteral(" (") + binary + QLatin1Char(')');
}

QString bandwidth(double bps)
{
    if (!std::isfinite(bps))
        return QStringLiteral("—");
    const double gbit = units::bytesPerSecondToGigabitsPerSecond(bps);
    return number(bps / units::kBytesPerGB) + QStringLiteral(" GB/s (") + number(gbit) + QStringLiteral(" Gb/s)");
}

QString flops(double f)
{
    if (f >= 1e15)
        return number(f / 1e15) + QStringLiteral(" PFLOP/s");
    if (f >= 1e12)
        return number(f / 1e12) + QStringLiteral(" TFLOP/s");
    return number(f / 1e9) + QStringLiteral(" GFLOP/s");
}

QString percent(double fraction, int decimals)
{
    if (!std::isfinite(fraction))
        return QStringLiteral("—");
    return QString::number(100 * fraction, 'f', decimals) + QLatin1Char('%');
}

QString mfu(double fraction, bool applicable)
{
    return applicable ? percent(fraction) : QStringLiteral("n/a");
}

QString count(double v)
{
    const double a = std::abs(v);
    if (a >= 1e12)
        return number(v / 1e12, 3) + QLatin1Char('T');
    if (a >= 1e9)
        return number(v / 1e9, 3) + QLatin1Char('B');
    if (a >= 1e6)
        return number(v / 1e6, 3) + QLatin1Char('M');
    if (a >= 1e4)
        return number(v / 1e3, 3) + QLatin1Char('k');
    return QString::number(v, 'g', 6);
}

QString schedule(const Plan &p)
{
    return p.schedule == Schedule::Interleaved ? QStringLiteral("interleaved v=%1").arg(p.virtualStages)
                                               : QString::fromLatin1(nameOf(p.schedule));
}

QString pipelineSplit(const Plan &p)
{
    if (p.pp <= 1)
        return QStringLiteral("-");
    QStringList parts;
    if (p.firstStageLayers > 0 || p.lastStageLayers > 0) {
        auto count = [](int n) { return n > 0 ? QString::number(n) : QStringLiteral("·"); };
        parts << count(p.firstStageLayers) + QStringLiteral("..") + count(p.lastStageLayers);
    }
    if (p.embeddingInSplit)
        parts << QStringLiteral("emb");
    if (p.lossInSplit)
        parts << QStringLiteral("loss");
    return parts.isEmpty() ? QStringLiteral("even") : parts.join(QLatin1Char('+'));
}

QString overlaps(const Plan &p)
{
    QStringList parts;
    if (p.tpOverlap)
        parts << QStringLiteral("TP");
    if (p.epOverlap && p.ep > 1)
        parts << QStringLiteral("EP");
    if (p.overlapDp)
        parts << QStringLiteral("DP");
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QLatin1Char('+'));
}

QString contextParallel(const Plan &p)
{
    return p.cp > 1 && p.cpComm != CpComm::P2p ? QStringLiteral("%1 %2").arg(p.cp).arg(QLatin1String(nameOf(p.cpComm)))
                                               : QString::number(p.cp);
}

QString workloadShape(const Workload &w)
{
    QString heads = w.headDim > 0 ? QStringLiteral("%1 heads of %2 (%3 KV)").arg(w.heads).arg(w.headDim).arg(w.kvHeads)
                                  : QStringLiteral("%1 heads (%2 KV)").arg(w.heads).arg(w.kvHeads);
    if (isMla(w))
        heads = QStringLiteral("latent attention, %1 heads of %2 + %3 rotary (value %4), KV latent %5%6")
                    .arg(w.heads)
                    .arg(headDimOf(w))
                    .arg(w.ropeHeadDim)
                    .arg(vHeadDimOf(w))
                    .arg(w.kvLoraRank)
                    .arg(w.qLoraRank > 0 ? QStringLiteral(", Q latent %1").arg(w.qLoraRank) : QString());
    return QStringLiteral("%1 layers, hidden %2, %3%4, FFN %5 (%6), vocab %7, sequence %8")
        .arg(w.layers)
        .arg(w.hidden)
        .arg(heads, (w.qkNorm ? QStringLiteral(", QK norm") : QString())
                        + (windowedLayersOf(w) > 0 ? QStringLiteral(", %1-token sliding window on %2 of %3 layers")
                                                         .arg(w.slidingWindow)
                                                         .arg(windowedLayersOf(w))
                                                         .arg(w.layers)
                                                   : QString()))
        .arg(w.ffnHidden)
        .arg(QLatin1String(nameOf(w.mlp)))
        .arg(w.vocab)
        .arg(w.seqLen)
        + (isMoe(w) ? QStringLiteral("; %1 experts of %2, %3 per token%4%5%6")
                          .arg(w.experts)
                          .arg(expertFfnOf(w))
                          .arg(expertsPerTokenOf(w))
                          .arg(w.moeRouterGroups > 0 ? QStringLiteral(" from %1 of %2 groups").arg(w.moeRouterGroupTopk).arg(w.moeRouterGroups)
                                                     : QString())
                          .arg(w.sharedExpertFfn > 0 ? QStringLiteral(", shared %1").arg(w.sharedExpertFfn) : QString())
                          .arg(moeLayersOf(w) < w.layers ? QStringLiteral(", first %1 layers dense").arg(w.layers - moeLayersOf(w)) : QString())
                    : QString())
        + (w.mtpLayers > 0 ? QStringLiteral("; %1 multi-token-prediction layer(s)").arg(w.mtpLayers) : QString());
}

QString sharding(const Plan &p)
{
    return p.shardGroup > 0 && p.zeroStage > 0 ? QStringLiteral("%1 in %2").arg(p.zeroStage).arg(p.shardGroup)
                                               : QString::number(p.zeroStage);
}

} // namespace ts::fmt
