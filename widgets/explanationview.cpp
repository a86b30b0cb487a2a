// SPDX-License-Identifier: MIT
#include "explanationview.h"

namespace ts {

ExplanationView::ExplanationView(QWidget *parent)
    : QTextBrowser(parent)
{
    setOpenExternalLinks(false);
    setPlaceholderText(tr("Click any figure, bar or card to see its formula, the values substituted, and its source."));
}

QString ExplanationView::toHtml(const ExplanationText &t)
{
    auto esc = [](const QString &s) { return s.toHtmlEscaped(); };
    return QStringLiteral("<h3>%1</h3>"
                          "<p><b>%2</b> <span style='font-family:monospace'>%3</span></p>"
                          "<p><b>%4</b> <span style='font-family:monospace'>%5</span></p>"
                          "<p><b>%6</b> %7</p>"
                          "<p><i>%8 %9</i></p>")
        .arg(esc(t.title), tr("Formula:"), esc(t.formula), tr("With values:"), esc(t.substituted), tr("Result:"),
             esc(t.result), tr("Source:"), esc(t.source));
}

void ExplanationView::setExplanation(const ExplanationText &text)
{
    setHtml(toHtml(text));
}

} // namespace ts
