#pragma once

// Flow events the phase assembly leaves out, and why: a count per reason and the earliest few
// events of each (bounded, so a trace with millions of them costs a few hundred bytes), for the
// import notes that list them (LooseFlowNotes). Internal to wl_io.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/chrome/RawEvent.h"

namespace wl::io::chrome {

class LooseFlows {
public:
    enum class Reason : std::uint8_t {
        NoStart,       // an end or step whose id has no start ("s") before it
        NoEnd,         // a start whose id has no step or end after it
        Restarted,     // a start whose id started again before anything ended it
        NoSlice,       // no slice of its thread runs at its time: nothing to attach it to
        StartNoSlice,  // an end whose start had no slice to attach to
    };
    static constexpr std::size_t kReasons = 5;

    // One event left out. `ph`: 's', 't' or 'f'; 0 for a slice's "bind_id" end (flow v2).
    struct Event {
        Reason reason = Reason::NoStart;
        char ph = 0;
        StringId cat = 0;
        std::uint64_t id = 0;  // as read (a string id has kStringFlowIdBit)
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        TimeNs ts = 0;
        StringId on = 0;  // the name of the slice it sits on; 0 when it sits on none
    };

    // Events kept per reason for the listing.
    static constexpr std::size_t kKeptPerReason = 10;

    void add(const Event& e);
    std::uint64_t count() const { return m_total; }
    std::uint64_t count(Reason r) const { return m_counts[static_cast<std::size_t>(r)]; }
    // Up to `n` events to list, in time order: the earliest of each reason first (so every reason
    // has an example), then the earliest of the others.
    std::vector<Event> examples(std::size_t n) const;

private:
    std::uint64_t m_total = 0;
    std::array<std::uint64_t, kReasons> m_counts{};
    // Per reason the earliest events (a max-heap by time: the latest kept is dropped first).
    std::array<std::vector<Event>, kReasons> m_kept;
};

}  // namespace wl::io::chrome
