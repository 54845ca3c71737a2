#pragma once

// main() for a benchmark that paints or sends widget events: those need a QApplication (fonts,
// QPainter, event delivery), which Google Benchmark's own main does not make.

#include <benchmark/benchmark.h>

#include <QApplication>

#define WARPLINE_QT_BENCHMARK_MAIN()                            \
    int main(int argc, char** argv) {                           \
        /* Offscreen needs no display. */                       \
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))     \
            qputenv("QT_QPA_PLATFORM", "offscreen");            \
        QApplication app(argc, argv);                           \
        benchmark::Initialize(&argc, argv);                     \
        if (benchmark::ReportUnrecognizedArguments(argc, argv)) \
            return 1;                                           \
        benchmark::RunSpecifiedBenchmarks();                    \
        benchmark::Shutdown();                                  \
        return 0;                                               \
    }                                                           \
    static_assert(true, "")
