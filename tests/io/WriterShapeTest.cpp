#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "RichTrace.h"
#include "io/ChromeTraceWriter.h"
#include "io/TimeText.h"

namespace wl::io {
namespace {

// Checks the exported JSON itself against docs/ARCHITECTURE.md ("Chrome/Kineto JSON"), with an
// independent parser (simdjson's DOM), so the rules hold for Perfetto and not only for our own
// reader.
class WriterShape : public ::testing::Test {
protected:
    void SetUp() override {
        m_json = ChromeTraceWriter(*testing::richTrace()).toString();
        ASSERT_EQ(m_parser.parse(m_json).get(m_root), simdjson::SUCCESS);
        ASSERT_EQ(m_root["traceEvents"].get_array().get(m_events), simdjson::SUCCESS);
    }

    // Rebased times here are small, so the double the DOM holds is exact to the ns.
    static model::TimeNs ns(simdjson::dom::element e) {
        return static_cast<model::TimeNs>(std::llround(e.get_double().value() * 1000.0));
    }

    std::string m_json;
    simdjson::dom::parser m_parser;
    simdjson::dom::element m_root;
    simdjson::dom::array m_events;
};

// ts and dur are microseconds with exactly three decimals, printed from integer ns.
TEST_F(WriterShape, TimesAreMicrosecondsWithThreeDecimals) {
    const std::regex time(R"re("(ts|dur)":(-?[0-9]+(\.[0-9]+)?))re");
    std::size_t checked = 0;
    for (auto it = std::sregex_iterator(m_json.begin(), m_json.end(), time);
         it != std::sregex_iterator(); ++it) {
        const std::string value = (*it)[2];
        if (value == "0")
            continue;  // metadata events
        EXPECT_EQ((*it)[3].length(), 4) << value;
        model::TimeNs parsed = 0;
        EXPECT_EQ(parseMicros(value, parsed), TimeParse::Ok);
        ++checked;
    }
    EXPECT_GT(checked, 30u);
}

TEST_F(WriterShape, EveryEventHasATimestampAndSmallIds) {
    for (auto e : m_events) {
        EXPECT_NE(e["ts"].error(), simdjson::NO_SUCH_FIELD) << simdjson::minify(e);
        std::int64_t pid = -1;
        ASSERT_EQ(e["pid"].get_int64().get(pid), simdjson::SUCCESS);
        EXPECT_GE(pid, 0);
        EXPECT_LT(pid, std::int64_t{1} << 31);
        const std::string_view ph = e["ph"].get_string().value();
        if (ph != "M" && ph != "C") {
            const std::int64_t tid = e["tid"].get_int64().value();
            EXPECT_GT(tid, 0) << "tid 0 folds into the main thread: " << simdjson::minify(e);
        }
    }
}

TEST_F(WriterShape, SlicesNestStrictlyPerThread) {
    std::map<std::pair<std::int64_t, std::int64_t>,
             std::vector<std::pair<model::TimeNs, model::TimeNs>>>
        byTid;
    std::size_t slices = 0;
    for (auto e : m_events) {
        if (e["ph"].get_string().value() != "X")
            continue;
        const model::TimeNs ts = ns(e["ts"]);
        const model::TimeNs dur = ns(e["dur"]);
        EXPECT_GE(dur, 0);
        byTid[{e["pid"].get_int64().value(), e["tid"].get_int64().value()}].push_back(
            {ts, ts + dur});
        ++slices;
    }
    EXPECT_EQ(slices, testing::richTrace()->counts().slices - 1);  // the instant is an "i" event
    for (auto& [key, intervals] : byTid) {
        std::sort(intervals.begin(), intervals.end(), [](auto a, auto b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
        std::vector<model::TimeNs> open;
        for (const auto& [start, end] : intervals) {
            while (!open.empty() && open.back() <= start)
                open.pop_back();
            EXPECT_TRUE(open.empty() || end <= open.back())
                << "overlap without nesting on pid " << key.first << " tid " << key.second;
            open.push_back(end);
        }
    }
}

TEST_F(WriterShape, KinetoCategoriesArgsAndLaunchFlows) {
    std::set<std::string_view> cats;
    std::map<std::uint64_t, std::vector<std::string_view>> flowPhases;
    for (auto e : m_events) {
        const std::string_view ph = e["ph"].get_string().value();
        std::string_view cat;
        if (e["cat"].get_string().get(cat) == simdjson::SUCCESS)
            cats.insert(cat);
        if (cat == "kernel") {
            EXPECT_EQ(e["args"]["grid"].get_array().size(), 3u);
            EXPECT_EQ(e["args"]["stream"].get_int64().value(), 7);
            EXPECT_NE(e["args"]["registers per thread"].error(), simdjson::NO_SUCH_FIELD);
        }
        if (cat == "gpu_memcpy") {
            EXPECT_GT(e["args"]["memory bandwidth (GB/s)"].get_double().value(), 0.0);
            EXPECT_EQ(e["args"]["bytes"].get_uint64().value(), 1u << 20);
        }
        // A CPU operator is Kineto's "cpu_op" (what HTA builds its operator tree from); any other
        // host slice is not.
        std::string_view name;
        if (e["name"].get_string().get(name) == simdjson::SUCCESS) {
            if (name == "cpu op") {
                EXPECT_EQ(cat, "cpu_op");
            }
            if (name == "python frame") {
                EXPECT_EQ(cat, "other");
            }
        }
        if (ph == "s" || ph == "f") {
            flowPhases[e["id"].get_uint64().value()].push_back(ph);
            if (ph == "f")
                EXPECT_EQ(e["bp"].get_string().value(), "e");
        }
    }
    for (std::string_view c :
         {"kernel", "gpu_memcpy", "gpu_memset", "cuda_sync", "cuda_runtime", "cuda_driver",
          "user_annotation", "ac2g", "cpu_op", "overhead", "other"}) {
        EXPECT_TRUE(cats.count(c)) << c;
    }
    ASSERT_FALSE(flowPhases.empty());
    for (const auto& [id, phases] : flowPhases) {
        EXPECT_EQ(phases, (std::vector<std::string_view>{"s", "f"}))
            << "flow id " << id << " not unique";
    }
}

TEST_F(WriterShape, MetadataNamesAndOrdersEveryRow) {
    std::set<std::pair<std::int64_t, std::int64_t>> named, sorted, used;
    std::map<std::int64_t, std::int64_t> processSort;
    for (auto e : m_events) {
        const std::string_view ph = e["ph"].get_string().value();
        const auto key = std::make_pair(e["pid"].get_int64().value(), std::int64_t{0});
        if (ph == "M") {
            const std::string_view name = e["name"].get_string().value();
            const std::int64_t tid = e["tid"].get_int64().value();
            if (name == "thread_name")
                named.insert({key.first, tid});
            if (name == "thread_sort_index")
                sorted.insert({key.first, tid});
            if (name == "process_sort_index") {
                processSort[key.first] = e["args"]["sort_index"].get_int64().value();
            }
        } else if (ph == "X" || ph == "i") {
            used.insert({key.first, e["tid"].get_int64().value()});
        }
    }
    for (const auto& t : used) {
        EXPECT_TRUE(named.count(t)) << t.first << "/" << t.second;
        EXPECT_TRUE(sorted.count(t)) << t.first << "/" << t.second;
    }
    // Host (pid 4242) first, then GPUs 0 and 1 (pids = device ordinals).
    EXPECT_LT(processSort.at(4242), processSort.at(0));
    EXPECT_LT(processSort.at(0), processSort.at(1));
}

TEST_F(WriterShape, TopLevelKinetoBlocks) {
    EXPECT_EQ(m_root["deviceProperties"].get_array().size(), 1u);
    EXPECT_EQ(m_root["deviceProperties"].at(0)["numSms"].get_int64().value(), 132);
    EXPECT_EQ(m_root["distributedInfo"]["rank"].get_int64().value(), 0);
    EXPECT_EQ(m_root["baseTimeNanoseconds"].get_int64().value(), testing::richTrace()->originNs());
    EXPECT_EQ(m_root["warplineMetadata"]["workload"].get_string().value(), "reduce");
    EXPECT_EQ(m_json.find("NaN"), std::string::npos);
    EXPECT_EQ(m_json.find("Infinity"), std::string::npos);
}

}  // namespace
}  // namespace wl::io
