#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <tuple>

#include "TimelineTestTraces.h"
#include "model/TraceBuilder.h"
#include "ui/find/SliceSearch.h"

namespace wl::ui {
namespace {

std::vector<std::string> names(const model::Trace& trace, const SearchMatches& m) {
    std::vector<std::string> out;
    for (model::SliceRef ref : m.ordered())
        out.emplace_back(trace.str(trace.slice(ref).nameId));
    return out;
}

TEST(SliceSearch, SubstringIgnoresCaseAndListsMatchesInTimeOrder) {
    const auto small = test::makeSmallTrace();
    const SearchMatchesPtr m = SliceSearch::run(*small.trace, {QStringLiteral("MEMCPY")});
    ASSERT_TRUE(m);
    // The D2H copy starts at 6.5 µs, the H2D one at 0.5 µs: time order, not insertion order.
    EXPECT_EQ(names(*small.trace, *m), (std::vector<std::string>{"Memcpy HtoD", "Memcpy DtoH"}));
    EXPECT_EQ(small.trace->slice(m->at(0)).startNs, 500);
    ASSERT_EQ(m->lanes().size(), 1u);
    EXPECT_EQ(m->lanes()[0].track, small.stream13);
    EXPECT_EQ(m->lanes()[0].indices.size(), 2u);
}

TEST(SliceSearch, MatchCaseWhenAsked) {
    const auto small = test::makeSmallTrace();
    SearchQuery q{QStringLiteral("memcpy")};
    q.caseSensitive = true;
    const SearchMatchesPtr m = SliceSearch::run(*small.trace, q);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->empty());
    q.text = QStringLiteral("Memcpy");
    EXPECT_EQ(SliceSearch::run(*small.trace, q)->size(), 2u);
}

TEST(SliceSearch, FindsNvtxRangesApiCallsAndSyncsButNotTheNvtxProjection) {
    const auto small = test::makeSmallTrace();
    // "outer" is also drawn on the GPU's NVTX row (the projection): found once, on the host.
    const SearchMatchesPtr outer = SliceSearch::run(*small.trace, {QStringLiteral("outer")});
    ASSERT_EQ(outer->size(), 1u);
    EXPECT_EQ(outer->at(0).track, small.nvtx);
    // An API call and the sync slice that share the word.
    const SearchMatchesPtr sync = SliceSearch::run(*small.trace, {QStringLiteral("synchronize")});
    ASSERT_EQ(sync->size(), 1u);
    EXPECT_EQ(sync->at(0).track, small.sync);
    const SearchMatchesPtr launch = SliceSearch::run(*small.trace, {QStringLiteral("launch")});
    ASSERT_EQ(launch->size(), 1u);
    EXPECT_EQ(launch->at(0).track, small.api);
}

model::TracePtr namedTrace() {
    model::TraceBuilder b;
    const auto host = b.hostProcess(1, "app");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto api = b.hostApiTrack(host, 1);
    const auto stream = b.gpuStreamTrack(gpu, 7);
    b.addApi(api, 0, 100, "cudaMemcpy_v3020", 1, {});
    b.addApi(api, 200, 300, "cudaLaunchKernel_v7000", 2, {});
    b.addKernel(stream, 400, 500, "_Z9divide_byPff", 2, {});
    b.addKernel(stream, 600, 700, "void partial_reduce<float>(float const*, float*, int)", 0, {});
    return b.finalize();
}

TEST(SliceSearch, RegexMatchesApiCallsByTheirNameWithoutCuptiSuffix) {
    const auto trace = namedTrace();
    const SearchMatchesPtr m =
        SliceSearch::run(*trace, {QStringLiteral("^cuda(Memcpy|LaunchKernel)$"), true});
    ASSERT_TRUE(m);
    EXPECT_EQ(names(*trace, *m),
              (std::vector<std::string>{"cudaMemcpy_v3020", "cudaLaunchKernel_v7000"}));
    // The recorded name still matches too.
    EXPECT_EQ(SliceSearch::run(*trace, {QStringLiteral("v3020")})->size(), 1u);
}

TEST(SliceSearch, KernelsMatchByDemangledAndShortName) {
    const auto trace = namedTrace();
    // Mangled in the trace, divide_by(float*, float) demangled, divide_by short.
    EXPECT_EQ(SliceSearch::run(*trace, {QStringLiteral("divide_by(float*")})->size(), 1u);
    EXPECT_EQ(SliceSearch::run(*trace, {QStringLiteral("^divide_by$"), true})->size(), 1u);
    EXPECT_EQ(SliceSearch::run(*trace, {QStringLiteral("^partial_reduce$"), true})->size(), 1u);
    EXPECT_EQ(SliceSearch::run(*trace, {QStringLiteral("^reduce$"), true})->size(), 0u);
}

TEST(SliceSearch, InvalidRegexIsAnErrorAndFindsNothing) {
    const auto small = test::makeSmallTrace();
    const SearchQuery bad{QStringLiteral("memcpy("), true};
    EXPECT_FALSE(SliceSearch::validate(bad).isEmpty());
    EXPECT_EQ(SliceSearch::run(*small.trace, bad), nullptr);
    // The same text as a substring is fine.
    EXPECT_TRUE(SliceSearch::validate({QStringLiteral("memcpy(")}).isEmpty());
}

TEST(SliceSearch, EmptyQueryMatchesNothing) {
    const auto small = test::makeSmallTrace();
    const SearchMatchesPtr m = SliceSearch::run(*small.trace, {});
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->empty());
    EXPECT_TRUE(m->lanes().empty());
}

TEST(SliceSearch, MergesLanesInStartOrderAndFindsPositions) {
    // Three streams of back-to-back kernels, offset by 3 ns from each other.
    const auto trace = test::makeDenseTrace(500, 3, 10, 10);
    const SearchMatchesPtr m = SliceSearch::run(*trace, {QStringLiteral("k")});
    ASSERT_TRUE(m);
    ASSERT_EQ(m->size(), 1500u);
    EXPECT_EQ(m->lanes().size(), 3u);
    const auto refs = m->ordered();
    EXPECT_TRUE(std::is_sorted(refs.begin(), refs.end(), [&](auto a, auto b) {
        return trace->slice(a).startNs < trace->slice(b).startNs;
    }));
    // Ties never happen here; neighbours alternate between the streams.
    EXPECT_NE(refs[0].track, refs[1].track);
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{777}, std::size_t{1499}})
        EXPECT_EQ(m->indexOf(*trace, refs[i]), i);
    EXPECT_EQ(m->indexOf(*trace, model::SliceRef{}), std::nullopt);
    // Stream 1 starts at 3, 13, ...: the first match at or after 12 is stream 1's at 13.
    const std::size_t after = m->firstAtOrAfter(*trace, 12);
    EXPECT_EQ(trace->slice(m->at(after)).startNs, 13);
    EXPECT_EQ(m->firstAtOrAfter(*trace, 1'000'000), m->size());
    const SearchMatches::Lane* lane = m->lane(refs[0].track, 0);
    ASSERT_NE(lane, nullptr);
    EXPECT_EQ(lane->indices.size(), 500u);
    EXPECT_EQ(m->lane(refs[0].track, 1), nullptr);
}

// The merge scans a few lanes and uses a heap for many: both give (start, track, index) order,
// ties included (every stream here starts its kernels at the same times).
TEST(SliceSearch, FewAndManyLanesMergeInStartTrackIndexOrder) {
    for (const int streams : {5, 60}) {
        model::TraceBuilder b;
        const auto gpu = b.gpuProcess(0, "GPU 0");
        for (int s = 0; s < streams; ++s) {
            const auto track = b.gpuStreamTrack(gpu, s + 1);
            for (int i = 0; i < 50; ++i) {
                const model::TimeNs start = (i * 7 + s * (i % 3)) * 10;
                b.addKernel(track, start, start + 5, i % 2 ? "even" : "odd", 0, {});
            }
        }
        const auto trace = b.finalize();
        const SearchMatchesPtr m = SliceSearch::run(*trace, {QStringLiteral("o")});
        ASSERT_TRUE(m);
        std::vector<model::SliceRef> expected(m->ordered().begin(), m->ordered().end());
        std::sort(expected.begin(), expected.end(), [&](auto a, auto c) {
            return std::tuple(trace->slice(a).startNs, a.track, a.index) <
                   std::tuple(trace->slice(c).startNs, c.track, c.index);
        });
        EXPECT_EQ(m->size(), std::size_t(streams) * 25) << streams;
        EXPECT_TRUE(std::equal(expected.begin(), expected.end(), m->ordered().begin()))
            << streams << " streams";
    }
}

TEST(SliceSearch, ACancelledSearchGivesNoResult) {
    const auto trace = test::makeDenseTrace(200'000, 1, 10, 10);
    std::atomic<bool> cancel{true};
    EXPECT_EQ(SliceSearch::run(*trace, {QStringLiteral("k")}, &cancel), nullptr);
    cancel = false;
    const SearchMatchesPtr m = SliceSearch::run(*trace, {QStringLiteral("k")}, &cancel);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->size(), 200'000u);
}

}  // namespace
}  // namespace wl::ui
