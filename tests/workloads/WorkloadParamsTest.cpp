// Parameter validation and the registry: no GPU needed.
#include <gtest/gtest.h>

#include "workloads/PowerIteration.h"
#include "workloads/ReduceWorkload.h"
#include "workloads/Validation.h"
#include "workloads/Workload.h"

namespace wl::workloads {
namespace {

TEST(WorkloadRegistry, KnowsBothWorkloads) {
    EXPECT_EQ(workloadNames(), (std::vector<std::string>{"reduce", "power"}));
    for (const std::string& name : workloadNames()) {
        auto workload = makeWorkload(name);
        ASSERT_TRUE(workload.ok()) << name;
        EXPECT_EQ((*workload)->name(), name);
        EXPECT_FALSE((*workload)->description().empty());
    }
}

TEST(WorkloadRegistry, UnknownNameIsAnErrorListingTheKnownOnes) {
    auto workload = makeWorkload("transpose");
    ASSERT_FALSE(workload.ok());
    EXPECT_NE(workload.error().message.find("transpose"), std::string::npos);
    EXPECT_NE(workload.error().message.find("reduce, power"), std::string::npos);
}

TEST(WorkloadRegistry, ParsesModes) {
    ASSERT_TRUE(parseMode("baseline").ok());
    EXPECT_EQ(*parseMode("baseline"), Mode::Baseline);
    EXPECT_EQ(*parseMode("async"), Mode::Async);
    EXPECT_FALSE(parseMode("fast").ok());
    EXPECT_STREQ(toString(Mode::Async), "async");
    EXPECT_STREQ(toString(Mode::Baseline), "baseline");
}

TEST(ReduceParams, DefaultsAreTheSeeds) {
    ReduceWorkload reduce;
    WorkloadParams p;
    p.mode = Mode::Async;
    p.streams = 8;
    const WorkloadParams d = reduce.withDefaults(p);
    EXPECT_EQ(d.size, 100'000'000);
    EXPECT_EQ(d.repeat, 1);
    EXPECT_EQ(d.streams, 8);
    // Baseline is one stream whatever was asked.
    p.mode = Mode::Baseline;
    EXPECT_EQ(reduce.withDefaults(p).streams, 1);
}

TEST(ReduceParams, StreamsMustBeBetween1And64) {
    ReduceWorkload reduce;
    WorkloadParams p;
    p.mode = Mode::Async;
    for (int streams : {1, 8, 64}) {
        p.streams = streams;
        EXPECT_TRUE(reduce.validate(p).ok()) << streams;
    }
    for (int streams : {0, -3, 65, 1000}) {
        p.streams = streams;
        const model::Status status = reduce.validate(p);
        ASSERT_FALSE(status.ok()) << streams;
        EXPECT_NE(status.error().message.find("streams must be between 1 and 64"),
                  std::string::npos);
        EXPECT_NE(status.error().message.find("got " + std::to_string(streams)), std::string::npos);
    }
}

TEST(ReduceParams, SizeAndRepeatMustBePositive) {
    ReduceWorkload reduce;
    WorkloadParams p;
    p.size = -5;
    EXPECT_FALSE(reduce.validate(p).ok());
    p.size = 10;
    p.repeat = -1;
    EXPECT_FALSE(reduce.validate(p).ok());
    p.repeat = 50;
    EXPECT_TRUE(reduce.validate(p).ok());
    p.size = kMaxReduceElements + 1;
    EXPECT_FALSE(reduce.validate(p).ok());
}

TEST(ReduceParams, SharedStreamNeedsAsync) {
    ReduceWorkload reduce;
    WorkloadParams p;
    p.sharedStream = true;
    EXPECT_FALSE(reduce.validate(p).ok());
    p.mode = Mode::Async;
    p.streams = 4;
    EXPECT_TRUE(reduce.validate(p).ok());
}

TEST(ReduceParams, DeviceBytesCoverTheArray) {
    ReduceWorkload reduce;
    WorkloadParams p;
    p.size = 1000;
    EXPECT_GE(reduce.deviceBytes(p), 4000);
    EXPECT_LT(reduce.deviceBytes(p), 4000 + 64 * 1024);
    p.size = 0;  // the default, 100M floats
    EXPECT_GE(reduce.deviceBytes(p), 400'000'000);
}

TEST(PowerParams, DefaultsAreTheNotebooks) {
    PowerIteration power;
    const WorkloadParams d = power.withDefaults({});
    EXPECT_EQ(d.size, 8192);
    EXPECT_EQ(d.maxSteps, 1000);
    EXPECT_EQ(d.checkEvery, 15);
    EXPECT_DOUBLE_EQ(d.dominance, 0.05);
    EXPECT_DOUBLE_EQ(d.threshold, 1e-10);
    EXPECT_EQ(power.matvec(), Matvec::Cublas);
}

TEST(PowerParams, RejectsBadValues) {
    PowerIteration power;
    WorkloadParams p;
    EXPECT_TRUE(power.validate(p).ok());
    p.size = -1;
    EXPECT_FALSE(power.validate(p).ok());
    p.size = kMaxPowerDim + 1;
    EXPECT_FALSE(power.validate(p).ok());
    p = {};
    p.dominance = 1.5;
    EXPECT_FALSE(power.validate(p).ok());
    p = {};
    p.repeat = 3;
    EXPECT_FALSE(power.validate(p).ok());
    p = {};
    p.sharedStream = true;
    EXPECT_FALSE(power.validate(p).ok());
    p = {};
    p.maxSteps = 10;
    p.checkEvery = 20;
    EXPECT_FALSE(power.validate(p).ok());
    p = {};
    p.mode = Mode::Async;
    p.streams = 65;
    EXPECT_FALSE(power.validate(p).ok());
}

TEST(PowerParams, DeviceBytesAreTheMatrixAndALittle) {
    PowerIteration power;
    const std::int64_t bytes = power.deviceBytes({});
    EXPECT_GE(bytes, 8LL * 8192 * 8192);
    EXPECT_LT(bytes, 8LL * 8192 * 8192 + (16 << 20));
}

TEST(Validation, MessagesSayWhatAndWhatWasGiven) {
    const model::Status status = checkRange("size", 0, 1, 10, "elements");
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, "size must be between 1 and 10 elements (got 0)");
    EXPECT_EQ(formatBytes(1'600'000'000), "1.60 GB");
    EXPECT_EQ(formatBytes(512), "512 bytes");
}

TEST(ReduceParams, DevicesFromOneToEight) {
    ReduceWorkload reduce;
    WorkloadParams p;
    p.size = 1000;
    p.devices = 2;
    EXPECT_TRUE(reduce.validate(p).ok());
    p.devices = 9;
    EXPECT_FALSE(reduce.validate(p).ok());
    p.devices = 2;
    p.mode = Mode::Async;
    p.streams = 4;
    p.sharedStream = true;
    EXPECT_FALSE(reduce.validate(p).ok());  // the bug is a one-GPU lesson
    p.sharedStream = false;
    p.size = 1;
    EXPECT_FALSE(reduce.validate(p).ok());  // fewer elements than devices
    // Each device holds its part: half the array's bytes, not all of it.
    p.size = 1'000'000;
    const std::int64_t two = reduce.deviceBytes(p);
    p.devices = 1;
    EXPECT_LT(two, reduce.deviceBytes(p));
    EXPECT_GE(two, 2'000'000);
    PowerIteration power;
    WorkloadParams q;
    q.devices = 2;
    EXPECT_FALSE(power.validate(q).ok());
}

TEST(PowerParams, GraphsNeedTheAsyncLoop) {
    PowerIteration power;
    WorkloadParams p;
    p.graph = true;
    const model::Status baseline = power.validate(p);
    ASSERT_FALSE(baseline.ok());
    EXPECT_NE(baseline.error().message.find("--mode async"), std::string::npos);
    p.mode = Mode::Async;
    p.streams = 2;
    EXPECT_TRUE(power.validate(p).ok());
    ReduceWorkload reduce;
    EXPECT_FALSE(reduce.validate(p).ok());
}

// Each workload checks its numbers against the run catalog, with the catalog's message.
TEST(WorkloadCatalog, ValidationUsesTheCatalogsRanges) {
    for (const std::string& name : workloadNames()) {
        auto workload = makeWorkload(name);
        ASSERT_TRUE(workload.ok());
        for (RunOption id : {RunOption::Streams, RunOption::Size, RunOption::Repeat,
                             RunOption::Steps, RunOption::Devices}) {
            const ParamRange* range = runOption(id).rangeFor(name);
            if (range == nullptr)
                continue;
            for (std::int64_t value : {range->min, range->max, range->max + 1}) {
                WorkloadParams p;
                p.mode = Mode::Async;
                p.size = 1 << 20;  // at least any number of devices
                p.checkEvery = 1;  // power: a check interval that fits any number of steps
                const int small = static_cast<int>(value);
                switch (id) {
                    case RunOption::Streams:
                        p.streams = small;
                        break;
                    case RunOption::Size:
                        p.size = value;
                        break;
                    case RunOption::Repeat:
                        p.repeat = small;
                        break;
                    case RunOption::Steps:
                        p.maxSteps = small;
                        break;
                    default:
                        p.devices = small;
                        break;
                }
                const model::Status status = (*workload)->validate(p);
                if (value <= range->max) {
                    EXPECT_TRUE(status.ok()) << name << " " << runOption(id).name << " " << value
                                             << ": " << status.error().message;
                } else {
                    ASSERT_FALSE(status.ok()) << name << " " << runOption(id).name;
                    EXPECT_EQ(status.error().message, checkOption(id, name, value).error().message);
                }
            }
        }
    }
}

}  // namespace
}  // namespace wl::workloads
