#include <gtest/gtest.h>

#include <QCheckBox>

#include "app/gui/GuiOptions.h"
#include "app/gui/RunPanel.h"

namespace wl::app {
namespace {

TEST(RunPanelCompare, BaselineThenAsyncWithTheSameParameters) {
    RunRequest r;
    r.workload = "reduce";
    r.mode = "async";
    r.streams = 8;
    r.pinned = true;
    const auto [first, second] = RunPanel::comparison(r);
    EXPECT_EQ(first.mode, "baseline");
    EXPECT_EQ(second.mode, "async");
    EXPECT_EQ(first.streams, 8);
    EXPECT_TRUE(first.pinned && second.pinned);
    EXPECT_FALSE(first.graph || second.graph);
}

TEST(RunPanelCompare, GraphsCompareAsyncWithoutAndWith) {
    RunRequest r;
    r.workload = "power";
    r.mode = "baseline";  // a graph needs the async loop whatever the radio button says
    r.streams = 2;
    r.graph = true;
    const auto [first, second] = RunPanel::comparison(r);
    EXPECT_EQ(first.mode, "async");
    EXPECT_EQ(second.mode, "async");
    EXPECT_FALSE(first.graph);
    EXPECT_TRUE(second.graph);
    EXPECT_EQ(first.streams, 2);
}

TEST(RunPanelCompare, GraphsAskedForOnlyWherePowerAsyncRuns) {
    RunPanel panel;
    RunRequest r;
    r.workload = "power";
    r.mode = "async";
    r.graph = true;
    panel.setRequest(r);
    EXPECT_TRUE(panel.request().graph);
    r.mode = "baseline";  // the box is disabled: a baseline request carries no graph
    panel.setRequest(r);
    EXPECT_FALSE(panel.request().graph);
    r.workload = "reduce";
    r.mode = "async";
    panel.setRequest(r);
    EXPECT_FALSE(panel.request().graph);
}

TEST(RunPanelCompare, DevicesAreAReduceParameter) {
    RunPanel panel;
    RunRequest r;
    r.workload = "reduce";
    r.mode = "async";
    r.devices = 2;
    panel.setRequest(r);
    EXPECT_EQ(panel.request().devices, 2);
    const auto [first, second] = RunPanel::comparison(panel.request());
    EXPECT_EQ(first.devices, 2);  // baseline on the same GPUs, one after another
    EXPECT_EQ(second.devices, 2);
    r.workload = "power";
    panel.setRequest(r);
    EXPECT_EQ(panel.request().devices, 1);
    auto options = parseGuiOptions({"--devices", "2"});
    ASSERT_TRUE(options.ok()) << options.error().describe();
    EXPECT_EQ(options->request.devices, 2);
    EXPECT_FALSE(parseGuiOptions({"--devices", "9"}).ok());
}

TEST(RunPanelCompare, GraphOptionOnTheCommandLine) {
    auto options = parseGuiOptions({"--workload", "power", "--mode", "async", "--graph"});
    ASSERT_TRUE(options.ok()) << options.error().describe();
    EXPECT_TRUE(options->request.graph);
    EXPECT_FALSE(parseGuiOptions({"--graph=yes"}).ok());
}

}  // namespace
}  // namespace wl::app
