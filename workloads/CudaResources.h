#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "model/Result.h"
#include "workloads/CudaCheck.h"

namespace wl::workloads {

// Owns a cudaMalloc'ed array of T. Move-only; frees on destruction (errors there are ignored: the
// run that failed already reported the first error).
template <class T>
class DeviceArray {
public:
    DeviceArray() = default;
    ~DeviceArray() { reset(); }
    DeviceArray(DeviceArray&& other) noexcept
        : m_data(std::exchange(other.m_data, nullptr)), m_count(std::exchange(other.m_count, 0)) {}
    DeviceArray& operator=(DeviceArray&& other) noexcept {
        if (this != &other) {
            reset();
            m_data = std::exchange(other.m_data, nullptr);
            m_count = std::exchange(other.m_count, 0);
        }
        return *this;
    }

    model::Status allocate(std::size_t count, const char* what) {
        reset();
        void* raw = nullptr;
        const cudaError_t code = cudaMalloc(&raw, count * sizeof(T));
        if (code != cudaSuccess) {
            return cudaFailure(code, std::string("cudaMalloc of ") + what + " (" +
                                         std::to_string(count * sizeof(T)) + " bytes)");
        }
        m_data = static_cast<T*>(raw);
        m_count = count;
        return {};
    }
    void reset() {
        if (m_data != nullptr) {
            static_cast<void>(cudaFree(m_data));
        }
        m_data = nullptr;
        m_count = 0;
    }

    T* get() const { return m_data; }
    std::size_t size() const { return m_count; }
    std::size_t bytes() const { return m_count * sizeof(T); }

private:
    T* m_data = nullptr;
    std::size_t m_count = 0;
};

// Owns a host array of T, page-locked (cudaHostAlloc) or pageable (malloc). Which one is what the
// pinned/pageable toggle of the workloads changes.
template <class T>
class HostArray {
public:
    HostArray() = default;
    ~HostArray() { reset(); }
    HostArray(const HostArray&) = delete;
    HostArray& operator=(const HostArray&) = delete;

    model::Status allocate(std::size_t count, bool pinned, const char* what) {
        reset();
        void* raw = nullptr;
        if (pinned) {
            const cudaError_t code = cudaHostAlloc(&raw, count * sizeof(T), cudaHostAllocDefault);
            if (code != cudaSuccess) {
                return cudaFailure(code, std::string("cudaHostAlloc of ") + what + " (" +
                                             std::to_string(count * sizeof(T)) + " bytes)");
            }
        } else {
            raw = std::malloc(count * sizeof(T));
            if (raw == nullptr) {
                return model::Error{std::string("out of host memory for ") + what + " (" +
                                    std::to_string(count * sizeof(T)) + " bytes)"};
            }
        }
        m_data = static_cast<T*>(raw);
        m_count = count;
        m_pinned = pinned;
        return {};
    }
    void reset() {
        if (m_data != nullptr) {
            if (m_pinned) {
                static_cast<void>(cudaFreeHost(m_data));
            } else {
                std::free(m_data);
            }
        }
        m_data = nullptr;
        m_count = 0;
    }

    T* get() const { return m_data; }
    T& operator[](std::size_t i) const { return m_data[i]; }
    std::size_t size() const { return m_count; }
    bool pinned() const { return m_pinned; }

private:
    T* m_data = nullptr;
    std::size_t m_count = 0;
    bool m_pinned = false;
};

// Owns CUDA streams, created non-blocking (they do not synchronise with the legacy default
// stream, like the seeds' cuda.stream() and cp.cuda.Stream(non_blocking=True)).
class StreamSet {
public:
    StreamSet() = default;
    ~StreamSet() {
        for (cudaStream_t s : m_streams) {
            static_cast<void>(cudaStreamDestroy(s));
        }
    }
    StreamSet(const StreamSet&) = delete;
    StreamSet& operator=(const StreamSet&) = delete;

    model::Status create(int count) {
        for (int i = 0; i < count; ++i) {
            cudaStream_t s = nullptr;
            WL_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
            m_streams.push_back(s);
        }
        return {};
    }
    cudaStream_t operator[](std::size_t i) const { return m_streams[i]; }
    std::size_t size() const { return m_streams.size(); }

private:
    std::vector<cudaStream_t> m_streams;
};

// Owns CUDA events. Timing events measure the GPU's idle time; the others only order work.
class EventSet {
public:
    EventSet() = default;
    ~EventSet() {
        for (cudaEvent_t e : m_events) {
            static_cast<void>(cudaEventDestroy(e));
        }
    }
    EventSet(const EventSet&) = delete;
    EventSet& operator=(const EventSet&) = delete;

    model::Status create(int count, bool timing) {
        for (int i = 0; i < count; ++i) {
            cudaEvent_t e = nullptr;
            WL_CUDA_TRY(
                cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
            m_events.push_back(e);
        }
        return {};
    }
    cudaEvent_t operator[](std::size_t i) const { return m_events[i]; }
    std::size_t size() const { return m_events.size(); }

private:
    std::vector<cudaEvent_t> m_events;
};

// Owns a CUDA graph made by stream capture and its executable instance.
class CapturedGraph {
public:
    CapturedGraph() = default;
    ~CapturedGraph() {
        if (m_exec != nullptr)
            static_cast<void>(cudaGraphExecDestroy(m_exec));
        if (m_graph != nullptr)
            static_cast<void>(cudaGraphDestroy(m_graph));
    }
    CapturedGraph(const CapturedGraph&) = delete;
    CapturedGraph& operator=(const CapturedGraph&) = delete;

    // Captures what `enqueue` queues on `stream` (a created stream: the legacy default stream
    // cannot be captured) and instantiates it. Nothing runs until launch().
    template <class Enqueue>
    model::Status capture(cudaStream_t stream, Enqueue&& enqueue) {
        WL_CUDA_TRY(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        const model::Status queued = enqueue();
        cudaGraph_t graph = nullptr;
        const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
        m_graph = graph;
        if (!queued.ok())
            return queued;
        WL_CUDA_TRY(ended);
        WL_CUDA_TRY(cudaGraphInstantiate(&m_exec, m_graph, 0));
        return {};
    }
    model::Status launch(cudaStream_t stream) const {
        WL_CUDA_TRY(cudaGraphLaunch(m_exec, stream));
        return {};
    }
    bool ready() const { return m_exec != nullptr; }

private:
    cudaGraph_t m_graph = nullptr;
    cudaGraphExec_t m_exec = nullptr;
};

}  // namespace wl::workloads
