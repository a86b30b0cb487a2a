// SPDX-License-Identifier: MIT
// The All-reduce tab: algorithm, group size and buffer pickers over an animated ring view.
#pragma once

#include "animationpanel.h"
#include "teaching.h"

#include <functional>

class QComboBox;
class QSpinBox;

namespace ts {

class RingView;

class RingPanel : public AnimationPanel
{
    Q_OBJECT
public:
    using Source = std::function<RingDemo(const RingRequest &)>;
    explicit RingPanel(QWidget *parent = nullptr);
    /// Where the schedules come from (the document).
    void setSource(Source source);
    RingView *view() const { return m_view; }
    /// Chooses the algorithm (ring, hierarchical, tree, in_network, nvls) and the group size.
    void setAlgorithm(const QString &name);
    void setRanks(int ranks);
    RingRequest request() const;

protected:
    void rebuild() override;

private:
    Source m_source;
    RingView *m_view;
    QComboBox *m_algorithm;
    QSpinBox *m_ranks;
    QComboBox *m_size;
    QLabel *m_note;
};

} // namespace ts
