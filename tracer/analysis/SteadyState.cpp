#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/GpuOps.h"
#include "analysis/Window.h"

namespace wl::analysis {

// The steady state of a program whose trace marks nothing, found from its GPU ops alone.
//
// The rule. An op's identity is its name (a kernel's full name, so two instantiations of one
// template are two; "Memcpy HtoD", "Memset", ...). Repeated work is the ops whose name occurs at
// least kMinRepeats times: a loop runs its body's ops once per iteration, while start-up
// (allocation, fills, uploads) and tear-down run most of theirs once. The steady state first
// spans the first to the last op of repeated work. Start-up can also run ops with the loop's
// names (PyTorch uploads its weights with the "Memcpy HtoD" of every batch, then spends seconds
// loading data before the first step), so the span is then cut at its longest GPU idle gap (over
// every device and stream) when that gap is long (at least kGapFactor times the span's median gap,
// not the noise between two kernels of a busy loop, and at least kMinLeftOutPct of the span) and
// one side of it is one-off work next to the other: fewer ops, and fewer than half of the names
// that repeat on the other side, so no repetition of the other side's work. That side is left out,
// the span shrinks to its repeated work again, and the rule is applied again (at most kMaxCuts
// times). A long gap inside the loop (a file write between batches) has the loop's names on both
// sides and cuts nothing; neither does a gap after set-up work that repeats much of its own (a
// solver run once as a warm-up, then again), where the larger side is never the one left out.
//
// A side left out must be at least kMinLeftOutPct of the GPU work's extent: leaving out a sliver
// (a 10 ns upload before a loop) would change the window's name and nothing of what it measures.
// A merged job whose ranks were aligned by a chosen range or by their starts has no steady state:
// that axis is no clock, so its ranks' loops interleave on it arbitrarily (the rank comparison
// aligns them on its own). Ranks on one clock (`record` of a torchrun job on one host, or ranks
// aligned by their hosts' wall clocks) ran at once, and the steady state of their work is the
// job's.
//
// Cost: one sort of the ops by start, then a few linear passes (name counts, gaps, a median by
// nth_element) per cut; no search over periods, so millions of ops take one sort.
namespace {

constexpr std::uint32_t kMinRepeats = 3;
constexpr model::TimeNs kGapFactor = 10;
constexpr int kMaxCuts = 4;

}  // namespace

bool ranksShareNoClock(const model::Trace& trace) {
    const std::string mode = trace.metadataValue("rank alignment mode");
    if (mode != "range" && mode != "start") {
        return false;
    }
    std::int32_t first = -1;
    for (const model::Process& p : trace.processes()) {
        if (p.rank >= 0 && first >= 0 && p.rank != first) {
            return true;
        }
        if (p.rank >= 0) {
            first = p.rank;
        }
    }
    return false;
}

namespace {

struct Op {
    model::TimeNs startNs;
    model::TimeNs endNs;
    std::uint32_t name;  // dense index of the slice's name
};

// The ops of every GPU stream, sorted by (start, end) as GpuOps gives them, with dense name
// indexes.
std::vector<Op> gatherOps(const model::Trace& trace, std::uint32_t& nameCount) {
    const GpuOps all(trace);
    std::vector<Op> ops;
    ops.reserve(all.all().size());
    std::unordered_map<model::StringId, std::uint32_t> dense;
    for (const GpuOp& op : all.all()) {
        const auto [it, fresh] =
            dense.try_emplace(trace.slice(op.ref).nameId, static_cast<std::uint32_t>(dense.size()));
        ops.push_back({op.startNs, op.endNs, it->second});
    }
    nameCount = static_cast<std::uint32_t>(dense.size());
    return ops;
}

// Whether ops[from, to) is one-off work next to ops[otherFrom, otherTo): fewer ops, and fewer
// than half of the names that repeat on the other side (so no repetition of its work).
bool isOneOff(const std::vector<Op>& ops, std::uint32_t nameCount, std::size_t from, std::size_t to,
              std::size_t otherFrom, std::size_t otherTo) {
    if (to - from >= otherTo - otherFrom) {
        return false;
    }
    std::vector<std::uint32_t> other(nameCount, 0);
    for (std::size_t i = otherFrom; i < otherTo; ++i) {
        ++other[ops[i].name];
    }
    const std::size_t repeatedThere = static_cast<std::size_t>(
        std::count_if(other.begin(), other.end(), [](auto c) { return c >= kMinRepeats; }));
    std::vector<bool> seen(nameCount, false);
    std::size_t shared = 0;
    for (std::size_t i = from; i < to; ++i) {
        const std::uint32_t name = ops[i].name;
        if (other[name] >= kMinRepeats && !seen[name]) {
            seen[name] = true;
            ++shared;
        }
    }
    return 2 * shared < repeatedThere;
}

// One round of the rule over ops[lo, hi] (inclusive, both repeated work). Returns false when
// nothing is cut; otherwise moves lo or hi to the repeated work on the kept side.
bool cutOnce(const std::vector<Op>& ops, std::uint32_t nameCount, std::size_t& lo,
             std::size_t& hi) {
    // Idle gaps of the union of the span's ops: before op i, from the furthest end so far.
    std::vector<model::TimeNs> gaps;
    model::TimeNs longestNs = 0;
    std::size_t longestAt = 0;  // index of the op that ends the longest gap
    model::TimeNs reachNs = ops[lo].endNs;
    for (std::size_t i = lo + 1; i <= hi; ++i) {
        if (ops[i].startNs > reachNs) {
            const model::TimeNs gapNs = ops[i].startNs - reachNs;
            gaps.push_back(gapNs);
            if (gapNs > longestNs) {
                longestNs = gapNs;
                longestAt = i;
            }
        }
        reachNs = std::max(reachNs, ops[i].endNs);
    }
    if (gaps.size() < 2) {
        return false;
    }
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2),
                     gaps.end());
    const double spanNs = static_cast<double>(reachNs - ops[lo].startNs);
    if (longestNs < kGapFactor * gaps[gaps.size() / 2] ||
        100.0 * static_cast<double>(longestNs) < kMinLeftOutPct * spanNs) {
        return false;
    }
    std::vector<std::uint32_t> counts(nameCount, 0);
    for (std::size_t i = lo; i <= hi; ++i) {
        ++counts[ops[i].name];
    }
    const auto repeated = [&](std::size_t i) { return counts[ops[i].name] >= kMinRepeats; };
    if (isOneOff(ops, nameCount, lo, longestAt, longestAt, hi + 1)) {
        lo = longestAt;
        while (lo < hi && !repeated(lo)) {
            ++lo;
        }
        return true;
    }
    if (isOneOff(ops, nameCount, longestAt, hi + 1, lo, longestAt)) {
        hi = longestAt - 1;
        while (hi > lo && !repeated(hi)) {
            --hi;
        }
        return true;
    }
    return false;
}

}  // namespace

std::optional<AnalysisWindow> steadyStateWindow(const model::Trace& trace) {
    if (ranksShareNoClock(trace)) {
        return std::nullopt;
    }
    std::uint32_t nameCount = 0;
    const std::vector<Op> ops = gatherOps(trace, nameCount);
    if (ops.empty()) {
        return std::nullopt;
    }
    std::vector<std::uint32_t> counts(nameCount, 0);
    for (const Op& op : ops) {
        ++counts[op.name];
    }
    const auto repeated = [&](const Op& op) { return counts[op.name] >= kMinRepeats; };
    const auto first = std::find_if(ops.begin(), ops.end(), repeated);
    if (first == ops.end()) {
        return std::nullopt;  // nothing repeats: no loop to measure
    }
    std::size_t lo = static_cast<std::size_t>(first - ops.begin());
    std::size_t hi = ops.size() - 1;
    while (!repeated(ops[hi])) {
        --hi;
    }
    for (int cut = 0; cut < kMaxCuts && lo < hi && cutOnce(ops, nameCount, lo, hi); ++cut) {
    }

    model::TimeNs extentEndNs = 0;
    for (const Op& op : ops) {
        extentEndNs = std::max(extentEndNs, op.endNs);
    }
    model::TimeNs endNs = ops[lo].endNs;
    for (std::size_t i = lo; i <= hi; ++i) {
        endNs = std::max(endNs, ops[i].endNs);
    }
    const model::TimeRange extent{ops.front().startNs, extentEndNs};
    model::TimeRange steady{ops[lo].startNs, endNs};
    const auto sliver = [&extent](model::TimeNs ns) {
        return 100.0 * static_cast<double>(ns) <
               kMinLeftOutPct * static_cast<double>(extent.durationNs());
    };
    if (sliver(steady.startNs - extent.startNs)) {
        steady.startNs = extent.startNs;
    }
    if (sliver(extent.endNs - steady.endNs)) {
        steady.endNs = extent.endNs;
    }
    if (steady == extent || steady.empty()) {
        return std::nullopt;  // the whole trace is the steady state: call it that
    }
    AnalysisWindow w;
    w.source = WindowSource::SteadyState;
    w.parts = {steady};
    if (steady.startNs > extent.startNs) {
        w.leftOut.push_back({LeftOut::Kind::StartUp, {extent.startNs, steady.startNs}, {}});
    }
    if (steady.endNs < extent.endNs) {
        w.leftOut.push_back({LeftOut::Kind::TearDown, {steady.endNs, extent.endNs}, {}});
    }
    return w;
}

}  // namespace wl::analysis
