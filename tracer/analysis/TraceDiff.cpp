#include "analysis/TraceDiff.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "analysis/Window.h"

namespace wl::analysis {

namespace {

TraceDiff::Side sideOf(const AnalysisResult& r) {
    TraceDiff::Side s;
    s.windowNs = r.window().durationNs();
    s.window = describeWindow(r.window());
    s.busyPct = r.gpuBusyPct();
    s.busyNs = r.utilization.busyNs;
    s.idleNs = r.utilization.idleNs();
    for (const IdleAttribution& a : r.utilization.attribution) {
        for (std::size_t c = 0; c < kGapCauseCount; ++c)
            s.idleByCause[c] += a.nsByCause[c];
    }
    for (const KernelStats& k : r.statistics.kernels)
        s.kernels += k.count;
    for (const CopyStats& c : r.statistics.copies)
        s.copies += c.count;
    s.copyBytes = r.statistics.copyBytes;
    s.copyGbPerSecond = r.statistics.copyGbPerSecond();
    return s;
}

// NVTX ranges that start inside the window, by name with numbers folded ("Step 7" -> "Step #").
std::map<std::string, TraceDiff::Row> rangesIn(const model::Trace& trace,
                                               const AnalysisWindow& window) {
    std::map<std::string, TraceDiff::Row> out;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::Nvtx && track.kind != model::TrackKind::NvtxAsync)
            continue;
        for (const model::Slice& s : track.slices) {
            if (s.durationNs == 0 || !window.contains(s.startNs))
                continue;
            TraceDiff::Row& row = out[foldDigits(trace.str(s.nameId))];
            ++row.countA;  // filled as side a; the caller moves it to b where needed
            row.totalA += s.durationNs;
        }
    }
    return out;
}

// Joins two sides' rows by name: `a` and `b` hold their figures in the A fields.
std::vector<TraceDiff::Row> join(std::map<std::string, TraceDiff::Row> a,
                                 const std::map<std::string, TraceDiff::Row>& b) {
    for (const auto& [name, row] : b) {
        TraceDiff::Row& r = a[name];
        r.countB = row.countA;
        r.totalB = row.totalA;
        r.bytesB = row.bytesA;
    }
    std::vector<TraceDiff::Row> out;
    out.reserve(a.size());
    for (auto& [name, row] : a) {
        row.name = name;
        out.push_back(std::move(row));
    }
    return out;
}

std::map<std::string, TraceDiff::Row> kernelsOf(const AnalysisResult& r) {
    std::map<std::string, TraceDiff::Row> out;
    for (const KernelStats& k : r.statistics.kernels) {
        TraceDiff::Row& row = out[k.shortName.empty() ? k.name : k.shortName];
        row.countA += k.count;
        row.totalA += k.totalNs;
    }
    return out;
}

std::map<std::string, TraceDiff::Row> copiesOf(const AnalysisResult& r) {
    std::map<std::string, TraceDiff::Row> out;
    for (const CopyStats& c : r.statistics.copies) {
        TraceDiff::Row& row = out[model::toString(c.kind)];
        row.countA += c.count;
        row.totalA += c.totalNs;
        row.bytesA += c.bytes;
    }
    return out;
}

std::set<std::string> rulesOf(const AnalysisResult& r) {
    std::set<std::string> out;
    for (const Diagnostic& d : r.diagnostics)
        out.insert(toString(d.rule));
    return out;
}

}  // namespace

TraceDiff diffTraces(const model::Trace& a, const AnalysisResult& resultA, const model::Trace& b,
                     const AnalysisResult& resultB) {
    TraceDiff d;
    d.a = sideOf(resultA);
    d.b = sideOf(resultB);
    d.kernels = join(kernelsOf(resultA), kernelsOf(resultB));
    std::stable_sort(d.kernels.begin(), d.kernels.end(),
                     [](const TraceDiff::Row& x, const TraceDiff::Row& y) {
                         return std::llabs(x.deltaNs()) > std::llabs(y.deltaNs());
                     });
    d.copies = join(copiesOf(resultA), copiesOf(resultB));
    d.ranges = join(rangesIn(a, resultA.window()), rangesIn(b, resultB.window()));
    const std::set<std::string> rulesA = rulesOf(resultA);
    const std::set<std::string> rulesB = rulesOf(resultB);
    for (const std::string& rule : rulesA)
        (rulesB.count(rule) ? d.findingsKept : d.findingsGone).push_back(rule);
    for (const std::string& rule : rulesB) {
        if (!rulesA.count(rule))
            d.findingsNew.push_back(rule);
    }
    return d;
}

}  // namespace wl::analysis
