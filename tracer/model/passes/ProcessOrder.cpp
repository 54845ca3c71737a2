// Processes in an order of their own, not of the input, so the same events give the same trace.
#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

#include "model/passes/Passes.h"

namespace wl::model {

void orderProcesses(FinalizeState& s) {
    // Hosts by rank and pid, then GPUs by rank, ordinal and owner (the rank is -1 in a trace of no
    // job); the tracks and counters follow their process to its new index.
    std::vector<ProcessIndex> order(s.processes.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](ProcessIndex a, ProcessIndex b) {
        const Process& pa = s.processes[a];
        const Process& pb = s.processes[b];
        const bool ga = pa.deviceId >= 0;
        const bool gb = pb.deviceId >= 0;
        if (ga != gb)
            return !ga;
        if (!ga)
            return std::pair(pa.rank, pa.pid) < std::pair(pb.rank, pb.pid);
        return std::tuple(pa.rank, pa.deviceId, pa.ownerPid) <
               std::tuple(pb.rank, pb.deviceId, pb.ownerPid);
    });
    std::vector<ProcessIndex> newIndex(s.processes.size());
    std::vector<Process> processes;
    processes.reserve(order.size());
    for (ProcessIndex i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = i;
        processes.push_back(s.processes[order[i]]);
    }
    s.processes = std::move(processes);
    for (auto& track : s.tracks)
        track.process = newIndex[track.process];
    for (auto& c : s.counters)
        c.process = newIndex[c.process];

    std::sort(s.devices.begin(), s.devices.end(),
              [](const DeviceProperties& a, const DeviceProperties& b) { return a.id < b.id; });
}

}  // namespace wl::model
