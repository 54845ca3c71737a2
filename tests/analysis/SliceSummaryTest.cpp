// The slice summary of an area selection: every kind of slice by name, with count, total, self
// time, mean, min and max, clipped to the window, on the selected rows.
#include <gtest/gtest.h>

#include "HandTrace.h"
#include "SelectionWindow.h"
#include "analysis/SliceSummary.h"
#include "analysis/Window.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

const SliceStats* lineOf(const model::Trace& trace, const SliceSummary& s, SummaryKind kind,
                         std::string_view name) {
    for (const SliceStats& line : s.rows)
        if (line.kind == kind && trace.str(line.nameId) == name)
            return &line;
    return nullptr;
}

model::StringId idOf(const model::Trace& trace, std::string_view name) {
    for (model::StringId id = 0; id < trace.strings().size(); ++id)
        if (trace.str(id) == name)
            return id;
    ADD_FAILURE() << "no string " << name;
    return 0;
}

// Host thread 1: NVTX "step" [0, 1000) holding "inner" [100, 400) and [500, 600); CPU ops
// "aten::mm" [100, 300) holding "aten::empty" [120, 130); a runtime call cudaMemcpy [700, 800)
// holding the driver's cuMemcpy [710, 790); launches [150, 155) and [520, 525). GPU: kernel
// "gemm" [200, 300) and [600, 650) on stream 1, a copy [750, 790) and a memset [900, 910).
model::TracePtr nested() {
    test::HandTrace t;
    t.nvtx("step", 0, 1000);
    t.nvtx("inner", 100, 400);
    t.nvtx("inner", 500, 600);
    model::TraceBuilder& b = t.builder();
    const model::TrackIndex ops = b.hostTrack(b.hostProcess(100), 1);
    b.addSlice(ops, 100, 300, "aten::mm", model::SliceKind::CpuOp);
    b.addSlice(ops, 120, 130, "aten::empty", model::SliceKind::CpuOp);
    t.kernel(1, 200, 300, 150, "gemm");
    t.kernel(1, 600, 650, 520, "gemm");
    t.copy(1, 750, 790, CopyKind::DeviceToHost, 1'000, 700, 800, "cudaMemcpy");
    b.addApi(b.hostApiTrack(b.hostProcess(100), 1), 710, 790, "cuMemcpy", 0, {});
    b.addMemset(t.stream(1), 900, 910, "Memset (Device)", 0, {});
    return t.finish();
}

TEST(SliceSummary, EveryKindOfSliceByNameOverTheWholeTrace) {
    const auto trace = nested();
    const SliceSummary s = sliceSummary(*trace, test::selectionOf({{0, 1000}}));

    const SliceStats* gemm = lineOf(*trace, s, SummaryKind::Kernel, "gemm");
    ASSERT_NE(gemm, nullptr);
    EXPECT_EQ(gemm->count, 2u);
    EXPECT_EQ(gemm->totalNs, 150);
    EXPECT_EQ(gemm->selfNs, 150);  // GPU ops do not nest
    EXPECT_EQ(gemm->minNs, 50);
    EXPECT_EQ(gemm->maxNs, 100);
    EXPECT_DOUBLE_EQ(gemm->meanNs(), 75.0);

    const SliceStats* copy = lineOf(*trace, s, SummaryKind::Copy, "Memcpy DtoH");
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->count, 1u);
    EXPECT_EQ(copy->totalNs, 40);
    const SliceStats* memset = lineOf(*trace, s, SummaryKind::Memset, "Memset (Device)");
    ASSERT_NE(memset, nullptr);
    EXPECT_EQ(memset->totalNs, 10);

    const SliceStats* launch = lineOf(*trace, s, SummaryKind::CudaApi, "cudaLaunchKernel_v7000");
    ASSERT_NE(launch, nullptr);
    EXPECT_EQ(launch->count, 2u);
    EXPECT_EQ(launch->totalNs, 10);

    const SliceStats* step = lineOf(*trace, s, SummaryKind::Nvtx, "step");
    ASSERT_NE(step, nullptr);
    // Not again from the NVTX projected on the GPU (the launches inside "step" made one).
    EXPECT_EQ(
        trace->track(test::firstTrackOf(*trace, model::TrackKind::NvtxProjection)).slices.size(),
        3u);
    EXPECT_EQ(step->count, 1u);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::GpuNvtx, "step"), nullptr);
    const SliceStats* mm = lineOf(*trace, s, SummaryKind::CpuOp, "aten::mm");
    ASSERT_NE(mm, nullptr);
    EXPECT_EQ(mm->count, 1u);
    EXPECT_EQ(mm->totalNs, 200);

    // Longest total first; every slice once (3 NVTX, 2 CPU ops, 4 calls, 4 GPU ops).
    EXPECT_EQ(s.rows.front().kind, SummaryKind::Nvtx);
    EXPECT_EQ(trace->str(s.rows.front().nameId), "step");
    for (std::size_t i = 1; i < s.rows.size(); ++i)
        EXPECT_GE(s.rows[i - 1].totalNs, s.rows[i].totalNs);
    EXPECT_EQ(s.slices, 13u);
}

TEST(SliceSummary, SelfTimeIsTotalLessTheDirectChildrenOnTheSameRow) {
    const auto trace = nested();
    const SliceSummary s = sliceSummary(*trace, test::selectionOf({{0, 1000}}));
    // step: 1000 less its two inner ranges (300 + 100); the CPU op aten::mm on another row of the
    // same thread is not its child.
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::Nvtx, "step")->selfNs, 600);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::Nvtx, "inner")->selfNs, 400);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CpuOp, "aten::mm")->selfNs, 190);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CpuOp, "aten::empty")->selfNs, 10);
    // The runtime call less the driver call inside it.
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CudaApi, "cudaMemcpy")->selfNs, 20);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CudaApi, "cuMemcpy")->selfNs, 80);
}

TEST(SliceSummary, TimesAreClippedToTheWindow) {
    const auto trace = nested();
    // [250, 560): step 310; inner [250, 400) and [500, 560); gemm [250, 300); aten::mm [250, 300);
    // the launch [520, 525); aten::empty and the second gemm are outside.
    const SliceSummary s = sliceSummary(*trace, test::selectionOf({{250, 560}}));
    const SliceStats* step = lineOf(*trace, s, SummaryKind::Nvtx, "step");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->totalNs, 310);
    EXPECT_EQ(step->selfNs, 310 - 150 - 60);
    const SliceStats* inner = lineOf(*trace, s, SummaryKind::Nvtx, "inner");
    ASSERT_NE(inner, nullptr);
    EXPECT_EQ(inner->count, 2u);
    EXPECT_EQ(inner->totalNs, 210);
    EXPECT_EQ(inner->minNs, 60);
    EXPECT_EQ(inner->maxNs, 150);
    const SliceStats* gemm = lineOf(*trace, s, SummaryKind::Kernel, "gemm");
    ASSERT_NE(gemm, nullptr);
    EXPECT_EQ(gemm->count, 1u);
    EXPECT_EQ(gemm->totalNs, 50);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CpuOp, "aten::empty"), nullptr);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CpuOp, "aten::mm")->totalNs, 50);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CudaApi, "cudaLaunchKernel_v7000")->count, 1u);
}

TEST(SliceSummary, AWindowOfSeveralPartsCountsTheTimeInsideEach) {
    const auto trace = nested();
    // [0, 150) and [550, 1000): step 600 (self 600 - 50 - 50 - 50); inner [100, 150) and
    // [550, 600), counted once each.
    const SliceSummary s = sliceSummary(*trace, test::selectionOf({{0, 150}, {550, 1000}}));
    const SliceStats* step = lineOf(*trace, s, SummaryKind::Nvtx, "step");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->count, 1u);
    EXPECT_EQ(step->totalNs, 600);
    EXPECT_EQ(step->selfNs, 500);
    const SliceStats* inner = lineOf(*trace, s, SummaryKind::Nvtx, "inner");
    ASSERT_NE(inner, nullptr);
    EXPECT_EQ(inner->count, 2u);
    EXPECT_EQ(inner->totalNs, 100);
    // The first gemm [200, 300) lies between the parts.
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::Kernel, "gemm")->count, 1u);
}

TEST(SliceSummary, ASelectionOfSomeRowsSumsOnlyThem) {
    const auto trace = nested();
    const model::TrackIndex nvtx = test::firstTrackOf(*trace, model::TrackKind::Nvtx);
    const SliceSummary s = sliceSummary(*trace, test::selectionOf({{0, 1000}}, {nvtx}));
    ASSERT_EQ(s.rows.size(), 2u);  // step and inner
    for (const SliceStats& line : s.rows)
        EXPECT_EQ(line.kind, SummaryKind::Nvtx);
    EXPECT_EQ(s.slices, 3u);
}

TEST(SliceSummary, GpuAnnotationsAreTheirOwnKindAndASpilledSliceHasNoParent) {
    test::HandTrace t;
    model::TraceBuilder& b = t.builder();
    // A producer's range on a GPU's row (a PyTorch profiler's gpu_user_annotation).
    b.addNvtx(b.nvtxTrack(b.gpuProcess(0), 7), 0, 100, "step", {});
    t.nvtx("step", 0, 200);
    // On one row, "b" starts inside "a" and ends after it: spilled, no child of "a"; so is "c",
    // drawn under "b" (the next free lane) but no child of it either.
    const model::TrackIndex ops = b.hostTrack(b.hostProcess(100), 1);
    b.addSlice(ops, 0, 100, "a", model::SliceKind::Other);
    b.addSlice(ops, 50, 150, "b", model::SliceKind::Other);
    b.addSlice(ops, 90, 140, "c", model::SliceKind::Other);
    const auto trace = t.finish();
    const SliceSummary s = sliceSummary(*trace, test::selectionOf({{0, 200}}));
    ASSERT_NE(lineOf(*trace, s, SummaryKind::GpuNvtx, "step"), nullptr);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::GpuNvtx, "step")->totalNs, 100);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::Nvtx, "step")->totalNs, 200);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CpuOp, "a")->selfNs, 100);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CpuOp, "b")->selfNs, 100);
    EXPECT_EQ(lineOf(*trace, s, SummaryKind::CpuOp, "c")->selfNs, 50);
}

TEST(SliceSummary, ALineSelectsTheSlicesItCounts) {
    const auto trace = nested();
    const AnalysisWindow window = test::selectionOf({{250, 1000}});
    const model::StringId gemm = idOf(*trace, "gemm");
    const std::vector<model::SliceRef> refs =
        summarySlices(*trace, window, SummaryKind::Kernel, gemm);
    ASSERT_EQ(refs.size(), 2u);  // [200, 300) crosses the window's start: in
    for (const model::SliceRef ref : refs) {
        EXPECT_EQ(trace->slice(ref).nameId, gemm);
        EXPECT_EQ(trace->slice(ref).kind, model::SliceKind::Kernel);
    }
    EXPECT_EQ(trace->slice(refs[0]).startNs, 200);
    // Another kind of the same name, or rows not selected: nothing.
    EXPECT_TRUE(summarySlices(*trace, window, SummaryKind::CpuOp, gemm).empty());
    const AnalysisWindow nvtxOnly =
        test::selectionOf({{250, 1000}}, {test::firstTrackOf(*trace, model::TrackKind::Nvtx)});
    EXPECT_TRUE(summarySlices(*trace, nvtxOnly, SummaryKind::Kernel, gemm).empty());
    EXPECT_EQ(summarySlices(*trace, nvtxOnly, SummaryKind::Nvtx, idOf(*trace, "inner")).size(), 2u);
}

}  // namespace
}  // namespace wl::analysis
