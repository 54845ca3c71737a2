#include "app/cli/RankReport.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "analysis/Format.h"
#include "app/cli/CollectiveReport.h"

namespace wl::app {

namespace {

double finite(double v) {
    return std::isfinite(v) ? v : 0.0;
}

const io::RankSource* sourceOf(const io::RankJob* job, std::int32_t rank) {
    if (job == nullptr)
        return nullptr;
    for (const io::RankSource& r : job->ranks) {
        if (r.rank == rank)
            return &r;
    }
    return nullptr;
}

std::string rankFact(const model::Trace& trace, std::int32_t rank, const std::string& key) {
    return trace.metadataValue("rank " + std::to_string(rank) + "." + key);
}

std::string ratio(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// One character per bucket, darker for busier: the overview as a text heat map.
char shade(double fraction) {
    static constexpr char kShades[] = " .:-=+*#%@";
    const auto level = static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 9.0));
    return kShades[level];
}

}  // namespace

void appendRankJson(io::JsonWriter& out, const model::Trace& trace,
                    const analysis::RankStats& stats, const io::RankJob* job) {
    out.key("ranks").beginObject();
    out.field("count", static_cast<std::uint64_t>(stats.ranks.size()));
    out.field("alignment", trace.metadataValue("rank alignment mode"));
    out.field("alignment_text", analysis::rankAlignment(trace));
    out.key("warnings").beginArray();
    if (job != nullptr) {
        for (const std::string& w : job->warnings)
            out.value(w);
    }
    out.endArray();

    out.key("ranks").beginArray();
    for (std::size_t i = 0; i < stats.ranks.size(); ++i) {
        const analysis::JobRank& r = stats.ranks[i];
        const analysis::RankUtilization& u = stats.utilization[i];
        const io::RankSource* source = sourceOf(job, r.rank);
        out.beginObject();
        out.field("rank", r.rank);
        out.field("label", r.label);
        out.field("host", r.host);
        out.field("file", rankFact(trace, r.rank, "file"));
        out.key("rank_from_trace");  // known only as the traces are merged
        if (source != nullptr)
            out.value(source->rankFromTrace);
        else
            out.null();
        out.key("clock_offset_ns");  // null in a trace that lost it (or was edited)
        const std::string offset = rankFact(trace, r.rank, "clock offset ns");
        std::int64_t offsetNs = 0;
        const auto [end, ec] =
            std::from_chars(offset.data(), offset.data() + offset.size(), offsetNs);
        if (offset.empty() || ec != std::errc{} || end != offset.data() + offset.size())
            out.null();
        else
            out.value(offsetNs);
        out.key("devices").beginArray();
        for (std::int32_t d : r.deviceIds)
            out.value(d);
        out.endArray();
        out.field("ops", u.opCount);
        out.field("span_ns", static_cast<std::int64_t>(u.windowNs));
        out.field("busy_ns", static_cast<std::int64_t>(u.busyNs));
        out.field("busy_pct", finite(u.busyPct()));
        out.field("idle_ns", static_cast<std::int64_t>(u.idleNs()));
        out.field("kernels", u.kernelCount);
        out.field("kernel_ns", static_cast<std::int64_t>(u.kernelNs));
        out.field("comms_kernels", u.commsCount);
        out.field("comms_ns", static_cast<std::int64_t>(u.commsNs));
        out.endObject();
    }
    out.endArray();

    out.key("stragglers").beginArray();
    for (const analysis::RangeStragglers& s : stats.stragglers) {
        out.beginObject();
        out.field("name", s.name);
        out.field("iterations", static_cast<std::uint64_t>(s.iterations.size()));
        out.key("instances").beginArray();
        for (std::uint64_t n : s.instances)
            out.value(n);
        out.endArray();
        out.key("slowest_count").beginArray();
        for (std::uint64_t n : s.slowestCount)
            out.value(n);
        out.endArray();
        out.field("most_often_slowest_rank", stats.ranks[s.mostOftenSlowest].rank);
        out.field("total_ns", static_cast<std::int64_t>(s.totalNs));
        out.field("mean_spread_ns", static_cast<std::int64_t>(s.meanSpreadNs));
        out.field("max_spread_ns", static_cast<std::int64_t>(s.maxSpreadNs));
        out.field("mean_max_over_median", finite(s.meanMaxOverMedian));
        out.key("per_iteration").beginArray();
        for (const analysis::RangeIteration& it : s.iterations) {
            out.beginObject();
            out.field("instance", it.instance);
            out.field("slowest_rank", stats.ranks[it.slowest].rank);
            out.field("max_ns", static_cast<std::int64_t>(it.maxNs));
            out.field("min_ns", static_cast<std::int64_t>(it.minNs));
            out.field("median_ns", finite(it.medianNs));
            out.field("spread_ns", static_cast<std::int64_t>(it.spreadNs()));
            out.field("max_over_median", finite(it.maxOverMedian()));
            out.key("durations_ns").beginArray();
            for (model::TimeNs d : it.durationsNs)
                out.value(static_cast<std::int64_t>(d));
            out.endArray();
            out.endObject();
        }
        out.endArray();
        out.endObject();
    }
    out.endArray();

    const analysis::RankOverview& o = stats.overview;
    out.key("overview").beginObject();
    out.field("buckets", static_cast<std::uint64_t>(o.buckets.size()));
    out.field("start_ns",
              static_cast<std::int64_t>(o.buckets.empty() ? 0 : o.buckets.front().startNs));
    out.field("end_ns", static_cast<std::int64_t>(o.buckets.empty() ? 0 : o.buckets.back().endNs));
    out.key("bucket_window_ns").beginArray();
    for (model::TimeNs ns : o.windowNs)
        out.value(static_cast<std::int64_t>(ns));
    out.endArray();
    out.key("busy_fraction").beginArray();
    for (const auto& row : o.busyFraction) {
        out.beginArray();
        for (double f : row)
            out.value(finite(f));
        out.endArray();
    }
    out.endArray();
    out.endObject();
    appendCollectiveJson(out, stats);
    out.endObject();
}

void printRankText(std::ostream& out, const model::Trace& trace, const analysis::RankStats& stats,
                   const io::RankJob* job) {
    using analysis::formatDuration;
    using analysis::formatPercent;
    out << "\nRanks: " << stats.ranks.size() << ", " << analysis::rankAlignment(trace) << "\n";
    if (job != nullptr) {
        for (const std::string& w : job->warnings)
            out << "  warning: " << w << "\n";
    }
    char line[512];
    std::snprintf(line, sizeof line, "  %-5s %-16s %-6s %7s %11s %20s %20s\n", "rank", "host",
                  "GPUs", "busy", "idle", "kernels (time)", "NCCL (time)");
    out << line;
    for (std::size_t i = 0; i < stats.ranks.size(); ++i) {
        const analysis::JobRank& r = stats.ranks[i];
        const analysis::RankUtilization& u = stats.utilization[i];
        std::string gpus;
        for (std::int32_t d : r.deviceIds)
            gpus += (gpus.empty() ? "" : ",") + std::to_string(d);
        const std::string kernels =
            std::to_string(u.kernelCount) + " (" + formatDuration(u.kernelNs) + ")";
        const std::string comms =
            std::to_string(u.commsCount) + " (" + formatDuration(u.commsNs) + ")";
        std::snprintf(line, sizeof line, "  %-5d %-16s %-6s %7s %11s %20s %20s\n", r.rank,
                      r.host.empty() ? "-" : r.host.c_str(), gpus.empty() ? "-" : gpus.c_str(),
                      formatPercent(u.busyPct()).c_str(), formatDuration(u.idleNs()).c_str(),
                      kernels.c_str(), comms.c_str());
        out << line;
    }

    const analysis::RankOverview& o = stats.overview;
    if (!o.buckets.empty() && !o.busyFraction.empty()) {
        out << "GPU busy over time (" << o.buckets.size() << " buckets of "
            << formatDuration(o.buckets.front().durationNs())
            << "; ' ' idle to '@' busy, '|' outside the window):\n";
        for (std::size_t i = 0; i < stats.ranks.size(); ++i) {
            std::string strip;
            for (std::size_t b = 0; b < o.buckets.size(); ++b)
                strip += o.windowNs[b] > 0 ? shade(o.busyFraction[i][b]) : '|';
            std::snprintf(line, sizeof line, "  %-5d [", stats.ranks[i].rank);
            out << line << strip << "]\n";
        }
    }

    printCollectiveText(out, stats);

    if (stats.stragglers.empty()) {
        out << "Stragglers: no NVTX or annotation range repeats on every rank in the window\n";
        return;
    }
    out << "Stragglers (ranges every rank repeats; instance k of each rank compared):\n";
    constexpr std::size_t kShown = 5;  // the longest; --json has them all
    for (std::size_t n = 0; n < std::min(kShown, stats.stragglers.size()); ++n) {
        const analysis::RangeStragglers& s = stats.stragglers[n];
        const std::size_t slow = s.mostOftenSlowest;
        out << "  '" << s.name << "': " << s.iterations.size()
            << " iterations; slowest most often: rank " << stats.ranks[slow].rank << " ("
            << s.slowestCount[slow] << " of " << s.iterations.size()
            << "); spread (max - min) mean " << formatDuration(s.meanSpreadNs) << ", max "
            << formatDuration(s.maxSpreadNs) << "; max/median mean " << ratio(s.meanMaxOverMedian)
            << "\n";
    }
    if (stats.stragglers.size() > kShown)
        out << "  (" << stats.stragglers.size() - kShown << " more ranges in --json)\n";
}

}  // namespace wl::app
