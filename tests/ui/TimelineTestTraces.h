#pragma once

// Hand-made traces for the timeline tests, built directly with the model's TraceBuilder.

#include <cstdint>
#include <string>

#include <QStringList>

#include "model/TraceBuilder.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui::test {

// One GPU with `lanes` streams, each holding `perStream` kernels of `durNs` every `periodNs`
// (back to back when period == dur), plus nothing else. Start times begin at 0.
inline model::TracePtr makeDenseTrace(std::size_t perStream, int streams, model::TimeNs durNs,
                                      model::TimeNs periodNs) {
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    model::KernelDetail k;
    for (int s = 0; s < streams; ++s) {
        const auto track = b.gpuStreamTrack(gpu, 7 + s);
        // Streams are offset a little so their pixel boundaries differ.
        const model::TimeNs offset = s * 3;
        for (std::size_t i = 0; i < perStream; ++i) {
            const model::TimeNs start = offset + model::TimeNs(i) * periodNs;
            b.addKernel(track, start, start + durNs, "k", 0, k);
        }
    }
    return b.finalize();
}

// A small but complete trace: a host process with a CUDA API thread and nested NVTX ranges, and a
// GPU with two streams (a kernel launched by an API call, copies both ways, a memset), a sync
// row and a counter. Times in ns.
struct SmallTrace {
    model::TracePtr trace;
    model::TrackIndex api = 0;
    model::TrackIndex nvtx = 0;
    model::TrackIndex stream7 = 0;
    model::TrackIndex stream13 = 0;
    model::TrackIndex sync = 0;
};

inline SmallTrace makeSmallTrace() {
    SmallTrace out;
    model::TraceBuilder b;
    const auto host = b.hostProcess(4242, "python");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    model::DeviceProperties dev;
    dev.id = 0;
    dev.name = "Test GPU";
    dev.smCount = 132;
    b.addDevice(dev);
    out.api = b.hostApiTrack(host, 4243);
    out.nvtx = b.nvtxTrack(host, 4243);
    out.stream7 = b.gpuStreamTrack(gpu, 7);
    out.stream13 = b.gpuStreamTrack(gpu, 13);
    out.sync = b.syncTrack(gpu);

    b.addNvtx(out.nvtx, 0, 10'000, "outer", {});
    b.addNvtx(out.nvtx, 1'000, 4'000, "inner", {});
    b.addApi(out.api, 1'000, 1'500, "cudaLaunchKernel", 77, {});
    model::KernelDetail k;
    k.grid = {1, 1, 1};
    k.block = {1, 1, 1};
    b.addKernel(out.stream7, 2'000, 6'000, "single_thread_sum", 77, k);
    model::MemcpyDetail h2d;
    h2d.bytes = 1 << 20;
    h2d.copyKind = model::CopyKind::HostToDevice;
    b.addMemcpy(out.stream13, 500, 1'800, "Memcpy HtoD", 0, h2d);
    model::MemcpyDetail d2h = h2d;
    d2h.copyKind = model::CopyKind::DeviceToHost;
    b.addMemcpy(out.stream13, 6'500, 8'000, "Memcpy DtoH", 0, d2h);
    b.addMemset(out.stream13, 8'200, 8'600, "Memset", 0, {});
    b.addSync(out.sync, 6'000, 9'000, "cudaDeviceSynchronize", 0, {});
    const auto counter = b.counterTrack(gpu, "GPU metrics", "warp occupancy %", "%");
    for (int i = 0; i <= 10; ++i) {
        b.addCounterSample(counter, i * 1'000, i % 2 ? 80.0 : 20.0);
    }
    out.trace = b.finalize();
    return out;
}

// The rows' identities top to bottom, joined by "|" (readable when a test fails).
inline std::string identities(const TimelineLayout& layout) {
    QStringList out;
    for (const TimelineRow& row : layout.rows())
        out << row.identity;
    return out.join(QLatin1Char('|')).toStdString();
}

}  // namespace wl::ui::test
