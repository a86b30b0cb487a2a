// SPDX-License-Identifier: MIT
#include "headlinecards.h"

#include "theme.h"
#include "wraplabel.h"

#include <QEvent>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace ts {

namespace {
constexpr double kValueFontScale = 1.7;
} // namespace

HeadlineCard::HeadlineCard(QWidget *parent)
    : QFrame(parent)
    , m_title(new QLabel(this))
    , m_value(new QLabel(this))
    , m_detail(new WrapLabel(this))
{
    setFrameShape(QFrame::StyledPanel);
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::PointingHandCursor);
    setAutoFillBackground(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->setSpacing(2);
    QFont valueFont = m_value->font();
    valueFont.setPointSizeF(valueFont.pointSizeF() * kValueFontScale);
    valueFont.setBold(true);
    m_value->setFont(valueFont);
    m_value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setForegroundRole(QPalette::PlaceholderText);
    m_detail->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_title);
    layout->addWidget(m_value);
    layout->addWidget(m_detail);
    layout->addStretch(1);
}

void HeadlineCard::setData(const CardData &d)
{
    m_id = d.id;
    m_title->setText(d.title);
    m_value->setText(d.value);
    m_detail->setText(d.detail);
    const bool toneChanged = d.tone != m_tone;
    m_tone = d.tone;
    setToolTip(tr("%1: click or press Enter for the formula").arg(d.title));
    setAccessibleName(d.title + QLatin1Char(' ') + d.value);
    if (toneChanged)   // palettes cascade to the children: set them when the tone moves, not every update
        applyTone();
}

QString HeadlineCard::valueText() const { return m_value->text(); }

void HeadlineCard::setStale(bool stale)
{
    m_stale = stale;
    QFont f = m_value->font();
    f.setStrikeOut(stale);
    m_value->setFont(f);
    applyTone();
}

void HeadlineCard::applyTone()
{
    QPalette p = palette();
    const QPalette base = parentWidget() ? parentWidget()->palette() : QPalette();
    QColor text = base.color(QPalette::WindowText);
    if (m_stale)
        text = base.color(QPalette::PlaceholderText);
    else if (m_tone == CardData::Warn)
        text = theme::cautionColor();
    else if (m_tone == CardData::Bad)
        text = theme::errorColor();
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Window, base.color(QPalette::Base));
    m_value->setPalette(p);
    setPalette(QPalette(base.color(QPalette::WindowText), base.color(QPalette::Base)));
}

void HeadlineCard::mousePressEvent(QMouseEvent *event)
{
    QFrame::mousePressEvent(event);
    emit activated(m_id);
}

void HeadlineCard::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) {
        emit activated(m_id);
        return;
    }
    QFrame::keyPressEvent(event);
}

void HeadlineCard::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && parentWidget())
        applyTone();
}

HeadlineCards::HeadlineCards(QWidget *parent)
    : QWidget(parent)
    , m_grid(new QGridLayout(this))
{
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(8);
}

void HeadlineCards::setCards(const QList<CardData> &cards)
{
    while (m_cards.size() < cards.size()) {
        auto *card = new HeadlineCard(this);
        card->setStale(m_stale);
        connect(card, &HeadlineCard::activated, this, &HeadlineCards::activated);
        const int i = int(m_cards.size());
        m_grid->addWidget(card, i / kColumns, i % kColumns);
        m_cards.append(card);
    }
    for (int i = 0; i < m_cards.size(); ++i) {
        m_cards[i]->setVisible(i < cards.size());
        if (i < cards.size())
            m_cards[i]->setData(cards[i]);
    }
}

void HeadlineCards::setStale(bool stale)
{
    if (stale == m_stale)
        return;
    m_stale = stale;
    for (HeadlineCard *card : m_cards)
        card->setStale(stale);
}

} // namespace ts
