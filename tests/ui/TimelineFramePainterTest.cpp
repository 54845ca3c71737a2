// The timeline's frame painter without a widget: a frame painted into an image shows the time
// selection, the time cursor and the search matches where the selection and the pointer say.
#include <QImage>
#include <QPainter>
#include <functional>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/style/Palette.h"
#include "ui/timeline/RulerTicks.h"
#include "ui/timeline/TimelineFramePainter.h"
#include "ui/timeline/TimelineRows.h"

namespace wl::ui {
namespace {

using timeline_geometry::kHeaderWidthPx;
using timeline_geometry::kRulerHeightPx;

struct FramePainterFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        rows.setTrace(small.trace.get());
        rows.rebuild({});
        counters.build(small.trace.get());
    }
    // 10 ns a pixel over a 1000 px time area.
    TimelineFrame frame() const {
        TimelineFrame f;
        f.sizePx = QSize(kHeaderWidthPx + 1000, 400);
        f.timeArea = QRect(kHeaderWidthPx, kRulerHeightPx, 1000, 300);
        f.map = TimeMapper(0, 10'000, 1000);
        f.trace = small.trace.get();
        f.layout = &rows.layout();
        return f;
    }
    QImage paint(const std::function<void(QPainter&)>& layer) const {
        QImage image(frame().sizePx, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        layer(p);
        return image;
    }

    test::SmallTrace small;
    TimelineRows rows;
    CounterSummary counters;
    TimelineSelection selection;
    TimelineFramePainter painter{selection, counters};
};

TEST_F(FramePainterFixture, TheTimeSelectionIsShadedBetweenItsEdges) {
    selection.time = model::TimeRange{2'000, 4'000};  // x 200 to 400 in the time area
    const QImage image = paint([&](QPainter& p) { painter.paintTimeRanges(p, frame()); });
    const int y = kRulerHeightPx + 150;
    EXPECT_NE(image.pixel(kHeaderWidthPx + 300, y), QColor(Qt::white).rgb());  // inside
    EXPECT_EQ(image.pixel(kHeaderWidthPx + 100, y), QColor(Qt::white).rgb());  // before
    EXPECT_EQ(image.pixel(kHeaderWidthPx + 600, y), QColor(Qt::white).rgb());  // after
}

TEST_F(FramePainterFixture, TheTimeCursorIsDrawnOnlyOverTheTimeArea) {
    const int x = kHeaderWidthPx + 500;
    const QImage over =
        paint([&](QPainter& p) { painter.paintTimeCursor(p, frame(), QPoint(x, 200)); });
    EXPECT_NE(over.pixel(x, 250), QColor(Qt::white).rgb());
    const QImage off =
        paint([&](QPainter& p) { painter.paintTimeCursor(p, frame(), QPoint(100, 200)); });
    for (int col = 0; col < off.width(); col += 50)
        EXPECT_EQ(off.pixel(col, 250), QColor(Qt::white).rgb()) << col;
}

TEST_F(FramePainterFixture, SearchMatchesAreOutlinedWhereTheirSlicesAre) {
    EXPECT_TRUE(painter.searchMatchRects(frame()).empty());  // no search
    SearchQuery query;
    query.text = QStringLiteral("single_thread_sum");  // the kernel, 2,000 to 6,000 ns
    selection.search = SliceSearch::run(*small.trace, query);
    ASSERT_TRUE(selection.search && selection.search->size() == 1);
    const std::vector<QRect> rects = painter.searchMatchRects(frame());
    ASSERT_EQ(rects.size(), 1u);
    EXPECT_EQ(rects[0].left(), 200);
    EXPECT_EQ(rects[0].width(), 400);
}

}  // namespace
}  // namespace wl::ui

namespace wl::ui {
namespace {

// Without a trace the ruler has no time to show: neither the visible span ("Visible: 1 ns") nor
// ticks ("0 ns"), just its background.
TEST_F(FramePainterFixture, TheRulerOfNoTraceIsEmpty) {
    TimelineFrame f = frame();
    f.trace = nullptr;
    const RulerTicks ticks = computeRulerTicks(f.map);
    ASSERT_FALSE(ticks.ticksNs.empty());
    const QImage image = paint([&](QPainter& p) { painter.paintRuler(p, f, ticks, {}); });
    const QRgb background = QColor::fromRgb(Palette::kRulerBackground).rgb();
    int marked = 0;
    for (int x = 0; x < image.width(); ++x) {
        for (int y = 0; y < kRulerHeightPx - 2; ++y) {
            marked += image.pixel(x, y) != background ? 1 : 0;
        }
    }
    EXPECT_EQ(marked, 0);
    // With the trace, the same ruler has its ticks and labels.
    const QImage withTrace = paint([&](QPainter& p) { painter.paintRuler(p, frame(), ticks, {}); });
    int drawn = 0;
    for (int x = 0; x < withTrace.width(); ++x) {
        for (int y = 0; y < kRulerHeightPx - 2; ++y) {
            drawn += withTrace.pixel(x, y) != background ? 1 : 0;
        }
    }
    EXPECT_GT(drawn, 0);
}

}  // namespace
}  // namespace wl::ui
