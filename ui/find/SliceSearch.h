#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <QString>

#include "model/Slice.h"
#include "model/Time.h"
#include "model/Trace.h"
#include "ui/find/SliceList.h"

namespace wl::ui {

// What to look for: a substring (case-insensitive unless told) or a regular expression
// (QRegularExpression syntax, unanchored: it matches anywhere in a name).
struct SearchQuery {
    QString text;
    bool regex = false;
    bool caseSensitive = false;

    bool empty() const { return text.isEmpty(); }
    friend bool operator==(const SearchQuery&, const SearchQuery&) = default;
};

// The matches of one search over one trace: every slice whose name matches, in time order (start,
// then track, then index), and the same slices lane by lane so that a view can find the matches
// it shows by binary search. Immutable once built; shared read-only between threads.
class SearchMatches {
public:
    // The matched slices of one lane (a track's depth), as indices into the track's slices,
    // sorted by start like the lane itself.
    struct Lane {
        model::TrackIndex track = 0;
        std::uint32_t depth = 0;
        std::vector<std::uint32_t> indices;
    };

    const SearchQuery& query() const { return m_query; }
    std::size_t size() const { return m_ordered->size(); }
    bool empty() const { return m_ordered->empty(); }
    std::span<const model::SliceRef> ordered() const { return *m_ordered; }
    // The same list, shared (a table shows it without copying).
    std::shared_ptr<const SliceList> orderedRows() const { return m_ordered; }
    model::SliceRef at(std::size_t i) const { return (*m_ordered)[i]; }
    std::span<const Lane> lanes() const { return m_lanes; }
    // The lane's matches, or null when it has none.
    const Lane* lane(model::TrackIndex track, std::uint32_t depth) const;

    // Position of `ref` in ordered(), or nullopt when it is no match.
    std::optional<std::size_t> indexOf(const model::Trace& trace, model::SliceRef ref) const;
    // The first match that starts at or after `ns` (size() when none does).
    std::size_t firstAtOrAfter(const model::Trace& trace, model::TimeNs ns) const;

private:
    friend class SliceSearch;
    SearchQuery m_query;
    std::shared_ptr<SliceList> m_ordered = std::make_shared<SliceList>();
    std::vector<Lane> m_lanes;  // only lanes with matches, by (track, depth)
};

using SearchMatchesPtr = std::shared_ptr<const SearchMatches>;

// Finds slices by name: kernels, copies, NVTX ranges, API calls, any slice of the trace but the
// NVTX-on-the-GPU rows (copies of the host's ranges, which are found where recorded). A name
// is tested once, not once per slice: the scan looks each slice's name up in a table of verdicts
// filled the first time the name is seen, so the cost per slice is a table lookup. A kernel
// matches by its recorded, demangled or short name; an API call also by its name without CUPTI's
// version suffix (cudaMemcpy for cudaMemcpy_v3020). Pure: no state, any thread.
class SliceSearch {
public:
    // Why `query` cannot run (an invalid regular expression), or an empty string.
    static QString validate(const SearchQuery& query);

    // Every match of `query` in `trace`. Null when cancelled (`cancel` set while it runs) or when
    // the query is invalid; an empty query matches nothing.
    static SearchMatchesPtr run(const model::Trace& trace, const SearchQuery& query,
                                const std::atomic<bool>* cancel = nullptr);
};

}  // namespace wl::ui
