#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/Analysis.h"
#include "model/Trace.h"

namespace wl::analysis {

// Two traces side by side, each over its own analysis window (by default its capture range): what
// `warpline diff A B` prints. "a" is the first trace (before), "b" the second (after). Times in ns.
struct TraceDiff {
    struct Side {
        model::TimeNs windowNs = 0;  // the window's duration
        std::string window;          // its description ("capture range (525.88 ms)")
        double busyPct = 0.0;
        model::TimeNs busyNs = 0;
        model::TimeNs idleNs = 0;
        std::array<model::TimeNs, kGapCauseCount> idleByCause{};  // summed over devices
        std::uint64_t kernels = 0;
        std::uint64_t copies = 0;
        std::uint64_t copyBytes = 0;
        double copyGbPerSecond = 0.0;
    };
    // One name (kernel short name, copy kind or folded NVTX range name) on both sides; a side
    // that does not have it counts 0.
    struct Row {
        std::string name;
        std::uint64_t countA = 0;
        std::uint64_t countB = 0;
        model::TimeNs totalA = 0;
        model::TimeNs totalB = 0;
        std::uint64_t bytesA = 0;  // copies only
        std::uint64_t bytesB = 0;
        double meanA() const { return countA ? double(totalA) / double(countA) : 0.0; }
        double meanB() const { return countB ? double(totalB) / double(countB) : 0.0; }
        model::TimeNs deltaNs() const { return totalB - totalA; }
    };
    Side a;
    Side b;
    std::vector<Row> kernels;               // by short name, largest |total delta| first
    std::vector<Row> copies;                // by copy kind, in the kinds' order
    std::vector<Row> ranges;                // NVTX ranges in the window, numbers folded ("Step #")
    std::vector<std::string> findingsGone;  // rule ids that fired in a only
    std::vector<std::string> findingsNew;   // rule ids that fired in b only
    std::vector<std::string> findingsKept;  // in both

    // b's window against a's: > 1 when b took less time.
    double speedup() const {
        return b.windowNs > 0 ? double(a.windowNs) / double(b.windowNs) : 0.0;
    }
};

TraceDiff diffTraces(const model::Trace& a, const AnalysisResult& resultA, const model::Trace& b,
                     const AnalysisResult& resultB);

}  // namespace wl::analysis
