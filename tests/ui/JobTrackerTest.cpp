// The background-job helper: newest job wins, the work sees when it is superseded, results come
// on the context's thread, and a context or tracker gone before the result is no crash.
#include <QCoreApplication>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "ui/common/JobTracker.h"

namespace wl::ui {
namespace {

using namespace std::chrono_literals;

// Waits (on a worker) until `token` is cancelled or `release` is set; true when cancelled.
bool waitForCancel(const JobToken& token, const std::atomic<bool>* release = nullptr) {
    for (int i = 0; i < 2000; ++i) {
        if (token.isCancelled())
            return true;
        if (release && release->load())
            return false;
        std::this_thread::sleep_for(2ms);
    }
    return false;
}

// Work that waits until its token is cancelled, notes that it saw it in `saw`, and returns `value`.
auto workUntilCancelled(std::atomic<bool>& saw, int value) {
    return [&saw, value](const JobToken& token) {
        saw = waitForCancel(token);
        return value;
    };
}

// Lets every job of `pool` finish and then delivers what they queued.
void drain(QThreadPool& pool) {
    pool.waitForDone();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
}

TEST(JobTracker, ResultArrivesOnTheContextThread) {
    QObject context;
    QThreadPool pool;
    JobTracker jobs(&context);
    std::atomic<QThread*> workThread{nullptr};
    QThread* thenThread = nullptr;
    int got = 0;
    jobs.startJob(
        pool,
        [&workThread] {
            workThread = QThread::currentThread();
            return 42;
        },
        [&](int value) {
            thenThread = QThread::currentThread();
            got = value;
        });
    EXPECT_TRUE(jobs.isRunning());
    ASSERT_TRUE(QTest::qWaitFor([&] { return got != 0; }, 5000));
    EXPECT_EQ(got, 42);
    EXPECT_EQ(thenThread, context.thread());
    EXPECT_NE(workThread.load(), context.thread());
    EXPECT_FALSE(jobs.isRunning());
}

TEST(JobTracker, ANewerJobSupersedesTheOlderOne) {
    QObject context;
    QThreadPool pool;
    JobTracker jobs(&context);
    std::vector<int> delivered;
    std::atomic<bool> firstSawCancel{false};
    const quint64 first = jobs.startJob(pool, workUntilCancelled(firstSawCancel, 1),
                                        [&](int value) { delivered.push_back(value); });
    const quint64 second = jobs.startJob(
        pool, [](const JobToken& token) { return token.isCancelled() ? -2 : 2; },
        [&](int value) { delivered.push_back(value); });
    EXPECT_GT(second, first);
    EXPECT_EQ(jobs.currentJob(), second);
    drain(pool);
    EXPECT_TRUE(firstSawCancel.load());  // the older work could stop early
    EXPECT_EQ(delivered, std::vector<int>{2});
    EXPECT_FALSE(jobs.isRunning());
}

TEST(JobTracker, AbandonCancelsTheWorkAndDropsItsResult) {
    QObject context;
    QThreadPool pool;
    JobTracker jobs(&context);
    bool delivered = false;
    std::atomic<bool> sawCancel{false};
    jobs.startJob(pool, workUntilCancelled(sawCancel, 0), [&](int) { delivered = true; });
    jobs.abandon();
    EXPECT_FALSE(jobs.isRunning());
    drain(pool);
    EXPECT_TRUE(sawCancel.load());
    EXPECT_FALSE(delivered);
}

TEST(JobTracker, RequestStopStillDeliversWhatTheWorkGotDone) {
    QObject context;
    QThreadPool pool;
    JobTracker jobs(&context);
    int got = 0;
    jobs.startJob(
        pool, [](const JobToken& token) { return waitForCancel(token) ? 7 : -1; },
        [&](int value) { got = value; });
    jobs.requestStop();
    ASSERT_TRUE(QTest::qWaitFor([&] { return got != 0; }, 5000));
    EXPECT_EQ(got, 7);
    // The flag is the one APIs that poll a std::atomic<bool> read.
    jobs.startJob(
        pool, [](const JobToken& token) { return token.flag()->load() ? -1 : 8; },
        [&](int value) { got = value; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return got == 8; }, 5000));
}

TEST(JobTracker, AContextDestroyedBeforeTheResultIsSafe) {
    QThreadPool pool;
    auto context = std::make_unique<QObject>();
    JobTracker jobs(context.get());  // outlives its context here
    std::atomic<bool> release{false};
    bool delivered = false;
    jobs.startJob(
        pool,
        [&release](const JobToken& token) {
            waitForCancel(token, &release);
            return 1;
        },
        [&](int) { delivered = true; });
    context.reset();
    release = true;
    drain(pool);
    EXPECT_FALSE(delivered);

    // The same once the result is already queued to the context when it goes.
    context = std::make_unique<QObject>();
    auto tracker = std::make_unique<JobTracker>(context.get());
    tracker->startJob(
        pool, [] { return 1; }, [&](int) { delivered = true; });
    pool.waitForDone();  // the result is posted, not yet delivered
    context.reset();
    QCoreApplication::processEvents();
    EXPECT_FALSE(delivered);
}

TEST(JobTracker, ATrackerDestroyedBeforeTheResultCancelsAndDrops) {
    QObject context;
    QThreadPool pool;
    bool delivered = false;
    std::atomic<bool> sawCancel{false};
    {
        JobTracker jobs(&context);
        jobs.startJob(pool, workUntilCancelled(sawCancel, 1), [&](int) { delivered = true; });
    }
    drain(pool);
    EXPECT_TRUE(sawCancel.load());
    EXPECT_FALSE(delivered);
}

TEST(JobTracker, ProgressOfTheNewestJobOnlyArrivesOnTheContextThread) {
    QObject context;
    QThreadPool pool;
    JobTracker jobs(&context);
    std::vector<int> progress;
    std::vector<QThread*> threads;
    std::atomic<bool> release{false};
    auto report = [&](int step) {
        progress.push_back(step);
        threads.push_back(QThread::currentThread());
    };
    jobs.startJob(
        pool,
        [&](const JobToken& token) {
            token.post([&report] { report(1); });
            waitForCancel(token, &release);
            token.post([&report] { report(-1); });  // superseded by then: dropped
            return 0;
        },
        [](int) {});
    ASSERT_TRUE(QTest::qWaitFor([&] { return !progress.empty(); }, 5000));
    jobs.startJob(
        pool, [] { return 0; }, [](int) {});
    drain(pool);
    EXPECT_EQ(progress, std::vector<int>{1});
    EXPECT_EQ(threads, std::vector<QThread*>{context.thread()});
}

}  // namespace
}  // namespace wl::ui
