// One parser of run options for `warpline run` and the window's command line: the same values are
// accepted and a bad one reads the same in both.
#include <gtest/gtest.h>

#include "app/RunOptions.h"
#include "app/cli/Commands.h"
#include "app/gui/GuiOptions.h"

namespace wl::app {
namespace {

using workloads::RunOption;

model::Status apply(const char* name, std::optional<std::string> value, RunRequest& request) {
    const workloads::OptionSpec* option = workloads::findRunOption(name);
    EXPECT_NE(option, nullptr) << name;
    return applyRunOption(*option, value, request);
}

// What `warpline run ARGS` prints to stderr (it stops at bad usage, before any GPU).
std::string runCommandError(const std::vector<std::string>& args) {
    testing::internal::CaptureStderr();
    const int code = runCommand(args);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(code, kExitBadInput) << err;
    return err;
}

TEST(RunOptions, FillsTheRequest) {
    RunRequest r;
    EXPECT_TRUE(apply("--workload", "power", r).ok());
    EXPECT_TRUE(apply("--mode", "async", r).ok());
    EXPECT_TRUE(apply("--streams", "8", r).ok());
    EXPECT_TRUE(apply("--size", "68719476736", r).ok());
    EXPECT_TRUE(apply("--repeat", "50", r).ok());
    EXPECT_TRUE(apply("--steps", "10000000", r).ok());
    EXPECT_TRUE(apply("--devices", "8", r).ok());
    EXPECT_TRUE(apply("--pinned", std::nullopt, r).ok());
    EXPECT_TRUE(apply("--shared-stream", std::nullopt, r).ok());
    EXPECT_TRUE(apply("--graph", std::nullopt, r).ok());
    EXPECT_TRUE(apply("--gpu-metrics", std::nullopt, r).ok());
    EXPECT_EQ(r.workload, "power");
    EXPECT_EQ(r.mode, "async");
    EXPECT_EQ(r.streams, 8);
    EXPECT_EQ(r.size, std::int64_t{1} << 36);
    EXPECT_EQ(r.repeat, 50);
    EXPECT_EQ(r.steps, 10'000'000);
    EXPECT_EQ(r.devices, 8);
    EXPECT_TRUE(r.pinned && r.sharedStreamBug && r.graph && r.gpuMetrics);
    EXPECT_TRUE(apply("--pageable", std::nullopt, r).ok());
    EXPECT_FALSE(r.pinned);
}

TEST(RunOptions, BadValuesNameOptionValueAndRange) {
    RunRequest r;
    EXPECT_EQ(apply("--streams", "65", r).error().message,
              "--streams must be between 1 and 64 (got 65)");
    EXPECT_EQ(apply("--steps", "10000001", r).error().message,
              "--steps must be between 1 and 10000000 (got 10000001)");
    EXPECT_EQ(apply("--repeat", "x", r).error().message,
              "--repeat must be a whole number between 1 and 100000 (got 'x')");
    EXPECT_EQ(apply("--workload", "matmul", r).error().message,
              "unknown workload 'matmul' (known: reduce, power)");
    EXPECT_EQ(apply("--mode", std::nullopt, r).error().message,
              "--mode needs a value (baseline or async)");
    EXPECT_EQ(apply("--size", std::nullopt, r).error().message, "--size needs a value");
    EXPECT_EQ(r.streams, 1);  // a bad value changes nothing
    EXPECT_EQ(r.workload, "reduce");
}

TEST(RunOptions, CommandLineAndWindowSayTheSame) {
    const std::vector<std::vector<std::string>> bad = {
        {"--streams", "65"},       {"--streams", "0"},     {"--size", "0"},
        {"--steps", "2000000000"}, {"--repeat", "100001"}, {"--devices", "x"},
        {"--workload", "matmul"},  {"--mode", "fast"},     {"--size"},
    };
    for (const auto& args : bad) {
        auto window = parseGuiOptions(args);
        ASSERT_FALSE(window.ok()) << args.front();
        std::vector<std::string> cli = {"--workload", "reduce", "--mode", "async"};
        cli.insert(cli.end(), args.begin(), args.end());
        EXPECT_EQ(runCommandError(cli), "warpline: error: " + window.error().message + "\n")
            << args.front();
    }
}

TEST(RunOptions, RunNeedsWorkloadAndMode) {
    EXPECT_EQ(runCommandError({"--workload", "reduce"}),
              "warpline: error: run needs --workload reduce|power and --mode baseline|async (see "
              "warpline run --help)\n");
    EXPECT_NE(runCommandError({"--workload", "reduce", "--mode", "async", "--frobnicate"})
                  .find("unknown option '--frobnicate'"),
              std::string::npos);
}

TEST(RunOptions, RunHelpListsTheCatalogsOptions) {
    testing::internal::CaptureStdout();
    EXPECT_EQ(runCommand({"--help"}), kExitOk);
    const std::string help = testing::internal::GetCapturedStdout();
    EXPECT_NE(help.find("--workload reduce|power --mode baseline|async"), std::string::npos);
    EXPECT_NE(help.find(workloads::runOptionsUsage(28)), std::string::npos) << help;
    EXPECT_NE(std::string(guiUsage()).find(workloads::runOptionsUsage(23)), std::string::npos);
}

}  // namespace
}  // namespace wl::app
