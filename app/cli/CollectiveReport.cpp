#include "app/cli/CollectiveReport.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "analysis/Format.h"

namespace wl::app {

namespace {

// The costliest collectives listed: the text shows the first few, the JSON a longer list (every
// collective is in "per_collective" anyway).
constexpr std::size_t kCostliestShown = 5;
constexpr std::size_t kCostliestInJson = 20;

std::int32_t rankNumber(const analysis::RankStats& stats, std::size_t index) {
    return stats.ranks[index].rank;
}

void collectiveJson(io::JsonWriter& out, const analysis::RankStats& stats,
                    const analysis::MatchedCollective& c) {
    out.beginObject();
    out.field("communicator", static_cast<std::uint64_t>(c.communicator));
    out.field("sequence", c.sequence);
    out.field("name", c.name);
    out.field("last_rank", rankNumber(stats, c.lastArrival().rank));
    out.field("lateness_ns", static_cast<std::int64_t>(c.latenessNs));
    out.field("spread_ns", static_cast<std::int64_t>(c.spreadNs()));
    out.field("others_wait_ns", static_cast<std::int64_t>(c.totalWaitNs));
    out.field("end_spread_ns", static_cast<std::int64_t>(c.endSpreadNs));
    out.key("ranks").beginArray();
    for (const analysis::CollectiveArrival& a : c.arrivals)
        out.value(rankNumber(stats, a.rank));
    out.endArray();
    out.key("arrivals_ns").beginArray();
    for (const analysis::CollectiveArrival& a : c.arrivals)
        out.value(static_cast<std::int64_t>(a.arrivalNs));
    out.endArray();
    out.key("waits_ns").beginArray();
    for (const analysis::CollectiveArrival& a : c.arrivals)
        out.value(static_cast<std::int64_t>(a.waitNs));
    out.endArray();
    out.endObject();
}

}  // namespace

void appendCollectiveJson(io::JsonWriter& out, const analysis::RankStats& stats) {
    const analysis::CollectiveStats& s = stats.collectives;
    out.key("collectives").beginObject();
    out.field("matched", static_cast<std::uint64_t>(s.collectives.size()));
    out.field("total_wait_ns", static_cast<std::int64_t>(s.totalWaitNs));
    out.key("point_to_point").beginArray();  // per rank: send/receive kernels, not matched
    for (const std::uint64_t n : s.pointToPoint)
        out.value(n);
    out.endArray();
    out.key("most_often_last_rank");
    if (const auto most = s.mostOftenLast())
        out.value(rankNumber(stats, *most));
    else
        out.null();
    out.key("communicators").beginArray();
    for (const analysis::Communicator& c : s.communicators) {
        out.beginObject();
        out.field("name", c.name);
        out.field("matched_by", analysis::toString(c.key));
        out.key("members").beginArray();
        for (std::size_t r = 0; r < c.members.size(); ++r) {
            if (c.members[r])
                out.value(rankNumber(stats, r));
        }
        out.endArray();
        out.key("counts").beginArray();  // per rank of the job, members or not
        for (const std::uint64_t n : c.counts)
            out.value(n);
        out.endArray();
        out.endObject();
    }
    out.endArray();
    out.key("per_rank").beginArray();
    for (std::size_t r = 0; r < stats.ranks.size() && r < s.lastCount.size(); ++r) {
        out.beginObject();
        out.field("rank", rankNumber(stats, r));
        out.field("last_count", s.lastCount[r]);
        out.field("lateness_ns", static_cast<std::int64_t>(s.latenessNs[r]));
        out.field("wait_ns", static_cast<std::int64_t>(s.waitNs[r]));
        out.endObject();
    }
    out.endArray();
    out.key("costliest").beginArray();
    for (const std::size_t i : s.costliest(kCostliestInJson))
        collectiveJson(out, stats, s.collectives[i]);
    out.endArray();
    out.key("mismatches").beginArray();
    for (const analysis::CollectiveMismatch& m : s.mismatches) {
        out.beginObject();
        out.field("kind", analysis::toString(m.kind));
        out.field("communicator", static_cast<std::uint64_t>(m.communicator));
        out.key("rank");
        if (m.kind == analysis::CollectiveMismatch::Kind::FewerOnRank)
            out.value(rankNumber(stats, m.rank));
        else
            out.null();
        out.field("sequence", m.sequence);
        out.field("count", m.count);
        out.field("text", s.describe(m));
        out.endObject();
    }
    out.endArray();
    out.key("per_collective").beginArray();
    for (const analysis::MatchedCollective& c : s.collectives)
        collectiveJson(out, stats, c);
    out.endArray();
    out.endObject();
}

void printCollectiveText(std::ostream& out, const analysis::RankStats& stats) {
    using analysis::formatDuration;
    const analysis::CollectiveStats& s = stats.collectives;
    std::uint64_t pointToPoint = 0;
    for (const std::uint64_t n : s.pointToPoint)
        pointToPoint += n;
    const std::string leftOut =
        pointToPoint == 0 ? std::string()
                          : "; " + std::to_string(pointToPoint) +
                                " point-to-point (send/receive) kernels left out: each pairs two "
                                "ranks, not all";
    if (s.communicators.empty()) {
        out << "Collectives: no NCCL collective on two or more ranks" << leftOut << "\n";
        return;
    }
    out << "Collectives (each matched across the ranks; a rank arrives when its NCCL kernel "
           "starts"
        << leftOut << "):\n";
    for (std::size_t i = 0; i < s.communicators.size(); ++i) {
        const analysis::Communicator& c = s.communicators[i];
        const auto matched = std::count_if(
            s.collectives.begin(), s.collectives.end(),
            [&](const analysis::MatchedCollective& m) { return m.communicator == i; });
        out << "  " << c.name << ": " << matched << " in the window, matched by "
            << (c.key == analysis::CollectiveKey::ProcessGroup
                    ? "the profiler's process group args"
                    : "the order of each rank's NCCL kernels (no collective args)")
            << "\n";
    }
    for (const analysis::CollectiveMismatch& m : s.mismatches)
        out << "  mismatch: " << s.describe(m) << "\n";
    if (s.collectives.empty())
        return;
    if (const auto most = s.mostOftenLast()) {
        out << "  last most often: rank " << rankNumber(stats, *most) << " (" << s.lastCount[*most]
            << " of " << s.collectives.size() << ", late by " << formatDuration(s.latenessNs[*most])
            << " in all); the ranks waited " << formatDuration(s.totalWaitNs) << " in all\n";
    }
    char line[256];
    std::snprintf(line, sizeof line, "  %-5s %6s %12s %12s\n", "rank", "last", "lateness",
                  "waited");
    out << line;
    for (std::size_t r = 0; r < stats.ranks.size() && r < s.lastCount.size(); ++r) {
        std::snprintf(line, sizeof line, "  %-5d %6llu %12s %12s\n", rankNumber(stats, r),
                      static_cast<unsigned long long>(s.lastCount[r]),
                      formatDuration(s.latenessNs[r]).c_str(), formatDuration(s.waitNs[r]).c_str());
        out << line;
    }
    const std::vector<std::size_t> costliest = s.costliest(kCostliestShown);
    if (costliest.empty())
        return;
    out << "  costliest (the others' wait; lateness: the last arrival minus the second-last):\n";
    std::snprintf(line, sizeof line, "    %-16s %6s %5s %12s %14s\n", "collective", "#", "last",
                  "lateness", "others waited");
    out << line;
    for (const std::size_t i : costliest) {
        const analysis::MatchedCollective& c = s.collectives[i];
        std::snprintf(line, sizeof line, "    %-16s %6llu %5d %12s %14s", c.name.c_str(),
                      static_cast<unsigned long long>(c.sequence),
                      rankNumber(stats, c.lastArrival().rank), formatDuration(c.latenessNs).c_str(),
                      formatDuration(c.totalWaitNs).c_str());
        out << line;
        if (s.communicators.size() > 1)
            out << "  (" << s.communicators[c.communicator].name << ")";
        out << "\n";
    }
    if (s.collectives.size() > costliest.size())
        out << "  (every collective in --json: ranks.collectives.per_collective)\n";
}

}  // namespace wl::app
