#include "cupti/UnifiedMemoryCounters.h"

#include <algorithm>

#include "cupti/CuptiApi.h"

namespace wl::cupti {
namespace {

using Kind = CUpti_ActivityUnifiedMemoryCounterKind;

// An option and the counters that make it.
struct Option {
    const char* name;  // as `record` spells it
    const char* what;  // as a message says it
    std::vector<Kind> kinds;
    bool explained = false;  // brings the counters that explain it (optionalKinds)
};

// Counters that explain migrations where the GPU reports them: no option of their own.
const std::vector<Kind>& optionalKinds() {
    static const std::vector<Kind> kinds = {
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP,
    };
    return kinds;
}

std::vector<Option> requested(const UnifiedMemoryOptions& options) {
    std::vector<Option> out;
    if (options.migrations) {
        out.push_back({"--cuda-um-migrations",
                       "unified memory migrations",
                       {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
                        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH},
                       true});
    }
    if (options.cpuPageFaults) {
        out.push_back({"--cuda-um-cpu-page-faults",
                       "CPU page faults",
                       {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT}});
    }
    if (options.gpuPageFaults) {
        out.push_back({"--cuda-um-gpu-page-faults",
                       "GPU page faults",
                       {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT}});
    }
    return out;
}

CUptiResult configure(CuptiApi& api, const std::vector<Option>& options, bool withOptional) {
    std::vector<CUpti_ActivityUnifiedMemoryCounterConfig> configs;
    const auto add = [&](Kind kind) {
        CUpti_ActivityUnifiedMemoryCounterConfig c{};
        // Scope and device are deprecated (CUDA 7.0 on) and ignored; set as CUPTI's sample does.
        c.scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
        c.kind = kind;
        c.deviceId = 0;
        c.enable = 1;
        configs.push_back(c);
    };
    for (const Option& o : options) {
        for (Kind k : o.kinds)
            add(k);
    }
    if (withOptional) {
        for (Kind k : optionalKinds())
            add(k);
    }
    return api.configureUnifiedMemoryCounters(configs);
}

// What CUPTI's refusal means (cupti_activity.h says so of each code).
const char* why(CUptiResult result) {
    switch (result) {
        case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED:
            return "this platform (OS or architecture) has no unified memory profiling";
        case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE:
            return "this GPU has no unified memory profiling (GPU page faults need compute "
                   "capability 6.0 or newer)";
        case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_NON_P2P_DEVICES:
            return "with several GPUs, unified memory profiling needs peer access between them";
        default:
            return nullptr;
    }
}

std::string refusal(CuptiApi& api, const Option& o, CUptiResult result) {
    std::string text = std::string(o.what) + " are not recorded (" + o.name +
                       "): CUPTI refused them: " + api.resultString(result);
    if (const char* reason = why(result))
        text += std::string(" (") + reason + ")";
    return text;
}

}  // namespace

std::string unifiedMemoryCountersText(const UnifiedMemoryOptions& options) {
    std::string text;
    const auto add = [&](bool on, const char* what) {
        if (on)
            text += (text.empty() ? "" : ", ") + std::string(what);
    };
    add(options.migrations, "migrations");
    add(options.cpuPageFaults, "CPU page faults");
    add(options.gpuPageFaults, "GPU page faults");
    return text;
}

UnifiedMemorySetup configureUnifiedMemory(CuptiApi& api, const UnifiedMemoryOptions& options) {
    UnifiedMemorySetup setup;
    std::vector<Option> on = requested(options);
    if (on.empty())
        return setup;
    // Migrations bring the counters that explain them, where the GPU reports them.
    CUptiResult result = configure(api, on, options.migrations);
    if (result == CUPTI_ERROR_NOT_INITIALIZED) {
        setup.tooEarly = true;
        return setup;
    }
    if (result != CUPTI_SUCCESS) {
        if (configure(api, on, false) != CUPTI_SUCCESS) {
            // Which of the options CUPTI refuses: the others are recorded.
            std::vector<Option> accepted;
            for (const Option& o : on) {
                const CUptiResult alone = configure(api, {o}, false);
                if (alone == CUPTI_SUCCESS)
                    accepted.push_back(o);
                else
                    setup.warnings.push_back(refusal(api, o, alone));
            }
            on = std::move(accepted);
            if (on.empty())
                return setup;
        }
        // One call holds everything that is on: with the counters that explain migrations if
        // the GPU has them, else without.
        const bool migrations =
            std::any_of(on.begin(), on.end(), [](const Option& o) { return o.explained; });
        result = migrations ? configure(api, on, true) : CUPTI_ERROR_NOT_SUPPORTED;
        if (result != CUPTI_SUCCESS) {
            if (migrations) {
                setup.notes.push_back(
                    "unified memory: this GPU or driver reports no thrashing, throttling, remote "
                    "maps or device-to-device migrations");
            }
            result = configure(api, on, false);
        }
        if (result != CUPTI_SUCCESS) {
            for (const Option& o : on)
                setup.warnings.push_back(refusal(api, o, result));
            return setup;
        }
    }
    result = api.enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
    if (result != CUPTI_SUCCESS) {
        for (const Option& o : on) {
            setup.warnings.push_back(
                std::string(o.what) + " are not recorded (" + o.name +
                "): CUPTI could not enable unified memory records: " + api.resultString(result));
        }
        return setup;
    }
    setup.enabled = true;
    return setup;
}

}  // namespace wl::cupti
