// CUPTI's own cost, without Warpline: a CUDA injection library (CUDA_INJECTION64_PATH) that only
// enables the activity kinds named in WARPLINE_FLOOR_KINDS (comma-separated: kernel, memcpy,
// memset, sync, event, memory, runtime, driver, overhead; empty: CUPTI loaded, nothing enabled),
// hands CUPTI 8 MB buffers and counts the records it gets back without translating them. A
// program's time under it, against the same program untraced and under `warpline record`, says
// how much of record's cost is CUPTI's activity tracing itself (docs/PERFORMANCE.md). A
// benchmark tool, not part of Warpline.
#include <cupti.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::atomic<unsigned long long> g_records{0};

void CUPTIAPI requested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
    constexpr size_t kBytes = 8u << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBytes));
    *size = kBytes;
    *maxRecords = 0;
}

void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
    CUpti_Activity* record = nullptr;
    unsigned long long n = 0;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        ++n;
    }
    g_records += n;
    std::free(buffer);
}

void atExit() {
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    size_t dropped = 0;
    cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
    std::fprintf(stderr, "cupti-floor: %llu records, %zu dropped\n", g_records.load(), dropped);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    const char* kinds = std::getenv("WARPLINE_FLOOR_KINDS");
    const std::string list = std::string(",") + (kinds ? kinds : "") + ",";
    struct Kind {
        const char* name;
        CUpti_ActivityKind kind;
    };
    constexpr Kind kKinds[] = {
        {"kernel", CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL},
        {"memcpy", CUPTI_ACTIVITY_KIND_MEMCPY},
        {"memset", CUPTI_ACTIVITY_KIND_MEMSET},
        {"sync", CUPTI_ACTIVITY_KIND_SYNCHRONIZATION},
        {"event", CUPTI_ACTIVITY_KIND_CUDA_EVENT},
        {"memory", CUPTI_ACTIVITY_KIND_MEMORY2},
        {"runtime", CUPTI_ACTIVITY_KIND_RUNTIME},
        {"driver", CUPTI_ACTIVITY_KIND_DRIVER},
        {"overhead", CUPTI_ACTIVITY_KIND_OVERHEAD},
    };
    cuptiActivityRegisterCallbacks(&requested, &completed);
    for (const Kind& k : kKinds) {
        if (list.find(std::string(",") + k.name + ",") != std::string::npos &&
            cuptiActivityEnable(k.kind) != CUPTI_SUCCESS) {
            std::fprintf(stderr, "cupti-floor: could not enable %s\n", k.name);
        }
    }
    std::atexit(&atExit);
    return 1;
}
