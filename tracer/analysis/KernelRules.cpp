#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analysis/Analysis.h"
#include "analysis/Format.h"
#include "analysis/KernelNames.h"
#include "analysis/Rules.h"

namespace wl::analysis {

namespace {

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

// What is low, in words, for the head of a finding: the occupancy figure when that is the
// problem, the fill when the grid is too small, never one for the other.
std::string problems(const WarpFlags& f) {
    std::string s;
    const auto add = [&s](const char* what) { s += (s.empty() ? "" : ", ") + std::string(what); };
    if (f.lowOccupancy) {
        add("low theoretical occupancy");
    }
    if (f.lowFill) {
        add("low GPU fill");
    }
    if (f.lowLanes) {
        add("idle warp lanes");
    }
    return s;
}

// The fix for a library kernel that takes most of the GPU time: its launch configuration is the
// library's, so what can change is how it is called.
std::string libraryFix(std::string_view library) {
    std::string fix = "This is " + std::string(library) +
                      "'s kernel: its launch configuration is the library's choice. Change the "
                      "calls instead: batch many small calls into one larger or batched call";
    if (library == "cuBLAS") {
        fix +=
            ", use a matrix-matrix product instead of many matrix-vector products where the "
            "algorithm allows";
    }
    return fix + ", or give the library larger problems";
}

}  // namespace

static void checkLowOccupancy(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    struct Group {
        Diagnostic d;
        WarpUse example;
        WarpFlags flags;
    };
    std::map<std::pair<std::int32_t, model::StringId>, Group> groups;
    // Launch configurations repeat: judge each (device, detail) once.
    std::unordered_map<std::uint64_t, std::pair<WarpUse, WarpFlags>> cache;
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
            it = cache.emplace(key, std::make_pair(w, judgeWarpUse(w, ctx.options))).first;
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
    // Library kernels that do not dominate: one informational finding for all of them.
    Diagnostic library;
    library.rule = RuleId::LibraryKernels;
    library.severity = Severity::Info;
    WarpFlags libraryFlags;
    // Per label ("PyTorch vectorized_elementwise_kernel"): its time and the full names behind it
    // (template instantiations share a short name; a kernel may run on several devices).
    struct Listed {
        std::string label;
        model::TimeNs costNs = 0;
        std::set<model::StringId> names;
    };
    std::vector<Listed> listed;
    std::map<std::string, std::size_t> listedAt;
    std::set<model::StringId> libraryNames;
    // A finding names its kernel as the statistics do: two instantiations with one short name
    // told apart. The library finding groups them under the one short name ("2 variants").
    std::unordered_map<model::StringId, const std::string*> shown;
    for (const KernelStats& k : ctx.result.statistics.kernels) {
        shown.emplace(k.nameId, &k.shortName);
    }
    // A library kernel dominates by its short name: the template instantiations of one
    // PyTorch kernel are one kernel to the user, and are either all in the library finding or
    // each in a warning of its own, never the same name in both.
    const auto labelOf = [&ctx](model::StringId nameId) {
        const std::string_view fullName = ctx.trace.str(nameId);
        return std::string(kernelLibrary(fullName)) + " " + shortKernelName(fullName);
    };
    std::map<std::string, model::TimeNs> labelNs;
    for (const auto& [key, g] : groups) {
        if (!kernelLibrary(ctx.trace.str(key.second)).empty()) {
            labelNs[labelOf(key.second)] += g.d.costNs;
        }
    }
    for (auto& [key, g] : groups) {
        const double sharePct = kernelTotal > 0 ? 100.0 * g.d.costNs / kernelTotal : 0.0;
        if (kernelTotal > 0 && sharePct < ctx.options.minKernelSharePct) {
            continue;
        }
        const std::string_view fullName = ctx.trace.str(key.second);
        const std::string name = shortKernelName(fullName);
        const std::string_view lib = kernelLibrary(fullName);
        const double labelSharePct =
            lib.empty() || kernelTotal <= 0
                ? sharePct
                : 100.0 * static_cast<double>(labelNs[labelOf(key.second)]) / kernelTotal;
        if (!lib.empty() && labelSharePct <= ctx.options.libraryKernelDominantPct) {
            const std::string label = labelOf(key.second);
            const auto [at, fresh] = listedAt.try_emplace(label, listed.size());
            if (fresh) {
                listed.push_back(Listed{label, 0, {}});
            }
            listed[at->second].costNs += g.d.costNs;
            listed[at->second].names.insert(key.second);
            libraryNames.insert(key.second);
            libraryFlags.lowOccupancy |= g.flags.lowOccupancy;
            libraryFlags.lowFill |= g.flags.lowFill;
            libraryFlags.lowLanes |= g.flags.lowLanes;
            library.count += g.d.count;
            library.costNs += g.d.costNs;
            library.deviceId =
                library.evidence.empty() || library.deviceId == g.d.deviceId ? g.d.deviceId : -1;
            for (const model::SliceRef& ref : g.d.evidence) {
                rules::addEvidence(library, ref, ctx.options.maxEvidence);
                rules::cover(library, ctx.trace, ref);
            }
            continue;
        }
        const auto distinct = shown.find(key.second);
        g.d.message = (lib.empty() ? "" : std::string(lib) + " kernel ") +
                      (distinct != shown.end() ? *distinct->second : name) + " (" +
                      std::to_string(g.d.count) + " launch" + (g.d.count == 1 ? "" : "es") + ", " +
                      formatDuration(g.d.costNs) +
                      (lib.empty() ? "" : ", " + formatPercent(sharePct) + " of kernel time") +
                      "): " + problems(g.flags) + ": " + describe(g.example);
        std::string fix;
        if (!lib.empty()) {
            fix = libraryFix(lib);
        } else {
            if (g.flags.lowFill) {
                fix +=
                    "Launch enough blocks to cover every SM (at least SMs x resident blocks per "
                    "SM)";
            }
            if (g.flags.lowLanes) {
                fix += std::string(fix.empty() ? "Use" : "; use") +
                       " block sizes that are multiples of 32 so no lanes of a warp idle";
            }
            if (g.flags.lowOccupancy) {
                fix += std::string(fix.empty() ? "Raise" : "; raise") +
                       " occupancy by easing the " + toString(g.example.occupancy.limiter) +
                       " limit (fewer registers via __launch_bounds__, less shared memory per "
                       "block, or another block size)";
            }
            if (g.example.blocks == 1 && g.example.threadsPerBlock == 1) {
                fix +=
                    "; a single-thread loop (like a serial sum) should become a parallel "
                    "reduction";
            }
        }
        g.d.fix = fix;
        out.push_back(std::move(g.d));
    }
    if (listed.empty()) {
        return;
    }
    std::stable_sort(listed.begin(), listed.end(),
                     [](const Listed& a, const Listed& b) { return a.costNs > b.costNs; });
    constexpr std::size_t kListed = 3;
    std::string list;
    for (std::size_t i = 0; i < listed.size() && i < kListed; ++i) {
        list += (i == 0 ? "" : ", ") + listed[i].label;
        if (listed[i].names.size() > 1) {
            list += " (" + std::to_string(listed[i].names.size()) + " variants)";
        }
    }
    if (listed.size() > kListed) {
        list += ", " + std::to_string(listed.size() - kListed) + " more";
    }
    const std::size_t n = libraryNames.size();
    library.message = std::to_string(n) + " library kernel" + (n == 1 ? "" : "s") + " (" + list +
                      ") ran with " + problems(libraryFlags) + " (" +
                      std::to_string(library.count) + " launch" + (library.count == 1 ? "" : "es") +
                      ", " + formatDuration(library.costNs) +
                      "); they are not code you can change here";
    library.fix =
        "Nothing to change inside these kernels: their launch configuration is the library's "
        "choice. If one of them matters, give the library larger or batched work (fewer, "
        "bigger calls fill the GPU better)";
    out.push_back(std::move(library));
}

WarpFlags judgeWarpUse(const WarpUse& w, const AnalysisOptions& o) {
    WarpFlags f;
    if (!w.occupancy.valid) {
        return f;
    }
    f.lowOccupancy = w.occupancy.theoreticalPct < o.lowOccupancyPct;
    f.lowFill = w.smCount > 0 && w.gpuFillPct < o.lowFillPct;
    f.lowLanes = w.laneUsePct < o.lowLaneUsePct;
    return f;
}

std::span<const Rule> kernelRules() {
    static constexpr Rule kRules[] = {
        {RuleId::LowOccupancyKernel, "low-occupancy-kernel", checkLowOccupancy},
        {RuleId::LibraryKernels, "library-kernels", nullptr},  // found by checkLowOccupancy
    };
    return kRules;
}

}  // namespace wl::analysis
