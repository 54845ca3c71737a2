// The window's analyses on workers: the newest request for the current document wins, a pair is
// analysed for Compare, and an abandoned analysis never lands.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QObject>
#include <QTest>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
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
    // The analyzer's end (as closing the window does) must set the flag its worker polls rather
    // than wait for the analysis to finish. The worker here runs until it sees the flag; should
    // the flag never come, it gives up after kPatience and says so, and the test fails.
    constexpr auto kPatience = std::chrono::seconds(120);
    std::atomic<bool> started{false};
    std::atomic<bool> sawFlag{false};
    auto analyze = [&](const model::Trace&, const analysis::AnalysisOptions&,
                       const analysis::WindowRequest&, std::shared_ptr<const DocumentAnalysis>,
                       const std::atomic<bool>* cancel) -> std::shared_ptr<const DocumentAnalysis> {
        started = true;
        const auto giveUp = std::chrono::steady_clock::now() + kPatience;
        while (cancel != nullptr && !cancel->load() && std::chrono::steady_clock::now() < giveUp)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        sawFlag = cancel != nullptr && cancel->load();
        return nullptr;
    };
    QObject context;
    auto analyzer = std::make_unique<DocumentAnalyzer>(&context, analyze);
    bool delivered = false;
    analyzer->analyze(smallDocument(QStringLiteral("a")), {}, {}, nullptr,
                      [&](std::shared_ptr<const DocumentAnalysis>) { delivered = true; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return started.load(); }, 60'000));
    analyzer.reset();  // returns once the worker has stopped
    EXPECT_TRUE(sawFlag) << "the worker was never told to stop";
    QCoreApplication::processEvents();
    EXPECT_FALSE(delivered) << "an abandoned analysis must not deliver";
}

}  // namespace
}  // namespace wl::app
