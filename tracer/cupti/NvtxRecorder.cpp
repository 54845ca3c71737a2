#include "cupti/NvtxRecorder.h"

#include <cupti.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <unordered_map>

namespace wl::cupti {
namespace {

// The first buffer of a thread is small (many threads make one or two calls); later ones are
// large enough that a busy thread rarely allocates.
constexpr std::size_t kFirstChunkEvents = 256;
constexpr std::size_t kChunkEvents = 4096;
// How long collect() waits for a thread that is inside an NVTX call: 100 ms in all.
constexpr int kLockTries = 1000;
constexpr std::chrono::microseconds kLockWait{100};

std::atomic<std::uint64_t> g_nextSerial{1};

std::int64_t currentTid() {
    return static_cast<std::int64_t>(syscall(SYS_gettid));
}

std::uint64_t cuptiClockNs() {
    std::uint64_t now = 0;
    return cuptiGetTimestamp(&now) == CUPTI_SUCCESS ? now : 0;
}

std::optional<std::uint32_t> cuptiStreamId(void* stream) {
    std::uint32_t id = 0;
    if (cuptiGetStreamIdEx(nullptr, static_cast<CUstream>(stream), 0, &id) != CUPTI_SUCCESS) {
        return std::nullopt;
    }
    return id;
}

std::string pointerText(const void* pointer) {
    char text[32];
    std::snprintf(text, sizeof(text), "%p", pointer);
    return text;
}

}  // namespace

struct NvtxRecorder::ThreadBuffer {
    std::mutex mutex;  // the thread itself, and collect()
    std::int64_t tid = 0;
    std::int64_t pid = 0;
    std::vector<std::vector<Event>> chunks;
    // Where takeForSpill() stopped: chunk index and events in it.
    std::size_t spilledChunk = 0;
    std::size_t spilledInChunk = 0;
    // Open pushes per domain on this thread: what push and pop return.
    std::vector<std::pair<const NvtxDomain*, int>> depths;

    int& depth(const NvtxDomain* domain) {
        for (auto& [d, level] : depths) {
            if (d == domain) {
                return level;
            }
        }
        return depths.emplace_back(domain, 0).second;
    }
};

NvtxRecorder::NvtxRecorder(ClockFn clock, StreamIdFn streamId)
    : m_clock(clock), m_streamId(streamId), m_serial(g_nextSerial.fetch_add(1)) {}

NvtxRecorder::~NvtxRecorder() = default;

NvtxRecorder& NvtxRecorder::instance() {
    // Never destroyed: NVTX calls may arrive from threads still running while the process exits.
    static NvtxRecorder* recorder = new NvtxRecorder(&cuptiClockNs, &cuptiStreamId);
    return *recorder;
}

NvtxRecorder::ThreadBuffer& NvtxRecorder::threadBuffer() {
    struct Cache {
        std::uint64_t serial = 0;
        ThreadBuffer* buffer = nullptr;
    };
    thread_local Cache t_cache;
    if (t_cache.serial == m_serial) {
        return *t_cache.buffer;
    }
    const std::int64_t tid = currentTid();
    std::lock_guard lock(m_mutex);
    ThreadBuffer* found = &bufferOf(tid, getpid());
    t_cache = Cache{m_serial, found};
    return *found;
}

NvtxRecorder::ThreadBuffer& NvtxRecorder::bufferOf(std::int64_t tid, std::int64_t pid) {
    for (auto& buffer : m_threads) {
        if (buffer->tid == tid) {
            return *buffer;
        }
    }
    auto buffer = std::make_unique<ThreadBuffer>();
    buffer->tid = tid;
    buffer->pid = pid;
    return *m_threads.emplace_back(std::move(buffer));
}

void NvtxRecorder::append(EventKind kind, const NvtxDomain* domain,
                          const NvtxAttributes* attributes, std::uint64_t rangeId, int* level) {
    ThreadBuffer& thread = threadBuffer();
    const std::uint64_t now = m_clock();
    std::lock_guard lock(thread.mutex);
    if (thread.chunks.empty() || thread.chunks.back().size() == thread.chunks.back().capacity()) {
        thread.chunks.emplace_back().reserve(thread.chunks.size() <= 1 ? kFirstChunkEvents
                                                                       : kChunkEvents);
    }
    Event& event = thread.chunks.back().emplace_back();
    event.timestampNs = now;
    event.kind = kind;
    event.domain = domain;
    event.rangeId = rangeId;
    if (attributes != nullptr) {
        event.registered = attributes->registered;
        if (attributes->registered == nullptr) {
            if (!attributes->wideMessage.empty()) {
                event.message = utf8(attributes->wideMessage);
            } else {
                event.message.assign(attributes->message.data(), attributes->message.size());
            }
        }
        event.colorArgb = attributes->colorArgb;
        event.hasColor = attributes->hasColor;
        event.category = attributes->category;
        event.hasPayload = attributes->hasPayload;
        event.payload = attributes->payload;
    }
    if (level != nullptr) {
        int& depth = thread.depth(domain);
        if (kind == EventKind::Push) {
            *level = depth++;
        } else {
            *level = depth > 0 ? --depth : -1;
        }
    }
}

void NvtxRecorder::mark(const NvtxDomain* domain, const NvtxAttributes& attributes) {
    if (recording()) {
        append(EventKind::Mark, domain, &attributes, 0, nullptr);
    }
}

int NvtxRecorder::push(const NvtxDomain* domain, const NvtxAttributes& attributes) {
    int level = 0;
    if (recording()) {
        append(EventKind::Push, domain, &attributes, 0, &level);
    }
    return level;
}

int NvtxRecorder::pop(const NvtxDomain* domain) {
    int level = -1;
    if (recording()) {
        append(EventKind::Pop, domain, nullptr, 0, &level);
    }
    return level;
}

std::uint64_t NvtxRecorder::start(const NvtxDomain* domain, const NvtxAttributes& attributes) {
    const std::uint64_t id = m_nextRangeId.fetch_add(1, std::memory_order_relaxed);
    if (recording()) {
        append(EventKind::Start, domain, &attributes, id, nullptr);
    }
    return id;
}

void NvtxRecorder::end(std::uint64_t rangeId) {
    if (recording()) {
        append(EventKind::End, nullptr, nullptr, rangeId, nullptr);
    }
}

NvtxDomain* NvtxRecorder::createDomain(std::string name) {
    std::lock_guard lock(m_mutex);
    // One handle per name: a domain created twice (two libraries, or create/destroy/create) is
    // one row in the trace.
    for (NvtxDomain& domain : m_domains) {
        if (domain.name == name) {
            return &domain;
        }
    }
    return &m_domains.emplace_back(NvtxDomain{std::move(name)});
}

const std::string* NvtxRecorder::registerString(const NvtxDomain* /*domain*/, std::string text) {
    std::lock_guard lock(m_mutex);
    return &m_strings.emplace_back(std::move(text));
}

void NvtxRecorder::nameCategory(const NvtxDomain* domain, std::uint32_t category,
                                std::string name) {
    std::lock_guard lock(m_mutex);
    m_categoryNames[{domain, category}] = std::move(name);
}

void NvtxRecorder::nameOsThread(std::uint32_t threadId, std::string name) {
    std::lock_guard lock(m_mutex);
    m_threadNames[threadId] = std::move(name);
}

void NvtxRecorder::nameStream(void* stream, std::string name) {
    // Resolved now, while the stream surely exists.
    const std::optional<std::uint32_t> id =
        m_streamId != nullptr ? m_streamId(stream) : std::nullopt;
    std::lock_guard lock(m_mutex);
    if (id) {
        m_streamNames[*id] = std::move(name);
    } else {
        m_otherNames.push_back("stream " + pointerText(stream) +
                               " (not known to CUPTI): " + std::move(name));
    }
}

void NvtxRecorder::nameDevice(int device, std::string name) {
    std::lock_guard lock(m_mutex);
    m_deviceNames[device] = std::move(name);
}

void NvtxRecorder::nameOther(std::string what, std::string name) {
    std::lock_guard lock(m_mutex);
    m_otherNames.push_back(std::move(what) + ": " + std::move(name));
}

std::uint64_t NvtxRecorder::eventCount() const {
    std::lock_guard lock(m_mutex);
    std::uint64_t count = 0;
    for (const auto& thread : m_threads) {
        std::lock_guard threadLock(thread->mutex);
        for (const auto& chunk : thread->chunks) {
            count += chunk.size();
        }
    }
    return count;
}

NvtxCapture NvtxRecorder::collect() {
    struct Taken {
        std::int64_t tid = 0;
        std::int64_t pid = 0;
        std::vector<std::vector<Event>> chunks;
    };
    std::vector<Taken> taken;
    NvtxCapture capture;
    std::map<std::pair<const NvtxDomain*, std::uint32_t>, std::string> categoryNames;
    std::vector<std::int64_t> stuck;
    {
        std::lock_guard lock(m_mutex);
        for (auto& thread : m_threads) {
            // A thread stopped inside an NVTX call holds its lock for good (the trace is being
            // written from a signal handler's request while that thread waits): its events are
            // left out, and said so, rather than the trace never being written.
            std::unique_lock threadLock(thread->mutex, std::defer_lock);
            for (int tries = 0; !threadLock.try_lock(); ++tries) {
                if (tries == kLockTries) {
                    break;
                }
                std::this_thread::sleep_for(kLockWait);
            }
            if (!threadLock.owns_lock()) {
                stuck.push_back(thread->tid);
                continue;
            }
            if (!thread->chunks.empty()) {
                taken.push_back(Taken{thread->tid, thread->pid, std::move(thread->chunks)});
                thread->chunks.clear();
            }
            thread->spilledChunk = 0;
            thread->spilledInChunk = 0;
            thread->depths.clear();
        }
        categoryNames = m_categoryNames;
        capture.threadNames = m_threadNames;
        capture.streamNames = m_streamNames;
        capture.deviceNames = m_deviceNames;
        capture.otherNames = m_otherNames;
    }
    std::size_t named = 0;  // unpaired ranges named in the warnings
    auto warn = [&](std::string message) {
        if (named < kMaxWarnings) {
            capture.warnings.push_back(std::move(message));
            ++named;
        }
    };
    for (std::int64_t tid : stuck) {
        capture.warnings.push_back("NVTX events of thread " + std::to_string(tid) +
                                   " were left out: it was stopped inside an NVTX call");
    }
    auto rangeOf = [&](const Event& event, std::int64_t pid, std::int64_t tid) {
        NvtxRange range;
        range.startNs = event.timestampNs;
        range.endNs = event.timestampNs;
        range.name = event.registered != nullptr ? *event.registered : event.message;
        if (event.domain != nullptr) {
            range.domain = event.domain->name;
        }
        range.category = event.category;
        if (event.category != 0) {
            if (auto it = categoryNames.find({event.domain, event.category});
                it != categoryNames.end()) {
                range.categoryName = it->second;
            }
        }
        range.colorArgb = event.hasColor ? event.colorArgb : 0;
        range.hasPayload = event.hasPayload;
        range.payload = event.payload;
        range.pid = pid;
        range.tid = tid;
        range.endTid = tid;
        return range;
    };
    auto domainText = [](const NvtxDomain* domain) {
        return domain != nullptr ? " in domain \"" + domain->name + "\"" : std::string();
    };
    struct OpenStart {
        const Event* event;
        std::int64_t pid;
        std::int64_t tid;
    };
    std::unordered_map<std::uint64_t, OpenStart> starts;
    struct EndSeen {
        std::uint64_t timestampNs;
        std::int64_t tid;
    };
    std::vector<std::pair<std::uint64_t, EndSeen>> ends;
    for (const Taken& thread : taken) {
        std::map<const NvtxDomain*, std::vector<const Event*>> stacks;
        for (const auto& chunk : thread.chunks) {
            for (const Event& event : chunk) {
                switch (event.kind) {
                    case EventKind::Mark: {
                        NvtxRange range = rangeOf(event, thread.pid, thread.tid);
                        range.mark = true;
                        capture.ranges.push_back(std::move(range));
                        break;
                    }
                    case EventKind::Push:
                        stacks[event.domain].push_back(&event);
                        break;
                    case EventKind::Pop: {
                        auto& stack = stacks[event.domain];
                        if (stack.empty()) {
                            ++capture.unmatchedEnds;
                            warn("NVTX pop without a push on thread " + std::to_string(thread.tid) +
                                 domainText(event.domain));
                            break;
                        }
                        NvtxRange range = rangeOf(*stack.back(), thread.pid, thread.tid);
                        range.endNs = event.timestampNs;
                        capture.ranges.push_back(std::move(range));
                        stack.pop_back();
                        break;
                    }
                    case EventKind::Start:
                        starts.emplace(event.rangeId, OpenStart{&event, thread.pid, thread.tid});
                        break;
                    case EventKind::End:
                        ends.emplace_back(event.rangeId, EndSeen{event.timestampNs, thread.tid});
                        break;
                }
            }
        }
        for (const auto& [domain, stack] : stacks) {
            for (const Event* open : stack) {
                ++capture.neverEnded;
                const NvtxRange range = rangeOf(*open, thread.pid, thread.tid);
                warn("NVTX range \"" + range.name + "\"" + domainText(domain) +
                     " was pushed and never popped (thread " + std::to_string(thread.tid) + ")");
            }
        }
    }
    for (const auto& [id, end] : ends) {
        auto it = starts.find(id);
        if (it == starts.end()) {
            ++capture.unmatchedEnds;
            warn("NVTX range end without a start (id " + std::to_string(id) + ")");
            continue;
        }
        NvtxRange range = rangeOf(*it->second.event, it->second.pid, it->second.tid);
        range.endNs = end.timestampNs;
        range.endTid = end.tid;
        range.startEnd = true;
        capture.ranges.push_back(std::move(range));
        starts.erase(it);
    }
    // Deterministic order for the warnings: by id, which is the order the ranges started.
    std::map<std::uint64_t, const OpenStart*> open;
    for (const auto& [id, start] : starts) {
        open.emplace(id, &start);
    }
    for (const auto& [id, start] : open) {
        ++capture.neverEnded;
        const NvtxRange range = rangeOf(*start->event, start->pid, start->tid);
        warn("NVTX range \"" + range.name + "\"" + domainText(start->event->domain) +
             " was started and never ended (thread " + std::to_string(start->tid) + ")");
    }
    const std::uint64_t problems = capture.neverEnded + capture.unmatchedEnds;
    if (problems > named) {
        capture.warnings.push_back(std::to_string(problems - named) +
                                   " more NVTX ranges never ended or ends without a start");
    }
    return capture;
}

std::vector<NvtxSpilledEvent> NvtxRecorder::takeForSpill() {
    std::vector<NvtxSpilledEvent> out;
    std::lock_guard lock(m_mutex);
    for (auto& thread : m_threads) {
        std::lock_guard threadLock(thread->mutex);
        for (std::size_t c = thread->spilledChunk; c < thread->chunks.size(); ++c) {
            const auto& chunk = thread->chunks[c];
            const std::size_t from = c == thread->spilledChunk ? thread->spilledInChunk : 0;
            for (std::size_t i = from; i < chunk.size(); ++i) {
                const Event& e = chunk[i];
                NvtxSpilledEvent s;
                s.pid = thread->pid;
                s.tid = thread->tid;
                s.timestampNs = e.timestampNs;
                s.rangeId = e.rangeId;
                if (e.domain != nullptr) {
                    s.domain = e.domain->name;
                }
                s.message = e.registered != nullptr ? *e.registered : e.message;
                s.payload = e.payload;
                s.colorArgb = e.colorArgb;
                s.category = e.category;
                s.kind = static_cast<std::uint8_t>(e.kind);
                s.hasColor = e.hasColor;
                s.hasPayload = e.hasPayload;
                out.push_back(std::move(s));
            }
        }
        if (!thread->chunks.empty()) {
            thread->spilledChunk = thread->chunks.size() - 1;
            thread->spilledInChunk = thread->chunks.back().size();
        }
    }
    return out;
}

NvtxSpilledNames NvtxRecorder::namesForSpill() const {
    NvtxSpilledNames names;
    std::lock_guard lock(m_mutex);
    for (const auto& [key, name] : m_categoryNames) {
        names.categories.push_back(
            {key.first != nullptr ? key.first->name : std::string(), key.second, name});
    }
    names.threadNames = m_threadNames;
    names.streamNames = m_streamNames;
    names.deviceNames = m_deviceNames;
    names.otherNames = m_otherNames;
    return names;
}

void NvtxRecorder::replay(const NvtxSpilledEvent& spilled) {
    if (spilled.kind > static_cast<std::uint8_t>(EventKind::Mark)) {
        return;  // not a kind this build wrote
    }
    const NvtxDomain* domain = spilled.domain.empty() ? nullptr : createDomain(spilled.domain);
    std::lock_guard lock(m_mutex);
    ThreadBuffer& thread = bufferOf(spilled.tid, spilled.pid);
    std::lock_guard threadLock(thread.mutex);
    if (thread.chunks.empty() || thread.chunks.back().size() == thread.chunks.back().capacity()) {
        thread.chunks.emplace_back().reserve(kChunkEvents);
    }
    Event& event = thread.chunks.back().emplace_back();
    event.timestampNs = spilled.timestampNs;
    event.rangeId = spilled.rangeId;
    event.domain = domain;
    event.message = spilled.message;
    event.payload = spilled.payload;
    event.colorArgb = spilled.colorArgb;
    event.category = spilled.category;
    event.kind = static_cast<EventKind>(spilled.kind);
    event.hasColor = spilled.hasColor;
    event.hasPayload = spilled.hasPayload;
}

void NvtxRecorder::replayNames(const NvtxSpilledNames& names) {
    for (const auto& category : names.categories) {
        nameCategory(category.domain.empty() ? nullptr : createDomain(category.domain), category.id,
                     category.name);
    }
    std::lock_guard lock(m_mutex);
    for (const auto& [tid, name] : names.threadNames) {
        m_threadNames[tid] = name;
    }
    for (const auto& [id, name] : names.streamNames) {
        m_streamNames[id] = name;
    }
    for (const auto& [device, name] : names.deviceNames) {
        m_deviceNames[device] = name;
    }
    m_otherNames = names.otherNames;
}

std::string NvtxRecorder::utf8(std::u32string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t c : text) {
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
            c = 0xFFFD;
        }
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return out;
}

}  // namespace wl::cupti
