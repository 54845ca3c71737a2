// The GPU busy figures of a trace of several GPUs, as each place shows them: one computation
// (analysis::GpuBusy), and a label wherever the mean over the GPUs and "any GPU busy" could be
// taken for each other.
#include <gtest/gtest.h>

#include <QLabel>
#include <sstream>

#include "app/cli/AnalysisReport.h"
#include "app/gui/DocumentAnalysis.h"
#include "model/TraceBuilder.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/analysis/RowStatisticsModel.h"

namespace wl::app {
namespace {

// GPU 0 busy [0, 1 ms), GPU 1 busy [1 ms, 2 ms): each half the time, one of them all of it.
model::TracePtr oneAfterTheOther() {
    model::TraceBuilder b;
    b.setKeepTimes(true);
    b.addKernel(b.gpuStreamTrack(b.gpuProcess(0, {}), 7), 0, 1'000'000, "first", 0, {});
    b.addKernel(b.gpuStreamTrack(b.gpuProcess(1, {}), 7), 1'000'000, 2'000'000, "second", 0, {});
    return b.finalize();
}

analysis::WindowRequest bothKernels() {
    analysis::WindowRequest r;
    r.kind = analysis::WindowRequest::Kind::Time;
    r.time = {0, 2'000'000};
    return r;
}

TEST(GpuFigures, TheStatusBarSaysItsFigureIsTheMean) {
    const auto trace = oneAfterTheOther();
    const auto analysis = analyzeDocument(*trace, {}, bothKernels());
    ASSERT_TRUE(analysis);
    EXPECT_TRUE(analysis->summary.contains("(mean over 2 GPUs)"))
        << analysis->summary.toStdString();
    EXPECT_TRUE(analysis->summary.contains("50.0")) << analysis->summary.toStdString();
}

TEST(GpuFigures, AnalyzeGivesBothNamed) {
    const auto trace = oneAfterTheOther();
    const auto analysis = analyzeDocument(*trace, {}, bothKernels());
    std::ostringstream text;
    printAnalysisText(text, *trace, *analysis->result);
    EXPECT_NE(text.str().find("GPU utilisation: 50.0% busy (mean over 2 GPUs); any GPU busy "
                              "100.0% of the window"),
              std::string::npos)
        << text.str();
}

TEST(GpuFigures, DiagnosticsSayTheirFigureIsTheMean) {
    const auto trace = oneAfterTheOther();
    const auto analysis = analyzeDocument(*trace, {}, bothKernels());
    ui::DiagnosticsPanel panel;
    panel.setAnalysis(trace, analysis->result);
    bool found = false;
    for (const QLabel* label : panel.findChildren<QLabel*>())
        found = found || label->text().contains("50.0% (mean over 2 GPUs)");
    EXPECT_TRUE(found);
}

TEST(GpuFigures, StatisticsSayTheirTotalIsAnyGpuBusy) {
    const auto trace = oneAfterTheOther();
    const auto analysis = analyzeDocument(*trace, {}, bothKernels());
    const analysis::Statistics& s = analysis->result->statistics;
    ui::RowStatisticsModel rows;
    rows.setSummary(trace, s.rows, static_cast<std::size_t>(s.devicesAtOnce.devices));
    const QString totals = rows.totalsText();
    EXPECT_TRUE(totals.startsWith("2 GPUs: any GPU busy 2.00 ms (100.0% of 2.00 ms)"))
        << totals.toStdString();
    // One GPU: as it always read.
    rows.setSummary(trace, s.rows, 1);
    EXPECT_TRUE(rows.totalsText().startsWith("GPU: busy 2.00 ms (100.0% of 2.00 ms)"))
        << rows.totalsText().toStdString();
}

}  // namespace
}  // namespace wl::app
