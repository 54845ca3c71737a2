// The producer's args a slice keeps, looked up by key.
#include <gtest/gtest.h>

#include "analysis/KeptArgs.h"

namespace wl::analysis {
namespace {

TEST(KeptArgs, FindsAStringANumberAndAnArrayByKey) {
    const std::string_view members =
        R"("External id":589,"Collective name":"all\"reduce\u00e9","grid":[24, 1, 1],)"
        R"( "Process Group Name" : "0" )";
    EXPECT_EQ(keptArg(members, "External id"), "589");
    EXPECT_EQ(keptArg(members, "Collective name"), "all\"reduce\xc3\xa9");
    EXPECT_EQ(keptArg(members, "grid"), "[24, 1, 1]");
    EXPECT_EQ(keptArg(members, "Process Group Name"), "0");
    EXPECT_FALSE(keptArg(members, "Process Group Ranks").has_value());
    EXPECT_FALSE(keptArg("", "grid").has_value());
    EXPECT_FALSE(keptArg(R"("grid")", "grid").has_value());  // not a member
}

}  // namespace
}  // namespace wl::analysis
