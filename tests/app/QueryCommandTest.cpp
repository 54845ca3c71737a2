// `warpline query` as the command line runs it: its exit codes and its three outputs, on a
// recorded trace whose figures tests/data/query/check_query.py computes from the JSON.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>

#include "app/cli/Commands.h"
#include "support/TestData.h"

namespace wl::app {
namespace {

std::pair<int, std::string> run(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::streambuf* old = std::cout.rdbuf(out.rdbuf());
    const int rc = queryCommand(args);
    std::cout.rdbuf(old);
    return {rc, out.str()};
}

const std::string kTrace = test::dataPath("recorded/torch_train.json.gz");

TEST(QueryCommand, AnswersInATableCsvOrJson) {
    // check_query.py: 3133 kernels, 27,330,617 ns in all.
    const std::string sql = "SELECT count(*) AS n, sum(dur) AS ns FROM slice WHERE kind = 'kernel'";
    const auto [rc, table] = run({kTrace, sql});
    EXPECT_EQ(rc, 0);
    EXPECT_NE(table.find("3133"), std::string::npos) << table;
    EXPECT_NE(table.find("27330617"), std::string::npos) << table;
    EXPECT_NE(table.find("(1 row)"), std::string::npos) << table;
    const auto [rcCsv, csv] = run({kTrace, sql, "--csv"});
    EXPECT_EQ(rcCsv, 0);
    EXPECT_EQ(csv, "n,ns\r\n3133,27330617\r\n");
    const auto [rcJson, json] = run({kTrace, sql, "--json"});
    EXPECT_EQ(rcJson, 0);
    EXPECT_NE(json.find("\"n\": 3133"), std::string::npos) << json;
}

TEST(QueryCommand, BadSqlAWriteAndAMissingFileFailWithTheirCodes) {
    EXPECT_EQ(run({kTrace, "SELECT nme FROM slice"}).first, 1);
    EXPECT_EQ(run({kTrace, "CREATE TABLE t(x)"}).first, 1);
    EXPECT_EQ(run({"/nonexistent/trace.json", "SELECT 1"}).first, 2);
    EXPECT_EQ(run({kTrace}).first, 2);  // no SQL
}

}  // namespace
}  // namespace wl::app
