// `warpline record`'s unified-memory options on its command line: checked before the program
// starts, and described in --help with what each costs. No GPU needed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/TestData.h"

namespace wl {
namespace {

struct Outcome {
    int exitCode = -1;
    std::string output;
};

[[maybe_unused]] Outcome runWarpline(const std::string& args) {
    const std::string dir = test::makeTempDir("warpline-record-options");
    const std::string log = dir + "/out.log";
    const std::string command =
        std::string("'") + WARPLINE_EXE + "' " + args + " > '" + log + "' 2>&1";
    const int status = std::system(command.c_str());
    Outcome r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.output = test::readFile(log);
    std::filesystem::remove_all(dir);
    return r;
}

TEST(RecordOptions, UnifiedMemoryOptionsAreCheckedBeforeTheProgramStarts) {
#ifndef WARPLINE_EXE
    GTEST_SKIP() << "built without the warpline executable (WARPLINE_BUILD_GUI=OFF)";
#else
    const Outcome bad = runWarpline("record --cuda-um-gpu-page-faults=maybe -- /bin/true");
    EXPECT_EQ(bad.exitCode, 2) << bad.output;
    EXPECT_NE(bad.output.find("--cuda-um-gpu-page-faults 'maybe' is not true or false"),
              std::string::npos)
        << bad.output;
    const Outcome missing = runWarpline("record --cuda-um-migrations");
    EXPECT_EQ(missing.exitCode, 2) << missing.output;
    EXPECT_NE(missing.output.find("--cuda-um-migrations needs a value"), std::string::npos)
        << missing.output;
#endif
}

TEST(RecordOptions, HelpSaysWhatEachUnifiedMemoryOptionRecordsAndCosts) {
#ifndef WARPLINE_EXE
    GTEST_SKIP() << "built without the warpline executable (WARPLINE_BUILD_GUI=OFF)";
#else
    const Outcome help = runWarpline("record --help");
    EXPECT_EQ(help.exitCode, 0) << help.output;
    for (const char* text :
         {"--cuda-um-migrations=true|false", "--cuda-um-gpu-page-faults=true|false",
          "--cuda-um-cpu-page-faults=true|false", "default false", "slows the whole recording",
          "slower"}) {
        EXPECT_NE(help.output.find(text), std::string::npos) << text;
    }
#endif
}

}  // namespace
}  // namespace wl
