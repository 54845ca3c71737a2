// Warpline's NVTX tool without a GPU: the handlers are installed into a fake NVTX instance's
// function tables (as NVTX's loader would hand them over) and called through them; the last test
// goes through the real NVTX headers of this test program and NVTX's static injection hook.
#include "cupti/NvtxRecorder.h"

#include <gtest/gtest.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cupti/CuptiTracer.h"
#include "cupti/NvtxInjection.h"

namespace wl::cupti {
namespace {

std::atomic<std::uint64_t> g_fakeNs{0};
std::uint64_t fakeClock() {
    return g_fakeNs.fetch_add(10) + 10;
}

std::optional<std::uint32_t> fakeStreamId(void* stream) {
    if (stream == reinterpret_cast<void*>(0x1000)) {
        return 13u;
    }
    return std::nullopt;
}

// One fake NVTX instance: a function table per module, as NVTX's own globals hold them.
struct FakeNvtx {
    static constexpr unsigned kSlots = 32;
    NvtxFunctionPointer functions[NVTX_CB_MODULE_SIZE][kSlots] = {};
    NvtxFunctionPointer* tables[NVTX_CB_MODULE_SIZE][kSlots + 1] = {};
    unsigned sizes[NVTX_CB_MODULE_SIZE] = {0, NVTX_CBID_CORE_SIZE,   NVTX_CBID_CUDA_SIZE,
                                           0, NVTX_CBID_CUDART_SIZE, NVTX_CBID_CORE2_SIZE,
                                           0};
    NvtxExportTableCallbacks callbacks{sizeof(NvtxExportTableCallbacks), &moduleTable};
    std::uint32_t toolVersion = 0;
    NvtxExportTableVersionInfo version{sizeof(NvtxExportTableVersionInfo), 3, 0, &setVersion};

    static FakeNvtx* current;

    FakeNvtx() {
        current = this;
        for (unsigned m = 0; m < NVTX_CB_MODULE_SIZE; ++m) {
            for (unsigned i = 1; i < sizes[m]; ++i) {
                tables[m][i] = &functions[m][i];
            }
        }
    }
    static int NVTX_API moduleTable(NvtxCallbackModule module, NvtxFunctionTable* table,
                                    unsigned* size) {
        if (module <= NVTX_CB_MODULE_INVALID || module >= NVTX_CB_MODULE_SIZE ||
            current->sizes[module] == 0) {
            return 0;
        }
        *table = current->tables[module];
        *size = current->sizes[module];
        return 1;
    }
    static void NVTX_API setVersion(std::uint32_t v) { current->toolVersion = v; }
    static const void* NVTX_API exportTable(std::uint32_t id) {
        if (id == NVTX_ETID_CALLBACKS) {
            return &current->callbacks;
        }
        return id == NVTX_ETID_VERSIONINFO ? &current->version : nullptr;
    }

    template <class F>
    F get(NvtxCallbackModule module, unsigned id) const {
        return reinterpret_cast<F>(functions[module][id]);
    }
};
FakeNvtx* FakeNvtx::current = nullptr;

nvtxEventAttributes_t attributes(const char* message) {
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    return a;
}

const NvtxRange* find(const NvtxCapture& capture, const std::string& name) {
    for (const NvtxRange& r : capture.ranges) {
        if (r.name == name) {
            return &r;
        }
    }
    return nullptr;
}

class NvtxRecorderTest : public ::testing::Test {
protected:
    NvtxRecorder recorder{&fakeClock, &fakeStreamId};
    FakeNvtx nvtx;

    void SetUp() override {
        ASSERT_EQ(installNvtxInjection(&FakeNvtx::exportTable, recorder), 1);
        recorder.setRecording(true);
    }
    template <class F>
    F core(unsigned id) const {
        return nvtx.get<F>(NVTX_CB_MODULE_CORE, id);
    }
    template <class F>
    F core2(unsigned id) const {
        return nvtx.get<F>(NVTX_CB_MODULE_CORE2, id);
    }
};

TEST_F(NvtxRecorderTest, EveryHandlerIsInstalledAndTheVersionGiven) {
    for (unsigned id = 1; id < NVTX_CBID_CORE_SIZE; ++id) {
        EXPECT_NE(nvtx.functions[NVTX_CB_MODULE_CORE][id], nullptr) << "core " << id;
    }
    for (unsigned id = 1; id < NVTX_CBID_CORE2_SIZE; ++id) {
        if (id == NVTX_CBID_CORE2_DomainResourceCreate ||
            id == NVTX_CBID_CORE2_DomainResourceDestroy) {
            continue;  // resources (NVTX's own naming scheme) are not recorded
        }
        EXPECT_NE(nvtx.functions[NVTX_CB_MODULE_CORE2][id], nullptr) << "core2 " << id;
    }
    for (unsigned id = 1; id < NVTX_CBID_CUDA_SIZE; ++id) {
        EXPECT_NE(nvtx.functions[NVTX_CB_MODULE_CUDA][id], nullptr) << "cuda " << id;
    }
    for (unsigned id = 1; id < NVTX_CBID_CUDART_SIZE; ++id) {
        EXPECT_NE(nvtx.functions[NVTX_CB_MODULE_CUDART][id], nullptr) << "cudart " << id;
    }
    EXPECT_EQ(nvtx.toolVersion, static_cast<std::uint32_t>(NVTX_VERSION));
}

TEST_F(NvtxRecorderTest, EveryFormArrivesWithItsNameDomainCategoryColourAndPayload) {
    using namespace std::string_literals;
    auto markA = core<nvtxMarkA_impl_fntype>(NVTX_CBID_CORE_MarkA);
    auto markW = core<nvtxMarkW_impl_fntype>(NVTX_CBID_CORE_MarkW);
    auto markEx = core<nvtxMarkEx_impl_fntype>(NVTX_CBID_CORE_MarkEx);
    auto pushA = core<nvtxRangePushA_impl_fntype>(NVTX_CBID_CORE_RangePushA);
    auto pushW = core<nvtxRangePushW_impl_fntype>(NVTX_CBID_CORE_RangePushW);
    auto pushEx = core<nvtxRangePushEx_impl_fntype>(NVTX_CBID_CORE_RangePushEx);
    auto pop = core<nvtxRangePop_impl_fntype>(NVTX_CBID_CORE_RangePop);
    auto startA = core<nvtxRangeStartA_impl_fntype>(NVTX_CBID_CORE_RangeStartA);
    auto startW = core<nvtxRangeStartW_impl_fntype>(NVTX_CBID_CORE_RangeStartW);
    auto startEx = core<nvtxRangeStartEx_impl_fntype>(NVTX_CBID_CORE_RangeStartEx);
    auto end = core<nvtxRangeEnd_impl_fntype>(NVTX_CBID_CORE_RangeEnd);
    auto nameCategoryA = core<nvtxNameCategoryA_impl_fntype>(NVTX_CBID_CORE_NameCategoryA);
    auto nameCategoryW = core<nvtxNameCategoryW_impl_fntype>(NVTX_CBID_CORE_NameCategoryW);
    auto createA = core2<nvtxDomainCreateA_impl_fntype>(NVTX_CBID_CORE2_DomainCreateA);
    auto createW = core2<nvtxDomainCreateW_impl_fntype>(NVTX_CBID_CORE2_DomainCreateW);
    auto registerA =
        core2<nvtxDomainRegisterStringA_impl_fntype>(NVTX_CBID_CORE2_DomainRegisterStringA);
    auto registerW =
        core2<nvtxDomainRegisterStringW_impl_fntype>(NVTX_CBID_CORE2_DomainRegisterStringW);
    auto domainCategoryA =
        core2<nvtxDomainNameCategoryA_impl_fntype>(NVTX_CBID_CORE2_DomainNameCategoryA);
    auto domainCategoryW =
        core2<nvtxDomainNameCategoryW_impl_fntype>(NVTX_CBID_CORE2_DomainNameCategoryW);
    auto domainPush = core2<nvtxDomainRangePushEx_impl_fntype>(NVTX_CBID_CORE2_DomainRangePushEx);
    auto domainPop = core2<nvtxDomainRangePop_impl_fntype>(NVTX_CBID_CORE2_DomainRangePop);
    auto domainMark = core2<nvtxDomainMarkEx_impl_fntype>(NVTX_CBID_CORE2_DomainMarkEx);
    auto domainStart =
        core2<nvtxDomainRangeStartEx_impl_fntype>(NVTX_CBID_CORE2_DomainRangeStartEx);
    auto domainEnd = core2<nvtxDomainRangeEnd_impl_fntype>(NVTX_CBID_CORE2_DomainRangeEnd);
    auto destroy = core2<nvtxDomainDestroy_impl_fntype>(NVTX_CBID_CORE2_DomainDestroy);

    // The default domain: A, W and Ex forms.
    markA("mark A");
    markW(L"mark W \u00e9\u4e2d");
    nameCategoryA(3, "I/O");
    auto a = attributes("mark Ex");
    a.category = 3;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = 0xFF112233u;
    a.payloadType = NVTX_PAYLOAD_TYPE_INT32;
    a.payload.iValue = -7;
    markEx(&a);
    EXPECT_EQ(pushA("outer A"), 0);
    EXPECT_EQ(pushW(L"inner W"), 1);
    auto inner = attributes(nullptr);
    inner.messageType = NVTX_MESSAGE_TYPE_UNICODE;
    inner.message.unicode = L"innermost Ex";
    inner.payloadType = NVTX_PAYLOAD_TYPE_FLOAT;
    inner.payload.fValue = 2.5f;
    EXPECT_EQ(pushEx(&inner), 2);
    EXPECT_EQ(pop(), 2);
    EXPECT_EQ(pop(), 1);
    EXPECT_EQ(pop(), 0);
    // A registered string in the default domain (nvtx3::registered_string).
    nvtxStringHandle_t registered = registerA(nullptr, "registered default");
    auto r = attributes(nullptr);
    r.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    r.message.registered = registered;
    r.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    r.payload.ullValue = 1ull << 40;
    domainPush(nullptr, &r);
    domainPop(nullptr);

    // A named domain, with its own categories and strings.
    nvtxDomainHandle_t physics = createA("physics");
    EXPECT_EQ(createW(L"physics"), physics) << "one domain per name";
    nvtxDomainHandle_t wide = createW(L"wide \u00fc");
    domainCategoryA(physics, 3, "solver");
    domainCategoryW(wide, 1, L"w category");
    nameCategoryW(4, L"unused");
    auto d = attributes("step");
    d.category = 3;
    d.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
    d.payload.dValue = 0.125;
    EXPECT_EQ(domainPush(physics, &d), 0);
    auto w = attributes(nullptr);
    w.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    w.message.registered = registerW(wide, L"wide registered");
    w.category = 1;
    w.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT32;
    w.payload.uiValue = 4000000000u;
    domainMark(wide, &w);
    EXPECT_EQ(domainPop(physics), 0);
    auto s = attributes("domain start");
    s.payloadType = NVTX_PAYLOAD_TYPE_INT64;
    s.payload.llValue = -(1ll << 40);
    const nvtxRangeId_t domainRange = domainStart(physics, &s);
    domainEnd(physics, domainRange);
    destroy(wide);

    // Start/end ranges, one ended on another thread.
    const nvtxRangeId_t crossing = startA("crossing");
    const nvtxRangeId_t wideRange = startW(L"start W");
    auto e = attributes("start Ex");
    e.colorType = NVTX_COLOR_ARGB;
    e.color = 0xFFABCDEFu;
    const nvtxRangeId_t exRange = startEx(&e);
    EXPECT_NE(crossing, wideRange);
    end(exRange);
    end(wideRange);
    std::int64_t otherTid = 0;
    std::thread([&] {
        end(crossing);
        otherTid = static_cast<std::int64_t>(gettid());
    }).join();

    const NvtxCapture capture = recorder.collect();
    EXPECT_EQ(capture.neverEnded, 0u);
    EXPECT_EQ(capture.unmatchedEnds, 0u);
    EXPECT_TRUE(capture.warnings.empty());
    ASSERT_EQ(capture.ranges.size(), 13u);

    const NvtxRange* m = find(capture, "mark A");
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(m->mark);
    EXPECT_EQ(m->startNs, m->endNs);
    EXPECT_EQ(m->domain, "");
    ASSERT_NE(find(capture, "mark W \xc3\xa9\xe4\xb8\xad"), nullptr) << "wide text as UTF-8";
    m = find(capture, "mark Ex");
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->category, 3u);
    EXPECT_EQ(m->categoryName, "I/O");
    EXPECT_EQ(m->colorArgb, 0xFF112233u);
    EXPECT_TRUE(m->hasPayload);
    EXPECT_EQ(m->payload, -7.0);

    const NvtxRange* outer = find(capture, "outer A");
    const NvtxRange* innerW = find(capture, "inner W");
    const NvtxRange* innermost = find(capture, "innermost Ex");
    ASSERT_TRUE(outer && innerW && innermost);
    EXPECT_LT(outer->startNs, innerW->startNs);
    EXPECT_LT(innerW->startNs, innermost->startNs);
    EXPECT_LT(innermost->endNs, innerW->endNs);
    EXPECT_LT(innerW->endNs, outer->endNs);
    EXPECT_FALSE(outer->startEnd);
    EXPECT_EQ(outer->colorArgb, 0u) << "no colour given";
    EXPECT_FALSE(outer->hasPayload);
    EXPECT_EQ(innermost->payload, 2.5);

    const NvtxRange* reg = find(capture, "registered default");
    ASSERT_NE(reg, nullptr);
    EXPECT_EQ(reg->domain, "");
    EXPECT_EQ(reg->payload, static_cast<double>(1ull << 40));

    const NvtxRange* step = find(capture, "step");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->domain, "physics");
    EXPECT_EQ(step->categoryName, "solver") << "categories are named per domain";
    EXPECT_EQ(step->payload, 0.125);
    const NvtxRange* wideMark = find(capture, "wide registered");
    ASSERT_NE(wideMark, nullptr);
    EXPECT_TRUE(wideMark->mark);
    EXPECT_EQ(wideMark->domain, "wide \xc3\xbc");
    EXPECT_EQ(wideMark->categoryName, "w category");
    EXPECT_EQ(wideMark->payload, 4000000000.0);
    const NvtxRange* domainStarted = find(capture, "domain start");
    ASSERT_NE(domainStarted, nullptr);
    EXPECT_TRUE(domainStarted->startEnd);
    EXPECT_EQ(domainStarted->domain, "physics");
    EXPECT_EQ(domainStarted->payload, -static_cast<double>(1ll << 40));

    const NvtxRange* cross = find(capture, "crossing");
    ASSERT_NE(cross, nullptr);
    EXPECT_TRUE(cross->startEnd);
    EXPECT_EQ(cross->tid, static_cast<std::int64_t>(gettid()));
    EXPECT_EQ(cross->endTid, otherTid);
    EXPECT_NE(find(capture, "start W"), nullptr);
    const NvtxRange* ex = find(capture, "start Ex");
    ASSERT_NE(ex, nullptr);
    EXPECT_EQ(ex->colorArgb, 0xFFABCDEFu);
    EXPECT_LT(ex->startNs, ex->endNs);

    EXPECT_EQ(recorder.eventCount(), 0u) << "collect() hands everything over";
}

TEST_F(NvtxRecorderTest, ResourcesAreNamed) {
    auto thread = core<nvtxNameOsThreadA_impl_fntype>(NVTX_CBID_CORE_NameOsThreadA);
    auto threadW = core<nvtxNameOsThreadW_impl_fntype>(NVTX_CBID_CORE_NameOsThreadW);
    auto cudaDevice = nvtx.get<nvtxNameCudaDeviceA_fakeimpl_fntype>(
        NVTX_CB_MODULE_CUDART, NVTX_CBID_CUDART_NameCudaDeviceA);
    auto cudaStream = nvtx.get<nvtxNameCudaStreamW_fakeimpl_fntype>(
        NVTX_CB_MODULE_CUDART, NVTX_CBID_CUDART_NameCudaStreamW);
    auto cudaEvent = nvtx.get<nvtxNameCudaEventA_fakeimpl_fntype>(NVTX_CB_MODULE_CUDART,
                                                                  NVTX_CBID_CUDART_NameCudaEventA);
    auto cuDevice = nvtx.get<nvtxNameCuDeviceW_fakeimpl_fntype>(NVTX_CB_MODULE_CUDA,
                                                                NVTX_CBID_CUDA_NameCuDeviceW);
    auto cuStream = nvtx.get<nvtxNameCuStreamA_fakeimpl_fntype>(NVTX_CB_MODULE_CUDA,
                                                                NVTX_CBID_CUDA_NameCuStreamA);
    auto cuContext = nvtx.get<nvtxNameCuContextA_fakeimpl_fntype>(NVTX_CB_MODULE_CUDA,
                                                                  NVTX_CBID_CUDA_NameCuContextA);
    auto cuEvent = nvtx.get<nvtxNameCuEventW_fakeimpl_fntype>(NVTX_CB_MODULE_CUDA,
                                                              NVTX_CBID_CUDA_NameCuEventW);
    thread(4242, "loader");
    threadW(4243, L"writer \u00e9");
    cudaDevice(0, "trainer");
    cuDevice(1, L"spare");
    cudaStream(reinterpret_cast<void*>(0x1000), L"copies");
    cuStream(reinterpret_cast<void*>(0x2000), "unknown stream");
    cudaEvent(reinterpret_cast<void*>(0x30), "done");
    cuEvent(reinterpret_cast<void*>(0x40), L"ready");
    cuContext(reinterpret_cast<void*>(0x50), "main context");

    const NvtxCapture capture = recorder.collect();
    EXPECT_EQ(capture.threadNames.at(4242), "loader");
    EXPECT_EQ(capture.threadNames.at(4243), "writer \xc3\xa9");
    EXPECT_EQ(capture.deviceNames.at(0), "trainer");
    EXPECT_EQ(capture.deviceNames.at(1), "spare");
    EXPECT_EQ(capture.streamNames.at(13), "copies") << "by the stream's CUPTI id";
    ASSERT_EQ(capture.otherNames.size(), 4u);
    EXPECT_NE(capture.otherNames[0].find("unknown stream"), std::string::npos);
    EXPECT_NE(capture.otherNames[1].find("event 0x30: done"), std::string::npos);
    EXPECT_NE(capture.otherNames[2].find("event 0x40: ready"), std::string::npos);
    EXPECT_NE(capture.otherNames[3].find("context 0x50: main context"), std::string::npos);
}

TEST_F(NvtxRecorderTest, UnbalancedRangesAreCountedAndNamedNeverDropped) {
    auto pushA = core<nvtxRangePushA_impl_fntype>(NVTX_CBID_CORE_RangePushA);
    auto pop = core<nvtxRangePop_impl_fntype>(NVTX_CBID_CORE_RangePop);
    auto startA = core<nvtxRangeStartA_impl_fntype>(NVTX_CBID_CORE_RangeStartA);
    auto end = core<nvtxRangeEnd_impl_fntype>(NVTX_CBID_CORE_RangeEnd);
    auto domainPop = core2<nvtxDomainRangePop_impl_fntype>(NVTX_CBID_CORE2_DomainRangePop);
    auto createA = core2<nvtxDomainCreateA_impl_fntype>(NVTX_CBID_CORE2_DomainCreateA);

    EXPECT_EQ(pop(), -1) << "nothing to pop";
    pushA("kept open");
    startA("never ended");
    end(999'999);  // an id never started
    // A pop in another domain does not close the default domain's range.
    EXPECT_EQ(domainPop(createA("other")), -1);
    pushA("closed");
    pop();

    const NvtxCapture capture = recorder.collect();
    ASSERT_EQ(capture.ranges.size(), 1u);
    EXPECT_EQ(capture.ranges[0].name, "closed");
    EXPECT_EQ(capture.neverEnded, 2u);
    EXPECT_EQ(capture.unmatchedEnds, 3u);
    auto has = [&](const std::string& text) {
        return std::any_of(capture.warnings.begin(), capture.warnings.end(),
                           [&](const std::string& w) { return w.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(has("\"kept open\" was pushed and never popped"));
    EXPECT_TRUE(has("\"never ended\" was started and never ended"));
    EXPECT_TRUE(has("pop without a push"));
    EXPECT_TRUE(has("in domain \"other\""));
    EXPECT_TRUE(has("end without a start (id 999999)"));

    // What collect() reported is forgotten: the next capture starts clean.
    pop();
    const NvtxCapture next = recorder.collect();
    EXPECT_EQ(next.unmatchedEnds, 1u) << "the push left open was reported, not kept";
    EXPECT_EQ(next.neverEnded, 0u);
}

TEST_F(NvtxRecorderTest, ManyUnbalancedCallsAreAllCountedAndSummed) {
    auto pop = core<nvtxRangePop_impl_fntype>(NVTX_CBID_CORE_RangePop);
    for (int i = 0; i < 30; ++i) {
        pop();
    }
    const NvtxCapture capture = recorder.collect();
    EXPECT_EQ(capture.unmatchedEnds, 30u);
    ASSERT_EQ(capture.warnings.size(), NvtxRecorder::kMaxWarnings + 1);
    EXPECT_EQ(capture.warnings.back().rfind("10 more NVTX ranges", 0), 0u)
        << capture.warnings.back();
}

TEST_F(NvtxRecorderTest, NothingIsRecordedWhileOff) {
    auto pushA = core<nvtxRangePushA_impl_fntype>(NVTX_CBID_CORE_RangePushA);
    auto pop = core<nvtxRangePop_impl_fntype>(NVTX_CBID_CORE_RangePop);
    auto markA = core<nvtxMarkA_impl_fntype>(NVTX_CBID_CORE_MarkA);
    recorder.setRecording(false);
    pushA("untraced");
    markA("untraced");
    pop();
    EXPECT_EQ(recorder.eventCount(), 0u);
    recorder.setRecording(true);
    markA("traced");
    EXPECT_EQ(recorder.eventCount(), 1u);
    const NvtxCapture capture = recorder.collect();
    ASSERT_EQ(capture.ranges.size(), 1u);
    EXPECT_EQ(capture.ranges[0].name, "traced");
    EXPECT_EQ(capture.unmatchedEnds, 0u);
}

TEST_F(NvtxRecorderTest, ManyThreadsKeepTheirOwnNesting) {
    auto pushA = core<nvtxRangePushA_impl_fntype>(NVTX_CBID_CORE_RangePushA);
    auto pop = core<nvtxRangePop_impl_fntype>(NVTX_CBID_CORE_RangePop);
    constexpr int kThreads = 8;
    constexpr int kRanges = 5000;  // more than one buffer chunk per thread
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < kRanges; ++i) {
                pushA("outer");
                pushA("inner");
                pop();
                pop();
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    const NvtxCapture capture = recorder.collect();
    EXPECT_EQ(capture.ranges.size(), static_cast<std::size_t>(kThreads * kRanges * 2));
    EXPECT_EQ(capture.neverEnded + capture.unmatchedEnds, 0u);
    for (const NvtxRange& r : capture.ranges) {
        ASSERT_LE(r.startNs, r.endNs);
    }
}

TEST(NvtxRecorderUtf8Test, WideTextBecomesUtf8) {
    EXPECT_EQ(NvtxRecorder::utf8(U"a\u00e9\u4e2d\U0001F600"),
              "a\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80");
    EXPECT_EQ(NvtxRecorder::utf8(std::u32string(1, char32_t(0xD800))), "\xef\xbf\xbd");
}

// This test program's own NVTX calls, through NVTX's loader: with no NVTX_INJECTION64_PATH the
// static injection hook that wl_tracer defines attaches the process's recorder, as it does for
// `warpline run`'s workloads.
TEST(NvtxInProcessTest, TheProgramsNvtxCallsReachTheRecorder) {
    CuptiTracer::ensureNvtxInjection();
    ASSERT_EQ(std::getenv("NVTX_INJECTION64_PATH"), nullptr)
        << "this test needs NVTX's static hook; unset NVTX_INJECTION64_PATH";
    NvtxRecorder& recorder = NvtxRecorder::instance();
    (void)recorder.collect();
    recorder.setRecording(true);
    nvtxRangePushA("in-process");
    nvtxMarkA("in-process mark");
    nvtxDomainHandle_t domain = nvtxDomainCreateA("in-process domain");
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = nvtxDomainRegisterStringA(domain, "registered in-process");
    nvtxDomainRangePushEx(domain, &a);
    nvtxDomainRangePop(domain);
    nvtxRangePop();
    recorder.setRecording(false);
    EXPECT_TRUE(nvtxInjectionInstalled());
    const NvtxCapture capture = recorder.collect();
    ASSERT_NE(find(capture, "in-process"), nullptr);
    ASSERT_NE(find(capture, "in-process mark"), nullptr);
    const NvtxRange* registered = find(capture, "registered in-process");
    ASSERT_NE(registered, nullptr);
    EXPECT_EQ(registered->domain, "in-process domain");
    EXPECT_GT(find(capture, "in-process")->startNs, 0u) << "on CUPTI's clock";
}

}  // namespace
}  // namespace wl::cupti
