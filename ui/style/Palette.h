#pragma once

#include <array>

#include <QColor>
#include <QString>
#include <QStringView>

#include "model/Slice.h"
#include "model/Trace.h"

namespace wl::ui {

// The timeline's colours: one fixed, legend-worthy colour per kind of work (kernels, each copy
// direction, memsets, syncs, API calls, NVTX) so a person can tell them apart at a glance, plus
// the chrome (headers, ruler, selection). Stateless; safe from any thread. Colours are QRgb.
class Palette {
public:
    // Kernels get one of a few blues by name, so consecutive different kernels stay apart.
    static constexpr std::array<QRgb, 4> kKernel = {0xff3b78c8, 0xff2a5d9f, 0xff5b95dc, 0xff1f4a80};
    static constexpr QRgb kCopyHtoD = 0xff2e9e48;       // green
    static constexpr QRgb kCopyDtoH = 0xffd1453b;       // red
    static constexpr QRgb kCopyDtoD = 0xff8e5cc2;       // purple
    static constexpr QRgb kCopyPtoP = 0xff9c6b3f;       // brown
    static constexpr QRgb kCopyOther = 0xff6f7f86;      // slate (HtoH, unknown)
    static constexpr QRgb kMemset = 0xffe0a21a;         // amber
    static constexpr QRgb kMemoryAlloc = 0xff1e8c7e;    // dark teal: memory taken
    static constexpr QRgb kMemoryRelease = 0xff9a5a2a;  // rust: memory given back
    static constexpr QRgb kSync = 0xffe8702a;           // orange: the host is waiting
    // Unified memory: migrations take their copy direction's colour; page faults are magenta,
    // apart from every kind of work (a kernel stalls on them); thrashing and the rest olive.
    static constexpr QRgb kPageFault = 0xffc2185b;
    static constexpr QRgb kUnifiedMemoryOther = 0xff8d8a2c;
    static constexpr QRgb kRuntimeApi = 0xff7d8c99;  // grey-blue
    static constexpr QRgb kDriverApi = 0xff93a1a1;   // lighter grey
    static constexpr QRgb kHostOther = 0xffa99e8f;   // warm grey (CPU ops, overhead, instants)
    // NVTX ranges without a colour of their own: hues away from the sync orange and memset amber.
    static constexpr std::array<QRgb, 8> kNvtx = {0xff17a589, 0xffc0508a, 0xff8fae3b, 0xff7a6fb0,
                                                  0xff5e7fd0, 0xff2f8f9d, 0xff48a0b8, 0xffa066c8};

    // Idle-gap hatches by cause (analysis::GapCause).
    static constexpr QRgb kGapAfterBlocking = 0xffc0392b;  // the host drained the queue in a wait
    static constexpr QRgb kGapHost = 0xffd68910;           // the host was busy, issued nothing
    static constexpr QRgb kGapGpuWait = 0xff7f8c8d;        // queued work waited on a dependency
    static constexpr QRgb kCounterFill = 0xff4aa3a0;
    static constexpr QRgb kCounterRange = 0xff23645f;    // min..max band within a pixel
    static constexpr QRgb kOccupancyGauge = 0xff0e2a4d;  // theoretical occupancy strip on kernels
    static constexpr QRgb kLowFillMark = 0xfff1c40f;     // triangle on low GPU fill kernels
    static constexpr QRgb kSelection = 0xffffd400;
    static constexpr QRgb kSearchMatch = 0xffff8f00;     // outline of slices a search found
    static constexpr QRgb kAnalysisWindow = 0xff2e6fd8;  // the analysed window and time selection
    static constexpr QRgb kFlowArrow = 0xffc2185b;
    static constexpr QRgb kFlag = 0xff6f42c1;             // a timeline flag, apart from the blues
    static constexpr QRgb kReferenceFlag = 0xffd9480f;    // the flag ruler times count from
    static constexpr QRgb kDependencyArrow = 0xff00897b;  // a wait through a CUDA event

    static constexpr QRgb kBackground = 0xffffffff;
    static constexpr QRgb kRowStripe = 0xfff4f6f8;
    static constexpr QRgb kProcessBand = 0xffdde3ea;
    static constexpr QRgb kHeaderBackground = 0xffeceff3;
    static constexpr QRgb kHeaderText = 0xff1d2733;
    static constexpr QRgb kQuietHeaderText = 0xff7b8794;  // a GPU group with no work of its own
    static constexpr QRgb kGridLine = 0xffe1e5ea;
    static constexpr QRgb kRulerBackground = 0xfff7f8fa;
    static constexpr QRgb kRulerText = 0xff34404d;

    // The fill colour of a slice (reads its detail for copy direction and NVTX colour).
    static QRgb sliceColor(const model::Trace& trace, const model::Slice& slice);
    // Sub-pixel slices merged into one counted block: a darker shade of the first one's colour.
    static QRgb mergedColor(QRgb base);
    static QRgb gapColor(QStringView cause);
    // Black or white, whichever reads better on `background`.
    static QRgb textColorOn(QRgb background);

    struct LegendEntry {
        QString label;
        QRgb color;
        bool hatched;
    };
    static std::vector<LegendEntry> legend();
};

}  // namespace wl::ui
