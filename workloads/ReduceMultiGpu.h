#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/Result.h"
#include "workloads/Workload.h"

namespace wl::workloads {

// A part of the array: [start, start + count).
struct Chunk {
    std::int64_t start = 0;
    std::int64_t count = 0;
};

// The seed's split: step = ceil(size / parts); the last parts may be short or empty.
std::vector<Chunk> splitChunks(std::int64_t size, int parts);

struct DeviceSide;

// Reduce/normalize of the host array (p.size floats, pinned or not as p.pinned says) over GPUs
// 0..p.devices-1, each holding one part of it:
// - baseline: one device after another on its default stream, every copy synchronous, the
//   per-device sums combined on the host;
// - async: all devices at once, each with p.streams non-blocking streams; each device sums its
//   part, the sums go to GPU 0 with peer copies (cudaMemcpyPeerAsync, ordered by events across
//   devices), GPU 0 adds them and sends the total back the same way, and each device divides its
//   part and copies it home. The host waits once, at the end.
// NVTX ranges name the device ("GPU 1: H2D Memory Stream 0"). allocate() is the setup, run() the
// timed part; both leave device 0 current, and so does the destructor, which frees every
// device's buffers with that device current.
class ReduceOnDevices {
public:
    ReduceOnDevices();
    ~ReduceOnDevices();
    ReduceOnDevices(const ReduceOnDevices&) = delete;
    ReduceOnDevices& operator=(const ReduceOnDevices&) = delete;

    model::Status allocate(const WorkloadParams& p);
    model::Status run(float* host, const ProgressFn& progress);

private:
    WorkloadParams m_params;
    std::vector<std::unique_ptr<DeviceSide>> m_sides;
};

}  // namespace wl::workloads
