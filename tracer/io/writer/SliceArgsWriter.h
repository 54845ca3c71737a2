#pragma once

#include "io/ArgKeys.h"
#include "io/writer/Out.h"
#include "model/Trace.h"

namespace wl::io::writer {

// A slice's "args" object from the model's fields: the keys of its kind's layout in the args
// table (ArgKeys.h), each spelled and formatted as its row says. Keys without a value for this
// slice (no detail, a default that means "none") are left out; no key, no "args" at all.
class SliceArgsWriter {
public:
    SliceArgsWriter(const model::Trace& trace, Out& out, EscapedNames& names)
        : m_trace(trace), m_out(out), m_names(names) {}

    // Appends `,"args":{...}` (or nothing).
    void write(const model::Track& t, const model::Slice& s);

private:
    // The slice's details, looked up once.
    struct Details {
        const model::KernelDetail* kernel = nullptr;
        const model::MemcpyDetail* memcpy = nullptr;
        const model::MemsetDetail* memset = nullptr;
        const model::MemoryDetail* memory = nullptr;
        const model::SyncDetail* sync = nullptr;
        const model::ApiDetail* api = nullptr;
        const model::NvtxDetail* nvtx = nullptr;
        const model::UnifiedMemoryDetail* unifiedMemory = nullptr;
        const model::GraphNode* graph = nullptr;
        std::uint64_t bytes = 0;
        bool hasBytes = false;
    };
    Details detailsOf(const model::Slice& s) const;
    void writeField(format::ArgField f, const model::Track& t, const model::Slice& s,
                    const Details& d);

    // `,"key":` (opening the object before the first), then the value as the row's type says.
    void key(format::ArgField f);
    void putInt(format::ArgField f, std::int64_t v);
    void putUnsigned(format::ArgField f, std::uint64_t v);
    void putText(format::ArgField f, std::string_view v);
    void putName(format::ArgField f, model::StringId id);
    void putTriple(format::ArgField f, const std::array<std::int32_t, 3>& v);
    void putFloat(format::ArgField f, float v);
    void putDouble(format::ArgField f, double v);
    void putColor(format::ArgField f, std::uint32_t argb);

    const model::Trace& m_trace;
    Out& m_out;
    EscapedNames& m_names;
    bool m_open = false;
};

}  // namespace wl::io::writer
