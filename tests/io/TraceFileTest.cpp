#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "io/ChromeTraceWriter.h"
#include "io/Gzip.h"
#include "io/TraceFile.h"
#include "support/TestData.h"
#include "support/TraceFactory.h"

namespace wl::io {
namespace {

namespace fs = std::filesystem;

model::TracePtr smallTrace() {
    test::SyntheticTraceSpec spec;
    spec.kernels = 200;
    spec.memcpys = 40;
    spec.memsets = 10;
    spec.syncs = 5;
    spec.nvtxRanges = 20;
    spec.counterSamples = 30;
    return test::makeSyntheticTrace(spec);
}

TEST(TraceFile, SavesAndLoadsPlainJson) {
    const auto dir = test::makeTempDir("wl-io-plain");
    const std::string path = dir + "/trace.json";
    const auto trace = smallTrace();
    ASSERT_TRUE(saveTrace(*trace, path).ok());
    EXPECT_EQ(test::readFile(path), ChromeTraceWriter(*trace).toString());
    const auto loaded = loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    EXPECT_EQ(ChromeTraceWriter(*loaded.value()).toString(), ChromeTraceWriter(*trace).toString());
    // Only the trace is left behind: no temporary files.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(TraceFile, SavesAndLoadsGzip) {
    const auto dir = test::makeTempDir("wl-io-gz");
    const std::string path = dir + "/trace.json.gz";
    const auto trace = smallTrace();
    ASSERT_TRUE(saveTrace(*trace, path).ok());
    const std::string compressed = test::readFile(path);
    ASSERT_TRUE(isGzip(compressed));
    const std::string plain = ChromeTraceWriter(*trace).toString();
    EXPECT_LT(compressed.size(), plain.size() / 3);
    std::string unpacked;
    ASSERT_TRUE(gunzip(compressed, unpacked, 0).ok());
    EXPECT_EQ(unpacked, plain);
    const auto loaded = loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    EXPECT_EQ(ChromeTraceWriter(*loaded.value()).toString(), plain);
}

// The size a gzip trailer claims sizes the output only when deflate could reach it: corrupt data
// claiming 2 GB must not allocate 2 GB.
TEST(TraceFile, ACorruptGzipTrailerDoesNotSizeTheOutput) {
    std::string bogus("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
    bogus += std::string(80, 'x');
    bogus += std::string("\x00\x00\x00\x80", 4);  // ISIZE = 2^31
    ASSERT_TRUE(isGzip(bogus));
    std::string out;
    EXPECT_FALSE(gunzip(bogus, out, 0).ok());
    EXPECT_LT(out.capacity(), std::size_t{8} << 20);  // zlib's first 1 MB step, not 2 GB
}

TEST(TraceFile, ConcatenatedGzipMembersAreOneStream) {
    std::string a, b;
    GzipWriter first([&](std::string_view c) {
        a.append(c);
        return true;
    });
    first.write(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},)");
    first.finish();
    GzipWriter second([&](std::string_view c) {
        b.append(c);
        return true;
    });
    second.write(R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":1}])");
    second.finish();
    const auto trace = parseTrace(a + b, "cat.json.gz");
    ASSERT_TRUE(trace.ok()) << trace.error().describe();
    EXPECT_EQ(trace.value()->counts().slices, 2u);
}

TEST(TraceFile, UnwritablePathIsAClearErrorAndLeavesNothing) {
    const auto trace = smallTrace();
    const auto status = saveTrace(*trace, "/nonexistent-dir/sub/trace.json");
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().file, "/nonexistent-dir/sub/trace.json");
    EXPECT_NE(status.error().message.find("cannot write"), std::string::npos);

    const auto dir = test::makeTempDir("wl-io-ro");
    if (::geteuid() != 0) {  // root ignores permissions
        ::chmod(dir.c_str(), 0500);
        const auto denied = saveTrace(*trace, dir + "/trace.json");
        EXPECT_FALSE(denied.ok());
        ::chmod(dir.c_str(), 0700);
    }
    // A directory where the file should go: the rename fails, the temporary file is removed.
    fs::create_directory(dir + "/taken.json");
    fs::create_directory(dir + "/taken.json/inner");
    const auto clash = saveTrace(*trace, dir + "/taken.json");
    EXPECT_FALSE(clash.ok());
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

// The umask as /proc says it, read without setting it (-1 when /proc does not say).
int currentUmask() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) == 0)
            return std::stoi(line.substr(6), nullptr, 8);
    }
    return -1;
}

TEST(TraceFile, SavingChangesNoProcessWideState) {
    // Exports run on a worker: the mode of a saved file must not come from setting the umask,
    // which every other thread creating a file at that moment would get too.
    const int mask = currentUmask();
    if (mask < 0)
        GTEST_SKIP() << "no Umask in /proc/self/status";
    const auto dir = test::makeTempDir("wl-io-umask");
    const std::string path = dir + "/trace.json";
    test::SyntheticTraceSpec spec;
    spec.kernels = 5;
    spec.memcpys = 0;
    const auto trace = test::makeSyntheticTrace(spec);
    std::atomic<bool> saving{true};
    std::atomic<int> seenOther{0};
    std::thread watcher([&] {
        while (saving.load()) {
            if (currentUmask() != mask)
                ++seenOther;
        }
    });
    for (int i = 0; i < 2000; ++i)
        ASSERT_TRUE(saveTrace(*trace, path).ok());
    saving = false;
    watcher.join();
    EXPECT_EQ(seenOther.load(), 0);
    // And the file has the mode any new file gets: 0666 less the umask (not mkstemp's 0600).
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0666u & ~static_cast<unsigned>(mask));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(TraceFile, ReadsFromAPipe) {
    const auto dir = test::makeTempDir("wl-io-fifo");
    const std::string path = dir + "/fifo";
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    // More than the first read buffer, so the pipe path grows its buffer.
    const std::string json =
        ChromeTraceWriter(*smallTrace()).toString() + std::string(3 << 20, ' ');
    std::thread writer([&] { std::ofstream(path, std::ios::binary) << json; });
    const auto loaded = loadTrace(path);
    writer.join();
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    EXPECT_EQ(loaded.value()->counts().slices, smallTrace()->counts().slices);
}

TEST(TraceFile, FailedExportKeepsThePreviousFile) {
    const auto dir = test::makeTempDir("wl-io-keep");
    const std::string path = dir + "/trace.json";
    const auto trace = smallTrace();
    ASSERT_TRUE(saveTrace(*trace, path).ok());
    const std::string before = test::readFile(path);
    // An aborting sink: the writer reports failure.
    int chunks = 0;
    const auto status =
        ChromeTraceWriter(*trace).write([&](std::string_view) { return ++chunks < 1; });
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(test::readFile(path), before);
}

}  // namespace
}  // namespace wl::io
