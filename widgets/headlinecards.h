// SPDX-License-Identifier: MIT
// Headline figures as cards (step time, MFU, tokens/s, ...). Clicking a card asks for its
// explanation.
#pragma once

#include <QFrame>
#include <QList>

class QGridLayout;
class QLabel;

namespace ts {

struct CardData
{
    QString id;        // explanation id
    QString title;
    QString value;
    QString detail;
    enum Tone { Normal, Warn, Bad } tone = Normal;
};

class HeadlineCard : public QFrame
{
    Q_OBJECT
public:
    explicit HeadlineCard(QWidget *parent = nullptr);
    void setData(const CardData &data);
    /// The figure is the last valid scenario's: struck through and grey, never read as current.
    void setStale(bool stale);
    QString id() const { return m_id; }
    QString valueText() const;

signals:
    void activated(const QString &id);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void applyTone();
    QString m_id;
    CardData::Tone m_tone = CardData::Normal;
    bool m_stale = false;
    QLabel *m_title;
    QLabel *m_value;
    QLabel *m_detail;
};

class HeadlineCards : public QWidget
{
    Q_OBJECT
public:
    explicit HeadlineCards(QWidget *parent = nullptr);
    void setCards(const QList<CardData> &cards);
    bool isStale() const { return m_stale; }
    void setStale(bool stale);
    /// Cards per row; the rest wrap.
    static constexpr int kColumns = 4;
    const QList<HeadlineCard *> &cards() const { return m_cards; }

signals:
    void activated(const QString &id);

private:
    QGridLayout *m_grid;
    QList<HeadlineCard *> m_cards;
    bool m_stale = false;
};

} // namespace ts
