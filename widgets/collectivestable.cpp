// SPDX-License-Identifier: MIT
#include "collectivestable.h"

#include "collectivestablemodel.h"

#include <algorithm>

#include "formatting.h"
#include "units.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace ts {

CollectivesView::CollectivesView(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel)
    , m_table(new QTableView)
    , m_model(new CollectivesTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->hide();

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);  // numbers sort by value, not by their display strings
    m_table->setModel(m_proxy);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    // No sort column: the model's order stands until the user clicks a header.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(QMargins());
    layout->addWidget(m_title);
    layout->addWidget(m_table);
}

void CollectivesView::setRows(const QList<CollectiveRow> &rows)
{
    // Slider drags that do not touch the fabric leave the rows as they are: skip the reset.
    const QList<CollectiveRow> &old = m_model->rows();
    const bool same = old.size() == rows.size()
                      && std::equal(old.begin(), old.end(), rows.begin(), [](const CollectiveRow &a, const CollectiveRow &b) {
                             return a.collective == b.collective && a.algorithm == b.algorithm && a.bytes == b.bytes
                                    && a.seconds == b.seconds;
                         });
    if (same)
        return;
    const bool wasEmpty = old.isEmpty();
    m_model->setRows(rows);
    if (wasEmpty)
        m_table->resizeColumnsToContents();   // once: it measures every cell
}

void CollectivesView::setTitle(const QString &title)
{
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
}

QSize CollectivesView::minimumSizeHint() const { return {360, 160}; }
QSize CollectivesView::sizeHint() const { return {560, 240}; }

} // namespace ts
