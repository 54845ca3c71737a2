#pragma once

// Where the timeline goes when it is asked to show something: the time range that fits the whole
// trace, its dense part, a slice or several; the zoom that reveals a slice too thin to see; the
// folds to open and the scroll that bring a slice's lane or a process group's title into view;
// and the slice a relation of the selected one leads to. Only arithmetic on the viewport and the
// rows, apart from the widget, so that a test can check that a thin slice is zoomed to and a
// folded group opened without one; the view applies the scrolls to its scroll bar and signals.
// GUI thread only.

#include <functional>
#include <optional>
#include <vector>

#include "model/Slice.h"
#include "model/Time.h"
#include "model/Trace.h"
#include "ui/timeline/TimeViewport.h"
#include "ui/timeline/TimelineContent.h"
#include "ui/timeline/TimelineRowHeaders.h"

namespace wl::ui {

class TimelineNavigator {
public:
    // Revealing a slice: one narrower than kMinRevealPx is zoomed to kRevealWidthPx, so that it
    // can be seen and clicked; a wider one keeps the user's zoom.
    static constexpr double kMinRevealPx = 4.0;
    static constexpr double kRevealWidthPx = 60.0;

    // The relations of a slice that can be followed (FlowNavigation): the other end of its launch
    // arrow, what it waited for through a CUDA event, what waited for it.
    enum class Relation { Launch, WaitedFor, AwaitedBy };

    // Fits and reveals move `viewport`; opening a row changes `content`'s rows, through
    // `rowHeaders` when the user had hidden it (so that the arrangement's change is signalled).
    // `relayout` lays the rows out again after a fold was opened: the view's, which also fits its
    // scroll bar to the new height, so that a scroll to a row further down is not clamped.
    TimelineNavigator(TimelineContent& content, TimeViewport& viewport,
                      TimelineRowHeaders& rowHeaders, std::function<void()> relayout);

    // ---- time ----
    // The whole trace with 1% on each side (a view without a trace: its first millisecond).
    void fitAll();
    // The view a trace opens on: where its events are dense (DenseSpan.h); fitAll without one.
    void fitDense();
    // A slice with a tenth of its duration on each side (key F); fitAll for an invalid ref.
    void fitSlice(model::SliceRef ref);
    // The time the valid ones of `refs` cover together; nullopt when none is valid.
    std::optional<model::TimeRange> spanOf(const std::vector<model::SliceRef>& refs) const;
    // `span` with a twentieth of it on each side (several slices: a search's, a rank's).
    void fitSpan(model::TimeRange span);
    // Makes `ref` visible in a time area `timeAreaWidthPx` wide: zoomed in when it would be
    // narrower than kMinRevealPx, out when it is longer than the view, panned when it is not
    // wholly in view; the zoom is kept when the whole slice can be seen at it.
    void revealTime(model::SliceRef ref, int timeAreaWidthPx);
    // Centres `ref` at the same zoom when none of it is in view ("Launched by" may point far
    // away).
    void panToShow(model::SliceRef ref);

    // ---- rows ----
    // Opens whatever hides `ref`'s lane: its folded process and track, and a hiding of its row
    // or group by the user (what they asked for shows it).
    void openRowsOf(model::SliceRef ref);
    // The scroll that brings `ref`'s lane into a view `viewHeightPx` high now scrolled to
    // `scrollPx`: the lane a third of the way down. Nullopt when it is in view already, or has no
    // lane. Below the top, the band a sticky group title may cover does not count as in view.
    std::optional<int> scrollToShow(model::SliceRef ref, int scrollPx, int viewHeightPx) const;
    // Opens a process group if folded and returns the scroll that puts its title at the top;
    // nullopt for no such process.
    std::optional<int> openProcess(model::ProcessIndex process);

    // Where following `relation` from `from` leads; invalid when it leads nowhere.
    model::SliceRef relationTarget(model::SliceRef from, Relation relation) const;

private:
    TimelineContent& m_content;
    TimeViewport& m_viewport;
    TimelineRowHeaders& m_rowHeaders;
    std::function<void()> m_relayout;
};

}  // namespace wl::ui
