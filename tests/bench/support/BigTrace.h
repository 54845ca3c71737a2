#pragma once

// Big traces for the benchmarks, made from a real one: its events written again and again, each
// copy moved along time past the one before, so that a multi-GB trace holds what a real profiler
// writes (names, args, flows) and is never a checked-in file.

#include <cstdint>
#include <functional>
#include <string>

namespace wl::bench {

// A trace file's JSON text, gunzipped when the file is gzip; empty when it cannot be read.
std::string readTraceText(const std::string& path);

// Writes copies of `json`'s "traceEvents" into one trace at `path` until it holds at least
// `targetBytes` (one copy at least), everything around the events written once. Copy k's "ts"
// values are moved k times the source's time span (plus 1 ms) later, and its "id",
// "correlation" and "External id" values k times the largest of them (plus 1) higher, so that
// flows and launches pair within their copy. Returns the bytes written, 0 when `json` has no
// "traceEvents" array or `path` cannot be written.
std::uint64_t writeRepeatedTrace(const std::string& json, std::uint64_t targetBytes,
                                 const std::string& path);

// Peak resident memory of a child process and its times, from wait4.
struct ChildUsage {
    int exitStatus = -1;  // the child's exit code, -1 when it did not exit normally
    double wallS = 0.0;
    double cpuS = 0.0;  // user + system
    double peakRssMiB = 0.0;
};

// Runs `argv` (argv[0] looked up on PATH) with stdout and stderr sent to `stdoutPath` ("" keeps
// them) and waits for it.
ChildUsage runChild(const char* const* argv, const std::string& stdoutPath = {});

// Runs `body` in a forked child (its return value the exit code) and waits for it: what it
// allocates is measured apart from this process's.
ChildUsage runForked(const std::function<int()>& body);

}  // namespace wl::bench
