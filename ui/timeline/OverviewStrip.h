#pragma once

#include <QPointer>
#include <QWidget>
#include <vector>

#include "model/Time.h"
#include "model/Trace.h"

namespace wl::ui {

class TimelineView;

// How busy the GPUs were along the whole trace, in equal buckets: the overview strip's picture.
// A bucket's value is the GPU op time inside it over the bucket's length times the number of GPUs
// (0..1; overlapping streams of one GPU can exceed their GPU's share and are capped at 1). A trace
// without GPU work shows the density of all its top-level slices instead, relative to its
// densest bucket. Plain value.
struct OverviewDensity {
    model::TimeNs startNs = 0;
    model::TimeNs endNs = 0;  // the trace's span
    bool gpu = false;         // GPU work (else every top-level slice)
    std::vector<float> values;
};

// One pass over the top-level slices (lane 0) and a prefix sum: O(slices + buckets).
OverviewDensity overviewDensity(const model::Trace& trace, int buckets);

// The whole trace in one strip above the timeline: the density of GPU work along it, the span
// the timeline shows outlined and the rest dimmed. A click centres the timeline on that time
// (keeping its zoom), a drag moves it along. Follows one TimelineView; GUI thread only. The
// density is computed once per trace, at kBuckets, and scaled to the width when painted.
class OverviewStrip : public QWidget {
    Q_OBJECT
public:
    explicit OverviewStrip(TimelineView* view, QWidget* parent = nullptr);

    static constexpr int kBuckets = 2048;
    static constexpr int kHeightPx = 22;

    // Where the timeline's visible span is drawn, in widget pixels (tests).
    QRect visibleSpanRect() const;
    // The trace time at a widget x (clamped to the trace).
    model::TimeNs timeAtX(int x) const;
    const OverviewDensity& density() const { return m_density; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void refreshDensity();    // when the view's trace changed
    QRect stripArea() const;  // right of the timeline's header column
    void centreOn(int x);

    QPointer<TimelineView> m_view;
    model::TracePtr m_trace;  // the trace m_density describes
    OverviewDensity m_density;
};

}  // namespace wl::ui
