// Every NVTX form a program may use, with the names, domains, categories, colours and payloads
// the tests expect to find in the trace: shared by the NVTX probes (NvtxProbe.cpp without CUDA,
// NvtxGpuProbe.cu with thrust/CUB) and the tests that record them.
#pragma once

#include <nvtx3/nvToolsExtPayload.h>
#include <unistd.h>
#include <nvtx3/nvtx3.hpp>

#include <cstdint>
#include <string>
#include <thread>

namespace nvtx_probe {

// Domains and categories of the C++ API.
struct ProbeDomain {
    static constexpr char const* name{"probe domain"};
};
struct ProbeCategory {
    static constexpr char const* name{"probe category in domain"};
    static constexpr std::uint32_t id{11};
};
struct RegisteredInDomain {
    static constexpr char const* message{"registered in domain"};
};

constexpr char kPushA[] = "push A";
constexpr wchar_t kPushWWide[] = L"push W \u00fc";
constexpr char kPushW[] = "push W \xc3\xbc";  // the same, as UTF-8
constexpr char kPushEx[] = "push Ex";
constexpr std::uint32_t kPushExColor = 0xFF00AA00u;
constexpr std::uint32_t kPushExCategory = 7;
constexpr char kPushExCategoryName[] = "probe category";
constexpr std::int32_t kPushExPayload = -5;
constexpr char kDefaultDomainEx[] = "default domain Ex";
constexpr std::uint64_t kDefaultDomainExPayload = 1ull << 40;
constexpr char kScopedLiteral[] = "scoped literal";
constexpr char kScopedString[] = "scoped string 3";
constexpr char kScopedInDomain[] = "scoped in domain";
constexpr char kUniqueRange[] = "unique range";
constexpr char kNvtx3Mark[] = "nvtx3 mark";
constexpr char kMarkA[] = "mark A";
constexpr wchar_t kMarkWWide[] = L"mark W";
constexpr char kMarkW[] = "mark W";
constexpr char kDomainMark[] = "domain mark";
constexpr char kRegisteredDefault[] = "registered default";
constexpr char kAttributed[] = "attributed";
constexpr std::uint32_t kAttributedColor = 0xFF102030u;  // nvtx3::rgb{0x10, 0x20, 0x30}
constexpr double kAttributedPayload = 2.5;
constexpr char kStartA[] = "start A";
constexpr char kStartEx[] = "start Ex";
constexpr float kStartExPayload = 0.75f;
constexpr char kUint32Payload[] = "uint32 payload";
constexpr std::uint32_t kUint32PayloadValue = 4000000000u;
constexpr char kInt64Payload[] = "int64 payload";
constexpr std::int64_t kInt64PayloadValue = -(1ll << 40);
constexpr char kPoppedWithPayload[] = "popped with payload";
constexpr char kLeftOpen[] = "left open";
constexpr char kNeverEnded[] = "never ended";
constexpr char kThreadName[] = "probe main thread";
constexpr char kWorkerName[] = "probe worker";
// The GPU probe's resources.
constexpr char kDeviceName[] = "probe device";
constexpr char kStreamName[] = "probe stream";
constexpr char kCuStreamName[] = "probe cu stream";
constexpr char kEventName[] = "probe event";

// Where each name must appear: its domain ("" = the default domain), and whether it is a mark
// (an instant) or a start/end range (the domain's async row) rather than a push/pop range.
struct ExpectedForm {
    const char* name;
    const char* domain;
    bool mark;
    bool startEnd;
};
inline constexpr ExpectedForm kExpectedForms[] = {
    {kPushA, "", false, false},
    {kPushW, "", false, false},
    {kPushEx, "", false, false},
    {kDefaultDomainEx, "", false, false},
    {kMarkA, "", true, false},
    {kMarkW, "", true, false},
    {kUint32Payload, "", true, false},
    {kInt64Payload, "", false, false},
    {kScopedLiteral, "", false, false},
    {kScopedString, "", false, false},
    {kScopedInDomain, ProbeDomain::name, false, false},
    {kNvtx3Mark, "", true, false},
    {kDomainMark, ProbeDomain::name, true, false},
    {kRegisteredDefault, "", false, false},
    {RegisteredInDomain::message, ProbeDomain::name, false, false},
    {kAttributed, ProbeDomain::name, false, false},
    {kPoppedWithPayload, ProbeDomain::name, false, false},
    {kStartA, "", false, true},
    {kStartEx, "", false, true},
    {kUniqueRange, "", false, true},
};

inline nvtxEventAttributes_t attributes(const char* message) {
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    return a;
}

// Calls every form once, on this thread and a worker, with `work` inside the C++ ranges (the GPU
// probe passes GPU work; without it they are empty). Leaves one push and one start open and pops
// once too often: each must become a counted warning, not a silent drop.
template <class Work>
void useEveryNvtxForm(Work work) {
    nvtxNameOsThreadA(static_cast<std::uint32_t>(gettid()), kThreadName);

    // C API, default domain: A, W and Ex.
    nvtxRangePushA(kPushA);
    work();
    nvtxRangePop();
    nvtxRangePushW(kPushWWide);
    nvtxRangePop();
    nvtxNameCategoryA(kPushExCategory, kPushExCategoryName);
    nvtxEventAttributes_t ex = attributes(kPushEx);
    ex.colorType = NVTX_COLOR_ARGB;
    ex.color = kPushExColor;
    ex.category = kPushExCategory;
    ex.payloadType = NVTX_PAYLOAD_TYPE_INT32;
    ex.payload.iValue = kPushExPayload;
    nvtxRangePushEx(&ex);
    nvtxRangePop();
    nvtxEventAttributes_t inDefault = attributes(kDefaultDomainEx);
    inDefault.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    inDefault.payload.ullValue = kDefaultDomainExPayload;
    nvtxDomainRangePushEx(nullptr, &inDefault);
    nvtxDomainRangePop(nullptr);
    nvtxMarkA(kMarkA);
    nvtxMarkW(kMarkWWide);
    nvtxEventAttributes_t u32 = attributes(kUint32Payload);
    u32.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT32;
    u32.payload.uiValue = kUint32PayloadValue;
    nvtxMarkEx(&u32);
    nvtxEventAttributes_t i64 = attributes(kInt64Payload);
    i64.payloadType = NVTX_PAYLOAD_TYPE_INT64;
    i64.payload.llValue = kInt64PayloadValue;
    nvtxRangePushEx(&i64);
    nvtxRangePop();

    // C++ API: the default domain and a named one.
    {
        nvtx3::scoped_range r{kScopedLiteral};
        work();
    }
    {
        nvtx3::scoped_range r{std::string("scoped string ") + std::to_string(3)};
        work();
    }
    {
        nvtx3::scoped_range_in<ProbeDomain> r{kScopedInDomain};
        work();
    }
    nvtx3::mark(kNvtx3Mark);
    nvtx3::mark_in<ProbeDomain>(kDomainMark);
    {
        static nvtx3::registered_string reg{kRegisteredDefault};
        nvtx3::scoped_range r{reg};
        work();
    }
    {
        auto const& reg = nvtx3::registered_string_in<ProbeDomain>::get<RegisteredInDomain>();
        nvtx3::scoped_range_in<ProbeDomain> r{reg};
        work();
    }
    {
        auto const& category = nvtx3::named_category_in<ProbeDomain>::get<ProbeCategory>();
        nvtx3::event_attributes attr{kAttributed, nvtx3::rgb{0x10, 0x20, 0x30}, category,
                                     nvtx3::payload{kAttributedPayload}};
        nvtx3::scoped_range_in<ProbeDomain> r{attr};
        work();
    }

    // The payload extension, as NCCL uses it: a range pushed with attributes and popped with a
    // payload; then a range and a mark that carry only a payload.
    {
        nvtxDomainHandle_t domain = nvtx3::domain::get<ProbeDomain>();
        nvtxEventAttributes_t pushed = attributes(kPoppedWithPayload);
        nvtxDomainRangePushEx(domain, &pushed);
        work();
        const std::uint64_t value = 42;
        const nvtxPayloadData_t data{NVTX_PAYLOAD_ENTRY_TYPE_UINT64, sizeof value, &value};
        nvtxRangePopPayload(domain, &data, 1);
        nvtxRangePushPayload(domain, &data, 1);
        nvtxRangePopPayload(domain, &data, 1);
        nvtxMarkPayload(domain, &data, 1);
    }

    // Start/end ranges, ended on other threads.
    nvtxRangeId_t started = nvtxRangeStartA(kStartA);
    nvtxEventAttributes_t startEx = attributes(kStartEx);
    startEx.payloadType = NVTX_PAYLOAD_TYPE_FLOAT;
    startEx.payload.fValue = kStartExPayload;
    nvtxRangeId_t startedEx = nvtxRangeStartEx(&startEx);
    nvtx3::unique_range unique{kUniqueRange};
    work();
    std::thread([started, startedEx, moved = std::move(unique)]() mutable {
        nvtxNameOsThreadA(static_cast<std::uint32_t>(gettid()), kWorkerName);
        nvtxRangeEnd(started);
        nvtxRangeEnd(startedEx);
        nvtx3::unique_range ended = std::move(moved);  // ends here, on this thread
    }).join();

    // Unbalanced on purpose.
    nvtxRangePop();  // a pop without a push
    nvtxRangeStartA(kNeverEnded);
    nvtxRangePushA(kLeftOpen);
}

}  // namespace nvtx_probe
