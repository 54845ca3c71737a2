// The rank × collective map: each cell a rank's wait or lateness in one collective; hovering names
// it, clicking asks for that collective's kernels.
#include <gtest/gtest.h>

#include <QLabel>
#include <QPoint>
#include <QSignalSpy>
#include <QTest>
#include <memory>

#include "analysis/HandJob.h"
#include "analysis/Ranks.h"
#include "ui/ranks/CollectiveMap.h"
#include "ui/ranks/RankHeatMap.h"
#include "ui/ranks/RankPanel.h"

namespace wl::ui {
namespace {

using model::TimeNs;

constexpr std::string_view kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(Storage<4096ul>)";

// Three all-reduces of two ranks: rank 1 is 2 ms late at the first, rank 0 1 ms late at the
// second, both arrive together at the third.
struct Job {
    model::TracePtr trace;
    std::shared_ptr<const analysis::RankStats> stats;
};

Job threeAllReduces() {
    test::HandJob job;
    job.kernel(0, 0, 17, 1'000'000, 4'000'000, kAllReduce);
    job.kernel(1, 0, 17, 3'000'000, 4'000'000, kAllReduce);
    job.kernel(0, 0, 17, 6'000'000, 7'000'000, kAllReduce);
    job.kernel(1, 0, 17, 5'000'000, 7'000'000, kAllReduce);
    job.kernel(0, 0, 17, 8'000'000, 9'000'000, kAllReduce);
    job.kernel(1, 0, 17, 8'000'000, 9'000'000, kAllReduce);
    job.metadata("rank alignment mode", "start");
    Job out;
    out.trace = job.finish();
    analysis::AnalysisWindow whole;
    whole.parts = {{0, out.trace->spanNs() + 1}};
    out.stats =
        std::make_shared<const analysis::RankStats>(analysis::computeRankStats(*out.trace, whole));
    return out;
}

TEST(CollectiveMap, CellsAreRanksByCollectivesWithTheirWaitOrLateness) {
    const Job job = threeAllReduces();
    ASSERT_EQ(job.stats->collectives.collectives.size(), 3u);
    CollectiveMap map;
    map.resize(450, 100);  // 300 px of cells right of the names: 100 px a collective
    map.setStats(job.stats);
    EXPECT_EQ(map.rows(), 2);
    EXPECT_EQ(map.columns(), 3);
    EXPECT_FALSE(map.cellAt(QPoint(10, 10)).has_value());  // on the names
    const auto cell = map.cellAt(QPoint(150 + 150, 30));   // rank 1, the second collective
    ASSERT_TRUE(cell.has_value());
    EXPECT_EQ(cell->first, 1);
    EXPECT_EQ(cell->second, 1u);

    EXPECT_EQ(map.cellText(1, 0), QStringLiteral("rank 1 · AllReduce #1 · NCCL stream 17\n"
                                                 "arrived last, 2.00 ms after rank 0; the others "
                                                 "waited 2.00 ms in all"));
    EXPECT_EQ(map.cellText(0, 0), QStringLiteral("rank 0 · AllReduce #1 · NCCL stream 17\n"
                                                 "waited 2.00 ms for rank 1, the last to arrive"));
    EXPECT_EQ(map.cellText(0, 2), QStringLiteral("rank 0 · AllReduce #3 · NCCL stream 17\n"
                                                 "arrived with the last (no wait)"));

    // The late rank's cell is red, the waiting one's amber, a cell without a wait pale.
    map.show();
    const QImage image = map.grab().toImage();
    const auto colourAt = [&](int rank, std::size_t collective) {
        const auto centre = map.cellCentre(rank, collective);
        EXPECT_TRUE(centre.has_value());
        return centre ? image.pixelColor(*centre) : QColor();
    };
    const QColor late = colourAt(1, 0);
    const QColor waited = colourAt(0, 0);
    const QColor none = colourAt(0, 2);
    EXPECT_GT(late.red(), late.green() + 100);
    EXPECT_GT(waited.red(), waited.blue() + 100);
    EXPECT_GT(waited.green(), late.green() + 40);  // amber, not red
    EXPECT_GT(none.lightness(), 230);
    EXPECT_LT(late.lightness(), none.lightness());
}

TEST(CollectiveMap, AClickAsksForThatCollective) {
    const Job job = threeAllReduces();
    CollectiveMap map;
    map.resize(450, 100);
    map.setStats(job.stats);
    map.show();
    QSignalSpy spy(&map, &CollectiveMap::cellActivated);
    const auto centre = map.cellCentre(0, 1);
    ASSERT_TRUE(centre.has_value());
    QTest::mouseClick(&map, Qt::LeftButton, {}, *centre);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.front().at(0).toInt(), 0);
    EXPECT_EQ(spy.front().at(1).toInt(), 1);
}

TEST(CollectiveMap, ManyCollectivesInOnePixelShowTheLargestValue) {
    // 600 collectives in 100 px: six a pixel; rank 1 is 5 ms late at the 100th only.
    test::HandJob hand;
    for (int k = 0; k < 600; ++k) {
        const TimeNs t = 10'000'000LL * k;
        hand.kernel(0, 0, 17, t, t + 6'000'000, kAllReduce);
        hand.kernel(1, 0, 17, t + (k == 99 ? 5'000'000 : 1'000), t + 6'000'000, kAllReduce);
    }
    const auto trace = hand.finish();
    analysis::AnalysisWindow whole;
    whole.parts = {{0, trace->spanNs() + 1}};
    const auto stats =
        std::make_shared<const analysis::RankStats>(analysis::computeRankStats(*trace, whole));
    ASSERT_EQ(stats->collectives.collectives.size(), 600u);
    CollectiveMap map;
    map.resize(150 + 100 + 4, 80);
    map.setStats(stats);
    // The 100th (index 99) shares pixel 16 with indices 96..101; it is the one shown and hit.
    const auto centre = map.cellCentre(1, 99);
    ASSERT_TRUE(centre.has_value());
    EXPECT_EQ(centre->x(), 150 + 16);
    const auto hit = map.cellAt(*centre);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->second, 99u);
    EXPECT_FALSE(map.cellCentre(1, 98).has_value());  // hidden behind it
}

TEST(CollectiveMap, NoCollectivesNoCells) {
    CollectiveMap map;
    map.resize(400, 100);
    map.setStats(nullptr);
    EXPECT_EQ(map.columns(), 0);
    EXPECT_FALSE(map.cellAt(QPoint(200, 10)).has_value());
}

TEST(RankPanel, TheCollectivesLineAndAClickSelectThatCollectivesKernels) {
    const Job job = threeAllReduces();
    EXPECT_EQ(RankPanel::collectivesText(*job.stats),
              QStringLiteral("Collectives: 3 matched on NCCL stream 17 (by each rank's kernel "
                             "order). Rank 0 arrived last at 1, late by 1.00 ms in all; the ranks "
                             "waited 3.00 ms. Costliest: AllReduce #1, rank 1 late by 2.00 ms. "
                             "Amber: a rank waited; red: it arrived last; click to select."));
    RankPanel panel;
    panel.resize(900, 600);
    panel.setStats(job.trace, job.stats);
    panel.show();
    EXPECT_TRUE(panel.collectiveMap()->isVisible());
    // Who kept the others waiting comes first, above the time overview, at a readable height
    // however low the dock (the panel scrolls instead).
    EXPECT_LT(panel.collectiveMap()->mapTo(&panel, QPoint(0, 0)).y(),
              panel.heatMap()->mapTo(&panel, QPoint(0, 0)).y());
    RankPanel low;
    low.resize(600, 150);
    low.setStats(job.trace, job.stats);
    low.show();
    EXPECT_GE(low.collectiveMap()->height(), low.collectiveMap()->minimumSizeHint().height());
    EXPECT_GE(low.heatMap()->height(), low.heatMap()->minimumSizeHint().height());
    EXPECT_EQ(panel.collectivesLabel()->text(), RankPanel::collectivesText(*job.stats));
    QSignalSpy spy(&panel, &RankPanel::collectiveActivated);
    const auto centre = panel.collectiveMap()->cellCentre(1, 0);
    ASSERT_TRUE(centre.has_value());
    QTest::mouseClick(panel.collectiveMap(), Qt::LeftButton, {}, *centre);
    ASSERT_EQ(spy.count(), 1);
    const auto kernels = spy.front().front().value<std::vector<model::SliceRef>>();
    ASSERT_EQ(kernels.size(), 2u);
    // The clicked rank's kernel first: rank 1's, which arrived at 3 ms.
    EXPECT_EQ(job.trace->slice(kernels[0]).startNs, 3'000'000);
    EXPECT_EQ(job.trace->slice(kernels[1]).startNs, 1'000'000);
}

}  // namespace
}  // namespace wl::ui
