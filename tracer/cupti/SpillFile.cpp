#include "cupti/SpillFile.h"

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <vector>

namespace wl::cupti {
namespace {

constexpr char kMagic[8] = {'W', 'L', 'S', 'P', 'I', 'L', 'L', '1'};
constexpr std::uint32_t kTagMetadata = 'M';
constexpr std::uint32_t kTagBuffer = 'B';
constexpr std::uint32_t kTagRangeIds = 'R';
constexpr std::uint32_t kTagNvtx = 'N';
constexpr std::uint32_t kTagNvtxNames = 'n';
constexpr std::uint32_t kNullPointer = 0xFFFFFFFFu;
// A block larger than this is not one we wrote (buffers are at most a few hundred MB).
constexpr std::uint64_t kMaxBlockBytes = 1ull << 32;

// The pointer fields of the records the translator reads, by kind: strings are written out and
// pointed to again; any other pointer is nulled on reading (it pointed into the dead process).
struct PointerField {
    std::size_t offset;
    bool text;
};

std::span<const PointerField> pointerFields(CUpti_ActivityKind kind) {
    static constexpr PointerField kKernel[] = {
        {offsetof(CUpti_ActivityKernel10, name), true},
        {offsetof(CUpti_ActivityKernel10, reserved0), false},
        {offsetof(CUpti_ActivityKernel10, pAccessPolicyWindow), false},
    };
    static constexpr PointerField kMarker[] = {
        {offsetof(CUpti_ActivityMarker2, name), true},
        {offsetof(CUpti_ActivityMarker2, domain), true},
    };
    static constexpr PointerField kName[] = {{offsetof(CUpti_ActivityName, name), true}};
    static constexpr PointerField kDevice[] = {{offsetof(CUpti_ActivityDevice5, name), true}};
    static constexpr PointerField kOverhead[] = {
        {offsetof(CUpti_ActivityOverhead3, overheadData), false}};
    static constexpr PointerField kMemcpy[] = {{offsetof(CUpti_ActivityMemcpy6, reserved0), false}};
    static constexpr PointerField kPeer[] = {
        {offsetof(CUpti_ActivityMemcpyPtoP4, reserved0), false}};
    static constexpr PointerField kMemset[] = {{offsetof(CUpti_ActivityMemset4, reserved0), false}};
    static constexpr PointerField kMemory[] = {
        {offsetof(CUpti_ActivityMemory4, name), false},
        {offsetof(CUpti_ActivityMemory4, source), false},
    };
    static constexpr PointerField kEvent[] = {
        {offsetof(CUpti_ActivityCudaEvent2, reserved0), false}};
    switch (kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            return kKernel;
        case CUPTI_ACTIVITY_KIND_MARKER:
            return kMarker;
        case CUPTI_ACTIVITY_KIND_NAME:
            return kName;
        case CUPTI_ACTIVITY_KIND_DEVICE:
            return kDevice;
        case CUPTI_ACTIVITY_KIND_OVERHEAD:
            return kOverhead;
        case CUPTI_ACTIVITY_KIND_MEMCPY:
            return kMemcpy;
        case CUPTI_ACTIVITY_KIND_MEMCPY2:
            return kPeer;
        case CUPTI_ACTIVITY_KIND_MEMSET:
            return kMemset;
        case CUPTI_ACTIVITY_KIND_CUDA_EVENT:
            return kEvent;
        case CUPTI_ACTIVITY_KIND_MEMORY2:
            return kMemory;
        default:
            return {};
    }
}

template <typename T>
void put(std::string& out, T value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

void putText(std::string& out, const std::string& text) {
    put(out, static_cast<std::uint32_t>(text.size()));
    out += text;
}

// Reads fixed-size values from a block, failing (not crashing) on a short one.
class Cursor {
public:
    explicit Cursor(std::span<const std::uint8_t> data) : m_data(data) {}
    template <typename T>
    bool get(T& value) {
        if (m_data.size() - m_at < sizeof(T)) {
            return false;
        }
        std::memcpy(&value, m_data.data() + m_at, sizeof(T));
        m_at += sizeof(T);
        return true;
    }
    bool bytes(std::size_t count, const std::uint8_t*& at) {
        if (m_data.size() - m_at < count) {
            return false;
        }
        at = m_data.data() + m_at;
        m_at += count;
        return true;
    }

    bool text(std::string& out) {
        std::uint32_t length = 0;
        const std::uint8_t* at = nullptr;
        if (!get(length) || !bytes(length, at)) {
            return false;
        }
        out.assign(reinterpret_cast<const char*>(at), length);
        return true;
    }

private:
    std::span<const std::uint8_t> m_data;
    std::size_t m_at = 0;
};

bool readNvtxEvents(Cursor& cursor, NvtxRecorder& recorder) {
    std::uint32_t count = 0;
    if (!cursor.get(count)) {
        return false;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        NvtxSpilledEvent e;
        std::uint8_t flags = 0;
        if (!cursor.get(e.kind) || !cursor.get(flags) || !cursor.get(e.pid) || !cursor.get(e.tid) ||
            !cursor.get(e.timestampNs) || !cursor.get(e.rangeId) || !cursor.get(e.colorArgb) ||
            !cursor.get(e.category) || !cursor.get(e.payload) || !cursor.text(e.domain) ||
            !cursor.text(e.message)) {
            return false;
        }
        e.hasColor = (flags & 1) != 0;
        e.hasPayload = (flags & 2) != 0;
        recorder.replay(e);
    }
    return true;
}

bool readNvtxNames(Cursor& cursor, NvtxSpilledNames& names) {
    names = {};
    std::uint32_t count = 0;
    if (!cursor.get(count)) {
        return false;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        NvtxSpilledNames::Category c;
        if (!cursor.text(c.domain) || !cursor.get(c.id) || !cursor.text(c.name)) {
            return false;
        }
        names.categories.push_back(std::move(c));
    }
    const auto readMap = [&](auto& map) {
        std::uint32_t n = 0;
        if (!cursor.get(n)) {
            return false;
        }
        for (std::uint32_t i = 0; i < n; ++i) {
            typename std::decay_t<decltype(map)>::key_type key{};
            std::string name;
            if (!cursor.get(key) || !cursor.text(name)) {
                return false;
            }
            map[key] = std::move(name);
        }
        return true;
    };
    if (!readMap(names.threadNames) || !readMap(names.streamNames) || !readMap(names.deviceNames) ||
        !cursor.get(count)) {
        return false;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        std::string name;
        if (!cursor.text(name)) {
            return false;
        }
        names.otherNames.push_back(std::move(name));
    }
    return true;
}

model::Error spillError(const std::string& path, const std::string& why) {
    return model::Error{path + ": " + why, path, -1};
}

}  // namespace

model::Result<std::unique_ptr<SpillWriter>> SpillWriter::create(
    const std::string& path, const std::map<std::string, std::string>& metadata) {
    std::FILE* file = std::fopen(path.c_str(), "wbe");  // close-on-exec: not a child's file
    if (file == nullptr) {
        return spillError(path,
                          std::string("cannot create the spill file: ") + std::strerror(errno));
    }
    std::unique_ptr<SpillWriter> writer(new SpillWriter(path, file));
    std::fwrite(kMagic, 1, sizeof(kMagic), file);
    std::string payload;
    for (const auto& [key, value] : metadata) {
        payload += key;
        payload += '\0';
        payload += value;
        payload += '\0';
    }
    writer->writeBlock(kTagMetadata, {payload});
    if (!writer->ok()) {
        return spillError(path, writer->error());
    }
    return writer;
}

SpillWriter::~SpillWriter() {
    if (m_file != nullptr) {
        std::fclose(m_file);
    }
}

void SpillWriter::writeBlock(std::uint32_t tag, std::initializer_list<std::string_view> parts) {
    if (m_file == nullptr || !ok()) {
        return;
    }
    std::uint64_t size = 0;
    for (std::string_view part : parts) {
        size += part.size();
    }
    std::string header;
    put(header, tag);
    put(header, size);
    // The parts are written where they lie (an activity buffer is never copied), and flushed at
    // once: the point of the file is that a kill right after loses nothing written.
    bool written = std::fwrite(header.data(), 1, header.size(), m_file) == header.size();
    for (std::string_view part : parts) {
        written = written && std::fwrite(part.data(), 1, part.size(), m_file) == part.size();
    }
    if (!written || std::fflush(m_file) != 0) {
        m_error = std::string("writing the spill file failed: ") + std::strerror(errno);
    }
}

void SpillWriter::appendBuffer(const std::uint8_t* buffer, std::size_t validBytes,
                               std::span<const CUpti_Activity* const> records,
                               std::uint64_t dropped) {
    if (records.empty() && dropped == 0) {
        return;
    }
    std::string fields;
    std::uint32_t fieldCount = 0;
    std::string payload;  // what comes before the buffer's bytes
    payload.reserve(records.size() * 4 + 32);
    put(payload, static_cast<std::uint32_t>(records.size()));
    const std::size_t fieldCountAt = payload.size();
    put(payload, std::uint32_t{0});
    put(payload, dropped);
    for (const CUpti_Activity* record : records) {
        const auto offset =
            static_cast<std::uint32_t>(reinterpret_cast<const std::uint8_t*>(record) - buffer);
        put(payload, offset);
        for (const PointerField& field : pointerFields(record->kind)) {
            const char* text = nullptr;
            if (field.text) {
                std::memcpy(&text, reinterpret_cast<const std::uint8_t*>(record) + field.offset,
                            sizeof(text));
            }
            put(fields, static_cast<std::uint32_t>(offset + field.offset));
            if (text == nullptr) {
                put(fields, kNullPointer);
            } else {
                const std::size_t length =
                    strnlen(text, RecordTranslator::kMaxStringBytes);  // the translator's limit
                put(fields, static_cast<std::uint32_t>(length));
                fields.append(text, length);
            }
            ++fieldCount;
        }
    }
    std::memcpy(payload.data() + fieldCountAt, &fieldCount, sizeof(fieldCount));
    put(payload, static_cast<std::uint64_t>(validBytes));
    writeBlock(
        kTagBuffer,
        {payload, std::string_view(reinterpret_cast<const char*>(buffer), validBytes), fields});
}

void SpillWriter::appendNvtx(std::span<const NvtxSpilledEvent> events,
                             const NvtxSpilledNames& names) {
    if (!events.empty()) {
        std::string payload;
        put(payload, static_cast<std::uint32_t>(events.size()));
        for (const NvtxSpilledEvent& e : events) {
            put(payload, e.kind);
            put(payload, static_cast<std::uint8_t>((e.hasColor ? 1 : 0) | (e.hasPayload ? 2 : 0)));
            put(payload, e.pid);
            put(payload, e.tid);
            put(payload, e.timestampNs);
            put(payload, e.rangeId);
            put(payload, e.colorArgb);
            put(payload, e.category);
            put(payload, e.payload);
            putText(payload, e.domain);
            putText(payload, e.message);
        }
        writeBlock(kTagNvtx, {payload});
    }
    if (!names.empty()) {
        std::string payload;
        put(payload, static_cast<std::uint32_t>(names.categories.size()));
        for (const auto& c : names.categories) {
            putText(payload, c.domain);
            put(payload, c.id);
            putText(payload, c.name);
        }
        const auto putMap = [&payload](const auto& map) {
            put(payload, static_cast<std::uint32_t>(map.size()));
            for (const auto& [key, name] : map) {
                put(payload, key);
                putText(payload, name);
            }
        };
        putMap(names.threadNames);
        putMap(names.streamNames);
        putMap(names.deviceNames);
        put(payload, static_cast<std::uint32_t>(names.otherNames.size()));
        for (const std::string& name : names.otherNames) {
            putText(payload, name);
        }
        writeBlock(kTagNvtxNames, {payload});
    }
}

void SpillWriter::remove() {
    if (m_file != nullptr) {
        std::fclose(m_file);
        m_file = nullptr;
    }
    ::unlink(m_path.c_str());
}

model::Result<SpillSummary> replaySpill(const std::string& path, RecordTranslator& translator) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return spillError(path, std::string("cannot read the spill file: ") + std::strerror(errno));
    }
    char magic[sizeof(kMagic)] = {};
    if (!in.read(magic, sizeof(magic)) || std::memcmp(magic, kMagic, sizeof(kMagic)) != 0) {
        return spillError(path, "not a warpline spill file");
    }
    SpillSummary summary;
    // The NVTX calls are paired as the live recorder pairs them; the clock is never read.
    NvtxRecorder nvtx([]() -> std::uint64_t { return 0; });
    NvtxSpilledNames names;
    bool sawNvtx = false;
    std::vector<std::uint8_t> payload;
    std::vector<std::uint8_t> records;  // the buffer's bytes, aligned as CUPTI's were (new[])
    while (true) {
        std::uint32_t tag = 0;
        std::uint64_t size = 0;
        if (!in.read(reinterpret_cast<char*>(&tag), sizeof(tag))) {
            summary.cutShort = in.gcount() != 0;
            break;
        }
        if (!in.read(reinterpret_cast<char*>(&size), sizeof(size)) || size > kMaxBlockBytes) {
            summary.cutShort = true;
            break;
        }
        payload.resize(size);
        if (!in.read(reinterpret_cast<char*>(payload.data()), static_cast<std::streamsize>(size))) {
            summary.cutShort = true;
            break;
        }
        Cursor cursor(payload);
        if (tag == kTagMetadata) {
            const char* text = reinterpret_cast<const char*>(payload.data());
            std::size_t at = 0;
            while (at < size) {
                const std::string key(text + at, strnlen(text + at, size - at));
                at += key.size() + 1;
                if (at >= size) {
                    break;
                }
                const std::string value(text + at, strnlen(text + at, size - at));
                at += value.size() + 1;
                summary.metadata[key] = value;
            }
        } else if (tag == kTagRangeIds) {
            // Spill files of earlier builds: NVTX is no longer recorded by CUPTI.
        } else if (tag == kTagNvtx) {
            sawNvtx = true;
            if (!readNvtxEvents(cursor, nvtx)) {
                return spillError(path, "a damaged NVTX block");
            }
        } else if (tag == kTagNvtxNames) {
            sawNvtx = true;
            if (!readNvtxNames(cursor, names)) {
                return spillError(path, "a damaged NVTX names block");
            }
        } else if (tag == kTagBuffer) {
            std::uint32_t recordCount = 0;
            std::uint32_t fieldCount = 0;
            std::uint64_t dropped = 0;
            if (!cursor.get(recordCount) || !cursor.get(fieldCount) || !cursor.get(dropped)) {
                return spillError(path, "a damaged buffer block");
            }
            std::vector<std::uint32_t> offsets(recordCount);
            for (auto& offset : offsets) {
                if (!cursor.get(offset)) {
                    return spillError(path, "a damaged buffer block");
                }
            }
            std::uint64_t bytes = 0;
            const std::uint8_t* data = nullptr;
            if (!cursor.get(bytes) || !cursor.bytes(bytes, data)) {
                return spillError(path, "a damaged buffer block");
            }
            records.assign(data, data + bytes);
            // The translator copies what it keeps, so the strings need only outlive this block;
            // reserved so that no string moves once pointed to.
            std::vector<std::string> texts;
            texts.reserve(fieldCount);
            for (std::uint32_t i = 0; i < fieldCount; ++i) {
                std::uint32_t fieldOffset = 0;
                std::uint32_t length = 0;
                if (!cursor.get(fieldOffset) || !cursor.get(length) ||
                    fieldOffset + sizeof(const char*) > bytes) {
                    return spillError(path, "a damaged buffer block");
                }
                const std::uint8_t* text = nullptr;
                if (length != kNullPointer && !cursor.bytes(length, text)) {
                    return spillError(path, "a damaged buffer block");
                }
                // Strings are stored without their terminator: std::string gives them one.
                const char* pointer = nullptr;
                if (text != nullptr) {
                    pointer =
                        texts.emplace_back(reinterpret_cast<const char*>(text), length).c_str();
                }
                std::memcpy(records.data() + fieldOffset, &pointer, sizeof(pointer));
            }
            for (std::uint32_t offset : offsets) {
                if (offset + sizeof(CUpti_Activity) > bytes) {
                    return spillError(path, "a damaged buffer block");
                }
                translator.translate(
                    *reinterpret_cast<const CUpti_Activity*>(records.data() + offset));
                ++summary.records;
            }
            translator.addDroppedRecords(dropped);
            ++summary.buffers;
        }
        // Unknown tags are skipped: a later build may add some.
    }
    if (sawNvtx) {
        nvtx.replayNames(names);
        translator.addNvtx(nvtx.collect());
    }
    return summary;
}

}  // namespace wl::cupti
