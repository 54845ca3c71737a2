// Loads off the UI thread: a newer load or the loader's end stops the read in flight (its token's
// flag reaches the reader), and the reader's progress reaches the window.
#include <gtest/gtest.h>

#include <QDir>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

#include "app/gui/TraceLoader.h"
#include "support/TestData.h"
#include "support/TraceFactory.h"

namespace wl::app {
namespace {

using Clock = std::chrono::steady_clock;

// A load that reads until it is told to stop (at most 20 s), as a large file's read does.
struct EndlessRead {
    std::shared_ptr<std::atomic<bool>> sawCancel = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<std::atomic<bool>> running = std::make_shared<std::atomic<bool>>(false);

    TraceLoadFn fn() const {
        return [sawCancel = sawCancel, running = running](
                   const QString& path,
                   const io::ReadControl& control) -> model::Result<model::TracePtr> {
            if (!path.contains("endless"))
                return test::makeSyntheticTrace({});
            running->store(true);
            const auto until = Clock::now() + std::chrono::seconds(20);
            while (Clock::now() < until) {
                if (control.cancelled()) {
                    sawCancel->store(true);
                    return model::Error{io::kReadCancelled, path.toStdString(), -1};
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            return test::makeSyntheticTrace({});
        };
    }
};

TEST(TraceLoader, ANewerLoadStopsTheOlderRead) {
    EndlessRead read;
    TraceLoader loader;
    loader.setLoadFunction(read.fn());
    QStringList landed;
    QObject::connect(&loader, &TraceLoader::loaded,
                     [&](const LoadIntent& intent, const model::Result<model::TracePtr>&) {
                         landed << intent.path();
                     });
    loader.load({LoadIntent::Source::Open, {"endless.json"}});
    ASSERT_TRUE(QTest::qWaitFor([&] { return read.running->load(); }, 5000));
    const auto start = Clock::now();
    loader.load({LoadIntent::Source::Open, {"small.json"}});
    ASSERT_TRUE(QTest::qWaitFor([&] { return read.sawCancel->load(); }, 2000));
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(500));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !loader.isLoading(); }, 5000));
    QTest::qWait(50);
    EXPECT_EQ(landed, QStringList{"small.json"});  // only the newer one lands
}

TEST(TraceLoader, StopEndsTheReadAndAnswersThatItWasStopped) {
    EndlessRead read;
    TraceLoader loader;
    loader.setLoadFunction(read.fn());
    std::optional<model::Result<model::TracePtr>> answer;
    QObject::connect(
        &loader, &TraceLoader::loaded,
        [&](const LoadIntent&, const model::Result<model::TracePtr>& result) { answer = result; });
    loader.load({LoadIntent::Source::Open, {"endless.json"}});
    ASSERT_TRUE(QTest::qWaitFor([&] { return read.running->load(); }, 5000));
    const auto start = Clock::now();
    loader.stop();
    ASSERT_TRUE(QTest::qWaitFor([&] { return answer.has_value(); }, 2000));
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(500));
    EXPECT_TRUE(read.sawCancel->load());
    ASSERT_FALSE(answer->ok());
    EXPECT_EQ(answer->error().message, io::kReadCancelled);
    EXPECT_FALSE(loader.isLoading());
}

TEST(TraceLoader, TheLoaderGoingAwayStopsItsRead) {
    EndlessRead read;
    auto loader = std::make_unique<TraceLoader>();
    loader->setLoadFunction(read.fn());
    loader->load({LoadIntent::Source::Open, {"endless.json"}});
    ASSERT_TRUE(QTest::qWaitFor([&] { return read.running->load(); }, 5000));
    const auto start = Clock::now();
    loader.reset();  // as closing the window does: waits for its worker, which stops
    EXPECT_TRUE(read.sawCancel->load());
    EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(500));
}

TEST(TraceLoader, TheReadersProgressReachesTheWindow) {
    TraceLoader loader;
    loader.setLoadFunction(
        [](const QString&, const io::ReadControl& control) -> model::Result<model::TracePtr> {
            control.report(std::uint64_t{512} << 20, std::uint64_t{2048} << 20, 1'234'567);
            return test::makeSyntheticTrace({});
        });
    QSignalSpy progress(&loader, &TraceLoader::progressChanged);
    loader.load({LoadIntent::Source::Open, {"/some/where/big.json"}});
    ASSERT_TRUE(QTest::qWaitFor([&] { return !loader.isLoading(); }, 5000));
    ASSERT_EQ(progress.count(), 1);
    EXPECT_DOUBLE_EQ(progress.at(0).at(0).toDouble(), 0.25);
    const QString label = progress.at(0).at(1).toString();
    EXPECT_TRUE(label.contains("big.json")) << label.toStdString();
    EXPECT_TRUE(label.contains("512")) << label.toStdString();
    EXPECT_TRUE(label.contains(QLocale().toString(1'234'567) + " slices")) << label.toStdString();
}

TEST(TraceLoader, ARankJobsProgressReachesTheWindow) {
    TraceLoader loader;
    QSignalSpy progress(&loader, &TraceLoader::progressChanged);
    bool ok = false;
    QObject::connect(
        &loader, &TraceLoader::jobLoaded,
        [&](const LoadIntent&, const model::Result<io::RankJob>& job) { ok = job.ok(); });
    loader.loadJob(
        {LoadIntent::Source::RankJob, {QString::fromStdString(test::dataPath("ranks"))}});
    ASSERT_TRUE(QTest::qWaitFor([&] { return !loader.isLoading(); }, 10000));
    ASSERT_TRUE(ok);
    ASSERT_GE(progress.count(), 2);
    EXPECT_GT(progress.last().at(0).toDouble(), 0.5);
    EXPECT_TRUE(progress.at(0).at(1).toString().contains("traces"));
}

}  // namespace
}  // namespace wl::app
