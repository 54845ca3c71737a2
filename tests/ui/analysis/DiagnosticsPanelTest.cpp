#include <gtest/gtest.h>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QTest>

#include "analysis/Analysis.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "ui/analysis/AnalysisOverlays.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

// Pageable copies, a single-thread kernel and gaps: several rules fire.
model::TracePtr findingsTrace() {
    test::HandTrace t;
    t.addH100();
    t.copy(1, 0, 100'000, model::CopyKind::HostToDevice, 1 << 20, 0, 100'000, "cudaMemcpy",
           model::MemoryKind::Pageable);
    t.kernel(1, 200'000, 300'000, 150'000, "single_thread_sum", test::launchConfig(1, 1, 16));
    t.copy(1, 400'000, 500'000, model::CopyKind::DeviceToHost, 1 << 20, 390'000, 500'000,
           "cudaMemcpy", model::MemoryKind::Pageable);
    return t.finish();
}

struct Fixture {
    model::TracePtr trace = findingsTrace();
    std::shared_ptr<const analysis::AnalysisResult> result =
        std::make_shared<const analysis::AnalysisResult>(analysis::analyzeTrace(*trace));
};

TEST(DiagnosticsPanel, ListsEveryFinding) {
    Fixture f;
    ASSERT_GE(f.result->diagnostics.size(), 3u);
    DiagnosticsPanel panel;
    panel.setAnalysis(f.trace, f.result);
    ASSERT_EQ(panel.entryCount(), static_cast<int>(f.result->diagnostics.size()));
    for (int i = 0; i < panel.entryCount(); ++i) {
        const analysis::Diagnostic& d = f.result->diagnostics[static_cast<std::size_t>(i)];
        const QString text = panel.list()->item(i)->text();
        EXPECT_TRUE(text.startsWith(QStringLiteral("[%1]").arg(analysis::toString(d.rule))))
            << text.toStdString();
        EXPECT_EQ(panel.list()->item(i)->toolTip().toStdString(), d.fix);
    }
    panel.setAnalysis(nullptr, nullptr);
    EXPECT_EQ(panel.entryCount(), 0);
}

// A narrow panel wraps each finding to its width: no line ends mid-word under a horizontal
// scroll bar, whatever width it had when the findings came.
TEST(DiagnosticsPanel, FindingsWrapToTheWidthTheyAreGiven) {
    Fixture f;
    // One finding names a long range without spaces, as a PyTorch DataLoader stall does.
    auto result = std::make_shared<analysis::AnalysisResult>(*f.result);
    result->diagnostics.front().message +=
        " while the host was in 'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__'";
    DiagnosticsPanel panel;
    panel.resize(900, 400);
    panel.show();
    panel.setAnalysis(f.trace, result);
    QCoreApplication::processEvents();
    panel.resize(300, 160);  // short: a vertical scroll bar takes some of the width
    QCoreApplication::processEvents();
    QListWidget* list = panel.list();
    ASSERT_TRUE(list->verticalScrollBar()->isVisible());
    EXPECT_EQ(list->horizontalScrollBar()->maximum(), 0);
    const QRect first = list->visualItemRect(list->item(0));
    EXPECT_LE(first.width(), list->viewport()->width());
    // A long message takes more than one line at this width.
    EXPECT_GT(first.height(), 2 * list->fontMetrics().height());
}

TEST(DiagnosticsPanel, ClickEmitsEvidenceAndTheTimelineZoomsToIt) {
    Fixture f;
    DiagnosticsPanel panel;
    TimelineView timeline;
    timeline.resize(800, 400);
    timeline.setTrace(f.trace);
    panel.setAnalysis(f.trace, f.result);
    panel.resize(500, 300);
    panel.show();
    std::vector<model::SliceRef> got;
    QObject::connect(&panel, &DiagnosticsPanel::evidenceActivated,
                     [&](const std::vector<model::SliceRef>& refs) { got = refs; });
    QObject::connect(&panel, &DiagnosticsPanel::evidenceActivated, &timeline,
                     &TimelineView::zoomToSlices);

    // Click the pageable-memcpy entry.
    int row = -1;
    for (int i = 0; i < panel.entryCount(); ++i) {
        if (f.result->diagnostics[static_cast<std::size_t>(i)].rule ==
            analysis::RuleId::PageableMemcpy) {
            row = i;
        }
    }
    ASSERT_GE(row, 0);
    QListWidget* list = panel.list();
    const QRect rect = list->visualItemRect(list->item(row));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());

    const analysis::Diagnostic& d = f.result->diagnostics[static_cast<std::size_t>(row)];
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got, d.evidence);
    EXPECT_EQ(list->currentRow(), row);
    EXPECT_TRUE(panel.fixText().contains(QStringLiteral("pinned")))
        << panel.fixText().toStdString();
    // The window's reaction: the first piece of evidence selected, all of it in view.
    EXPECT_EQ(timeline.selectedSlice(), got.front());
    EXPECT_LE(timeline.visibleStartNs(), 0);
    EXPECT_GE(timeline.visibleEndNs(), 500'000);
}

TEST(DiagnosticsPanel, FindingWithoutEvidenceGivesItsTimeRange) {
    Fixture f;
    auto result = std::make_shared<analysis::AnalysisResult>();
    analysis::Diagnostic d;
    d.rule = analysis::RuleId::LowUtilization;
    d.message = "quiet";
    d.startNs = 1'000;
    d.endNs = 5'000;
    result->diagnostics.push_back(d);
    DiagnosticsPanel panel;
    panel.setAnalysis(f.trace, result);
    bool evidence = false;
    std::pair<model::TimeNs, model::TimeNs> range{};
    QObject::connect(&panel, &DiagnosticsPanel::evidenceActivated,
                     [&](const std::vector<model::SliceRef>&) { evidence = true; });
    QObject::connect(&panel, &DiagnosticsPanel::rangeActivated,
                     [&](model::TimeNs a, model::TimeNs b) {
                         range = {a, b};
                     });
    panel.activate(0);
    EXPECT_FALSE(evidence);
    EXPECT_EQ(range.first, 1'000);
    EXPECT_EQ(range.second, 5'000);
}

TEST(DiagnosticsPanel, ThresholdChangeAsksForANewAnalysis) {
    Fixture f;
    DiagnosticsPanel panel;
    panel.setAnalysis(f.trace, f.result);
    EXPECT_DOUBLE_EQ(panel.gapThresholdUs(), 20.0);
    model::TimeNs asked = 0;
    QObject::connect(&panel, &DiagnosticsPanel::gapThresholdChanged,
                     [&](model::TimeNs ns) { asked = ns; });
    panel.findChild<QDoubleSpinBox*>(QStringLiteral("gapThreshold"))->setValue(150.0);
    EXPECT_EQ(asked, 150'000);

    analysis::AnalysisOptions o;
    o.gapThresholdNs = asked;
    auto again =
        std::make_shared<const analysis::AnalysisResult>(analysis::analyzeTrace(*f.trace, o));
    panel.setAnalysis(f.trace, again);
    EXPECT_EQ(panel.entryCount(), static_cast<int>(again->diagnostics.size()));
    EXPECT_FALSE(again->fired(analysis::RuleId::GpuGap));  // all gaps are 100 us
    EXPECT_TRUE(f.result->fired(analysis::RuleId::GpuGap));
}

TEST(AnalysisOverlays, GapsAndKernelBadges) {
    Fixture f;
    const TimelineOverlays o = makeOverlays(*f.trace, *f.result);
    std::size_t deviceGaps = 0;
    for (const GapOverlay& g : o.gaps) {
        if (g.streamId == -1) {
            ++deviceGaps;
            EXPECT_EQ(g.durationNs, 100'000);
            ASSERT_NE(o.gapDetails, nullptr);
            const QString text = o.gapDetails(*f.trace, g);
            EXPECT_TRUE(text.contains(QStringLiteral("issued no work"))) << text.toStdString();
            EXPECT_TRUE(text.contains(QStringLiteral("Ended by work launched with cuda")))
                << text.toStdString();
        }
    }
    EXPECT_EQ(deviceGaps, 2u);
    EXPECT_EQ(o.gaps.front().startNs, 100'000);
    EXPECT_EQ(o.gaps.front().cause, QStringLiteral("host"));  // launched at 150 us
    ASSERT_EQ(o.kernelBadges->size(), 1u);
    EXPECT_FLOAT_EQ((*o.kernelBadges)[0].occupancyPct, 50.0f);
    EXPECT_TRUE((*o.kernelBadges)[0].lowFill);
    EXPECT_TRUE((*o.kernelBadges)[0].tooltip.contains(QStringLiteral("1 of 32 lanes")))
        << (*o.kernelBadges)[0].tooltip.toStdString();
    EXPECT_TRUE((*o.kernelBadges)[0].tooltip.contains(QStringLiteral("on 1 of 132 SMs")));
}

}  // namespace
}  // namespace wl::ui
