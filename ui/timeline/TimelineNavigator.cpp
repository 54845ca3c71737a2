#include "ui/timeline/TimelineNavigator.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "ui/timeline/DenseSpan.h"
#include "ui/timeline/FlowNavigation.h"

namespace wl::ui {

namespace {

// A fit shows at least this much, so that a trace of one instant still has a scale.
constexpr model::TimeNs kMinFitSpanNs = 1000;
// What a view without a trace shows: a millisecond, for a ruler that reads sensibly.
constexpr model::TimeNs kEmptyViewNs = 1'000'000;
// A fitted slice keeps at least this much room on each side, so that its edges can be seen.
constexpr model::TimeNs kMinSliceMarginNs = 50;

}  // namespace

TimelineNavigator::TimelineNavigator(TimelineContent& content, TimeViewport& viewport,
                                     TimelineRowHeaders& rowHeaders, std::function<void()> relayout)
    : m_content(content),
      m_viewport(viewport),
      m_rowHeaders(rowHeaders),
      m_relayout(std::move(relayout)) {}

void TimelineNavigator::fitAll() {
    const model::Trace* trace = m_content.trace().get();
    const model::TimeNs span =
        trace ? std::max<model::TimeNs>(trace->spanNs(), kMinFitSpanNs) : kEmptyViewNs;
    m_viewport.fit(0, span, std::max<model::TimeNs>(span / 100, 1));
}

void TimelineNavigator::fitDense() {
    const model::Trace* trace = m_content.trace().get();
    if (!trace) {
        fitAll();
        return;
    }
    const model::TimeRange dense = denseSpan(*trace);
    const model::TimeNs span = std::max<model::TimeNs>(dense.durationNs(), kMinFitSpanNs);
    m_viewport.fit(dense.startNs, dense.startNs + span, std::max<model::TimeNs>(span / 100, 1));
}

void TimelineNavigator::fitSlice(model::SliceRef ref) {
    if (!m_content.isValidRef(ref)) {
        fitAll();
        return;
    }
    const model::Slice& slice = m_content.trace()->slice(ref);
    m_viewport.fit(slice.startNs, slice.endNs(),
                   std::max<model::TimeNs>(slice.durationNs / 10, kMinSliceMarginNs));
}

std::optional<model::TimeRange> TimelineNavigator::spanOf(
    const std::vector<model::SliceRef>& refs) const {
    model::TimeNs lo = std::numeric_limits<model::TimeNs>::max();
    model::TimeNs hi = std::numeric_limits<model::TimeNs>::min();
    bool any = false;
    for (const model::SliceRef& ref : refs) {
        if (!m_content.isValidRef(ref)) {
            continue;  // of another trace, or stale: the others are still shown
        }
        const model::Slice& slice = m_content.trace()->slice(ref);
        lo = std::min(lo, slice.startNs);
        hi = std::max(hi, slice.endNs());
        any = true;
    }
    if (!any) {
        return std::nullopt;
    }
    return model::TimeRange{lo, hi};
}

void TimelineNavigator::fitSpan(model::TimeRange span) {
    const model::TimeNs marginNs =
        std::max<model::TimeNs>(span.durationNs() / 20, kMinSliceMarginNs);
    // A span of nearly the whole trace (a finding about all of it) with its margins would show
    // more than the whole trace: show the whole trace.
    const model::Trace* trace = m_content.trace().get();
    if (trace != nullptr) {
        const model::TimeNs allNs = std::max<model::TimeNs>(trace->spanNs(), kMinFitSpanNs);
        if (span.durationNs() + 2 * marginNs >=
            allNs + 2 * std::max<model::TimeNs>(allNs / 100, 1)) {
            fitAll();
            return;
        }
    }
    m_viewport.fit(span.startNs, span.endNs, marginNs);
}

void TimelineNavigator::revealTime(model::SliceRef ref, int timeAreaWidthPx) {
    if (!m_content.isValidRef(ref)) {
        return;
    }
    const model::Slice& slice = m_content.trace()->slice(ref);
    m_viewport.reveal(slice.startNs, slice.endNs(), timeAreaWidthPx, kMinRevealPx, kRevealWidthPx);
}

void TimelineNavigator::panToShow(model::SliceRef ref) {
    if (!m_content.isValidRef(ref)) {
        return;
    }
    const model::Slice& slice = m_content.trace()->slice(ref);
    m_viewport.panToShow(slice.startNs, slice.endNs());
}

void TimelineNavigator::openRowsOf(model::SliceRef ref) {
    if (!m_content.isValidRef(ref)) {
        return;
    }
    const model::Slice& slice = m_content.trace()->slice(ref);
    if (m_content.rows().unfoldFor(ref.track, slice.depth)) {
        m_relayout();
    }
    if (m_content.layout().rowOfTrack(ref.track) < 0) {
        m_rowHeaders.unhideRowOf(ref.track);  // lays the rows out again through the view
    }
}

std::optional<int> TimelineNavigator::scrollToShow(model::SliceRef ref, int scrollPx,
                                                   int viewHeightPx) const {
    if (!m_content.isValidRef(ref)) {
        return std::nullopt;
    }
    const TimelineLayout& layout = m_content.layout();
    const int row = layout.rowOfTrack(ref.track);
    const std::optional<int> y = layout.laneY(row, m_content.trace()->slice(ref).depth);
    if (!y) {
        return std::nullopt;
    }
    // Scrolled at all, the top band may hold a group's sticky title, which would cover the lane.
    const int visibleTop = scrollPx > 0 ? scrollPx + TimelineLayout::kProcessHeightPx : 0;
    if (*y >= visibleTop && *y + TimelineLayout::kLaneHeightPx <= scrollPx + viewHeightPx) {
        return std::nullopt;
    }
    return std::max(0, *y - viewHeightPx / 3);
}

std::optional<int> TimelineNavigator::openProcess(model::ProcessIndex process) {
    const model::Trace* trace = m_content.trace().get();
    if (!trace || process >= trace->processes().size()) {
        return std::nullopt;
    }
    if (m_content.rows().unfoldProcess(process)) {
        m_relayout();
    }
    for (const TimelineRow& row : m_content.layout().rows()) {
        if (row.kind == RowKind::Process && row.process == process) {
            return row.yPx;
        }
    }
    return std::nullopt;
}

model::SliceRef TimelineNavigator::relationTarget(model::SliceRef from, Relation relation) const {
    if (!m_content.isValidRef(from)) {
        return {};
    }
    const model::Trace& trace = *m_content.trace();
    model::SliceRef target;
    switch (relation) {
        case Relation::Launch:
            target = FlowNavigation::launchPartner(trace, from);
            break;
        case Relation::WaitedFor:
            target = FlowNavigation::waitedFor(trace, from);
            break;
        case Relation::AwaitedBy:
            target = FlowNavigation::awaitedBy(trace, from);
            break;
    }
    return m_content.isValidRef(target) ? target : model::SliceRef{};
}

}  // namespace wl::ui
