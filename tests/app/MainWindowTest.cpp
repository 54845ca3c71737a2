#include <gtest/gtest.h>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#include <QTabWidget>
#include <QTableView>
#include "MainWindowFixture.h"
#include "analysis/KernelNames.h"
#include "app/gui/DocumentAnalysis.h"
#include "app/gui/MainWindow.h"
#include "app/gui/RunPanel.h"
#include "app/gui/SampleTraces.h"
#include "io/TraceFile.h"
#include "support/Gate.h"
#include "support/TestData.h"
#include "support/TraceFactory.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/analysis/StatisticsModel.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/details/DetailsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/timeline/OverviewStrip.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

TEST_F(MainWindowTest, OpensATraceAndShowsItsRows) {
    test::SyntheticTraceSpec spec;
    spec.kernels = 200;
    spec.streams = 3;
    auto trace = test::makeSyntheticTrace(spec);
    const std::string path = writeTrace(trace, "three-streams.json");
    MainWindow window(deps(withDevice));
    window.show();
    ASSERT_TRUE(openAndWait(window, path)) << window.messageText().toStdString();

    ASSERT_EQ(window.documentCount(), 1);
    const DocumentPtr doc = window.currentDocument();
    ASSERT_TRUE(doc);
    EXPECT_EQ(window.timeline()->trace(), doc->trace);
    EXPECT_EQ(doc->origin, TraceDocument::Origin::File);
    int streams = 0;
    for (const auto& track : doc->trace->tracks()) {
        if (track.kind == model::TrackKind::GpuStream)
            ++streams;
    }
    EXPECT_EQ(streams, 3);
    EXPECT_EQ(doc->trace->counts().kernel, trace->counts().kernel);
    // Rows top to bottom: the GPU's one row per stream, then the host's CUDA API row.
    int hostApiRow = -1;
    int firstStreamRow = -1;
    int streamRows = 0;
    const auto& rows = window.timeline()->layout().rows();
    for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
        if (rows[i].kind != ui::RowKind::Track)
            continue;
        const model::Track& track = doc->trace->track(rows[i].track);
        if (track.kind == model::TrackKind::HostApi && hostApiRow < 0)
            hostApiRow = i;
        if (track.kind == model::TrackKind::GpuStream) {
            if (firstStreamRow < 0)
                firstStreamRow = i;
            ++streamRows;
        }
    }
    EXPECT_EQ(streamRows, 3);
    ASSERT_GE(hostApiRow, 0);
    EXPECT_LT(firstStreamRow, hostApiRow);
    EXPECT_TRUE(window.windowTitle().contains("three-streams.json"));
    EXPECT_EQ(window.historyBox()->count(), 1);
    // After opening, the view holds the GPU's work (all of the trace, or its busy part).
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    const auto focus = gpuFocusRange(*doc->trace);
    EXPECT_LE(window.timeline()->visibleStartNs(), focus ? focus->first : 0);
    EXPECT_GE(window.timeline()->visibleEndNs(), focus ? focus->second : doc->trace->spanNs());
    // Recent files remember it.
    EXPECT_TRUE(
        QSettings().value("recentFiles").toStringList().front().endsWith("three-streams.json"));
}

TEST_F(MainWindowTest, ZoomAndPanKeysChangeTheVisibleRange) {
    MainWindow window(deps(withDevice));
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    ASSERT_TRUE(window.currentDocument());
    ui::TimelineView* view = window.timeline();
    view->setFocus();
    QTest::mouseMove(view,
                     QPoint(view->headerWidthPx() + (view->width() - view->headerWidthPx()) / 2,
                            view->height() / 2));
    const model::TimeNs start0 = view->visibleStartNs();
    const model::TimeNs end0 = view->visibleEndNs();
    const model::TimeNs width0 = end0 - start0;

    QTest::keyClick(view, Qt::Key_W);
    const model::TimeNs width1 = view->visibleEndNs() - view->visibleStartNs();
    EXPECT_LT(width1, width0);  // zoomed in
    QTest::keyClick(view, Qt::Key_W);
    const model::TimeNs width2 = view->visibleEndNs() - view->visibleStartNs();
    EXPECT_LT(width2, width1);

    const model::TimeNs startBeforePan = view->visibleStartNs();
    QTest::keyClick(view, Qt::Key_D);
    EXPECT_GT(view->visibleStartNs(), startBeforePan);  // panned right
    EXPECT_EQ(view->visibleEndNs() - view->visibleStartNs(), width2);
    QTest::keyClick(view, Qt::Key_A);
    QTest::keyClick(view, Qt::Key_A);
    EXPECT_LT(view->visibleStartNs(), startBeforePan + 1);  // and back left

    QTest::keyClick(view, Qt::Key_S);
    EXPECT_GT(view->visibleEndNs() - view->visibleStartNs(), width2);  // zoomed out
    QTest::keyClick(view, Qt::Key_0);
    EXPECT_LE(view->visibleStartNs(), start0);
    EXPECT_GE(view->visibleEndNs(), end0);
}

TEST_F(MainWindowTest, TimelineKeysWorkWindowWideButNotInATextField) {
    MainWindow window(deps(withDevice));
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    ASSERT_TRUE(window.currentDocument());
    ui::TimelineView* view = window.timeline();
    view->fitAll();
    const model::TimeNs width0 = view->visibleEndNs() - view->visibleStartNs();

    // The focus on the findings list (as after clicking one): W still zooms the timeline.
    window.diagnostics()->setFocus();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
    const model::TimeNs width1 = view->visibleEndNs() - view->visibleStartNs();
    EXPECT_LT(width1, width0);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_0);
    EXPECT_EQ(view->visibleEndNs() - view->visibleStartNs(), width0);

    // In the Find field the letters are text.
    window.showFind();
    QLineEdit* field = window.findPanel()->queryField();
    field->setFocus();
    QTest::keyClicks(field, QStringLiteral("wsad0f"));
    EXPECT_EQ(field->text(), QStringLiteral("wsad0f"));
    EXPECT_EQ(view->visibleEndNs() - view->visibleStartNs(), width0);
}

TEST_F(MainWindowTest, FlagKeysWorkWindowWideAndTheStatusBarMeasures) {
    MainWindow window(deps(withDevice));
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    ASSERT_TRUE(window.currentDocument());
    ui::TimelineView* view = window.timeline();
    window.diagnostics()->setFocus();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_M);
    ASSERT_EQ(view->flags().flags().size(), 1u);
    auto* measure = window.findChild<QLabel*>(QStringLiteral("measureStatus"));
    ASSERT_TRUE(measure);
    EXPECT_TRUE(measure->isHidden());  // one flag measures nothing
    view->dropFlag(view->visibleStartNs());
    EXPECT_FALSE(measure->isHidden());
    EXPECT_EQ(measure->toolTip(), view->measureText());
    EXPECT_TRUE(measure->text().contains(QStringLiteral("→")));
}

TEST_F(MainWindowTest, SelectingASliceFillsTheDetails) {
    MainWindow window(deps(withDevice));
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    const DocumentPtr doc = window.currentDocument();
    ASSERT_TRUE(doc);
    // Find a kernel in the document.
    model::SliceRef kernel;
    for (std::uint32_t t = 0; t < doc->trace->tracks().size() && !kernel.valid(); ++t) {
        const auto& slices = doc->trace->track(t).slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (slices[i].kind == model::SliceKind::Kernel) {
                kernel = {t, i};
                break;
            }
        }
    }
    ASSERT_TRUE(kernel.valid());
    QSignalSpy selected(window.timeline(), &ui::TimelineView::sliceSelected);
    window.timeline()->selectSlice(kernel);
    if (selected.isEmpty()) {
        // The view only reports user selections; the window listens to those.
        emit window.timeline()->sliceSelected(kernel);
    }
    const auto& slice = doc->trace->slice(kernel);
    EXPECT_EQ(window.details()->slice(), kernel);
    EXPECT_EQ(window.details()->title().toStdString(),
              analysis::shortKernelName(doc->trace->str(slice.nameId)));
    EXPECT_FALSE(window.details()->value("Grid").isEmpty());
    EXPECT_FALSE(window.details()->value("Launch latency").isEmpty());
}

TEST_F(MainWindowTest, RunPanelWithoutADeviceExplainsWhy) {
    MainWindow window(deps(withoutDevice));
    EXPECT_FALSE(window.deviceAvailable());
    EXPECT_FALSE(window.runPanel()->runButton()->isEnabled());
    EXPECT_FALSE(window.runPanel()->compareButton()->isEnabled());
    EXPECT_TRUE(window.runPanel()->runButton()->toolTip().contains("no CUDA-capable device"));
    // Pressing Run anyway (e.g. --run) is an error in the window, not a crash.
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    ASSERT_EQ(finished.count(), 1);
    EXPECT_FALSE(finished.front().front().toBool());
    EXPECT_TRUE(window.messageText().contains("no CUDA-capable device"));
    EXPECT_EQ(window.messageLevel(), MessageBar::Level::Error);
    // Opening the bundled sample still works.
    window.openBundledSample();
    if (window.isBusy())
        QSignalSpy(&window, &MainWindow::idle).wait(20000);
    ASSERT_TRUE(window.currentDocument());
    EXPECT_EQ(window.currentDocument()->origin, TraceDocument::Origin::Sample);
    if (!bundledSamples().isEmpty()) {
        EXPECT_EQ(window.currentDocument()->path, bundledSamples().front());
    }
    int streams = 0;
    for (const auto& track : window.currentDocument()->trace->tracks()) {
        if (track.kind == model::TrackKind::GpuStream)
            ++streams;
    }
    EXPECT_GT(streams, 0);
    EXPECT_FALSE(window.messageText().isEmpty());  // says it is a sample
}

TEST_F(MainWindowTest, ATraceOfOurRunsSetsTheRunPanel) {
    MainWindow window(deps(withDevice));
    window.show();
    const std::string sample =
        std::string(WARPLINE_SAMPLES_DIR) + "/power-graph-2streams-pinned.json.gz";
    ASSERT_TRUE(openAndWait(window, sample)) << window.messageText().toStdString();
    RunRequest r = window.runRequest();
    EXPECT_EQ(r.workload, "power");
    EXPECT_EQ(r.mode, "async");
    EXPECT_EQ(r.streams, 2);
    EXPECT_TRUE(r.pinned);
    EXPECT_TRUE(r.graph);
    EXPECT_EQ(r.size, 8192);
    // Another tool's trace leaves the panel as it was.
    test::SyntheticTraceSpec spec;
    spec.kernels = 10;
    ASSERT_TRUE(openAndWait(window, writeTrace(test::makeSyntheticTrace(spec), "other.json")));
    r = window.runRequest();
    EXPECT_EQ(r.workload, "power");
    EXPECT_TRUE(r.graph);
}

TEST_F(MainWindowTest, AsksForTheDeviceOnAWorkerThread) {
    // A probe that takes as long as the test wants, as the first CUDA call does with a GPU.
    std::atomic<bool> release{false};
    std::thread::id probeThread;
    MainWindowDeps d = deps([&]() -> model::Result<std::string> {
        probeThread = std::this_thread::get_id();
        for (int i = 0; i < 1000 && !release.load(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return std::string("Fake GPU 80GB");
    });
    d.probeDeviceInBackground = true;
    MainWindow window(std::move(d));  // returns while the probe is still busy
    QSignalSpy probed(&window, &MainWindow::deviceProbed);
    EXPECT_TRUE(window.isProbingDevice());
    EXPECT_FALSE(window.deviceAvailable());
    EXPECT_FALSE(window.runPanel()->runButton()->isEnabled());
    EXPECT_TRUE(window.runPanel()->runButton()->toolTip().contains("looking for a CUDA GPU"));
    // Traces open meanwhile.
    window.openTrace(test::makeSyntheticTrace({}), QStringLiteral("meanwhile"));
    EXPECT_EQ(window.documentCount(), 1);

    release = true;
    ASSERT_TRUE(probed.wait(20000));
    EXPECT_NE(probeThread, std::this_thread::get_id());
    EXPECT_FALSE(window.isProbingDevice());
    EXPECT_TRUE(window.deviceAvailable());
    EXPECT_EQ(window.deviceText(), "Fake GPU 80GB");
    EXPECT_TRUE(window.runPanel()->runButton()->isEnabled());
}

TEST_F(MainWindowTest, RunPanelWithADeviceDisablesRunWhileRunning) {
    MainWindow window(deps(withDevice, fakeRunner(std::chrono::milliseconds(300))));
    window.show();
    EXPECT_TRUE(window.deviceAvailable());
    EXPECT_TRUE(window.runPanel()->runButton()->isEnabled());
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::mouseClick(window.runPanel()->runButton(), Qt::LeftButton);
    EXPECT_TRUE(window.isBusy());
    EXPECT_FALSE(window.runPanel()->runButton()->isEnabled());
    EXPECT_FALSE(window.runPanel()->compareButton()->isEnabled());
    EXPECT_TRUE(window.runPanel()->cancelButton()->isVisibleTo(window.runPanel()));
    window.startRun();  // ignored while running
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_TRUE(finished.front().front().toBool());
    EXPECT_TRUE(window.runPanel()->runButton()->isEnabled());
    // The new document is analysed in the background, then the window is idle.
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(10000));
    }
    EXPECT_FALSE(window.isBusy());
    ASSERT_TRUE(window.currentAnalysis());
    EXPECT_EQ(window.documentCount(), 1);
    EXPECT_EQ(window.currentDocument()->origin, TraceDocument::Origin::Run);
    EXPECT_TRUE(window.lastRunText().contains("normalized sum"));
}

// A run held at a gate until the test lets it go (or cancels it), so that "while it runs" lasts as
// long as the test needs on any machine; then it ends as fakeRunner's does.
struct HeldRun {
    test::Gate gate;
    std::atomic<bool> entered{false};
    std::atomic<bool> letGo{false};  // it ended because the gate opened

    RunnerFn runner(std::atomic<int>* calls = nullptr) {
        return [this, calls](const RunRequest& request, const ProgressFn& progress,
                             const std::atomic<bool>* cancel) -> model::Result<RunOutcome> {
            if (calls)
                ++*calls;
            entered = true;
            // Held for at most 30 s: longer than any wait of the tests, so a run that was not
            // let go or cancelled makes them fail instead of hang.
            for (int i = 0; i < 3000; ++i) {
                if (gate.waitOpen(std::chrono::milliseconds(10))) {
                    letGo = true;
                    return fakeRunner(std::chrono::milliseconds(0))(request, progress, cancel);
                }
                if (cancel && cancel->load())
                    return model::Error{"cancelled", {}, -1};
            }
            return model::Error{"the test never let the run go", {}, -1};
        };
    }
};

TEST_F(MainWindowTest, ALongRunKeepsTheEventLoopTurning) {
    std::atomic<int> calls{0};
    HeldRun held;
    MainWindow window(deps(withDevice, held.runner(&calls)));
    const test::GateOpener letGoAtEnd(held.gate);
    window.show();
    int ticks = 0;
    QTimer timer;
    QObject::connect(&timer, &QTimer::timeout, [&] { ++ticks; });
    timer.start(10);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    // startRun returns at once: the run is on a worker thread, still held there.
    EXPECT_FALSE(held.gate.isOpen());
    EXPECT_TRUE(window.isBusy());
    EXPECT_EQ(finished.size(), 0);
    // While the run is held, the loop turns: many ticks at 10 ms a tick.
    ASSERT_TRUE(QTest::qWaitFor([&] { return ticks > 30; }, 20000));
    EXPECT_EQ(finished.size(), 0);
    held.gate.open();
    ASSERT_TRUE(finished.wait(20000));
    timer.stop();
    EXPECT_TRUE(held.letGo.load());  // it ran until let go, not to its end on the GUI thread
    EXPECT_EQ(calls.load(), 1);
    EXPECT_EQ(window.documentCount(), 1);
}

TEST_F(MainWindowTest, CancelStopsALongRunAndLeavesTheAppReady) {
    HeldRun held;  // never let go: only Cancel can end it within the wait below
    MainWindow window(deps(withDevice, held.runner()));
    window.show();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    ASSERT_TRUE(QTest::qWaitFor([&] { return held.entered.load(); }, 20000));
    QTest::mouseClick(window.runPanel()->cancelButton(), Qt::LeftButton);
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_FALSE(held.letGo.load());
    EXPECT_FALSE(finished.front().front().toBool());
    EXPECT_EQ(window.documentCount(), 0);
    EXPECT_EQ(window.messageLevel(), MessageBar::Level::Info);
    EXPECT_TRUE(window.messageText().contains("cancelled"));
    EXPECT_TRUE(window.runPanel()->runButton()->isEnabled());
}

// Drags a file over the window and drops it there, as a file manager does; whether the window
// accepted the drag.
bool dropFile(MainWindow& window, const std::string& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(path))});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    return enter.isAccepted();
}

TEST_F(MainWindowTest, DroppingAFileOpensIt) {
    test::SyntheticTraceSpec spec;
    spec.streams = 2;
    const std::string path = writeTrace(test::makeSyntheticTrace(spec), "dropped.json.gz");
    MainWindow window(deps(withDevice));
    window.show();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    EXPECT_TRUE(dropFile(window, path));
    ASSERT_TRUE(opened.wait(20000));
    EXPECT_TRUE(opened.front().front().toBool()) << window.messageText().toStdString();
    ASSERT_TRUE(window.currentDocument());
    EXPECT_EQ(window.currentDocument()->title, "dropped.json.gz");
}

// A recorded PyTorch profiler trace: its 19 launch arrows of CUDA calls with no GPU work are
// ignored, and the window lists which and why, one line each, behind the message's Details.
TEST_F(MainWindowTest, TheImportNotesListTheIgnoredFlowsAndWhy) {
    MainWindow window(deps(withDevice));
    window.show();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    window.openFile(QString::fromStdString(test::dataPath("pytorch_small.json.gz")));
    ASSERT_TRUE(opened.wait(20000));
    ASSERT_TRUE(opened.front().front().toBool()) << window.messageText().toStdString();
    EXPECT_EQ(window.messageLevel(), MessageBar::Level::Info);
    EXPECT_TRUE(window.messageText().contains("19 launch flow event(s) were ignored"))
        << window.messageText().toStdString();
    MessageBar* bar = window.messageBar();
    EXPECT_TRUE(bar->detailsButton()->isVisible());
    QDialog* dialog = bar->showDetails();
    ASSERT_NE(dialog, nullptr);
    auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("importNotesText"));
    ASSERT_NE(text, nullptr);
    const QStringList lines = text->toPlainText().split(QLatin1Char('\n'));
    // The count with its reasons, then each listed event with its id, time, slice and reason.
    ASSERT_GE(lines.size(), 12) << text->toPlainText().toStdString();
    EXPECT_TRUE(lines[0].startsWith("Notes (11)")) << lines[0].toStdString();
    EXPECT_TRUE(lines[1].startsWith("• 19 launch flow event(s) were ignored"));
    for (int i = 2; i < 12; ++i) {
        EXPECT_TRUE(lines[i].startsWith("• ignored launch flow \"")) << lines[i].toStdString();
        EXPECT_TRUE(lines[i].contains(" id ") && lines[i].contains(" ms (ts "))
            << lines[i].toStdString();
        EXPECT_TRUE(lines[i].contains("): no ")) << lines[i].toStdString();
    }
    // The next message takes the details with it.
    bar->showMessage(MessageBar::Level::Info, QStringLiteral("Exported."));
    EXPECT_FALSE(bar->detailsButton()->isVisible());
    EXPECT_EQ(bar->showDetails(), nullptr);
}

TEST_F(MainWindowTest, DroppingATextFileSaysItIsNotATraceAndWhatOpens) {
    const std::string path = test::makeTempDir("wl-drop") + "/notes.txt";
    {
        std::ofstream out(path);
        out << "Meeting notes: profile the loader again on Tuesday.\n";
    }
    MainWindow window(deps(withDevice));
    window.show();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    dropFile(window, path);
    ASSERT_TRUE(opened.wait(20000));
    EXPECT_FALSE(opened.front().front().toBool());
    EXPECT_EQ(window.messageLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageText().contains("not a trace Warpline reads"))
        << window.messageText().toStdString();
    EXPECT_TRUE(window.messageText().contains("Chrome trace JSON"));
    EXPECT_FALSE(window.messageText().contains("escaped"));
    // Switching to another trace in the Trace box leaves that error behind.
    window.openTrace(syntheticSampleTrace(), "first");
    window.openTrace(syntheticSampleTrace(), "second");
    ASSERT_TRUE(window.messageText().contains("not a trace Warpline reads"));
    emit window.historyBox()->activated(0);
    EXPECT_EQ(window.currentDocument()->title, "first");
    EXPECT_TRUE(window.messageText().isEmpty()) << window.messageText().toStdString();
}

TEST_F(MainWindowTest, AFailedRunShowsItsMessageAndLeavesTheAppReady) {
    int runs = 0;
    RunnerFn failing = [&runs](const RunRequest&, const ProgressFn&,
                               const std::atomic<bool>*) -> model::Result<RunOutcome> {
        ++runs;
        return model::Error{"out of device memory while allocating 400 MB", {}, -1};
    };
    MainWindow window(deps(withDevice, failing));
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    const DocumentPtr before = window.currentDocument();
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_FALSE(finished.front().front().toBool());
    EXPECT_TRUE(window.messageText().contains("out of device memory"));
    EXPECT_EQ(window.messageLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.lastRunText().contains("failed"));
    EXPECT_EQ(window.currentDocument(), before);
    EXPECT_TRUE(window.runPanel()->runButton()->isEnabled());
    // Ready for the next run.
    window.startRun();
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_EQ(runs, 2);
}

TEST_F(MainWindowTest, AnotherWindowIsAnalysedAndNamedAndKeepsTheBadges) {
    MainWindow window(deps(withDevice));
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    const auto opened = window.currentAnalysis();
    ASSERT_TRUE(opened);
    const auto badges = window.timeline()->overlays().kernelBadges;

    // "Analyse every 'Kernels'" from an NVTX range's menu.
    analysis::WindowRequest kernels;
    kernels.kind = analysis::WindowRequest::Kind::NvtxRange;
    kernels.rangeName = "Kernels";
    window.analyzeWindow(kernels);
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    const auto ranged = window.currentAnalysis();
    ASSERT_TRUE(ranged);
    ASSERT_NE(ranged, opened);
    EXPECT_EQ(ranged->result->window().source, analysis::WindowSource::Nvtx);
    EXPECT_TRUE(ranged->summary.contains(QStringLiteral("'Kernels'")))
        << ranged->summary.toStdString();
    EXPECT_EQ(window.diagnostics()->entryCount(),
              static_cast<int>(ranged->result->diagnostics.size()));
    // The same badges, not a copy: a window change does not rebuild them.
    EXPECT_EQ(window.timeline()->overlays().kernelBadges, badges);

    // A drag on the ruler selects a time range and analyses it.
    ui::TimelineView* timeline = window.timeline();
    timeline->fitAll();
    const int y = 10;  // on the ruler
    const int x0 = 240 + (timeline->width() - 240) / 4;
    const int x1 = 240 + (timeline->width() - 240) / 2;
    QTest::mousePress(timeline, Qt::LeftButton, {}, QPoint(x0, y));
    QMouseEvent move(QEvent::MouseMove, QPointF(x1, y), timeline->mapToGlobal(QPointF(x1, y)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(timeline, &move);
    QTest::mouseRelease(timeline, Qt::LeftButton, {}, QPoint(x1, y));
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    ASSERT_TRUE(timeline->timeSelection().has_value());
    const auto selected = window.currentAnalysis();
    ASSERT_TRUE(selected);
    EXPECT_EQ(selected->result->window().source, analysis::WindowSource::Selection);
    EXPECT_EQ(selected->result->window().startNs(), timeline->timeSelection()->startNs);
    EXPECT_EQ(selected->result->window().endNs(), timeline->timeSelection()->endNs);
}

TEST_F(MainWindowTest, AnalysisFillsDiagnosticsStatisticsAndOverlays) {
    MainWindow window(deps(withDevice));
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    const auto analysis = window.currentAnalysis();
    ASSERT_TRUE(analysis);
    EXPECT_EQ(window.diagnostics()->entryCount(),
              static_cast<int>(analysis->result->diagnostics.size()));
    EXPECT_EQ(window.statistics()->kernelModel()->rowCount(),
              static_cast<int>(analysis->result->statistics.kernels.size()));
    // The timeline hatches the gaps where the whole GPU idles; per-stream waits stay in the
    // analysis.
    const auto deviceGaps = std::count_if(
        analysis->result->utilization.gaps.begin(), analysis->result->utilization.gaps.end(),
        [](const analysis::IdleGap& g) { return g.streamId < 0; });
    EXPECT_GT(deviceGaps, 0);
    EXPECT_EQ(static_cast<std::ptrdiff_t>(window.timeline()->overlays().gaps.size()), deviceGaps);
    EXPECT_FALSE(window.timeline()->overlays().kernelBadges->empty());

    // Clicking a finding with evidence selects it and zooms the timeline to it.
    int row = -1;
    for (int i = 0; i < static_cast<int>(analysis->result->diagnostics.size()); ++i) {
        if (!analysis->result->diagnostics[i].evidence.empty()) {
            row = i;
            break;
        }
    }
    ASSERT_GE(row, 0) << "the sample should have a finding with evidence";
    window.timeline()->fitAll();
    const model::TimeNs fullWidth =
        window.timeline()->visibleEndNs() - window.timeline()->visibleStartNs();
    window.diagnostics()->activate(row);
    const model::SliceRef first =
        window.diagnostics()->analysis()->diagnostics[row].evidence.front();
    EXPECT_EQ(window.details()->slice(), first);
    EXPECT_LE(window.timeline()->visibleEndNs() - window.timeline()->visibleStartNs(), fullWidth);
    const model::Slice& s = window.currentDocument()->trace->slice(first);
    EXPECT_LE(window.timeline()->visibleStartNs(), s.startNs);
    EXPECT_GE(window.timeline()->visibleEndNs(), s.endNs());

    // A new gap threshold re-runs the analysis with it.
    emit window.diagnostics()->gapThresholdChanged(5 * model::kNsPerMs);
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    ASSERT_TRUE(window.currentAnalysis());
    EXPECT_EQ(window.currentAnalysis()->result->options.gapThresholdNs, 5 * model::kNsPerMs);
}

TEST_F(MainWindowTest, FullKernelNamesToggleAndKernelRowsSelectTheirLaunches) {
    MainWindow window(deps(withDevice));
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    ASSERT_TRUE(window.currentAnalysis());
    QAction* full = window.fullKernelNamesAction();
    ASSERT_TRUE(full);
    EXPECT_TRUE(full->isCheckable());
    EXPECT_FALSE(full->isChecked());  // short names by default
    EXPECT_FALSE(window.timeline()->fullKernelNames());
    EXPECT_FALSE(window.statistics()->kernelModel()->fullKernelNames());
    const std::size_t badges = window.timeline()->overlays().kernelBadges->size();
    ASSERT_GT(badges, 0u);

    full->setChecked(true);
    EXPECT_TRUE(window.timeline()->fullKernelNames());
    EXPECT_EQ(window.timeline()->overlays().kernelBadges->size(), badges);  // the rest is kept
    EXPECT_TRUE(window.statistics()->kernelModel()->fullKernelNames());
    EXPECT_TRUE(QSettings().value("view/fullKernelNames").toBool());
    {
        MainWindow next(deps(withDevice));  // starts with the saved choice
        EXPECT_TRUE(next.fullKernelNamesAction()->isChecked());
        EXPECT_TRUE(next.statistics()->kernelModel()->fullKernelNames());
    }
    // Another analysis (a new window) keeps the choice.
    window.analyzeWindow({});
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    EXPECT_TRUE(window.timeline()->fullKernelNames());
    full->setChecked(false);
    EXPECT_FALSE(window.timeline()->fullKernelNames());
    EXPECT_FALSE(window.statistics()->kernelModel()->fullKernelNames());

    // A click on a kernel's row selects its launches on the timeline, as a finding's evidence.
    const auto& kernels = window.currentAnalysis()->result->statistics.kernels;
    ASSERT_FALSE(kernels.empty());
    const analysis::KernelStats& last = kernels.back();
    emit window.statistics()->kernelActivated(last.nameId);
    const model::SliceRef selected = window.timeline()->selectedSlice();
    ASSERT_TRUE(selected.valid());
    EXPECT_EQ(window.currentDocument()->trace->slice(selected).nameId, last.nameId);
    EXPECT_EQ(window.details()->slice(), selected);
}

TEST_F(MainWindowTest, ExportWritesAFileThatImportsBackIdentically) {
    MainWindow window(deps(withDevice));
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    const DocumentPtr doc = window.currentDocument();
    ASSERT_TRUE(doc);
    const std::string dir = test::makeTempDir("wl-export");
    for (const std::string name : {"out.json", "out.json.gz"}) {
        const std::string path = dir + "/" + name;
        // What File > Export does with the path its dialog returns: the write runs on a worker
        // and the window hears of it when it is done.
        QSignalSpy exported(&window, &MainWindow::exported);
        ASSERT_TRUE(window.exportChromeTrace(QString::fromStdString(path)));
        EXPECT_TRUE(window.isBusy());
        ASSERT_TRUE(exported.wait(20000)) << window.messageText().toStdString();
        EXPECT_EQ(exported.at(0).at(0).toString().toStdString(), path);
        EXPECT_EQ(window.messageLevel(), MessageBar::Level::Info);
        EXPECT_TRUE(window.messageText().contains(QString::fromStdString(path)));
        auto back = io::loadTrace(path);
        ASSERT_TRUE(back.ok()) << back.error().describe();
        const model::Trace& a = *doc->trace;
        const model::Trace& b = **back;
        EXPECT_EQ(b.counts().slices, a.counts().slices);
        EXPECT_EQ(b.counts().kernel, a.counts().kernel);
        EXPECT_EQ(b.counts().memcpy, a.counts().memcpy);
        EXPECT_EQ(b.counts().flows, a.counts().flows);
        EXPECT_EQ(b.spanNs(), a.spanNs());
        // Exporting the re-imported trace gives the same bytes: nothing was lost or changed.
        const std::string again = dir + "/again-" + name;
        ASSERT_TRUE(io::saveTrace(b, again).ok());
        if (name.ends_with(".json")) {
            EXPECT_EQ(test::readFile(again), test::readFile(path));
        }
    }
    EXPECT_TRUE(window.exportViewPng(QString::fromStdString(dir + "/view.png")).ok());
    EXPECT_TRUE(QFile::exists(QString::fromStdString(dir + "/view.png")));
}

TEST_F(MainWindowTest, AFailedExportSaysWhyInTheWindow) {
    MainWindow window(deps(withDevice));
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    QSignalSpy exported(&window, &MainWindow::exported);
    ASSERT_TRUE(window.exportChromeTrace(QStringLiteral("/proc/warpline-cannot-write-here.json")));
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    EXPECT_EQ(exported.count(), 0);
    EXPECT_EQ(window.messageLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageText().startsWith(QStringLiteral("Export failed:")))
        << window.messageText().toStdString();
}

TEST_F(MainWindowTest, AMalformedFileShowsAnErrorAndKeepsThePreviousDocument) {
    MainWindow window(deps(withDevice));
    window.show();
    window.openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
    const DocumentPtr before = window.currentDocument();
    ASSERT_TRUE(before);
    // Its analysis done first, so "not busy" below is about the failed open alone (on a loaded
    // machine the analysis could otherwise still be running).
    if (window.isBusy()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(20000));
    }
    const std::string path = test::makeTempDir("wl-bad") + "/broken.json";
    {
        QFile file(QString::fromStdString(path));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(R"({"traceEvents": [{"ph": "X", "ts": 1, "dur": )");
    }
    EXPECT_FALSE(openAndWait(window, path));
    EXPECT_EQ(window.currentDocument(), before);
    EXPECT_EQ(window.documentCount(), 1);
    EXPECT_EQ(window.timeline()->trace(), before->trace);
    EXPECT_EQ(window.messageLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageText().contains("broken.json"));
    EXPECT_FALSE(window.isBusy());
    // A missing file too.
    EXPECT_FALSE(openAndWait(window, path + ".missing"));
    EXPECT_EQ(window.currentDocument(), before);
}

TEST_F(MainWindowTest, OnlyTheLatestOpenCounts) {
    // The first load is held until the second has opened; opening another file meanwhile drops
    // its result when it arrives. The trace it made is watched: a dropped result lets go of it,
    // one that was taken lives on in a document.
    struct Slow {
        test::Gate gate;
        std::mutex mutex;
        bool made = false;
        std::weak_ptr<const model::Trace> trace;
    } slow;
    TraceLoadFn loader = [&slow](const QString& path,
                                 const io::ReadControl&) -> model::Result<model::TracePtr> {
        test::SyntheticTraceSpec spec;
        if (!path.contains("slow")) {
            spec.streams = 5;
            return test::makeSyntheticTrace(spec);
        }
        slow.gate.waitOpen(std::chrono::seconds(30));
        spec.streams = 2;
        model::TracePtr trace = test::makeSyntheticTrace(spec);
        const std::lock_guard lock(slow.mutex);
        slow.made = true;
        slow.trace = trace;
        return trace;
    };
    MainWindowDeps d = deps(withDevice);
    d.loader = loader;
    MainWindow window(std::move(d));
    const test::GateOpener openAtEnd(slow.gate);
    QSignalSpy idle(&window, &MainWindow::idle);
    window.openFile("slow.json");
    window.openFile("fast.json");
    ASSERT_TRUE(idle.wait(10000));
    slow.gate.open();  // the slow result arrives now and must be ignored
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const std::lock_guard lock(slow.mutex);
            return slow.made && slow.trace.expired();
        },
        20000));
    ASSERT_EQ(window.documentCount(), 1);
    EXPECT_EQ(window.currentDocument()->title, "fast.json");
}

TEST_F(MainWindowTest, HistoryIsBoundedAndSwitchesDocuments) {
    MainWindow window(deps(withDevice));
    std::vector<model::TracePtr> traces;
    for (int i = 0; i < 20; ++i) {
        test::SyntheticTraceSpec spec;
        spec.kernels = 10;
        spec.seed = static_cast<std::uint64_t>(i + 1);
        traces.push_back(test::makeSyntheticTrace(spec));
        window.openTrace(traces.back(), QStringLiteral("t%1").arg(i));
    }
    // The oldest documents leave the history; the newest is shown.
    ASSERT_EQ(window.documentCount(), 16);
    EXPECT_EQ(window.historyBox()->count(), 16);
    EXPECT_EQ(window.currentDocumentIndex(), 15);
    EXPECT_EQ(window.currentDocument()->title, "t19");
    EXPECT_EQ(window.historyBox()->itemText(0), "t4");
    // Picking an entry in the box shows that trace.
    window.historyBox()->setCurrentIndex(3);
    emit window.historyBox()->activated(3);
    EXPECT_EQ(window.currentDocument()->title, "t7");
    EXPECT_EQ(window.timeline()->trace(), traces[7]);
    EXPECT_TRUE(window.windowTitle().startsWith("t7"));
}

}  // namespace
}  // namespace wl::app
