#include <algorithm>

#include "analysis/Rules.h"

namespace wl::analysis::rules {

model::SliceRef launchedOp(const model::Trace& trace, model::SliceRef apiCall) {
    const model::Flow* f = trace.flowFrom(apiCall);
    if (f == nullptr || !f->to.valid()) {
        return {};
    }
    return trace.track(f->to.track).kind == model::TrackKind::GpuStream ? f->to : model::SliceRef{};
}

model::SliceRef launchingCall(const model::Trace& trace, model::SliceRef gpuOp) {
    const model::Flow* f = trace.flowTo(gpuOp);
    return f != nullptr ? f->from : model::SliceRef{};
}

void addEvidence(Diagnostic& d, model::SliceRef ref, std::size_t cap) {
    if (ref.valid() && d.evidence.size() < cap) {
        d.evidence.push_back(ref);
    }
}

void cover(Diagnostic& d, const model::Trace& trace, model::SliceRef ref) {
    if (!ref.valid()) {
        return;
    }
    const model::Slice& s = trace.slice(ref);
    if (d.endNs <= d.startNs) {
        d.startNs = s.startNs;
        d.endNs = s.endNs();
        return;
    }
    d.startNs = std::min(d.startNs, s.startNs);
    d.endNs = std::max(d.endNs, s.endNs());
}

}  // namespace wl::analysis::rules
