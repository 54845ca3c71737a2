#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wl::model {

// What went wrong while collecting or importing a trace, as values: counts plus the first few
// messages. Shown by the UI and by `warpline analyze`; a trace that lost records says so.
// Warnings are problems the user should see at once (lost records, unreadable events); notes are
// routine quirks of producers (flow ends the PyTorch profiler leaves unmatched, slices still open
// when a recording stopped) that belong in a diagnostics list but not in a warning banner shown
// for nearly every file of that producer.
struct Diagnostics {
    static constexpr std::size_t kMaxMessages = 50;

    std::uint64_t droppedRecords = 0;     // CUPTI records lost (buffers full)
    std::uint64_t invalidTimestamps = 0;  // records with zero or reversed timestamps
    std::uint64_t spilledOverlaps = 0;    // slices that overlapped without nesting, moved to a lane
    std::uint64_t unknownPhases = 0;      // imported events of a phase we do not handle
    std::uint64_t unmatchedEnds = 0;      // E/e without B/b, or begins never ended
    std::uint64_t unknownRecords = 0;     // CUPTI records of kinds we do not translate
    std::uint64_t truncatedStrings = 0;   // strings cut at the producer's limit
    std::uint64_t skippedEvents = 0;      // imported events left out: a field of a wrong type/value
    std::uint64_t warningCount = 0;       // total warnings, including those not kept below
    std::vector<std::string> warnings;    // the first kMaxMessages warnings
    std::uint64_t noteCount = 0;          // total notes, including those not kept below
    std::vector<std::string> notes;       // the first kMaxMessages notes

    void warn(std::string message) {
        ++warningCount;
        if (warnings.size() < kMaxMessages) {
            warnings.push_back(std::move(message));
        }
    }
    void note(std::string message) {
        ++noteCount;
        if (notes.size() < kMaxMessages) {
            notes.push_back(std::move(message));
        }
    }
    bool lostData() const { return droppedRecords > 0; }
};

// The warning for `count` slices of one track that overlapped without nesting: one text for the
// builder that finds them and for the merge and the writer that must recognise it.
inline std::string spilledOverlapWarning(std::uint64_t count, std::string_view track) {
    return std::to_string(count) + " overlapping slice(s) on track '" + std::string(track) +
           "' did not nest; moved to extra lanes";
}

}  // namespace wl::model
