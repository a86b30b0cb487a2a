// SPDX-License-Identifier: MIT
#include "theme.h"

#include <QCoreApplication>

#include <algorithm>

namespace ts::theme {

QColor color(Part part)
{
    // Okabe-Ito colour-blind safe set, extended; stable across light and dark palettes.
    switch (part) {
    case Part::Compute: return QColor(0x00, 0x72, 0xB2);
    case Part::TpComm: return QColor(0xE6, 0x9F, 0x00);
    case Part::CpComm: return QColor(0xCC, 0x79, 0xA7);
    case Part::EpComm: return QColor(0x88, 0x22, 0x55);   // wine: expert all-to-alls
    case Part::PpBubble: return QColor(0x99, 0x99, 0x99);
    case Part::PpP2p: return QColor(0x56, 0xB4, 0xE9);
    case Part::DpComm: return QColor(0xD5, 0x5E, 0x00);
    case Part::Optimizer: return QColor(0x00, 0x9E, 0x73);
    case Part::Offload: return QColor(0xA6, 0x76, 0x1D);   // dark gold: host-memory traffic
    case Part::Straggler: return QColor(0x7F, 0x3C, 0x8D);
    case Part::Weights: return QColor(0x00, 0x72, 0xB2);
    case Part::Gradients: return QColor(0x56, 0xB4, 0xE9);
    case Part::OptimizerStates: return QColor(0x00, 0x9E, 0x73);
    case Part::Activations: return QColor(0xE6, 0x9F, 0x00);
    case Part::Loss: return QColor(0xCC, 0x79, 0xA7);
    case Part::Buffers: return QColor(0x99, 0x99, 0x99);
    case Part::Runtime: return QColor(0x5A, 0x5A, 0x5A);
    case Part::Count: break;
    }
    return Qt::gray;
}

QString label(Part part)
{
    const char *text = "";
    switch (part) {
    case Part::Compute: text = QT_TRANSLATE_NOOP("Theme", "Compute"); break;
    case Part::TpComm: text = QT_TRANSLATE_NOOP("Theme", "TP comm"); break;
    case Part::CpComm: text = QT_TRANSLATE_NOOP("Theme", "CP comm"); break;
    case Part::EpComm: text = QT_TRANSLATE_NOOP("Theme", "EP all-to-all"); break;
    case Part::PpBubble: text = QT_TRANSLATE_NOOP("Theme", "Bubble"); break;
    case Part::PpP2p: text = QT_TRANSLATE_NOOP("Theme", "P2P"); break;
    case Part::DpComm: text = QT_TRANSLATE_NOOP("Theme", "DP sync"); break;
    case Part::Optimizer: text = QT_TRANSLATE_NOOP("Theme", "Optimizer"); break;
    case Part::Offload: text = QT_TRANSLATE_NOOP("Theme", "Offload wait"); break;
    case Part::Straggler: text = QT_TRANSLATE_NOOP("Theme", "Stragglers"); break;
    case Part::Weights: text = QT_TRANSLATE_NOOP("Theme", "Weights"); break;
    case Part::Gradients: text = QT_TRANSLATE_NOOP("Theme", "Gradients"); break;
    case Part::OptimizerStates: text = QT_TRANSLATE_NOOP("Theme", "Optimizer"); break;
    case Part::Activations: text = QT_TRANSLATE_NOOP("Theme", "Activations"); break;
    case Part::Loss: text = QT_TRANSLATE_NOOP("Theme", "Logits/loss"); break;
    case Part::Buffers: text = QT_TRANSLATE_NOOP("Theme", "Buffers"); break;
    case Part::Runtime: text = QT_TRANSLATE_NOOP("Theme", "Runtime"); break;
    case Part::Count: break;
    }
    return QCoreApplication::translate("Theme", text);
}

QString explanationId(Part part)
{
    switch (part) {
    case Part::Compute: return QStringLiteral("compute_s");
    case Part::TpComm: return QStringLiteral("tp_comm_exposed_s");
    case Part::CpComm: return QStringLiteral("cp_comm_exposed_s");
    case Part::EpComm: return QStringLiteral("ep_comm_exposed_s");
    case Part::PpBubble: return QStringLiteral("pp_bubble_s");
    case Part::PpP2p: return QStringLiteral("pp_p2p_exposed_s");
    case Part::DpComm: return QStringLiteral("dp_comm_exposed_s");
    case Part::Optimizer: return QStringLiteral("optimizer_s");
    case Part::Offload: return QStringLiteral("offload_exposed_s");
    case Part::Straggler: return QStringLiteral("straggler_s");
    case Part::Weights: return QStringLiteral("memory.weights_bytes");
    case Part::Gradients: return QStringLiteral("memory.gradients_bytes");
    case Part::OptimizerStates: return QStringLiteral("memory.optimizer_bytes");
    case Part::Activations: return QStringLiteral("memory.activations_bytes");
    case Part::Loss: return QStringLiteral("memory.loss_bytes");
    case Part::Buffers: return QStringLiteral("memory.buffers_bytes");
    case Part::Runtime: return QStringLiteral("memory.runtime_bytes");
    case Part::Count: break;
    }
    return {};
}

QColor idealColor() { return QColor(0x88, 0x88, 0x88); }
QColor warningColor() { return QColor(0xD5, 0x5E, 0x00); }
QColor errorColor() { return QColor(0xC0, 0x39, 0x2B); }
QColor cautionColor() { return QColor(0xD5, 0x8A, 0x00); }
QColor currentPointColor() { return QColor(0xD5, 0x5E, 0x00); }

// Backward is a darker shade of the compute blue (same work, reversed); W takes the Okabe-Ito
// reddish purple, unused elsewhere in pipeline views.
// Teal, not a darker blue: a dark blue vanishes on dark palettes and in greyscale beside forward.
QColor backwardColor() { return QColor(0x1B, 0x9E, 0x77); }
QColor weightGradColor() { return QColor(0xCC, 0x79, 0xA7); }

QColor opColor(char op)
{
    return op == 'B' ? backwardColor() : op == 'W' ? weightGradColor() : color(Part::Compute);
}

QColor mix(const QColor &from, const QColor &to, double fraction)
{
    const double f = std::clamp(fraction, 0.0, 1.0);
    const auto lerp = [f](float a, float b) { return a + float(f) * (b - a); };
    return QColor::fromRgbF(lerp(from.redF(), to.redF()), lerp(from.greenF(), to.greenF()),
                            lerp(from.blueF(), to.blueF()), lerp(from.alphaF(), to.alphaF()));
}

QColor textOn(const QColor &background)
{
    // Relative luminance threshold near the middle of the sRGB range.
    const double y = 0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return y > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace ts::theme
