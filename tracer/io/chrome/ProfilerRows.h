#pragma once

// The PyTorch profiler's (Kineto's) own events, which it writes on pseudo-processes of its own
// rather than on the program's: the span of each profiling cycle ("PyTorch Profiler (0)" on pid
// "Spans"; on pid "Traces" in 2021's profilers), its markers ("Iteration Start: PyTorch Profiler"
// on pid "Traces", "Record Window End" on pid ""), and CUPTI's overhead, which belongs to no
// thread (pid -1, tid 0). Placed as written they read as anonymous processes ("Process -1",
// "Spans", "Traces", "(unnamed process)"); here they are the rows of one group, "PyTorch
// profiler", each named for what it holds. Each event keeps its row in the file as its origin
// (Trace::origin), so an export writes it where the profiler did. Internal to wl_io.

#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

#include "io/chrome/RawEvent.h"
#include "model/TraceBuilder.h"

namespace wl::io::chrome {

class ProfilerRows {
public:
    enum class Row : std::uint8_t { Spans, Markers, Overhead, None };

    explicit ProfilerRows(model::TraceBuilder& builder) : m_builder(builder) {}

    // Which row an event belongs to, None for any event of the program's own. `pidName`: the
    // name the pid was written as, nullptr for a numeric pid; `overhead`: its category is
    // Kineto's "overhead".
    static Row rowOf(const RawEvent& e, const std::string* pidName, bool overhead);
    // The track of a row (not None), made on first use.
    TrackIndex track(Row row);

    // The group's name, and its pid: a synthetic id (model::isSyntheticId) that no name written
    // as a pid is given, so the group sorts and folds with the other named processes.
    static constexpr std::string_view kProcessName = "PyTorch profiler";
    static constexpr std::int64_t kPid = model::kSyntheticIdBase + (std::int64_t{1} << 39);

private:
    model::TraceBuilder& m_builder;
    static constexpr TrackIndex kNone = std::numeric_limits<TrackIndex>::max();
    std::array<TrackIndex, 3> m_tracks{kNone, kNone, kNone};
};

}  // namespace wl::io::chrome
