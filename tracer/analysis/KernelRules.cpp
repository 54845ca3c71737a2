#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/Analysis.h"
#include "analysis/Format.h"
#include "analysis/Rules.h"

namespace wl::analysis {

namespace {

struct Flags {
    bool lowOccupancy = false;
    bool lowFill = false;
    bool lowLanes = false;
    bool any() const { return lowOccupancy || lowFill || lowLanes; }
};

Flags judge(const WarpUse& w, const AnalysisOptions& o) {
    Flags f;
    if (!w.occupancy.valid) {
        return f;
    }
    f.lowOccupancy = w.occupancy.theoreticalPct < o.lowOccupancyPct;
    f.lowFill = w.smCount > 0 && w.gpuFillPct < o.lowFillPct;
    f.lowLanes = w.laneUsePct < o.lowLaneUsePct;
    return f;
}

std::string describe(const WarpUse& w) {
    std::string s =
        std::to_string(w.blocks) + (w.blocks == 1 ? " block" : " blocks") + " of " +
        std::to_string(w.threadsPerBlock) + (w.threadsPerBlock == 1 ? " thread" : " threads") +
        " = " + std::to_string(w.warpsPerBlock * w.blocks) +
        (w.warpsPerBlock * w.blocks == 1 ? " warp" : " warps") + " using " +
        std::to_string(w.lanesUsedPerBlock) + " of " + std::to_string(w.lanesPerBlock) +
        " lanes per block, on " + std::to_string(w.smsUsed) + " SM" + (w.smsUsed == 1 ? "" : "s") +
        " of " + std::to_string(w.smCount) + "; theoretical occupancy " +
        formatPercent(w.occupancy.theoreticalPct) + " (limited by " +
        toString(w.occupancy.limiter) + "), GPU fill " + formatPercent(w.gpuFillPct);
    return s;
}

}  // namespace

void checkLowOccupancy(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    struct Group {
        Diagnostic d;
        WarpUse example;
        Flags flags;
    };
    std::map<std::pair<std::int32_t, model::StringId>, Group> groups;
    // Launch configurations repeat: judge each (device, detail) once.
    std::unordered_map<std::uint64_t, std::pair<WarpUse, Flags>> cache;
    for (const GpuOp& op : ctx.ops.all()) {
        if (op.kind != GpuOpKind::Kernel) {
            continue;
        }
        const model::Slice& s = ctx.trace.slice(op.ref);
        const model::KernelDetail* k = ctx.trace.kernel(s);
        if (k == nullptr) {
            continue;
        }
        const std::uint64_t key = (std::uint64_t(std::uint32_t(op.deviceId)) << 32) | s.detailIndex;
        auto it = cache.find(key);
        if (it == cache.end()) {
            const WarpUse w = computeWarpUse(ctx.result.limitsFor(op.deviceId), *k);
            it = cache.emplace(key, std::make_pair(w, judge(w, ctx.options))).first;
        }
        const auto& [use, flags] = it->second;
        if (!flags.any()) {
            continue;
        }
        Group& g = groups[{op.deviceId, s.nameId}];
        if (g.d.count == 0) {
            g.example = use;
            g.flags = flags;
            g.d.rule = RuleId::LowOccupancyKernel;
            g.d.deviceId = op.deviceId;
        }
        ++g.d.count;
        g.d.costNs += op.endNs - op.startNs;
        rules::addEvidence(g.d, op.ref, ctx.options.maxEvidence);
        rules::cover(g.d, ctx.trace, op.ref);
    }
    const double kernelTotal = static_cast<double>(ctx.result.statistics.kernelTotalNs);
    for (auto& [key, g] : groups) {
        if (kernelTotal > 0 && 100.0 * g.d.costNs / kernelTotal < ctx.options.minKernelSharePct) {
            continue;
        }
        const std::string name(ctx.trace.str(key.second));
        g.d.message = name + " (" + std::to_string(g.d.count) + " launch" +
                      (g.d.count == 1 ? "" : "es") + ", " + formatDuration(g.d.costNs) +
                      "): " + describe(g.example);
        std::string fix;
        if (g.flags.lowFill) {
            fix += "Launch enough blocks to cover every SM (at least SMs x resident blocks per SM)";
        }
        if (g.flags.lowLanes) {
            fix += std::string(fix.empty() ? "Use" : "; use") +
                   " block sizes that are multiples of 32 so no lanes of a warp idle";
        }
        if (g.flags.lowOccupancy) {
            fix += std::string(fix.empty() ? "Raise" : "; raise") + " occupancy by easing the " +
                   toString(g.example.occupancy.limiter) +
                   " limit (fewer registers via __launch_bounds__, less shared memory per block, "
                   "or another block size)";
        }
        if (g.example.blocks == 1 && g.example.threadsPerBlock == 1) {
            fix += "; a single-thread loop (like a serial sum) should become a parallel reduction";
        }
        g.d.fix = fix;
        out.push_back(std::move(g.d));
    }
}

}  // namespace wl::analysis
