#pragma once

#include <cupti.h>

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "cupti/NvtxRecorder.h"
#include "cupti/RecordTranslator.h"
#include "cupti/SpillRecovery.h"
#include "model/Result.h"

namespace wl::cupti {

// A spill file holds what a recorded process has traced so far: every activity buffer CUPTI
// hands over is appended as it arrives, so a process killed without warning (SIGKILL, the OOM
// killer) still leaves its records, and `warpline record` turns them into a trace
// (replaySpill). The records are kept as CUPTI wrote them; the strings their pointer fields point
// to (kernel, NVTX and device names) are written after each buffer and pointed to again on
// reading. Host byte order: read on the machine that wrote it, by the same build.
//
// Layout: "WLSPILL1", then blocks of {u32 tag, u64 payload bytes, payload}:
//   'M' metadata: key\0value\0 pairs (who wrote it, where its trace goes, the capture range)
//   'B' a buffer: u32 records, u32 pointer fields, u64 dropped records, u32 record offsets[],
//       u64 bytes, the buffer's bytes, then per pointer field: u32 field offset, u32 length
//       (0xFFFFFFFF: null), the characters
//   'R' NVTX start/end range ids (u64 each), written by earlier builds; skipped
//   'N' NVTX calls (NvtxSpilledEvent): u32 count, then per call: u8 kind, u8 flags (1 colour,
//       2 payload), i64 pid, i64 tid, u64 timestamp, u64 range id, u32 colour, u32 category,
//       f64 payload, then the domain and the message (u32 length, the characters)
//   'n' the NVTX names given so far (NvtxSpilledNames), each block replacing the last: u32
//       count and (string domain, u32 id, string name) per category, u32 count and (i64 tid,
//       string) per thread, u32 count and (u32 id, string) per stream, u32 count and (i32
//       device, string) per device, u32 count and strings for the rest
// A block cut short by the process's end is ignored (and said so): every earlier block is whole.
class SpillWriter {
public:
    static model::Result<std::unique_ptr<SpillWriter>> create(
        const std::string& path, const std::map<std::string, std::string>& metadata);
    ~SpillWriter();
    SpillWriter(const SpillWriter&) = delete;
    SpillWriter& operator=(const SpillWriter&) = delete;

    // `records` point into `buffer` (the first validBytes of it). Not thread-safe: the tracer
    // calls it under its run lock.
    void appendBuffer(const std::uint8_t* buffer, std::size_t validBytes,
                      std::span<const CUpti_Activity* const> records, std::uint64_t dropped);
    // The program's NVTX calls since the last append, and the names given so far.
    void appendNvtx(std::span<const NvtxSpilledEvent> events, const NvtxSpilledNames& names);
    // The trace was written: the spill is no longer needed.
    void remove();
    const std::string& path() const { return m_path; }
    // False after a write failed (a full disk): the message says what happened.
    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

private:
    SpillWriter(std::string path, std::FILE* file) : m_path(std::move(path)), m_file(file) {}
    // One block whose payload is `parts`, one after the other.
    void writeBlock(std::uint32_t tag, std::initializer_list<std::string_view> parts);

    std::string m_path;
    std::FILE* m_file = nullptr;
    std::string m_error;
};

// What replaySpill found.
struct SpillSummary {
    std::map<std::string, std::string> metadata;
    std::uint64_t buffers = 0;
    std::uint64_t records = 0;
    bool cutShort = false;  // the last block was incomplete (the process died writing it)
};

// Feeds every record of a spill file to `translator`, and its NVTX calls (addNvtx). Errors:
// the file cannot be read, or is not a spill file.
model::Result<SpillSummary> replaySpill(const std::string& path, RecordTranslator& translator);

// recoverSpilledTrace (cupti/SpillRecovery.h) with API names from `apiName`.
model::Result<RecoveredTrace> recoverSpilledTrace(const std::string& spillPath,
                                                  RecordTranslator::ApiNameFn apiName);

}  // namespace wl::cupti
