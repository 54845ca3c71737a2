#pragma once

// The MainWindow tests' fixture and fakes, shared by the files that test the window by theme
// (MainWindowTest.cpp, MainWindowCompareTest.cpp, MainWindowLayoutTest.cpp). Not in an anonymous
// namespace: gtest wants one fixture class for one test suite across the files.
#include <gtest/gtest.h>
#include <QSettings>
#include <QSignalSpy>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "app/gui/MainWindow.h"
#include "io/TraceFile.h"
#include "support/TestData.h"
#include "support/TraceFactory.h"

namespace wl::app {

inline model::Result<std::string> withDevice() {
    return std::string("Fake GPU 80GB");
}
inline model::Result<std::string> withoutDevice() {
    return model::Error{"no CUDA-capable device was found", {}, -1};
}

// A fake run: sleeps `duration` in small steps (reporting progress, honouring cancel) and
// returns a synthetic trace shaped by the request.
inline RunnerFn fakeRunner(std::chrono::milliseconds duration, std::atomic<int>* calls = nullptr) {
    return [duration, calls](const RunRequest& request, const ProgressFn& progress,
                             const std::atomic<bool>* cancel) -> model::Result<RunOutcome> {
        if (calls)
            ++*calls;
        const int steps = 20;
        for (int i = 0; i < steps; ++i) {
            if (cancel && cancel->load())
                return model::Error{"cancelled", {}, -1};
            std::this_thread::sleep_for(duration / steps);
            if (progress)
                progress(double(i + 1) / steps, "step " + std::to_string(i + 1));
        }
        test::SyntheticTraceSpec spec;
        spec.kernels = 50;
        spec.memcpys = 10;
        spec.streams = request.streams;
        RunOutcome outcome;
        outcome.trace = test::makeSyntheticTrace(spec);
        outcome.checkPassed = true;
        outcome.checkText = "normalized sum = 1.0000 (ok)";
        outcome.wallTimeMs = request.mode == "async" ? 10.0 : 25.0;
        return outcome;
    };
}

inline MainWindowDeps deps(DeviceProbeFn probe, RunnerFn runner = {}) {
    MainWindowDeps d;
    d.deviceProbe = std::move(probe);
    d.runner = runner ? std::move(runner) : fakeRunner(std::chrono::milliseconds(50));
    d.restoreLayout = false;
    d.probeDeviceInBackground = false;  // the fakes answer at once: see the device at once
    return d;
}

class MainWindowTest : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    void TearDown() override { QSettings().clear(); }

    // Writes `trace` as Chrome JSON into a temp folder and returns the path.
    std::string writeTrace(const model::TracePtr& trace, const std::string& name) {
        const std::string path = test::makeTempDir("wl-app") + "/" + name;
        const model::Status saved = io::saveTrace(*trace, path);
        EXPECT_TRUE(saved.ok()) << (saved.ok() ? "" : saved.error().describe());
        return path;
    }

    bool openAndWait(MainWindow& window, const std::string& path) {
        QSignalSpy spy(&window, &MainWindow::openFinished);
        window.openFile(QString::fromStdString(path));
        if (!spy.wait(20000))
            return false;
        return spy.front().front().toBool();
    }
};

}  // namespace wl::app
