#include "ui/find/SliceSearch.h"

#include <algorithm>
#include <string>
#include <tuple>

#include <QRegularExpression>

#include "analysis/ApiNames.h"
#include "analysis/KernelNames.h"
#include "ui/find/LaneMerge.h"

namespace wl::ui {
namespace {

// How often the scan looks at the cancel flag, in slices: often enough that a stale search stops
// within a millisecond or two, rarely enough to cost nothing.
constexpr std::uint32_t kCancelCheckSlices = 1u << 16;

// A name's verdict depends on how it is shown, which depends on the slice's kind: three classes,
// two bits each in one byte per string (known, matches).
enum NameClass : std::uint8_t { kPlain = 0, kKernel = 1, kApi = 2 };

NameClass classOf(model::SliceKind kind) {
    if (kind == model::SliceKind::Kernel)
        return kKernel;
    if (kind == model::SliceKind::RuntimeApi || kind == model::SliceKind::DriverApi)
        return kApi;
    return kPlain;
}

QString qstr(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

class NameMatcher {
public:
    explicit NameMatcher(const SearchQuery& query)
        : m_query(query),
          m_regex(query.regex ? QRegularExpression(query.text,
                                                   query.caseSensitive
                                                       ? QRegularExpression::NoPatternOption
                                                       : QRegularExpression::CaseInsensitiveOption)
                              : QRegularExpression()) {}

    bool matches(std::string_view name, NameClass cls) const {
        if (test(qstr(name)))
            return true;
        if (cls == kApi) {
            const std::string_view base = analysis::baseApiName(name);
            return base.size() != name.size() && test(qstr(base));
        }
        if (cls == kKernel) {
            const std::string demangled = analysis::demangleKernelName(name);
            if (demangled != name && test(QString::fromStdString(demangled)))
                return true;
            return test(QString::fromStdString(analysis::shortKernelName(demangled)));
        }
        return false;
    }

private:
    bool test(const QString& text) const {
        if (m_query.regex)
            return m_regex.match(text).hasMatch();
        return text.contains(m_query.text,
                             m_query.caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive);
    }

    const SearchQuery& m_query;
    QRegularExpression m_regex;
};

auto refKey(const model::Trace& trace, model::SliceRef ref) {
    return std::tuple(trace.slice(ref).startNs, ref.track, ref.index);
}

}  // namespace

const SearchMatches::Lane* SearchMatches::lane(model::TrackIndex track, std::uint32_t depth) const {
    const auto it =
        std::lower_bound(m_lanes.begin(), m_lanes.end(), std::pair(track, depth),
                         [](const Lane& l, const std::pair<model::TrackIndex, std::uint32_t>& key) {
                             return std::pair(l.track, l.depth) < key;
                         });
    return it != m_lanes.end() && it->track == track && it->depth == depth ? &*it : nullptr;
}

std::optional<std::size_t> SearchMatches::indexOf(const model::Trace& trace,
                                                  model::SliceRef ref) const {
    if (!ref.valid())
        return std::nullopt;
    const auto key = refKey(trace, ref);
    const auto it =
        std::lower_bound(m_ordered->begin(), m_ordered->end(), key,
                         [&](model::SliceRef r, const auto& k) { return refKey(trace, r) < k; });
    if (it == m_ordered->end() || *it != ref)
        return std::nullopt;
    return static_cast<std::size_t>(it - m_ordered->begin());
}

std::size_t SearchMatches::firstAtOrAfter(const model::Trace& trace, model::TimeNs ns) const {
    const auto it =
        std::partition_point(m_ordered->begin(), m_ordered->end(),
                             [&](model::SliceRef r) { return trace.slice(r).startNs < ns; });
    return static_cast<std::size_t>(it - m_ordered->begin());
}

QString SliceSearch::validate(const SearchQuery& query) {
    if (!query.regex)
        return {};
    const QRegularExpression re(query.text);
    return re.isValid() ? QString() : re.errorString();
}

SearchMatchesPtr SliceSearch::run(const model::Trace& trace, const SearchQuery& query,
                                  const std::atomic<bool>* cancel) {
    if (!validate(query).isEmpty())
        return nullptr;
    auto result = std::make_shared<SearchMatches>();
    result->m_query = query;
    if (query.empty())
        return result;

    const NameMatcher matcher(query);
    std::vector<std::uint8_t> verdicts(trace.strings().size(), 0);
    std::size_t total = 0;
    std::uint32_t untilCheck = kCancelCheckSlices;
    const auto tracks = trace.tracks();
    for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        // The NVTX-on-the-GPU row repeats the host's ranges: each range is found once, where the
        // host recorded it.
        if (track.kind == model::TrackKind::NvtxProjection)
            continue;
        for (std::uint32_t d = 0; d < track.laneCount(); ++d) {
            SearchMatches::Lane lane{t, d, {}};
            for (std::uint32_t i = track.laneBegin[d]; i < track.laneBegin[d + 1]; ++i) {
                if (--untilCheck == 0) {
                    untilCheck = kCancelCheckSlices;
                    if (cancel && cancel->load(std::memory_order_relaxed))
                        return nullptr;
                }
                const model::Slice& s = track.slices[i];
                const NameClass cls = classOf(s.kind);
                std::uint8_t& v = verdicts[s.nameId];
                const std::uint8_t known = std::uint8_t(1u << (2 * cls));
                const std::uint8_t yes = std::uint8_t(2u << (2 * cls));
                if ((v & known) == 0) {
                    v |= known;
                    if (matcher.matches(trace.str(s.nameId), cls))
                        v |= yes;
                }
                if (v & yes)
                    lane.indices.push_back(i);
            }
            if (!lane.indices.empty()) {
                total += lane.indices.size();
                result->m_lanes.push_back(std::move(lane));
            }
        }
    }
    std::vector<LaneSlices> lanes;
    lanes.reserve(result->m_lanes.size());
    for (const SearchMatches::Lane& lane : result->m_lanes)
        lanes.push_back({lane.track, lane.indices});
    *result->m_ordered = mergeLanes(trace, lanes, total, cancel);
    if (cancel && cancel->load(std::memory_order_relaxed))
        return nullptr;
    return result;
}

}  // namespace wl::ui
