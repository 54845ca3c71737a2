#include "io/chrome/LooseFlowNotes.h"

#include <array>

#include "io/TimeText.h"

namespace wl::io::chrome {

namespace {

using Reason = LooseFlows::Reason;

constexpr std::array<Reason, LooseFlows::kReasons> kReasons = {
    Reason::NoStart, Reason::NoEnd, Reason::Restarted, Reason::NoSlice, Reason::StartNoSlice};

// "4878 with no start": the count of a reason in the summary.
std::string_view counted(Reason reason) {
    switch (reason) {
        case Reason::NoStart:
            return "with no start (\"s\")";
        case Reason::NoEnd:
            return "with no end (\"f\")";
        case Reason::Restarted:
            return "started again before they ended";
        case Reason::NoSlice:
            return "on no slice of their thread";
        case Reason::StartNoSlice:
            break;
    }
    return "whose start is on no slice";
}

// A pid or tid as the file wrote it: a number, or the text a synthetic id stands for.
std::string idText(std::int64_t id, const LooseFlowContext& c) {
    if (auto it = c.idNames.find(id); it != c.idNames.end())
        return "\"" + it->second + "\"";
    return std::to_string(id);
}

// "579.349123 ms": a time on the timeline (from the trace's time zero), exact from integer ns.
std::string timelineTime(TimeNs ns) {
    const bool negative = ns < 0;
    const std::uint64_t a = negative ? 0 - static_cast<std::uint64_t>(ns) : ns;
    std::string frac = std::to_string(a % 1'000'000);
    frac.insert(0, 6 - frac.size(), '0');
    return (negative ? "-" : "") + std::to_string(a / 1'000'000) + "." + frac + " ms";
}

std::string describe(const LooseFlows::Event& e, bool launch, const LooseFlowContext& c) {
    std::string out = launch ? "ignored launch flow " : "ignored flow ";
    if (e.ph != 0) {
        out += '"';
        out += e.ph;
        out += "\" ";
    } else {
        out += "end (a slice's \"bind_id\") ";
    }
    out += "id ";
    if (e.id & kStringFlowIdBit) {
        out +=
            "\"" + std::string(c.names.str(static_cast<StringId>(e.id & ~kStringFlowIdBit))) + "\"";
    } else {
        out += std::to_string(e.id);
    }
    if (e.cat != 0 && !launch)
        out += " (" + std::string(c.names.str(e.cat)) + ")";
    out += " at " + timelineTime(e.ts - c.originNs) + " (ts ";
    appendMicros(out, e.ts);
    out += ")";
    if (e.on != 0)
        out += " on " + std::string(c.names.str(e.on));
    out += " (pid " + idText(e.pid, c) + ", tid " + idText(e.tid, c) + "): ";
    out += looseFlowReason(e.reason);
    if (launch && (e.reason == Reason::NoStart || e.reason == Reason::NoEnd))
        out += "; no GPU op has this correlation id";
    return out;
}

}  // namespace

std::string_view looseFlowReason(LooseFlows::Reason reason) {
    switch (reason) {
        case Reason::NoStart:
            return "no start (\"s\") of this id before it";
        case Reason::NoEnd:
            return "no end (\"f\") or step (\"t\") of this id after it";
        case Reason::Restarted:
            return "this id started again before anything ended it";
        case Reason::NoSlice:
            return "no slice of its thread runs at its time";
        case Reason::StartNoSlice:
            break;
    }
    return "its start (\"s\") is on no slice";
}

void noteLooseFlows(model::Diagnostics& d, const LooseFlows& loose, bool launch,
                    const LooseFlowContext& context) {
    if (loose.count() == 0)
        return;
    std::string summary = std::to_string(loose.count()) +
                          (launch ? " launch flow event(s) were ignored" +
                                        std::string(" (arrows of CUDA calls with no GPU work in "
                                                    "the trace)")
                                  : " flow event(s) were ignored");
    const char* separator = ": ";
    for (const Reason r : kReasons) {
        if (loose.count(r) == 0)
            continue;
        summary += separator + std::to_string(loose.count(r)) + " " + std::string(counted(r));
        separator = ", ";
    }
    const auto listed = loose.examples(kListedLooseFlows);
    summary += listed.size() < loose.count()
                   ? "; the first " + std::to_string(listed.size()) + " follow"
                   : "; all " + std::to_string(listed.size()) + " follow";
    d.note(std::move(summary));
    for (const auto& e : listed)
        d.note(describe(e, launch, context));
}

}  // namespace wl::io::chrome
