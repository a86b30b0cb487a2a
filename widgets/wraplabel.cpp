// SPDX-License-Identifier: MIT
#include "wraplabel.h"

#include <QEvent>

#include <algorithm>

namespace ts {

WrapLabel::WrapLabel(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
}

// Contents margins, frame and indent count as QLabel counts them: heightForWidth takes the whole
// widget's width.
QSize WrapLabel::sizeHint() const
{
    const int width = fontMetrics().averageCharWidth() * kHintChars + contentsMargins().left() + contentsMargins().right();
    // The height at the width it is shown at, which the layout asks about anyway (the text is laid
    // out once); before it is shown, at the hint's width.
    return {width, heightForWidth(this->width() > 0 && isVisible() ? this->width() : width)};
}

QSize WrapLabel::minimumSizeHint() const
{
    const int width = fontMetrics().averageCharWidth() * kMinimumChars + contentsMargins().left() + contentsMargins().right();
    return {width, fontMetrics().lineSpacing() + contentsMargins().top() + contentsMargins().bottom()};
}

int WrapLabel::heightForWidth(int width) const
{
    // setText is not virtual: a new text shows here, compared with the one the heights are for.
    if (text() != m_text) {
        m_text = text();
        m_count = m_next = 0;
    }
    for (int i = 0; i < m_count; ++i)
        if (m_widths[i] == width)
            return m_heights[i];
    const int height = QLabel::heightForWidth(width);
    m_widths[m_next] = width;
    m_heights[m_next] = height;
    m_next = (m_next + 1) % kWidths;
    m_count = std::min(m_count + 1, kWidths);
    return height;
}

void WrapLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::ContentsRectChange)
        m_count = m_next = 0;
}

} // namespace ts
