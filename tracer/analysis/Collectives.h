#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// The same collective (an all-reduce, a broadcast, ...) on every rank of a merged job, and who
// kept the others waiting in it.
//
// A rank arrives at a collective when its NCCL kernel starts on its GPU: from then on the kernel
// waits inside for its peers, and it can only finish once the last rank's kernel has started, so
// all the kernels of one collective end at about the same time and the ones that started early
// spent the difference waiting. (The host's launch is earlier still, but it is the GPU that the
// peers wait for: work queued ahead of the kernel delays the rank as much as a late launch.)
// Arrivals are compared on the job's one time axis, so they are only as good as its alignment
// (io::loadRankJob): ranks recorded together, or on hosts with synchronised clocks.

// How a rank's collectives were put on their communicators.
enum class CollectiveKey : std::uint8_t {
    // By the kernels' "Process Group Name" and "Process Group Ranks" args (the PyTorch
    // profiler's): NCCL runs a communicator's collectives in the order every rank issued them.
    ProcessGroup,
    // No such args (Warpline's and other CUPTI recordings, older profilers): each rank's streams
    // that ran NCCL kernels, in the order of their first one, the i-th the same communicator on
    // every rank, each stream's kernels in their order on it.
    StreamOrder,
};
const char* toString(CollectiveKey key);  // "process_group", "stream_order"

// A communicator: a process group, or the i-th NCCL stream of each rank.
struct Communicator {
    CollectiveKey key = CollectiveKey::StreamOrder;
    // "process group 0 (default_pg)"; "NCCL stream 17", or "NCCL streams 17, 23" where the ranks'
    // ids differ.
    std::string name;
    // Per rank (the order of the ranks given): its collectives on it over the whole trace.
    std::vector<std::uint64_t> counts;
    // Per rank: whether it takes part (it ran one of them, or the process group lists it).
    std::vector<bool> members;
};

// One rank's part in a collective. Times in ns on the job's time axis.
struct CollectiveArrival {
    std::size_t rank = 0;  // index into the ranks given
    model::SliceRef kernel;
    model::TimeNs arrivalNs = 0;  // the kernel's start
    model::TimeNs endNs = 0;      // the kernel's end
    model::TimeNs waitNs = 0;     // the last arrival minus this one (0 for the last rank)
};

// A collective matched on every member rank of its communicator.
struct MatchedCollective {
    std::size_t communicator = 0;  // index into CollectiveStats::communicators
    std::uint64_t sequence = 0;    // its place on the communicator, from 1 (over the whole trace)
    std::string name;              // "allreduce" (the profiler's) or "AllReduce" (the kernel's)
    std::vector<CollectiveArrival> arrivals;  // one per member rank, by rank
    std::size_t last = 0;  // index into arrivals of the last to arrive (the lowest rank on a tie)
    model::TimeNs firstArrivalNs = 0;
    model::TimeNs lastArrivalNs = 0;
    // How late the last rank was: its arrival minus the second-last one's. Not minus the first:
    // this is what the collective would have gained had that rank alone been on time (the
    // second-last would then have been the one waited for); the spread is the longest wait.
    model::TimeNs latenessNs = 0;
    model::TimeNs totalWaitNs = 0;  // the others' waits, summed
    // The latest kernel end minus the earliest: small (microseconds) for a collective matched
    // right on well-aligned clocks; a broadcast's root may finish early, though.
    model::TimeNs endSpreadNs = 0;

    model::TimeNs spreadNs() const { return lastArrivalNs - firstArrivalNs; }
    const CollectiveArrival& lastArrival() const { return arrivals[last]; }
    // The arrival of rank index `rank`; nullptr when it is no member.
    const CollectiveArrival* arrivalOf(std::size_t rank) const;
};

// What could not be matched; reported rather than dropped, since a lost collective shifts every
// later one of that rank.
struct CollectiveMismatch {
    enum class Kind : std::uint8_t {
        FewerOnRank,     // a member rank ran fewer collectives on the communicator than another
        DifferentNames,  // the ranks' collectives at one sequence number have different names
    };
    Kind kind = Kind::FewerOnRank;
    std::size_t communicator = 0;
    std::size_t rank = 0;  // FewerOnRank: the rank (index) with fewer
    // FewerOnRank: its count; DifferentNames: the first sequence number whose names differ.
    std::uint64_t sequence = 0;
    // FewerOnRank: how many fewer than the most any rank ran; DifferentNames: how many sequence
    // numbers have different names (none of them is in CollectiveStats::collectives).
    std::uint64_t count = 0;
    std::string detail;  // DifferentNames: "allreduce on rank 0, broadcast on rank 1"
};
const char* toString(CollectiveMismatch::Kind kind);  // "fewer_on_rank", "different_names"

// Every collective of a job's window, matched across ranks. Plain value; refers to kernels by
// SliceRef, so keep it with its trace.
struct CollectiveStats {
    std::vector<std::int32_t> ranks;          // the rank numbers every per-rank table follows
    std::vector<Communicator> communicators;  // with two or more member ranks
    // The matched collectives that overlap the window, by first arrival. Matching runs over the
    // whole trace (a window's edge may cut one rank's kernel and not another's), so sequence
    // numbers count from the trace's start.
    std::vector<MatchedCollective> collectives;
    std::vector<CollectiveMismatch> mismatches;  // over the whole trace
    // Per rank (the order given), over `collectives`:
    std::vector<std::uint64_t> lastCount;   // those it arrived last at, later than the others
    std::vector<model::TimeNs> latenessNs;  // its lateness summed over those
    std::vector<model::TimeNs> waitNs;      // its waits summed
    model::TimeNs totalWaitNs = 0;          // every rank's waits summed
    // Per rank: its point-to-point NCCL kernels (send/receive), over the whole trace. Left out:
    // one pairs two ranks, each with a peer of its own, so the k-th of each rank is no one
    // operation and no rank waits for every other.
    std::vector<std::uint64_t> pointToPoint;

    // The rank (index) that arrived last most often (the lowest on a tie); nullopt when no
    // collective had a late rank.
    std::optional<std::size_t> mostOftenLast() const;
    // Indices into `collectives` of the `count` that kept the others waiting longest (total
    // wait), costliest first; only those with some wait.
    std::vector<std::size_t> costliest(std::size_t count) const;
    // A mismatch in a sentence: "rank 1 ran 58 collectives on process group 0 (default_pg), 2
    // fewer than another rank: ..."; "NCCL stream 17: 3 sequence numbers hold different
    // collectives, not compared (the first, #12: Broadcast on rank 0, AllReduce on rank 1)".
    std::string describe(const CollectiveMismatch& mismatch) const;
};

// Matches the NCCL kernels of the ranks `ranks` (rank numbers: Process::rank; the tables follow
// this order) of a merged job: the k-th collective of each member rank on a communicator is one
// collective. Pure function of its arguments; thread-safe.
CollectiveStats matchCollectives(const model::Trace& trace, const AnalysisWindow& window,
                                 std::span<const std::int32_t> ranks);

// Whether a collective's name (collectiveOfKernel's, or the profiler's "Collective name") is a
// point-to-point transfer: "SendRecv", "send", "recv".
bool isPointToPoint(std::string_view collective);

// The collective a NCCL kernel's name says ("ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)" and
// "ncclKernel_AllReduce_RING_LL_Sum_float(...)": "AllReduce"); the name itself when it says none.
std::string collectiveOfKernel(std::string_view kernelName);

}  // namespace wl::analysis
