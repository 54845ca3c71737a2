#include <gtest/gtest.h>

#include "app/gui/TraceDocument.h"
#include "support/TraceFactory.h"

namespace wl::app {
namespace {

TEST(TraceDocument, FileStemsLoseTheirTraceExtensions) {
    EXPECT_EQ(traceFileStem("/data/step.json.gz"), "step");
    EXPECT_EQ(traceFileStem("rank-0.pt.trace.json"), "rank-0");
    EXPECT_EQ(traceFileStem("run.v2.json"), "run.v2");
    EXPECT_EQ(traceFileStem(":/samples/reduce-async.json.gz"), "reduce-async");
}

TEST(TraceDocument, AJobIsExportedUnderWhatItsRanksShare) {
    // Once "2-ranks-hta_sampled_rank-0.json.gz-and-more.json.gz".
    EXPECT_EQ(jobExportStem({"/t/hta_sampled_rank-0.json.gz", "/t/hta_sampled_rank-1.json.gz"}),
              "hta_sampled.merged");
    EXPECT_EQ(jobExportStem({"ddp-0.json.gz", "ddp-1.json.gz", "ddp-12.json.gz"}), "ddp.merged");
    EXPECT_EQ(jobExportStem({"worker0.pt.trace.json", "worker3.pt.trace.json"}), "worker.merged");
    EXPECT_EQ(jobExportStem({"a.json", "b.json"}), "ranks.merged");
    EXPECT_EQ(jobExportStem({"only_rank-3.json.gz"}), "only_rank-3.merged");
}

TEST(TraceDocument, JobsAndFilesCarryTheirExportNames) {
    const auto trace = test::makeSyntheticTrace({});
    const auto job = TraceDocument::fromJob(trace, {"x/r-0.json.gz", "x/r-1.json.gz"});
    EXPECT_EQ(job->title, "2 ranks: r-0.json.gz and more");
    EXPECT_EQ(job->exportStem, "r.merged");
    EXPECT_TRUE(job->path.isEmpty());
    EXPECT_EQ(TraceDocument::fromFile(trace, "/x/trace.json.gz")->exportStem, "trace");
}

}  // namespace
}  // namespace wl::app
