#include <gtest/gtest.h>

#include <climits>

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>

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

TEST(RunPanelCatalog, FieldsTakeTheirRangesFromTheCatalog) {
    RunPanel panel;
    using workloads::RunOption;
    for (RunOption id : {RunOption::Streams, RunOption::Size, RunOption::Repeat, RunOption::Steps,
                         RunOption::Devices}) {
        const workloads::OptionSpec& option = workloads::runOption(id);
        auto* spin = panel.findChild<QSpinBox*>(QString::fromUtf8(option.name));
        ASSERT_NE(spin, nullptr) << option.name;
        const std::int64_t max = std::min<std::int64_t>(option.widest().max, INT_MAX);
        EXPECT_EQ(spin->maximum(), max) << option.name;
        EXPECT_EQ(spin->minimum(), option.zeroMeansDefault ? 0 : option.widest().min)
            << option.name;
    }
    EXPECT_EQ(panel.findChild<QSpinBox*>("--steps")->maximum(), 10'000'000);
    EXPECT_EQ(panel.findChild<QSpinBox*>("--streams")->maximum(), 64);
}

TEST(RunPanelCatalog, WorkloadsAndDefaultsComeFromTheCatalog) {
    RunPanel panel;
    auto* combo = panel.findChild<QComboBox*>();
    ASSERT_NE(combo, nullptr);
    ASSERT_EQ(combo->count(), static_cast<int>(workloads::workloadSpecs().size()));
    for (int i = 0; i < combo->count(); ++i) {
        EXPECT_EQ(combo->itemData(i).toString().toStdString(), workloads::workloadSpecs()[i].name);
    }
    auto* size = panel.findChild<QSpinBox*>("--size");
    RunRequest r;
    r.workload = workloads::kReduce;
    panel.setRequest(r);
    EXPECT_EQ(size->specialValueText(), "default (100,000,000)");
    r.workload = workloads::kPower;
    panel.setRequest(r);
    EXPECT_EQ(size->specialValueText(), "default (8192)");
    EXPECT_EQ(panel.findChild<QSpinBox*>("--steps")->specialValueText(), "default (1000)");
}

}  // namespace
}  // namespace wl::app
