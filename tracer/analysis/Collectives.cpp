#include "analysis/Collectives.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "analysis/KeptArgs.h"
#include "analysis/KernelNames.h"

namespace wl::analysis {

namespace {

// The PyTorch profiler's args on a NCCL kernel.
constexpr std::string_view kGroupNameArg = "Process Group Name";
constexpr std::string_view kGroupDescArg = "Process Group Description";
constexpr std::string_view kGroupRanksArg = "Process Group Ranks";
constexpr std::string_view kCollectiveNameArg = "Collective name";

// One NCCL kernel of one rank.
struct RankKernel {
    model::SliceRef ref;
    model::TimeNs startNs = 0;
    model::TimeNs endNs = 0;
    std::string name;  // the collective's
};

// A communicator's kernels as gathered, before matching.
struct Gathered {
    CollectiveKey key = CollectiveKey::StreamOrder;
    std::string name;
    std::vector<std::int32_t> listedRanks;         // a process group's "Process Group Ranks"
    std::vector<std::vector<RankKernel>> perRank;  // by rank index
    std::set<std::int64_t> streamIds;              // StreamOrder: the ranks' stream ids
};

// "[0, 1, 5]" -> {0, 1, 5}; what does not parse is left out.
std::vector<std::int32_t> parseRankList(std::string_view text) {
    std::vector<std::int32_t> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '-' || (text[i] >= '0' && text[i] <= '9')) {
            std::int32_t v = 0;
            const auto [end, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
            if (ec == std::errc{})
                out.push_back(v);
            i = static_cast<std::size_t>(end - text.data());
            if (ec != std::errc{})
                ++i;
        } else {
            ++i;
        }
    }
    return out;
}

bool byStart(const RankKernel& a, const RankKernel& b) {
    return a.startNs != b.startNs ? a.startNs < b.startNs : a.ref < b.ref;
}

// Every NCCL kernel of the job's ranks but the point-to-point ones (counted per rank), on its
// communicator: process groups by their args, the rest by the order of each rank's NCCL streams.
std::vector<Gathered> gatherKernels(const model::Trace& trace, std::span<const std::int32_t> ranks,
                                    std::vector<std::uint64_t>& pointToPoint) {
    std::unordered_map<std::int32_t, std::size_t> rankIndex;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        rankIndex.emplace(ranks[i], i);
    CollectiveKernels collectives(trace);
    std::unordered_map<model::StringId, std::string> kernelCollective;  // by kernel name
    std::map<std::string, Gathered> groups;  // by process group name and ranks
    // Per rank, the kernels without process group args by (device, stream).
    using StreamKey = std::pair<std::int32_t, std::int64_t>;
    std::vector<std::map<StreamKey, std::vector<RankKernel>>> streams(ranks.size());

    const auto tracks = trace.tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (track.kind != model::TrackKind::GpuStream)
            continue;
        const auto rank = rankIndex.find(trace.processes()[track.process].rank);
        if (rank == rankIndex.end())
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const model::Slice& s = track.slices[i];
            if (s.kind != model::SliceKind::Kernel || !collectives.contains(s.nameId))
                continue;
            RankKernel k{{t, i}, s.startNs, s.endNs(), {}};
            const std::string args = trace.extraArgs(s);
            auto known = kernelCollective.find(s.nameId);
            if (known == kernelCollective.end())
                known = kernelCollective.emplace(s.nameId, collectiveOfKernel(trace.str(s.nameId)))
                            .first;
            std::optional<std::string> name;
            if (!args.empty())
                name = keptArg(args, kCollectiveNameArg);
            if (isPointToPoint(known->second) || (name && isPointToPoint(*name))) {
                ++pointToPoint[rank->second];
                continue;
            }
            k.name = name ? std::move(*name) : known->second;
            const std::optional<std::string> group =
                args.empty() ? std::nullopt : keptArg(args, kGroupNameArg);
            if (!group) {
                streams[rank->second][{track.deviceId, track.streamId}].push_back(std::move(k));
                continue;
            }
            // Two groups of one name over different ranks are two communicators.
            const std::string listed = keptArg(args, kGroupRanksArg).value_or("");
            Gathered& g = groups[*group + '\x1f' + listed];
            if (g.perRank.empty()) {
                g.key = CollectiveKey::ProcessGroup;
                g.name = "process group " + *group;
                if (const auto desc = keptArg(args, kGroupDescArg); desc && !desc->empty())
                    g.name += " (" + *desc + ")";
                g.listedRanks = parseRankList(listed);
                g.perRank.resize(ranks.size());
            }
            g.perRank[rank->second].push_back(std::move(k));
        }
    }

    std::vector<Gathered> out;
    for (auto& [key, g] : groups)
        out.push_back(std::move(g));
    // The i-th NCCL stream of each rank by first use is one communicator: ranks create and first
    // use their communicators in the same program order, whatever ids their streams get.
    std::vector<Gathered> byOrder;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        std::vector<std::pair<StreamKey, std::vector<RankKernel>>> rankStreams;
        for (auto& [key, kernels] : streams[r]) {
            std::sort(kernels.begin(), kernels.end(), byStart);
            rankStreams.emplace_back(key, std::move(kernels));
        }
        std::sort(rankStreams.begin(), rankStreams.end(), [](const auto& a, const auto& b) {
            return byStart(a.second.front(), b.second.front());
        });
        for (std::size_t j = 0; j < rankStreams.size(); ++j) {
            if (byOrder.size() <= j) {
                byOrder.emplace_back();
                byOrder.back().perRank.resize(ranks.size());
            }
            byOrder[j].streamIds.insert(rankStreams[j].first.second);
            byOrder[j].perRank[r] = std::move(rankStreams[j].second);
        }
    }
    for (Gathered& g : byOrder) {
        g.key = CollectiveKey::StreamOrder;
        g.name = g.streamIds.size() == 1 ? "NCCL stream " : "NCCL streams ";
        bool first = true;
        for (const std::int64_t id : g.streamIds) {
            g.name += (first ? "" : ", ") + std::to_string(id);
            first = false;
        }
        out.push_back(std::move(g));
    }
    return out;
}

// The collective at `sequence` (from 1) on every member rank.
MatchedCollective matchOne(std::size_t communicator, std::uint64_t sequence,
                           const std::vector<std::vector<RankKernel>>& perRank,
                           const std::vector<bool>& members) {
    MatchedCollective c;
    c.communicator = communicator;
    c.sequence = sequence;
    model::TimeNs firstEndNs = 0;
    model::TimeNs lastEndNs = 0;
    for (std::size_t r = 0; r < perRank.size(); ++r) {
        if (!members[r])
            continue;
        const RankKernel& k = perRank[r][sequence - 1];
        if (c.arrivals.empty()) {
            c.name = k.name;
            c.firstArrivalNs = k.startNs;
            c.lastArrivalNs = k.startNs;
            firstEndNs = k.endNs;
            lastEndNs = k.endNs;
        }
        c.arrivals.push_back({r, k.ref, k.startNs, k.endNs, 0});
        if (k.startNs > c.lastArrivalNs) {
            c.lastArrivalNs = k.startNs;
            c.last = c.arrivals.size() - 1;
        }
        c.firstArrivalNs = std::min(c.firstArrivalNs, k.startNs);
        firstEndNs = std::min(firstEndNs, k.endNs);
        lastEndNs = std::max(lastEndNs, k.endNs);
    }
    model::TimeNs secondLastNs = c.firstArrivalNs;
    for (std::size_t i = 0; i < c.arrivals.size(); ++i) {
        CollectiveArrival& a = c.arrivals[i];
        a.waitNs = c.lastArrivalNs - a.arrivalNs;
        if (i != c.last) {
            c.totalWaitNs += a.waitNs;
            secondLastNs = std::max(secondLastNs, a.arrivalNs);
        }
    }
    c.latenessNs = c.lastArrivalNs - secondLastNs;
    c.endSpreadNs = lastEndNs - firstEndNs;
    return c;
}

}  // namespace

const char* toString(CollectiveKey key) {
    switch (key) {
        case CollectiveKey::ProcessGroup:
            return "process_group";
        case CollectiveKey::StreamOrder:
            return "stream_order";
    }
    return "";
}

const char* toString(CollectiveMismatch::Kind kind) {
    switch (kind) {
        case CollectiveMismatch::Kind::FewerOnRank:
            return "fewer_on_rank";
        case CollectiveMismatch::Kind::DifferentNames:
            return "different_names";
    }
    return "";
}

const CollectiveArrival* MatchedCollective::arrivalOf(std::size_t rank) const {
    // By rank, so a map of many ranks finds each cell's arrival in log time.
    const auto it =
        std::lower_bound(arrivals.begin(), arrivals.end(), rank,
                         [](const CollectiveArrival& a, std::size_t r) { return a.rank < r; });
    return it != arrivals.end() && it->rank == rank ? &*it : nullptr;
}

std::optional<std::size_t> CollectiveStats::mostOftenLast() const {
    const auto most = std::max_element(lastCount.begin(), lastCount.end());
    if (most == lastCount.end() || *most == 0)
        return std::nullopt;
    return static_cast<std::size_t>(most - lastCount.begin());
}

std::string CollectiveStats::describe(const CollectiveMismatch& m) const {
    const std::string& comm = communicators[m.communicator].name;
    if (m.kind == CollectiveMismatch::Kind::FewerOnRank) {
        return "rank " + std::to_string(ranks[m.rank]) + " ran " + std::to_string(m.sequence) +
               " collectives on " + comm + ", " + std::to_string(m.count) +
               " fewer than another rank: the later ones are not compared, and if one was lost "
               "in the middle, the ones after it are matched wrong";
    }
    return comm + ": " + std::to_string(m.count) +
           (m.count == 1 ? " sequence number holds" : " sequence numbers hold") +
           " different collectives, not compared (the first, #" + std::to_string(m.sequence) +
           ": " + m.detail + ")";
}

std::vector<std::size_t> CollectiveStats::costliest(std::size_t count) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < collectives.size(); ++i) {
        if (collectives[i].totalWaitNs > 0)
            out.push_back(i);
    }
    const auto costlier = [&](std::size_t a, std::size_t b) {
        const model::TimeNs wa = collectives[a].totalWaitNs;
        const model::TimeNs wb = collectives[b].totalWaitNs;
        return wa != wb ? wa > wb : a < b;
    };
    const std::size_t n = std::min(count, out.size());
    std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n), out.end(),
                      costlier);
    out.resize(n);
    return out;
}

bool isPointToPoint(std::string_view collective) {
    const auto is = [&](std::string_view name) {
        return std::equal(collective.begin(), collective.end(), name.begin(), name.end(),
                          [](char a, char b) {
                              return std::tolower(static_cast<unsigned char>(a)) ==
                                     std::tolower(static_cast<unsigned char>(b));
                          });
    };
    return is("sendrecv") || is("send") || is("recv");
}

std::string collectiveOfKernel(std::string_view kernelName) {
    for (const std::string_view prefix : {"ncclDevKernel_", "ncclKernel_"}) {
        if (kernelName.starts_with(prefix)) {
            const std::string_view rest = kernelName.substr(prefix.size());
            const std::size_t end = rest.find_first_of("_(<");
            if (end != 0)
                return std::string(rest.substr(0, end));
        }
    }
    return std::string(kernelName);
}

CollectiveStats matchCollectives(const model::Trace& trace, const AnalysisWindow& window,
                                 std::span<const std::int32_t> ranks) {
    CollectiveStats stats;
    stats.ranks.assign(ranks.begin(), ranks.end());
    stats.lastCount.assign(ranks.size(), 0);
    stats.latenessNs.assign(ranks.size(), 0);
    stats.waitNs.assign(ranks.size(), 0);
    stats.pointToPoint.assign(ranks.size(), 0);
    for (Gathered& g : gatherKernels(trace, ranks, stats.pointToPoint)) {
        Communicator comm;
        comm.key = g.key;
        comm.name = g.name;
        comm.members.assign(ranks.size(), false);
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            comm.counts.push_back(g.perRank[r].size());
            const bool listed = std::find(g.listedRanks.begin(), g.listedRanks.end(), ranks[r]) !=
                                g.listedRanks.end();
            comm.members[r] = listed || !g.perRank[r].empty();
            std::sort(g.perRank[r].begin(), g.perRank[r].end(), byStart);
        }
        if (std::count(comm.members.begin(), comm.members.end(), true) < 2)
            continue;  // nothing to compare across ranks
        const std::size_t index = stats.communicators.size();
        std::uint64_t most = 0;
        std::uint64_t fewest = std::numeric_limits<std::uint64_t>::max();
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            if (comm.members[r]) {
                most = std::max(most, comm.counts[r]);
                fewest = std::min(fewest, comm.counts[r]);
            }
        }
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            if (comm.members[r] && comm.counts[r] < most) {
                CollectiveMismatch m;
                m.kind = CollectiveMismatch::Kind::FewerOnRank;
                m.communicator = index;
                m.rank = r;
                m.sequence = comm.counts[r];
                m.count = most - comm.counts[r];
                stats.mismatches.push_back(std::move(m));
            }
        }
        CollectiveMismatch names;
        names.kind = CollectiveMismatch::Kind::DifferentNames;
        names.communicator = index;
        for (std::uint64_t k = 1; k <= fewest; ++k) {
            MatchedCollective c = matchOne(index, k, g.perRank, comm.members);
            const bool agree =
                std::all_of(c.arrivals.begin(), c.arrivals.end(), [&](const CollectiveArrival& a) {
                    return g.perRank[a.rank][k - 1].name == c.name;
                });
            if (!agree) {
                if (names.count++ == 0) {
                    names.sequence = k;
                    for (const CollectiveArrival& a : c.arrivals) {
                        names.detail += (names.detail.empty() ? "" : ", ") +
                                        g.perRank[a.rank][k - 1].name + " on rank " +
                                        std::to_string(ranks[a.rank]);
                    }
                }
                continue;
            }
            const model::TimeNs lastEndNs =
                std::max_element(c.arrivals.begin(), c.arrivals.end(),
                                 [](const CollectiveArrival& a, const CollectiveArrival& b) {
                                     return a.endNs < b.endNs;
                                 })
                    ->endNs;
            if (overlapsParts(window.parts, c.firstArrivalNs, lastEndNs))
                stats.collectives.push_back(std::move(c));
        }
        if (names.count > 0)
            stats.mismatches.push_back(std::move(names));
        stats.communicators.push_back(std::move(comm));
    }
    std::sort(stats.collectives.begin(), stats.collectives.end(),
              [](const MatchedCollective& a, const MatchedCollective& b) {
                  if (a.firstArrivalNs != b.firstArrivalNs)
                      return a.firstArrivalNs < b.firstArrivalNs;
                  return a.communicator != b.communicator ? a.communicator < b.communicator
                                                          : a.sequence < b.sequence;
              });
    for (const MatchedCollective& c : stats.collectives) {
        for (const CollectiveArrival& a : c.arrivals)
            stats.waitNs[a.rank] += a.waitNs;
        stats.totalWaitNs += c.totalWaitNs;
        if (c.latenessNs > 0) {
            const std::size_t late = c.lastArrival().rank;
            ++stats.lastCount[late];
            stats.latenessNs[late] += c.latenessNs;
        }
    }
    return stats;
}

}  // namespace wl::analysis
