#include "ui/timeline/OverviewStrip.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <set>

#include "ui/style/Palette.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {

OverviewDensity overviewDensity(const model::Trace& trace, int buckets) {
    OverviewDensity d;
    d.endNs = std::max<model::TimeNs>(trace.spanNs(), 1);
    buckets = std::max(buckets, 1);
    std::set<std::int32_t> devices;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind == model::TrackKind::GpuStream && !track.slices.empty())
            devices.insert(track.deviceId);
    }
    d.gpu = !devices.empty();
    // Time inside each bucket: partial first and last buckets added directly, the whole buckets
    // between through a difference array, so a long slice costs two updates, not one per bucket.
    const double bucketNs = double(d.endNs - d.startNs) / buckets;
    std::vector<double> partial(std::size_t(buckets), 0.0);
    std::vector<double> whole(std::size_t(buckets) + 1, 0.0);
    const auto add = [&](model::TimeNs s, model::TimeNs e) {
        s = std::clamp(s, d.startNs, d.endNs);
        e = std::clamp(e, d.startNs, d.endNs);
        if (e <= s)
            return;
        const auto bucketOf = [&](model::TimeNs t) {
            return std::min(buckets - 1, int(double(t - d.startNs) / bucketNs));
        };
        const int b0 = bucketOf(s);
        const int b1 = bucketOf(e);
        if (b0 == b1) {
            partial[std::size_t(b0)] += double(e - s);
            return;
        }
        partial[std::size_t(b0)] += (b0 + 1) * bucketNs - double(s - d.startNs);
        partial[std::size_t(b1)] += double(e - d.startNs) - b1 * bucketNs;
        whole[std::size_t(b0) + 1] += bucketNs;
        whole[std::size_t(b1)] -= bucketNs;
    };
    for (const model::Track& track : trace.tracks()) {
        if (d.gpu ? track.kind != model::TrackKind::GpuStream
                  : (model::isDerived(track.kind) || track.laneCount() == 0))
            continue;
        const auto lane = track.laneCount() > 0 ? track.lane(0) : std::span<const model::Slice>{};
        for (const model::Slice& s : lane)
            add(s.startNs, s.endNs());
    }
    d.values.resize(std::size_t(buckets));
    double running = 0.0;
    double densest = 0.0;
    std::vector<double> busyNs(std::size_t(buckets), 0.0);
    for (std::size_t b = 0; b < busyNs.size(); ++b) {
        running += whole[b];
        busyNs[b] = running + partial[b];
        densest = std::max(densest, busyNs[b]);
    }
    const double full = d.gpu ? bucketNs * double(devices.size()) : densest;
    for (std::size_t b = 0; b < busyNs.size(); ++b)
        d.values[b] = full > 0.0 ? float(std::min(1.0, busyNs[b] / full)) : 0.0f;
    return d;
}

OverviewStrip::OverviewStrip(TimelineView* view, QWidget* parent) : QWidget(parent), m_view(view) {
    setObjectName(QStringLiteral("overviewStrip"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
    setToolTip(
        tr("The whole trace: darker where the GPUs were busier. Click or drag to move the "
           "timeline there."));
    connect(view, &TimelineView::visibleRangeChanged, this, [this] { update(); });
}

QSize OverviewStrip::sizeHint() const {
    return {400, kHeightPx};
}

QSize OverviewStrip::minimumSizeHint() const {
    return {100, kHeightPx};
}

QRect OverviewStrip::stripArea() const {
    const int left = m_view ? m_view->headerWidthPx() : 0;
    return QRect(left, 1, std::max(1, width() - left), height() - 2);
}

void OverviewStrip::refreshDensity() {
    const model::TracePtr trace = m_view ? m_view->trace() : nullptr;
    if (trace == m_trace)
        return;
    m_trace = trace;
    m_density = trace ? overviewDensity(*trace, kBuckets) : OverviewDensity{};
}

model::TimeNs OverviewStrip::timeAtX(int x) const {
    const QRect area = stripArea();
    const double share = std::clamp(double(x - area.left()) / area.width(), 0.0, 1.0);
    return m_density.startNs + model::TimeNs(share * double(m_density.endNs - m_density.startNs));
}

QRect OverviewStrip::visibleSpanRect() const {
    if (!m_view || m_density.endNs <= m_density.startNs)
        return {};
    const QRect area = stripArea();
    const double span = double(m_density.endNs - m_density.startNs);
    const auto xOf = [&](model::TimeNs t) {
        return area.left() +
               int(std::clamp(double(t - m_density.startNs) / span, 0.0, 1.0) * area.width());
    };
    const int x0 = xOf(m_view->visibleStartNs());
    const int x1 = std::max(xOf(m_view->visibleEndNs()), x0 + 2);  // a deep zoom stays visible
    return QRect(x0, area.top(), x1 - x0, area.height());
}

void OverviewStrip::paintEvent(QPaintEvent*) {
    refreshDensity();
    QPainter p(this);
    p.fillRect(rect(), QColor::fromRgb(Palette::kRulerBackground));
    const QRect area = stripArea();
    p.setPen(QColor::fromRgb(Palette::kRulerText));
    p.drawText(QRect(8, 0, area.left() - 16, height()), Qt::AlignVCenter | Qt::AlignLeft,
               m_density.gpu ? tr("Overview: GPU busy") : tr("Overview: events"));
    if (m_density.values.empty())
        return;
    // One column per pixel: the busiest bucket under it, so a short burst is not averaged away.
    const QColor busy = QColor::fromRgb(Palette::kKernel[0]);
    const int n = int(m_density.values.size());
    for (int x = 0; x < area.width(); ++x) {
        const int b0 = int(std::int64_t(x) * n / area.width());
        const int b1 = std::max(b0 + 1, int(std::int64_t(x + 1) * n / area.width()));
        float v = 0.0f;
        for (int b = b0; b < b1 && b < n; ++b)
            v = std::max(v, m_density.values[std::size_t(b)]);
        if (v <= 0.0f)
            continue;
        const int h = std::max(1, int(v * float(area.height())));
        p.fillRect(QRect(area.left() + x, area.bottom() - h + 1, 1, h), busy);
    }
    const QRect span = visibleSpanRect();
    if (span.isValid()) {
        const QColor dim(255, 255, 255, 150);
        p.fillRect(QRect(area.left(), area.top(), span.left() - area.left(), area.height()), dim);
        p.fillRect(QRect(span.right() + 1, area.top(), area.right() - span.right(), area.height()),
                   dim);
        p.setPen(QColor::fromRgb(Palette::kRulerText));
        p.drawRect(span.adjusted(0, 0, -1, -1));
    }
}

void OverviewStrip::centreOn(int x) {
    if (!m_view || !m_view->trace())
        return;
    const model::TimeNs widthNs = m_view->visibleEndNs() - m_view->visibleStartNs();
    const model::TimeNs spanNs = m_view->trace()->spanNs();
    // The whole trace in view: there is nowhere to go (centring would show time before the
    // trace's start or after its end).
    if (widthNs >= spanNs)
        return;
    const model::TimeNs start =
        std::clamp<model::TimeNs>(timeAtX(x) - widthNs / 2, 0, spanNs - widthNs);
    m_view->setVisibleRange(start, start + widthNs);
}

void OverviewStrip::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        centreOn(event->position().toPoint().x());
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton)
        centreOn(event->position().toPoint().x());
}

}  // namespace wl::ui
