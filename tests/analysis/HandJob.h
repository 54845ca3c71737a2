#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/TraceBuilder.h"

namespace wl::test {

// A merged job built by hand, times kept as given (ns). Every rank's processes have pid 4242 and
// its GPUs the ordinals given: ranks on different hosts share both.
class HandJob {
public:
    HandJob() { m_b.setKeepTimes(true); }

    // A kernel; `args`: the producer's args the model keeps with it (JSON object members, as the
    // PyTorch profiler writes a NCCL kernel's "Process Group Name").
    void kernel(std::int32_t rank, std::int32_t device, std::int64_t stream, model::TimeNs startNs,
                model::TimeNs endNs, std::string_view name = "gemm", std::string_view args = {}) {
        const model::TrackIndex track = m_b.gpuStreamTrack(gpu(rank, device), stream);
        m_b.addKernel(track, startNs, endNs, name, 0, {});
        if (!args.empty())
            m_b.setLastSliceExtraArgs(track, args);
    }
    void copy(std::int32_t rank, std::int32_t device, std::int64_t stream, model::TimeNs startNs,
              model::TimeNs endNs) {
        model::MemcpyDetail d;
        d.copyKind = model::CopyKind::HostToDevice;
        d.bytes = 1024;
        m_b.addMemcpy(m_b.gpuStreamTrack(gpu(rank, device), stream), startNs, endNs, "Memcpy HtoD",
                      0, d);
    }
    // A device allocation: no work of the GPU's own.
    void allocation(std::int32_t rank, std::int32_t device, model::TimeNs atNs) {
        model::MemoryDetail d;
        d.bytes = 4;
        m_b.addMemory(m_b.memoryTrack(gpu(rank, device)), atNs, "Allocate (Device)", 0, d);
    }
    void range(std::int32_t rank, std::string_view name, model::TimeNs startNs,
               model::TimeNs endNs) {
        const auto host = m_b.hostProcess(4242, "python3", rank);
        m_b.addNvtx(m_b.nvtxTrack(host, 4242), startNs, endNs, name, {});
    }
    void metadata(std::string key, std::string value) {
        m_b.setMetadata(std::move(key), std::move(value));
    }
    model::TracePtr finish() { return m_b.finalize(); }

private:
    model::ProcessIndex gpu(std::int32_t rank, std::int32_t device) {
        return m_b.gpuProcess(device, {}, 4242, rank);
    }
    model::TraceBuilder m_b;
};

}  // namespace wl::test
