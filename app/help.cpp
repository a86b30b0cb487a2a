// SPDX-License-Identifier: MIT
#include "help.h"

#include <QCoreApplication>

namespace ts::help {

namespace {
QString tr(const char *text) { return QCoreApplication::translate("Help", text); }
} // namespace

QString shortcutsHtml()
{
    const std::pair<const char *, const char *> rows[] = {
        {"Ctrl+N / Ctrl+O / Ctrl+S", "New, open, save a scenario (drop a .json file on the window to open it)"},
        {"Ctrl+Z / Ctrl+Shift+Z", "Undo, redo (a slider drag is one step)"},
        {"Ctrl+P", "Show or hide the parameters panel"},
        {"Ctrl+D", "Pin the current scenario for comparison (up to four)"},
        {"Ctrl+E / Ctrl+Shift+E", "Export the views (PNG, SVG, PDF) / the capacity-plan report (PDF)"},
        {"Alt+1 ... Alt+7", "Plan, All-reduce, Pipeline, Step timeline, Plan search, Plan map, Compare"},
        {"F11 / Esc", "Presentation mode on / off"},
        {"Space", "Play or pause the animation of the tab that has focus"},
        {"Left / Right", "Step the animation back / forward"},
        {"L", "Loop the animation on or off"},
        {"Click a card or a chart part", "Show its formula with this scenario's values (Explain tab)"},
        {"Right-click a warning", "Copy its message and recommendation"},
    };
    QString html = QStringLiteral("<table cellspacing=6>");
    for (const auto &[keys, what] : rows)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(tr(keys).toHtmlEscaped(), tr(what).toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

QString tourHtml()
{
    const std::pair<const char *, const char *> tabs[] = {
        {"Plan", "Headline figures of one training step and the whole run; where the step's time goes for this plan and "
                 "four variants; speedup as GPUs are added; memory per GPU against HBM; warnings with fixes you can apply; "
                 "the formula behind every number (click it)."},
        {"All-reduce", "How a gradient buffer is summed across GPUs, step by step: ring, tree, two-level, in-network and "
                       "NVLink SHARP, timed on this scenario's links, with what NCCL would pick."},
        {"Pipeline", "Stages against time for GPipe, 1F1B, interleaved and zero-bubble schedules with this plan's stage "
                     "times: where the bubble comes from and how many micro-batches each stage holds."},
        {"Step timeline", "One GPU's step as streams (compute, TP, pipeline, gradient sync, optimizer), with and without "
                          "overlapping the gradient sync: what overlap hides."},
        {"Plan search", "Every plan that runs (TP, PP, DP, CP and its K/V exchange, micro-batch, schedule, ZeRO, recompute, overlap) ranked by "
                        "time to train, your plan among them."},
        {"Plan map", "Time to train (or MFU, step time, memory) over two plan inputs at once, every cell a plan "
                     "evaluated in full, redrawn while you drag a slider: where the good plans are and how sharp the "
                     "edges are. Click a cell to apply it."},
        {"Compare", "Pinned scenarios beside the current one: step time, figures and the inputs that differ."},
    };
    QString html;
    for (const auto &[tab, what] : tabs)
        html += QStringLiteral("<p><b>%1</b>: %2</p>").arg(tr(tab).toHtmlEscaped(), tr(what).toHtmlEscaped());
    return html;
}

QString aboutHtml()
{
    return tr("<b>Trainscope %1</b><p>Models what distributed deep-learning training costs: step time, communication, "
              "pipeline bubbles, scaling, memory, money, energy and the time lost to failures. Click any figure to see "
              "its formula and source.</p>")
        .arg(QCoreApplication::applicationVersion());
}

} // namespace ts::help
