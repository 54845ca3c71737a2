#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>
#include <string_view>

#include "analysis/Analysis.h"
#include "analysis/Format.h"
#include "analysis/Rules.h"

namespace wl::analysis {

namespace {

// "H2D Memory Stream 3" -> 3: the seeds name their per-stream NVTX ranges this way.
bool streamIndexInName(std::string_view name, std::int64_t& index) {
    static constexpr std::string_view kWord = "Stream ";
    const auto pos = name.rfind(kWord);
    if (pos == std::string_view::npos) {
        return false;
    }
    const std::string_view rest = name.substr(pos + kWord.size());
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), index);
    return ec == std::errc{} && end != rest.data();
}

// How many streams the program meant to use: the run's metadata, else its NVTX names.
std::int64_t requestedStreams(const model::Trace& trace, std::string& why) {
    const std::string streams = trace.metadataValue("streams");
    if (!streams.empty()) {
        std::int64_t n = 0;
        std::from_chars(streams.data(), streams.data() + streams.size(), n);
        const std::string mode = trace.metadataValue("mode");
        if (mode == "baseline") {
            return 0;  // a baseline is one stream on purpose
        }
        why = "the run asked for " + std::to_string(n) + " streams";
        return n;
    }
    std::set<std::int64_t> indices;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::Nvtx && track.kind != model::TrackKind::NvtxAsync) {
            continue;
        }
        std::set<model::StringId> seen;
        for (const model::Slice& s : track.slices) {
            if (!seen.insert(s.nameId).second) {
                continue;
            }
            std::int64_t i = 0;
            if (streamIndexInName(trace.str(s.nameId), i)) {
                indices.insert(i);
            }
        }
    }
    if (indices.size() > 1) {
        why = "NVTX ranges name " + std::to_string(indices.size()) + " streams";
    }
    return static_cast<std::int64_t>(indices.size());
}

}  // namespace

static void checkStreamsSerialized(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    std::string why;
    const std::int64_t requested = requestedStreams(ctx.trace, why);
    if (requested <= 1) {
        return;
    }
    for (const DeviceUtilization& dev : ctx.result.utilization.devices) {
        // GPU time per stream (summed op durations).
        std::map<std::int64_t, model::TimeNs> perStream;
        model::TimeNs total = 0;
        for (const GpuOp& op : ctx.ops.all()) {
            if (op.deviceId == dev.deviceId) {
                perStream[op.streamId] += op.endNs - op.startNs;
                total += op.endNs - op.startNs;
            }
        }
        if (total <= 0) {
            continue;
        }
        const auto top =
            std::max_element(perStream.begin(), perStream.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; });
        const double share = 100.0 * top->second / static_cast<double>(total);
        // Serialised: fewer streams than asked for did the work, and one of them nearly all of it
        // (a default-stream copy or two does not make a second stream of work).
        const auto used = static_cast<std::int64_t>(perStream.size());
        if (used >= requested || (used > 1 && share < ctx.options.serializedStreamSharePct)) {
            continue;
        }
        Diagnostic d;
        d.rule = RuleId::StreamsSerialized;
        d.deviceId = dev.deviceId;
        d.count = perStream.size();
        // Spread over the streams asked for, the work could take 1/requested of the time at best.
        d.costNs = top->second - top->second / requested;
        for (const GpuOp& op : ctx.ops.all()) {
            if (op.deviceId == dev.deviceId && op.streamId == top->first) {
                rules::addEvidence(d, op.ref, ctx.options.maxEvidence);
            }
        }
        d.startNs = dev.firstNs;
        d.endNs = dev.lastNs;
        d.message = std::to_string(requested) + " streams requested (" + why + ") but " +
                    formatPercent(share) + " of GPU " + std::to_string(dev.deviceId) +
                    "'s work ran on stream " + std::to_string(top->first) + " (" +
                    std::to_string(perStream.size()) + " stream" +
                    (perStream.size() == 1 ? "" : "s") +
                    " used): the work was serialised on one stream";
        d.fix =
            "Create one stream per chunk ([cuda.stream() for _ in range(n)], not "
            "[cuda.stream()] * n, which repeats one stream; cudaStreamCreate in a loop) and "
            "check the handles differ";
        out.push_back(std::move(d));
    }
}

std::span<const Rule> streamRules() {
    static constexpr Rule kRules[] = {
        {RuleId::StreamsSerialized, "streams-serialized", checkStreamsSerialized,
         /*deviceWide=*/true},
    };
    return kRules;
}

}  // namespace wl::analysis
