// The device memory counter of each GPU process with memory operations (model/Derived.h).
#include <algorithm>
#include <map>
#include <unordered_map>
#include <vector>

#include "model/Derived.h"
#include "model/passes/DerivedCounter.h"
#include "model/passes/Passes.h"

namespace wl::model {

void addDeviceMemory(FinalizeState& s) {
    const StringId name = s.intern(kDeviceMemoryName);
    const StringId inUse = s.intern(kMemoryInUse);
    const StringId reserved = s.intern(kMemoryInPools);
    const StringId unit = s.intern("B");
    const StringId inUseText = s.intern(
        "Device memory allocated and not yet released by this process (cudaMalloc, "
        "cudaMallocAsync, ...), from its allocation records. Memory allocated before recording "
        "began is not known, so the row starts at 0.");
    const StringId reservedText = s.intern(
        "Device memory the process's memory pools hold (cudaMallocAsync), whether or not "
        "allocations use it: a pool keeps freed memory for reuse until it is trimmed.");
    for (const Track& track : s.tracks) {
        if (track.kind != TrackKind::Memory || track.slices.empty())
            continue;
        CounterTrack used =
            derivedCounter(track.process, track.deviceId, name, inUse, unit, inUseText);
        CounterTrack pools =
            derivedCounter(track.process, track.deviceId, name, reserved, unit, reservedText);
        // Only memory allocated while recording counts: a release of memory allocated before is
        // left out, so the row never goes below 0.
        std::unordered_map<std::uint64_t, std::uint64_t> live;  // address -> bytes
        std::map<std::uint64_t, std::uint64_t> poolSize;        // pool address -> bytes
        std::uint64_t inUseBytes = 0;
        std::uint64_t poolBytes = 0;
        // A sample only where the value changes (a release of unknown memory changes nothing).
        auto sample = [](CounterTrack& c, TimeNs ns, double value) {
            if (c.samples.empty() || c.samples.back().value != value ||
                c.samples.back().timestampNs == ns)
                setValueAt(c, ns, value);
        };
        // Slices of a memory track are instants in time order (one lane unless two share a time).
        std::vector<const Slice*> ops;
        ops.reserve(track.slices.size());
        for (const Slice& slice : track.slices)
            ops.push_back(&slice);
        std::stable_sort(ops.begin(), ops.end(),
                         [](const Slice* a, const Slice* b) { return a->startNs < b->startNs; });
        for (const Slice* op : ops) {
            const MemoryDetail* d = s.trace.memory(*op);
            if (d == nullptr ||
                (d->memoryKind != MemoryKind::Device && d->memoryKind != MemoryKind::Managed))
                continue;
            if (d->op == MemoryOp::Allocation) {
                auto [it, inserted] = live.try_emplace(d->address, d->bytes);
                if (!inserted) {  // the release was not recorded: replace the old allocation
                    inUseBytes -= it->second;
                    it->second = d->bytes;
                }
                inUseBytes += d->bytes;
            } else if (auto it = live.find(d->address); it != live.end()) {
                inUseBytes -= it->second;
                live.erase(it);
            }
            sample(used, op->startNs, static_cast<double>(inUseBytes));
            if (d->fromPool) {
                poolBytes -= poolSize[d->poolAddress];
                poolSize[d->poolAddress] = d->poolReservedBytes;
                poolBytes += d->poolReservedBytes;
                sample(pools, op->startNs, static_cast<double>(poolBytes));
            }
        }
        if (!used.samples.empty())
            s.counters.push_back(std::move(used));
        if (!pools.samples.empty())
            s.counters.push_back(std::move(pools));
    }
}

}  // namespace wl::model
