#pragma once

#include <cuda_profiler_api.h>

namespace wl::workloads {

// Marks the timed part of a run with cudaProfilerStart/Stop for the lifetime of the object, as the
// CuPy notebook does with cupyx.profiler.profile(): profilers that honour the calls (Nsight
// Systems' --capture-range=cudaProfilerApi, `warpline record --capture-range`) record only this
// part, and Warpline's analysis uses it as its default window. Costs nothing without a profiler;
// its errors are ignored on purpose (a profiler that does not listen is not a failure).
class ProfiledPart {
public:
    ProfiledPart() { static_cast<void>(cudaProfilerStart()); }
    ~ProfiledPart() { static_cast<void>(cudaProfilerStop()); }
    ProfiledPart(const ProfiledPart&) = delete;
    ProfiledPart& operator=(const ProfiledPart&) = delete;
};

}  // namespace wl::workloads
