#pragma once

#include "model/Slice.h"
#include "model/Trace.h"

namespace wl::ui {

// Where following a relation of a selected slice leads: the other end of its launch arrow (the
// API call that launched a GPU op, or the op a call launched) and the ends of its waits through
// CUDA events. The timeline's keys (L, [ and ]) and the details' links go there. Pure; any thread.
class FlowNavigation {
public:
    // The other end of `ref`'s launch arrow; invalid when it has none.
    static model::SliceRef launchPartner(const model::Trace& trace, model::SliceRef ref);
    // What `ref` waited for: of several, the one that ended last (the wait it was held by).
    static model::SliceRef waitedFor(const model::Trace& trace, model::SliceRef ref);
    // What waited for `ref`: of several, the one that started first.
    static model::SliceRef awaitedBy(const model::Trace& trace, model::SliceRef ref);
};

}  // namespace wl::ui
