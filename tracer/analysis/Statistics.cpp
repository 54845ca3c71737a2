#include "analysis/Statistics.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/KernelNames.h"

namespace wl::analysis {

namespace {
double rate(std::uint64_t bytes, model::TimeNs ns) {
    // bytes per ns is GB/s (1e9 bytes per second).
    return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0;
}
}  // namespace

double CopyStats::gbPerSecond() const {
    return rate(bytes, totalNs);
}
double Statistics::copyGbPerSecond() const {
    return rate(copyBytes, copyTotalNs);
}

Statistics computeStatistics(const model::Trace& trace, const GpuOps& ops) {
    Statistics out;
    std::unordered_map<model::StringId, KernelStats> byName;
    std::map<model::CopyKind, CopyStats> byKind;
    for (const GpuOp& op : ops.all()) {
        const model::Slice& s = trace.slice(op.ref);
        const model::TimeNs d = op.endNs - op.startNs;
        if (op.kind == GpuOpKind::Kernel) {
            KernelStats& k = byName[s.nameId];
            if (k.count == 0) {
                k.minNs = k.maxNs = d;
            }
            k.count += op.continuation ? 0 : 1;  // an op cut by a window's parts counts once
            k.totalNs += d;
            k.minNs = std::min(k.minNs, d);
            k.maxNs = std::max(k.maxNs, d);
            out.kernelTotalNs += d;
        } else if (op.kind == GpuOpKind::Memcpy) {
            CopyStats& c = byKind[op.copyKind];
            c.kind = op.copyKind;
            c.totalNs += d;
            if (op.continuation) {
                continue;  // counted, with its bytes, by its first piece
            }
            ++c.count;
            if (const model::MemcpyDetail* m = trace.memcpy(s)) {
                c.bytes += m->bytes;
                if (m->srcKind == model::MemoryKind::Pageable ||
                    m->dstKind == model::MemoryKind::Pageable) {
                    ++c.pageableCount;
                }
            }
        }
    }
    out.kernels.reserve(byName.size());
    for (auto& [nameId, k] : byName) {
        k.name = std::string(trace.str(nameId));
        k.shortName = shortKernelName(k.name);  // once per distinct name
        k.nameId = nameId;
        k.meanNs = static_cast<double>(k.totalNs) / static_cast<double>(k.count);
        k.pctOfGpuTime = out.kernelTotalNs > 0 ? 100.0 * static_cast<double>(k.totalNs) /
                                                     static_cast<double>(out.kernelTotalNs)
                                               : 0.0;
        out.kernels.push_back(std::move(k));
    }
    std::sort(out.kernels.begin(), out.kernels.end(),
              [](const KernelStats& a, const KernelStats& b) {
                  return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
              });
    for (auto& [kind, c] : byKind) {
        out.copyBytes += c.bytes;
        out.copyTotalNs += c.totalNs;
        out.copies.push_back(c);
    }
    return out;
}

std::vector<model::SliceRef> kernelLaunches(const model::Trace& trace, model::StringId nameId,
                                            const std::vector<model::TimeRange>& parts) {
    std::vector<model::SliceRef> out;
    const auto inParts = [&parts](const model::Slice& s) {
        if (parts.empty()) {
            return true;
        }
        // Parts are sorted and disjoint: the first one ending after the slice starts overlaps it
        // or none does.
        const auto it = std::upper_bound(
            parts.begin(), parts.end(), s.startNs,
            [](model::TimeNs t, const model::TimeRange& r) { return t < r.endNs; });
        return it != parts.end() && it->startNs < std::max(s.endNs(), s.startNs + 1);
    };
    const auto tracks = trace.tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        if (tracks[t].kind != model::TrackKind::GpuStream) {
            continue;
        }
        const auto& slices = tracks[t].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            const model::Slice& s = slices[i];
            if (s.kind == model::SliceKind::Kernel && s.nameId == nameId && inParts(s)) {
                out.push_back({t, i});
            }
        }
    }
    return out;
}

}  // namespace wl::analysis
