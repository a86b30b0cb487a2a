// SPDX-License-Identifier: MIT
// Shows one number's formula, the formula with the current values, the result and its source.
#pragma once

#include <QTextBrowser>

namespace ts {

struct ExplanationText
{
    QString title, formula, substituted, result, source;
};

class ExplanationView : public QTextBrowser
{
    Q_OBJECT
public:
    explicit ExplanationView(QWidget *parent = nullptr);
    void setExplanation(const ExplanationText &text);
    static QString toHtml(const ExplanationText &text);
};

} // namespace ts
