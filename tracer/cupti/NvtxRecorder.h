#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wl::cupti {

// A domain the program created (nvtxDomainCreate); its address is the handle NVTX hands back to
// the program. Never freed while the recorder lives: events keep pointing at it.
struct NvtxDomain {
    std::string name;
};

// An NVTX event's attributes as the program gave them (nvtxEventAttributes_t, or only a message
// for the A/W calls).
struct NvtxAttributes {
    std::string_view message;                 // text given as ASCII (or already UTF-8)
    std::u32string_view wideMessage;          // text given as wchar_t (UTF-32 on Linux)
    const std::string* registered = nullptr;  // a registered string's handle, when one was given
    std::uint32_t colorArgb = 0;
    bool hasColor = false;
    std::uint32_t category = 0;
    bool hasPayload = false;
    double payload = 0.0;  // every NVTX payload type as a double (integers exact up to 2^53)
};

// One NVTX range or mark of the program, paired and named: what the trace gets.
struct NvtxRange {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;  // == startNs for a mark
    std::string name;
    std::string domain;        // "" = the default domain
    std::string categoryName;  // nvtxNameCategory's name for the category ("" = none given)
    std::uint32_t category = 0;
    std::uint32_t colorArgb = 0;  // 0 = no colour given
    bool hasPayload = false;
    double payload = 0.0;
    std::int64_t pid = 0;
    std::int64_t tid = 0;     // the thread that started it
    std::int64_t endTid = 0;  // the thread that ended it (start/end ranges may cross threads)
    bool mark = false;
    bool startEnd = false;  // nvtxRangeStart/End: may overlap other ranges of its thread
};

// Everything the recorder collected since the last collect(), ready for RecordTranslator::addNvtx.
struct NvtxCapture {
    std::vector<NvtxRange> ranges;  // ranges and marks, in the order they began per thread
    std::map<std::int64_t, std::string> threadNames;   // nvtxNameOsThread: OS tid -> name
    std::map<std::uint32_t, std::string> streamNames;  // CUPTI stream id -> name
    std::map<int, std::string> deviceNames;            // device ordinal -> name
    std::vector<std::string> otherNames;               // contexts, events, unknown streams
    std::uint64_t neverEnded = 0;                      // ranges pushed or started and never ended
    std::uint64_t unmatchedEnds = 0;    // pops without a push, ends of ids never started
    std::vector<std::string> warnings;  // the first few of the above, named
};

// One recorded call as the spill file keeps it (SpillFile.h): its domain and name as text, so a
// recorder in another process can replay it.
struct NvtxSpilledEvent {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    std::uint64_t timestampNs = 0;
    std::uint64_t rangeId = 0;
    std::string domain;
    std::string message;
    double payload = 0.0;
    std::uint32_t colorArgb = 0;
    std::uint32_t category = 0;
    std::uint8_t kind = 0;  // NvtxRecorder's event kind
    bool hasColor = false;
    bool hasPayload = false;
};

// The names given so far, for the spill file.
struct NvtxSpilledNames {
    struct Category {
        std::string domain;
        std::uint32_t id = 0;
        std::string name;
    };
    std::vector<Category> categories;
    std::map<std::int64_t, std::string> threadNames;
    std::map<std::uint32_t, std::string> streamNames;
    std::map<int, std::string> deviceNames;
    std::vector<std::string> otherNames;
    bool empty() const {
        return categories.empty() && threadNames.empty() && streamNames.empty() &&
               deviceNames.empty() && otherNames.empty();
    }
};

// Records the program's NVTX calls: the handlers of the NVTX injection (NvtxInjection.cpp) call
// it on the program's threads. Each thread appends to a buffer of its own (its lock is only ever
// contended by collect()); push/pop and start/end are paired, names resolved and strings
// converted only in collect(), not on the program's thread. Timestamps come from the clock the
// tracer's activity records use (CUPTI's), or from a clock a test sets.
// One per process (instance()); tests make their own.
class NvtxRecorder {
public:
    using ClockFn = std::uint64_t (*)();
    // A CUDA stream handle (cudaStream_t or CUstream) to the CUPTI stream id of its records.
    using StreamIdFn = std::optional<std::uint32_t> (*)(void* stream);

    // Strings longer than this are cut: a missing terminator must not run through memory.
    static constexpr std::size_t kMaxStringBytes = 4096;
    // Named in the warnings of collect(), at most.
    static constexpr std::size_t kMaxWarnings = 20;

    explicit NvtxRecorder(ClockFn clock, StreamIdFn streamId = nullptr);
    ~NvtxRecorder();
    NvtxRecorder(const NvtxRecorder&) = delete;
    NvtxRecorder& operator=(const NvtxRecorder&) = delete;

    // The process's recorder, on CUPTI's clock.
    static NvtxRecorder& instance();

    // Calls are recorded only while on (record: from NVTX's start; `run`: while tracing).
    void setRecording(bool on) { m_recording.store(on, std::memory_order_relaxed); }
    bool recording() const { return m_recording.load(std::memory_order_relaxed); }

    // The handlers' side, on the program's threads. A null domain is the default domain.
    void mark(const NvtxDomain* domain, const NvtxAttributes& attributes);
    // Returns the range's nesting level on this thread and domain (0 = outermost).
    int push(const NvtxDomain* domain, const NvtxAttributes& attributes);
    // Returns the level of the range it ended, or -1 when none was open.
    int pop(const NvtxDomain* domain);
    std::uint64_t start(const NvtxDomain* domain, const NvtxAttributes& attributes);
    void end(std::uint64_t rangeId);

    NvtxDomain* createDomain(std::string name);
    const std::string* registerString(const NvtxDomain* domain, std::string text);
    void nameCategory(const NvtxDomain* domain, std::uint32_t category, std::string name);
    void nameOsThread(std::uint32_t threadId, std::string name);
    void nameStream(void* stream, std::string name);
    void nameDevice(int device, std::string name);
    // Contexts and events have no rows: their names are kept in the trace's metadata.
    void nameOther(std::string what, std::string name);

    // Pairs what was recorded since the last call and hands it over. Ranges still open are
    // reported as never ended (and forgotten, as are the pushes they leave on their threads).
    NvtxCapture collect();
    // Calls that arrived while recording, since the last collect().
    std::uint64_t eventCount() const;

    // For the spill file, so a process killed without warning keeps its NVTX: copies of the calls
    // recorded since the last call (collect() still gets them), and every name given so far.
    std::vector<NvtxSpilledEvent> takeForSpill();
    NvtxSpilledNames namesForSpill() const;
    // Recovery from a spill file: a call as if its thread had made it now, and the names.
    void replay(const NvtxSpilledEvent& event);
    void replayNames(const NvtxSpilledNames& names);

    // wchar_t text (UTF-32 on Linux) as UTF-8; invalid code points become U+FFFD.
    static std::string utf8(std::u32string_view text);

private:
    enum class EventKind : std::uint8_t { Push, Pop, Start, End, Mark };
    struct Event {
        std::uint64_t timestampNs = 0;
        std::uint64_t rangeId = 0;  // Start/End
        const NvtxDomain* domain = nullptr;
        const std::string* registered = nullptr;
        std::string message;  // UTF-8 (wide text is converted as it arrives: rare)
        double payload = 0.0;
        std::uint32_t colorArgb = 0;
        std::uint32_t category = 0;
        EventKind kind = EventKind::Mark;
        bool hasColor = false;
        bool hasPayload = false;
    };
    struct ThreadBuffer;

    ThreadBuffer& threadBuffer();
    ThreadBuffer& bufferOf(std::int64_t tid, std::int64_t pid);  // under m_mutex
    void append(EventKind kind, const NvtxDomain* domain, const NvtxAttributes* attributes,
                std::uint64_t rangeId, int* level);

    ClockFn m_clock;
    StreamIdFn m_streamId;
    std::atomic<bool> m_recording{false};
    std::atomic<std::uint64_t> m_nextRangeId{1};
    const std::uint64_t m_serial;  // tells this recorder's thread buffers from another's

    mutable std::mutex m_mutex;  // the lists below (never taken on the per-event path)
    std::vector<std::unique_ptr<ThreadBuffer>> m_threads;
    std::deque<NvtxDomain> m_domains;
    std::deque<std::string> m_strings;  // registered strings
    std::map<std::pair<const NvtxDomain*, std::uint32_t>, std::string> m_categoryNames;
    std::map<std::int64_t, std::string> m_threadNames;
    std::map<std::uint32_t, std::string> m_streamNames;
    std::map<int, std::string> m_deviceNames;
    std::vector<std::string> m_otherNames;
};

}  // namespace wl::cupti
