#include "cupti/NvtxInjection.h"

// Only NVTX's types and callback ids: this file is the tool, not a user of NVTX.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <string>
#include <string_view>

#include "cupti/NvtxRecorder.h"

namespace wl::cupti {
namespace {

std::atomic<NvtxRecorder*> g_recorder{nullptr};
std::atomic<bool> g_installed{false};

NvtxRecorder& recorder() {
    return *g_recorder.load(std::memory_order_relaxed);
}

std::string_view text(const char* message) {
    if (message == nullptr) {
        return {};
    }
    return {message, strnlen(message, NvtxRecorder::kMaxStringBytes)};
}

std::u32string_view wideText(const wchar_t* message) {
    static_assert(sizeof(wchar_t) == sizeof(char32_t), "wchar_t is UTF-32 on the platforms built");
    if (message == nullptr) {
        return {};
    }
    return {reinterpret_cast<const char32_t*>(message),
            wcsnlen(message, NvtxRecorder::kMaxStringBytes)};
}

std::string owned(const char* message) {
    return std::string(text(message));
}

std::string owned(const wchar_t* message) {
    return NvtxRecorder::utf8(wideText(message));
}

NvtxAttributes attributesOf(const char* message) {
    NvtxAttributes attributes;
    attributes.message = text(message);
    return attributes;
}

NvtxAttributes attributesOf(const wchar_t* message) {
    NvtxAttributes attributes;
    attributes.wideMessage = wideText(message);
    return attributes;
}

NvtxAttributes attributesOf(const nvtxEventAttributes_t* a) {
    NvtxAttributes out;
    // Every NVTX version's struct has this layout up to the message; a smaller one is not one.
    constexpr std::size_t kKnownSize = offsetof(nvtxEventAttributes_t, message) + sizeof(void*);
    if (a == nullptr || a->size < kKnownSize) {
        return out;
    }
    out.category = a->category;
    if (a->colorType == NVTX_COLOR_ARGB) {
        out.colorArgb = a->color;
        out.hasColor = true;
    }
    out.hasPayload = true;
    switch (a->payloadType) {
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
            out.payload = static_cast<double>(a->payload.ullValue);
            break;
        case NVTX_PAYLOAD_TYPE_INT64:
            out.payload = static_cast<double>(a->payload.llValue);
            break;
        case NVTX_PAYLOAD_TYPE_DOUBLE:
            out.payload = a->payload.dValue;
            break;
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
            out.payload = static_cast<double>(a->payload.uiValue);
            break;
        case NVTX_PAYLOAD_TYPE_INT32:
            out.payload = static_cast<double>(a->payload.iValue);
            break;
        case NVTX_PAYLOAD_TYPE_FLOAT:
            out.payload = static_cast<double>(a->payload.fValue);
            break;
        default:
            out.hasPayload = false;  // none, or an extended payload (a schema we do not decode)
            break;
    }
    switch (a->messageType) {
        case NVTX_MESSAGE_TYPE_ASCII:
            out.message = text(a->message.ascii);
            break;
        case NVTX_MESSAGE_TYPE_UNICODE:
            out.wideMessage = wideText(a->message.unicode);
            break;
        case NVTX_MESSAGE_TYPE_REGISTERED:
            // Our own handles (registerString): the string lives as long as the recorder.
            out.registered = reinterpret_cast<const std::string*>(a->message.registered);
            break;
        default:
            break;
    }
    return out;
}

const NvtxDomain* domainOf(nvtxDomainHandle_t domain) {
    return reinterpret_cast<const NvtxDomain*>(domain);
}

std::string pointerName(const char* what, const void* pointer) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%s %p", what, pointer);
    return buffer;
}

// The handlers, with the signatures of NVTX's function table entries (nvtxDetail/nvtxTypes.h).
void NVTX_API markEx(const nvtxEventAttributes_t* a) {
    recorder().mark(nullptr, attributesOf(a));
}
void NVTX_API markA(const char* message) {
    recorder().mark(nullptr, attributesOf(message));
}
void NVTX_API markW(const wchar_t* message) {
    recorder().mark(nullptr, attributesOf(message));
}
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t* a) {
    return recorder().start(nullptr, attributesOf(a));
}
nvtxRangeId_t NVTX_API rangeStartA(const char* message) {
    return recorder().start(nullptr, attributesOf(message));
}
nvtxRangeId_t NVTX_API rangeStartW(const wchar_t* message) {
    return recorder().start(nullptr, attributesOf(message));
}
void NVTX_API rangeEnd(nvtxRangeId_t id) {
    recorder().end(id);
}
int NVTX_API rangePushEx(const nvtxEventAttributes_t* a) {
    return recorder().push(nullptr, attributesOf(a));
}
int NVTX_API rangePushA(const char* message) {
    return recorder().push(nullptr, attributesOf(message));
}
int NVTX_API rangePushW(const wchar_t* message) {
    return recorder().push(nullptr, attributesOf(message));
}
int NVTX_API rangePop() {
    return recorder().pop(nullptr);
}
void NVTX_API nameCategoryA(uint32_t category, const char* name) {
    recorder().nameCategory(nullptr, category, owned(name));
}
void NVTX_API nameCategoryW(uint32_t category, const wchar_t* name) {
    recorder().nameCategory(nullptr, category, owned(name));
}
void NVTX_API nameOsThreadA(uint32_t threadId, const char* name) {
    recorder().nameOsThread(threadId, owned(name));
}
void NVTX_API nameOsThreadW(uint32_t threadId, const wchar_t* name) {
    recorder().nameOsThread(threadId, owned(name));
}

void NVTX_API domainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* a) {
    recorder().mark(domainOf(domain), attributesOf(a));
}
nvtxRangeId_t NVTX_API domainRangeStartEx(nvtxDomainHandle_t domain,
                                          const nvtxEventAttributes_t* a) {
    return recorder().start(domainOf(domain), attributesOf(a));
}
void NVTX_API domainRangeEnd(nvtxDomainHandle_t /*domain*/, nvtxRangeId_t id) {
    recorder().end(id);  // ids are unique over all domains
}
int NVTX_API domainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* a) {
    return recorder().push(domainOf(domain), attributesOf(a));
}
int NVTX_API domainRangePop(nvtxDomainHandle_t domain) {
    return recorder().pop(domainOf(domain));
}
void NVTX_API domainNameCategoryA(nvtxDomainHandle_t domain, uint32_t category, const char* name) {
    recorder().nameCategory(domainOf(domain), category, owned(name));
}
void NVTX_API domainNameCategoryW(nvtxDomainHandle_t domain, uint32_t category,
                                  const wchar_t* name) {
    recorder().nameCategory(domainOf(domain), category, owned(name));
}
nvtxStringHandle_t NVTX_API domainRegisterStringA(nvtxDomainHandle_t domain, const char* text) {
    return reinterpret_cast<nvtxStringHandle_t>(
        const_cast<std::string*>(recorder().registerString(domainOf(domain), owned(text))));
}
nvtxStringHandle_t NVTX_API domainRegisterStringW(nvtxDomainHandle_t domain, const wchar_t* text) {
    return reinterpret_cast<nvtxStringHandle_t>(
        const_cast<std::string*>(recorder().registerString(domainOf(domain), owned(text))));
}
nvtxDomainHandle_t NVTX_API domainCreateA(const char* name) {
    return reinterpret_cast<nvtxDomainHandle_t>(recorder().createDomain(owned(name)));
}
nvtxDomainHandle_t NVTX_API domainCreateW(const wchar_t* name) {
    return reinterpret_cast<nvtxDomainHandle_t>(recorder().createDomain(owned(name)));
}
void NVTX_API domainDestroy(nvtxDomainHandle_t /*domain*/) {
    // Kept: the domain's events still name it, and a later create of the name gets it back.
}
void NVTX_API initialize(const void* /*reserved*/) {}

void NVTX_API nameCuDeviceA(int device, const char* name) {
    recorder().nameDevice(device, owned(name));  // a CUdevice is the device's ordinal
}
void NVTX_API nameCuDeviceW(int device, const wchar_t* name) {
    recorder().nameDevice(device, owned(name));
}
void NVTX_API nameCuContextA(void* context, const char* name) {
    recorder().nameOther(pointerName("context", context), owned(name));
}
void NVTX_API nameCuContextW(void* context, const wchar_t* name) {
    recorder().nameOther(pointerName("context", context), owned(name));
}
void NVTX_API nameStreamA(void* stream, const char* name) {
    recorder().nameStream(stream, owned(name));  // a cudaStream_t is a CUstream
}
void NVTX_API nameStreamW(void* stream, const wchar_t* name) {
    recorder().nameStream(stream, owned(name));
}
void NVTX_API nameEventA(void* event, const char* name) {
    recorder().nameOther(pointerName("event", event), owned(name));
}
void NVTX_API nameEventW(void* event, const wchar_t* name) {
    recorder().nameOther(pointerName("event", event), owned(name));
}

// The payload extension (nvToolsExtPayload.h): ranges and marks whose data travels in payloads
// described by registered schemas. NCCL pushes its API ranges with nvtxDomainRangePushEx and pops
// them with nvtxRangePopPayload, so a tool without these pops would leave every one of them open.
// The payloads themselves are not decoded (their schemas are the program's); a range or mark that
// carries its message only in a payload is named kPayloadOnlyName.
NvtxAttributes payloadOnly() {
    NvtxAttributes attributes;
    attributes.message = kPayloadOnlyName;
    return attributes;
}
void NVTX_API markPayload(nvtxDomainHandle_t domain, const nvtxPayloadData_t* /*data*/,
                          size_t /*count*/) {
    recorder().mark(domainOf(domain), payloadOnly());
}
int NVTX_API rangePushPayload(nvtxDomainHandle_t domain, const nvtxPayloadData_t* /*data*/,
                              size_t /*count*/) {
    return recorder().push(domainOf(domain), payloadOnly());
}
int NVTX_API rangePopPayload(nvtxDomainHandle_t domain, const nvtxPayloadData_t* /*data*/,
                             size_t /*count*/) {
    return recorder().pop(domainOf(domain));
}
nvtxRangeId_t NVTX_API rangeStartPayload(nvtxDomainHandle_t domain,
                                         const nvtxPayloadData_t* /*data*/, size_t /*count*/) {
    return recorder().start(domainOf(domain), payloadOnly());
}
void NVTX_API rangeEndPayload(nvtxDomainHandle_t /*domain*/, nvtxRangeId_t id,
                              const nvtxPayloadData_t* /*data*/, size_t /*count*/) {
    recorder().end(id);
}

template <class F>
NvtxFunctionPointer entry(F function) {
    return reinterpret_cast<NvtxFunctionPointer>(function);
}

struct Handler {
    unsigned int id;
    NvtxFunctionPointer function;
};

const Handler kCore[] = {
    {NVTX_CBID_CORE_MarkEx, entry(&markEx)},
    {NVTX_CBID_CORE_MarkA, entry(&markA)},
    {NVTX_CBID_CORE_MarkW, entry(&markW)},
    {NVTX_CBID_CORE_RangeStartEx, entry(&rangeStartEx)},
    {NVTX_CBID_CORE_RangeStartA, entry(&rangeStartA)},
    {NVTX_CBID_CORE_RangeStartW, entry(&rangeStartW)},
    {NVTX_CBID_CORE_RangeEnd, entry(&rangeEnd)},
    {NVTX_CBID_CORE_RangePushEx, entry(&rangePushEx)},
    {NVTX_CBID_CORE_RangePushA, entry(&rangePushA)},
    {NVTX_CBID_CORE_RangePushW, entry(&rangePushW)},
    {NVTX_CBID_CORE_RangePop, entry(&rangePop)},
    {NVTX_CBID_CORE_NameCategoryA, entry(&nameCategoryA)},
    {NVTX_CBID_CORE_NameCategoryW, entry(&nameCategoryW)},
    {NVTX_CBID_CORE_NameOsThreadA, entry(&nameOsThreadA)},
    {NVTX_CBID_CORE_NameOsThreadW, entry(&nameOsThreadW)},
};
const Handler kCore2[] = {
    {NVTX_CBID_CORE2_DomainMarkEx, entry(&domainMarkEx)},
    {NVTX_CBID_CORE2_DomainRangeStartEx, entry(&domainRangeStartEx)},
    {NVTX_CBID_CORE2_DomainRangeEnd, entry(&domainRangeEnd)},
    {NVTX_CBID_CORE2_DomainRangePushEx, entry(&domainRangePushEx)},
    {NVTX_CBID_CORE2_DomainRangePop, entry(&domainRangePop)},
    {NVTX_CBID_CORE2_DomainNameCategoryA, entry(&domainNameCategoryA)},
    {NVTX_CBID_CORE2_DomainNameCategoryW, entry(&domainNameCategoryW)},
    {NVTX_CBID_CORE2_DomainRegisterStringA, entry(&domainRegisterStringA)},
    {NVTX_CBID_CORE2_DomainRegisterStringW, entry(&domainRegisterStringW)},
    {NVTX_CBID_CORE2_DomainCreateA, entry(&domainCreateA)},
    {NVTX_CBID_CORE2_DomainCreateW, entry(&domainCreateW)},
    {NVTX_CBID_CORE2_DomainDestroy, entry(&domainDestroy)},
    {NVTX_CBID_CORE2_Initialize, entry(&initialize)},
};
const Handler kCuda[] = {
    {NVTX_CBID_CUDA_NameCuDeviceA, entry(&nameCuDeviceA)},
    {NVTX_CBID_CUDA_NameCuDeviceW, entry(&nameCuDeviceW)},
    {NVTX_CBID_CUDA_NameCuContextA, entry(&nameCuContextA)},
    {NVTX_CBID_CUDA_NameCuContextW, entry(&nameCuContextW)},
    {NVTX_CBID_CUDA_NameCuStreamA, entry(&nameStreamA)},
    {NVTX_CBID_CUDA_NameCuStreamW, entry(&nameStreamW)},
    {NVTX_CBID_CUDA_NameCuEventA, entry(&nameEventA)},
    {NVTX_CBID_CUDA_NameCuEventW, entry(&nameEventW)},
};
const Handler kCudaRt[] = {
    {NVTX_CBID_CUDART_NameCudaDeviceA, entry(&nameCuDeviceA)},
    {NVTX_CBID_CUDART_NameCudaDeviceW, entry(&nameCuDeviceW)},
    {NVTX_CBID_CUDART_NameCudaStreamA, entry(&nameStreamA)},
    {NVTX_CBID_CUDART_NameCudaStreamW, entry(&nameStreamW)},
    {NVTX_CBID_CUDART_NameCudaEventA, entry(&nameEventA)},
    {NVTX_CBID_CUDART_NameCudaEventW, entry(&nameEventW)},
};

const Handler kPayload[] = {
    {NVTX3EXT_CBID_nvtxMarkPayload, entry(&markPayload)},
    {NVTX3EXT_CBID_nvtxRangePushPayload, entry(&rangePushPayload)},
    {NVTX3EXT_CBID_nvtxRangePopPayload, entry(&rangePopPayload)},
    {NVTX3EXT_CBID_nvtxRangeStartPayload, entry(&rangeStartPayload)},
    {NVTX3EXT_CBID_nvtxRangeEndPayload, entry(&rangeEndPayload)},
};

template <std::size_t N>
bool install(const NvtxExportTableCallbacks& callbacks, NvtxCallbackModule module,
             const Handler (&handlers)[N]) {
    NvtxFunctionTable table = nullptr;
    unsigned int size = 0;
    if (callbacks.GetModuleFunctionTable(module, &table, &size) == 0 || table == nullptr) {
        return false;
    }
    for (const Handler& handler : handlers) {
        // `size` counts the table's entries after the unused slot 0.
        if (handler.id < size && table[handler.id] != nullptr) {
            *table[handler.id] = handler.function;
        }
    }
    return true;
}

int NVTX_API staticInjection(NvtxGetExportTableFunc_t exportTable) {
    return installNvtxInjection(exportTable);
}

int NVTX_API staticExtensionInjection(nvtxExtModuleInfo_t* moduleInfo) {
    return installNvtxExtension(moduleInfo);
}

}  // namespace

int installNvtxExtension(void* info) {
    auto* moduleInfo = static_cast<nvtxExtModuleInfo_t*>(info);
    // Served once the core NVTX of the process is ours (NVTX initialises it first); an
    // extension other than the payload one (memory, counters) is left to its no-ops.
    if (moduleInfo == nullptr || !g_installed.load() ||
        moduleInfo->structSize < sizeof(nvtxExtModuleInfo_t)) {
        return 0;
    }
    if (moduleInfo->moduleId != NVTX_EXT_PAYLOAD_MODULEID) {
        return 1;
    }
    for (std::size_t s = 0; s < moduleInfo->segmentsCount; ++s) {
        nvtxExtModuleSegment_t& segment = moduleInfo->segments[s];
        for (const Handler& handler : kPayload) {
            if (handler.id < segment.slotCount) {
                segment.functionSlots[handler.id] = reinterpret_cast<intptr_t>(handler.function);
            }
        }
    }
    return 1;
}

int installNvtxInjection(NvtxExportTableFn exportTable, NvtxRecorder& target) {
    if (exportTable == nullptr) {
        return 0;
    }
    const auto* callbacks =
        static_cast<const NvtxExportTableCallbacks*>(exportTable(NVTX_ETID_CALLBACKS));
    if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) ||
        callbacks->GetModuleFunctionTable == nullptr) {
        return 0;
    }
    g_recorder.store(&target);
    if (!install(*callbacks, NVTX_CB_MODULE_CORE, kCore)) {
        return 0;  // not an NVTX we can serve: NVTX then runs without a tool
    }
    // Older NVTX instances lack some modules; what they have is served.
    install(*callbacks, NVTX_CB_MODULE_CORE2, kCore2);
    install(*callbacks, NVTX_CB_MODULE_CUDA, kCuda);
    install(*callbacks, NVTX_CB_MODULE_CUDART, kCudaRt);
    // NVTX asks tools to say which version they were built for.
    const auto* version =
        static_cast<const NvtxExportTableVersionInfo*>(exportTable(NVTX_ETID_VERSIONINFO));
    if (version != nullptr && version->struct_size >= sizeof(NvtxExportTableVersionInfo) &&
        version->SetInjectionNvtxVersion != nullptr) {
        version->SetInjectionNvtxVersion(NVTX_VERSION);
    }
    g_installed.store(true);
    return 1;
}

int installNvtxInjection(NvtxExportTableFn exportTable) {
    return installNvtxInjection(exportTable, NvtxRecorder::instance());
}

bool nvtxInjectionInstalled() {
    return g_installed.load();
}

}  // namespace wl::cupti

// NVTX's static injection hook (NVTX_LOAD_SEQUENCE_VERSION 2): the NVTX headers of every
// program that links wl_tracer declare this pointer weak and call it at their first NVTX call
// when NVTX_INJECTION64_PATH names no tool. This definition wins, so `warpline run`'s own
// workloads (and the tests) reach the same recorder as a recorded program. warpline_inject
// keeps it to itself (--exclude-libs): there NVTX_INJECTION64_PATH is the way in.
extern "C" {
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = &wl::cupti::staticInjection;
// The same for NVTX's extensions (the payload extension's pops and pushes).
NvtxExtInitializeInjectionFunc_t InitializeInjectionNvtxExtension_fnptr =
    &wl::cupti::staticExtensionInjection;
}
