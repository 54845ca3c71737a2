// The window's analyses on workers: the newest request for the current document wins, a pair is
// analysed for Compare, and an abandoned analysis never lands.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QObject>
#include <QTest>
#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "app/gui/DocumentAnalyzer.h"
#include "support/TraceFactory.h"

namespace wl::app {
namespace {

DocumentPtr smallDocument(const QString& title) {
    test::SyntheticTraceSpec spec;
    spec.kernels = 50;
    return TraceDocument::fromFile(test::makeSyntheticTrace(spec), title);
}

analysis::WindowRequest wholeTrace() {
    analysis::WindowRequest r;
    r.kind = analysis::WindowRequest::Kind::WholeTrace;
    return r;
}

// Waits until every analysis job that holds `doc` has run to its end, and then delivers what the
// jobs posted: a job lets go of its document only after it has posted its result (or dropped
// it), so a result that should not land would land here.
bool waitUntilWorkersLetGo(std::weak_ptr<const TraceDocument> doc) {
    if (!QTest::qWaitFor([&] { return doc.expired(); }, 20000))
        return false;
    QCoreApplication::sendPostedEvents();
    return true;
}

TEST(DocumentAnalyzer, TheNewestRequestForTheCurrentDocumentWins) {
    QObject context;
    DocumentAnalyzer analyzer(&context);
    DocumentPtr doc = smallDocument("a");
    const std::weak_ptr<const TraceDocument> watched = doc;
    std::vector<analysis::WindowRequest::Kind> delivered;
    auto record = [&](std::shared_ptr<const DocumentAnalysis> result) {
        ASSERT_TRUE(result);
        ASSERT_TRUE(result->result);
        delivered.push_back(result->request.kind);
    };
    analyzer.analyze(doc, {}, {}, nullptr, record);
    analyzer.analyze(std::move(doc), {}, wholeTrace(), nullptr, record);
    EXPECT_TRUE(analyzer.isBusy());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !analyzer.isBusy(); }, 20000));
    ASSERT_TRUE(waitUntilWorkersLetGo(watched));  // the first, superseded, must not come late
    EXPECT_EQ(delivered, std::vector{analysis::WindowRequest::Kind::WholeTrace});
}

TEST(DocumentAnalyzer, AnAbandonedAnalysisNeverLands) {
    QObject context;
    DocumentAnalyzer analyzer(&context);
    bool delivered = false;
    DocumentPtr doc = smallDocument("a");
    const std::weak_ptr<const TraceDocument> watched = doc;
    analyzer.analyze(std::move(doc), {}, {}, nullptr,
                     [&](std::shared_ptr<const DocumentAnalysis>) { delivered = true; });
    analyzer.abandonCurrent();
    EXPECT_FALSE(analyzer.isBusy());
    ASSERT_TRUE(waitUntilWorkersLetGo(watched));
    EXPECT_FALSE(delivered);
}

TEST(DocumentAnalyzer, APairIsAnalysedForCompare) {
    QObject context;
    DocumentAnalyzer analyzer(&context);
    const DocumentPtr first = smallDocument("first");
    const DocumentPtr second = smallDocument("second");
    AnalysisPair got;
    analyzer.analyzePair(first, second, {}, [&](AnalysisPair pair) { got = std::move(pair); });
    ASSERT_TRUE(QTest::qWaitFor([&] { return got.first != nullptr; }, 20000));
    ASSERT_TRUE(got.second);
    EXPECT_NE(got.first, got.second);
    EXPECT_FALSE(analyzer.isBusy());
}

}  // namespace
}  // namespace wl::app

namespace wl::app {
namespace {

TEST(DocumentAnalyzer, ACancelledAnalysisGivesNothing) {
    test::SyntheticTraceSpec spec;
    spec.kernels = 2000;
    const auto trace = test::makeSyntheticTrace(spec);
    const std::atomic<bool> cancel{true};
    EXPECT_EQ(analyzeDocument(*trace, {}, {}, nullptr, &cancel), nullptr);
    const std::atomic<bool> keepGoing{false};
    EXPECT_NE(analyzeDocument(*trace, {}, {}, nullptr, &keepGoing), nullptr);
}

TEST(DocumentAnalyzer, AnAbandonedAnalysisStopsItsWork) {
    // Long enough that waiting for it whole would show: the analyzer's end waits for its
    // workers, which must stop at the flag instead of finishing.
    const DocumentPtr doc = TraceDocument::fromFile(
        test::makeSyntheticTrace(test::gpuOpsSpec(400'000)), QStringLiteral("big"));
    using Clock = std::chrono::steady_clock;
    const auto fullStart = Clock::now();
    ASSERT_NE(analyzeDocument(*doc->trace, {}), nullptr);
    const auto full = Clock::now() - fullStart;
    QObject context;
    auto analyzer = std::make_unique<DocumentAnalyzer>(&context);
    analyzer->analyze(doc, {}, {}, nullptr, [](std::shared_ptr<const DocumentAnalysis>) {});
    QTest::qWait(20);
    const auto start = Clock::now();
    analyzer.reset();  // as closing the window does
    EXPECT_LT(Clock::now() - start, full / 3)
        << std::chrono::duration<double>(full).count() << " s for the whole analysis";
}

}  // namespace
}  // namespace wl::app
