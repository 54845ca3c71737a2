#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/TraceBuilder.h"
#include "support/TraceFactory.h"

namespace wl::test {

// Builds small traces by hand for the analysis tests: one host thread launching work on the
// streams of GPU 0, with launch flows through correlation ids. Times are kept as given (ns).
class HandTrace {
public:
    HandTrace() {
        m_builder.setKeepTimes(true);
        m_host = m_builder.hostProcess(100, "app");
        m_api = m_builder.hostApiTrack(m_host, 1);
        m_gpu = m_builder.gpuProcess(0, "GPU 0");
    }

    model::TraceBuilder& builder() { return m_builder; }
    model::TrackIndex stream(std::int64_t id) { return m_builder.gpuStreamTrack(m_gpu, id); }

    // An H100 SXM as cudaGetDeviceProperties reports it.
    void addH100() { m_builder.addDevice(h100Properties(0)); }

    // A host API call; returns its correlation id (0 = none).
    std::uint64_t api(std::string_view name, model::TimeNs startNs, model::TimeNs endNs,
                      bool correlated = true) {
        const std::uint64_t id = correlated ? ++m_nextCorrelation : 0;
        m_builder.addApi(m_api, startNs, endNs, name, id, {});
        return id;
    }

    // A kernel, launched by cudaLaunchKernel at [launchNs, launchNs + 5) when launchNs >= 0.
    void kernel(std::int64_t streamId, model::TimeNs startNs, model::TimeNs endNs,
                model::TimeNs launchNs, std::string_view name = "k",
                model::KernelDetail detail = {}) {
        const std::uint64_t id =
            launchNs >= 0 ? api("cudaLaunchKernel_v7000", launchNs, launchNs + 5) : 0;
        m_builder.addKernel(stream(streamId), startNs, endNs, name, id, detail);
    }

    // A copy issued by `apiName` over [apiStartNs, apiEndNs) (no call when apiStartNs < 0).
    void copy(std::int64_t streamId, model::TimeNs startNs, model::TimeNs endNs,
              model::CopyKind kind, std::uint64_t bytes, model::TimeNs apiStartNs,
              model::TimeNs apiEndNs, std::string_view apiName = "cudaMemcpyAsync_v3020",
              model::MemoryKind hostKind = model::MemoryKind::Pinned) {
        const std::uint64_t id = apiStartNs >= 0 ? api(apiName, apiStartNs, apiEndNs) : 0;
        model::MemcpyDetail d;
        d.bytes = bytes;
        d.copyKind = kind;
        d.srcKind = kind == model::CopyKind::HostToDevice ? hostKind : model::MemoryKind::Device;
        d.dstKind = kind == model::CopyKind::DeviceToHost ? hostKind : model::MemoryKind::Device;
        const char* name = kind == model::CopyKind::HostToDevice   ? "Memcpy HtoD"
                           : kind == model::CopyKind::DeviceToHost ? "Memcpy DtoH"
                                                                   : "Memcpy DtoD";
        m_builder.addMemcpy(stream(streamId), startNs, endNs, name, id, d);
    }

    // cudaStreamSynchronize on the host plus the CUPTI synchronisation record on the device.
    void streamSync(model::TimeNs startNs, model::TimeNs endNs, bool record = true) {
        const std::uint64_t id = api("cudaStreamSynchronize_v3020", startNs, endNs);
        if (record) {
            model::SyncDetail d;
            d.syncKind = model::SyncKind::StreamSynchronize;
            m_builder.addSync(m_builder.syncTrack(m_gpu), startNs, endNs, "Stream Sync", id, d);
        }
    }

    // cudaStreamWaitEvent(waitStream, e) over [startNs, startNs + 5), for the event recorded by
    // the cudaEventRecord call `recordCall` (a correlation id from api()) on `recordStream`.
    void streamWaitEvent(std::int64_t waitStream, std::int64_t recordStream,
                         std::uint64_t recordCall, model::TimeNs startNs) {
        const std::uint64_t id = api("cudaStreamWaitEvent", startNs, startNs + 5);
        model::SyncDetail d;
        d.syncKind = model::SyncKind::StreamWaitEvent;
        d.streamId = waitStream;
        d.eventId = 1;
        d.recordStreamId = recordStream;
        d.recordCorrelationId = recordCall;
        m_builder.addSync(m_builder.syncTrack(m_gpu), startNs, startNs + 5, "Stream Wait Event", id,
                          d);
    }

    void nvtx(std::string_view name, model::TimeNs startNs, model::TimeNs endNs) {
        m_builder.addNvtx(m_builder.nvtxTrack(m_host, 1), startNs, endNs, name, {});
    }

    model::TracePtr finish() { return m_builder.finalize(); }

private:
    model::TraceBuilder m_builder;
    model::ProcessIndex m_host = 0;
    model::ProcessIndex m_gpu = 0;
    model::TrackIndex m_api = 0;
    std::uint64_t m_nextCorrelation = 0;
};

inline model::KernelDetail launchConfig(std::int32_t grid, std::int32_t block,
                                        std::int32_t registers = 32,
                                        std::int32_t staticShared = 0) {
    model::KernelDetail k;
    k.grid = {grid, 1, 1};
    k.block = {block, 1, 1};
    k.registersPerThread = registers;
    k.staticSharedBytes = staticShared;
    return k;
}

// The first slice of a kind, in track order.
inline model::SliceRef firstSliceOf(const model::Trace& trace, model::SliceKind kind) {
    for (std::uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const auto& slices = trace.track(t).slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (slices[i].kind == kind) {
                return {t, i};
            }
        }
    }
    return {};
}

}  // namespace wl::test
