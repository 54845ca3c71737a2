#pragma once

// Synthetic CUPTI activity records for GPU-free tests: each builder returns a record of the
// struct version the tracer reads, zeroed and then filled like CUPTI fills it.
#include <cupti.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace wl::cupti::test {

template <class T>
T zeroed() {
    T value;
    std::memset(static_cast<void*>(&value), 0, sizeof(T));
    return value;
}

template <class T>
const CUpti_Activity& asActivity(const T& record) {
    return reinterpret_cast<const CUpti_Activity&>(record);
}

inline CUpti_ActivityKernel10 kernelRecord(const char* name, std::uint64_t start, std::uint64_t end,
                                           std::uint32_t correlation, std::uint32_t stream = 7,
                                           std::uint32_t device = 0) {
    auto k = zeroed<CUpti_ActivityKernel10>();
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.name = name;
    k.start = start;
    k.end = end;
    k.correlationId = correlation;
    k.streamId = stream;
    k.deviceId = device;
    k.contextId = 1 + device;
    k.gridX = 1280;
    k.gridY = 1;
    k.gridZ = 1;
    k.blockX = 256;
    k.blockY = 1;
    k.blockZ = 1;
    k.registersPerThread = 32;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 512;
    return k;
}

inline CUpti_ActivityMemcpy6 memcpyRecord(std::uint8_t copyKind, std::uint8_t srcKind,
                                          std::uint8_t dstKind, std::uint64_t bytes,
                                          std::uint64_t start, std::uint64_t end,
                                          std::uint32_t correlation, std::uint32_t stream = 7,
                                          std::uint32_t device = 0) {
    auto m = zeroed<CUpti_ActivityMemcpy6>();
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = copyKind;
    m.srcKind = srcKind;
    m.dstKind = dstKind;
    m.bytes = bytes;
    m.start = start;
    m.end = end;
    m.correlationId = correlation;
    m.streamId = stream;
    m.deviceId = device;
    m.contextId = 1 + device;
    return m;
}

inline CUpti_ActivityMemcpyPtoP4 peerRecord(std::uint32_t srcDevice, std::uint32_t dstDevice,
                                            std::uint64_t bytes, std::uint64_t start,
                                            std::uint64_t end, std::uint32_t correlation) {
    auto m = zeroed<CUpti_ActivityMemcpyPtoP4>();
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.bytes = bytes;
    m.start = start;
    m.end = end;
    m.deviceId = srcDevice;
    m.contextId = 1 + srcDevice;
    m.streamId = 20;
    m.srcDeviceId = srcDevice;
    m.dstDeviceId = dstDevice;
    m.correlationId = correlation;
    return m;
}

inline CUpti_ActivityMemset4 memsetRecord(std::uint64_t bytes, std::uint32_t value,
                                          std::uint64_t start, std::uint64_t end,
                                          std::uint32_t correlation, std::uint32_t stream = 7) {
    auto m = zeroed<CUpti_ActivityMemset4>();
    m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    m.bytes = bytes;
    m.value = value;
    m.start = start;
    m.end = end;
    m.correlationId = correlation;
    m.streamId = stream;
    m.deviceId = 0;
    m.contextId = 1;
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    return m;
}

// A MEMORY2 record: an allocation or release of `bytes` at `address`; poolBytes > 0 makes it a
// stream-ordered pool operation (cudaMallocAsync/cudaFreeAsync) whose local pool holds poolBytes.
inline CUpti_ActivityMemory4 memoryRecord(bool release, std::uint64_t address, std::uint64_t bytes,
                                          std::uint64_t timestamp, std::uint32_t correlation,
                                          std::uint64_t poolBytes = 0, std::uint32_t device = 0) {
    auto m = zeroed<CUpti_ActivityMemory4>();
    m.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
    m.memoryOperationType = release ? CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE
                                    : CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.address = address;
    m.bytes = bytes;
    m.timestamp = timestamp;
    m.correlationId = correlation;
    m.deviceId = device;
    m.contextId = 1 + device;
    m.streamId = CUPTI_INVALID_STREAM_ID;
    if (poolBytes > 0) {
        m.isAsync = 1;
        m.streamId = 7;
        m.memoryPoolConfig.memoryPoolType = CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL;
        m.memoryPoolConfig.address = 0x9000000;
        m.memoryPoolConfig.pool.size = poolBytes;
    }
    return m;
}

inline CUpti_ActivityAPI apiRecord(CUpti_ActivityKind kind, std::uint32_t cbid, std::uint64_t start,
                                   std::uint64_t end, std::uint32_t correlation,
                                   std::uint32_t tid = 100, std::uint32_t pid = 42) {
    auto a = zeroed<CUpti_ActivityAPI>();
    a.kind = kind;
    a.cbid = cbid;
    a.start = start;
    a.end = end;
    a.correlationId = correlation;
    a.threadId = tid;
    a.processId = pid;
    return a;
}

inline CUpti_ActivitySynchronization2 syncRecord(
    CUpti_ActivitySynchronizationType type, std::uint64_t start, std::uint64_t end,
    std::uint32_t correlation, std::uint32_t stream, std::uint32_t event, std::uint32_t context = 1,
    std::uint64_t eventSyncId = CUPTI_SYNCHRONIZATION_INVALID_VALUE) {
    auto s = zeroed<CUpti_ActivitySynchronization2>();
    s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    s.type = type;
    s.start = start;
    s.end = end;
    s.correlationId = correlation;
    s.contextId = context;
    s.streamId = stream;
    s.cudaEventId = event;
    s.cudaEventSyncId = eventSyncId;
    return s;
}

inline CUpti_ActivityCudaEvent2 eventRecord(std::uint32_t event, std::uint32_t stream,
                                            std::uint32_t correlation,
                                            std::uint64_t eventSyncId = 0) {
    auto e = zeroed<CUpti_ActivityCudaEvent2>();
    e.kind = CUPTI_ACTIVITY_KIND_CUDA_EVENT;
    e.eventId = event;
    e.streamId = stream;
    e.correlationId = correlation;
    e.contextId = 1;
    e.deviceId = 0;
    e.cudaEventSyncId = eventSyncId;
    return e;
}

inline CUpti_ActivityOverhead3 overheadRecord(std::uint64_t start, std::uint64_t end,
                                              std::uint32_t tid = 100, std::uint32_t pid = 42) {
    auto o = zeroed<CUpti_ActivityOverhead3>();
    o.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
    o.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
    o.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    o.objectId.pt.processId = pid;
    o.objectId.pt.threadId = tid;
    o.start = start;
    o.end = end;
    return o;
}

inline CUpti_ActivityName threadNameRecord(std::uint32_t tid, const char* name) {
    auto n = zeroed<CUpti_ActivityName>();
    n.kind = CUPTI_ACTIVITY_KIND_NAME;
    n.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    n.objectId.pt.threadId = tid;
    n.objectId.pt.processId = 42;
    n.name = name;
    return n;
}

inline CUpti_ActivityName streamNameRecord(std::uint32_t stream, const char* name) {
    auto n = zeroed<CUpti_ActivityName>();
    n.kind = CUPTI_ACTIVITY_KIND_NAME;
    n.objectKind = CUPTI_ACTIVITY_OBJECT_STREAM;
    n.objectId.dcs.streamId = stream;
    n.objectId.dcs.deviceId = 0;
    n.name = name;
    return n;
}

inline CUpti_ActivityStream streamRecord(std::uint32_t stream, CUpti_ActivityStreamFlag flag,
                                         std::uint32_t correlation) {
    auto s = zeroed<CUpti_ActivityStream>();
    s.kind = CUPTI_ACTIVITY_KIND_STREAM;
    s.contextId = 1;
    s.streamId = stream;
    s.flag = flag;
    s.correlationId = correlation;
    return s;
}

inline CUpti_ActivityDevice5 deviceRecord(std::uint32_t id, const char* name) {
    auto d = zeroed<CUpti_ActivityDevice5>();
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.id = id;
    d.name = name;
    d.numMultiprocessors = 132;
    d.numThreadsPerWarp = 32;
    d.maxWarpsPerMultiprocessor = 64;
    d.maxBlocksPerMultiprocessor = 32;
    d.maxRegistersPerMultiprocessor = 65536;
    d.maxRegistersPerBlock = 65536;
    d.maxSharedMemoryPerMultiprocessor = 233472;
    d.maxSharedMemoryPerBlock = 49152;
    d.maxThreadsPerBlock = 1024;
    d.computeCapabilityMajor = 9;
    d.computeCapabilityMinor = 0;
    d.globalMemorySize = 80ull << 30;
    d.globalMemoryBandwidth = 3'352'000'000ull;  // kB/s
    d.l2CacheSize = 50u << 20;
    d.coreClockRate = 1'980'000;
    return d;
}

// A unified-memory counter record: `value` is bytes (migrations), fault groups (GPU page
// faults) or the faulting pc (CPU page faults); `flags` the cause or access type.
inline CUpti_ActivityUnifiedMemoryCounter3 unifiedMemoryRecord(
    CUpti_ActivityUnifiedMemoryCounterKind counterKind, std::uint64_t value, std::uint64_t start,
    std::uint64_t end, std::uint64_t address, std::uint32_t srcId, std::uint32_t dstId,
    std::uint32_t flags = 0, std::uint32_t processId = 4242) {
    auto u = zeroed<CUpti_ActivityUnifiedMemoryCounter3>();
    u.kind = CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER;
    u.counterKind = counterKind;
    u.value = value;
    u.start = start;
    u.end = end;
    u.address = address;
    u.srcId = srcId;
    u.dstId = dstId;
    u.flags = flags;
    u.processId = processId;
    u.streamId = CUPTI_INVALID_STREAM_ID;  // "the value of this field is invalid"
    return u;
}

inline CUpti_ActivityContext3 contextRecord(std::uint32_t context, std::uint32_t device) {
    auto c = zeroed<CUpti_ActivityContext3>();
    c.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
    c.contextId = context;
    c.deviceId = device;
    return c;
}

}  // namespace wl::cupti::test
