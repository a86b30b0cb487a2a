// SPDX-License-Identifier: MIT
// A word-wrapped QLabel whose size hints do not lay its text out. A QLabel lays its text out anew
// (shaping it, through a QTextDocument for rich text) for its size hint, its minimum size hint
// and each heightForWidth call, and a layout asks for all three after every setText: a warning
// whose percentage moved cost five times a usual slider step (trainscope-bench, 46.6 million
// instructions against 8.6). Here the width hints come from the font alone (a paragraph of
// kHintChars average characters, a word of kMinimumChars) and the heights for a text are
// remembered per width, so a new text is laid out once for the width it is shown at.
#pragma once

#include <QLabel>

namespace ts {

class WrapLabel : public QLabel
{
public:
    explicit WrapLabel(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

    static constexpr int kHintChars = 40;      // the width a layout with room gives the text
    static constexpr int kMinimumChars = 12;   // narrower than this a layout may not squeeze it

protected:
    void changeEvent(QEvent *event) override;

private:
    static constexpr int kWidths = 4;   // a layout pass asks about two or three widths
    mutable QString m_text;             // the text the heights are for
    // The first m_count entries hold heights for m_text; m_next is replaced next (the oldest).
    mutable int m_widths[kWidths] = {};
    mutable int m_heights[kWidths] = {};
    mutable int m_count = 0, m_next = 0;
};

} // namespace ts
