#include "ui/timeline/FlowNavigation.h"

namespace wl::ui {

model::SliceRef FlowNavigation::launchPartner(const model::Trace& trace, model::SliceRef ref) {
    if (!ref.valid())
        return {};
    if (const model::Flow* in = trace.flowTo(ref); in && in->from.valid())
        return in->from;
    if (const model::Flow* out = trace.flowFrom(ref); out && out->to.valid())
        return out->to;
    return {};
}

model::SliceRef FlowNavigation::waitedFor(const model::Trace& trace, model::SliceRef ref) {
    if (!ref.valid())
        return {};
    model::SliceRef best;
    for (const model::Dependency& d : trace.dependenciesTo(ref)) {
        if (!best.valid() || trace.slice(d.from).endNs() > trace.slice(best).endNs())
            best = d.from;
    }
    return best;
}

model::SliceRef FlowNavigation::awaitedBy(const model::Trace& trace, model::SliceRef ref) {
    if (!ref.valid())
        return {};
    model::SliceRef best;
    for (const model::Dependency& d : trace.dependenciesFrom(ref)) {
        if (!best.valid() || trace.slice(d.to).startNs < trace.slice(best).startNs)
            best = d.to;
    }
    return best;
}

}  // namespace wl::ui
