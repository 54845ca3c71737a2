// The rank × time overview: cells map to ranks and buckets, clicks ask for a rank at a time.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

#include "ui/ranks/RankHeatMap.h"
#include "ui/ranks/RankPanel.h"

namespace wl::ui {
namespace {

RankHeatMapData twoRanks() {
    RankHeatMapData d;
    d.rowNames = {QStringLiteral("rank 0"), QStringLiteral("rank 1")};
    d.startNs = 1'000'000;
    d.bucketNs = 500'000;
    d.values = {{1.0f, 1.0f, 0.5f, 0.0f}, {0.25f, 1.0f, 1.0f, 1.0f}};
    return d;
}

TEST(RankHeatMap, CellsMapToRanksAndBuckets) {
    RankHeatMap map;
    map.resize(550, 200);
    map.setData(twoRanks());
    // Cells are right of the names (150 px): 400 px for 4 buckets, 100 px each.
    EXPECT_FALSE(map.cellAt(QPoint(10, 10)).has_value());  // on the names
    const auto first = map.cellAt(QPoint(160, 5));
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(*first, std::make_pair(0, 0));
    const auto last = map.cellAt(QPoint(150 + 3 * 100 + 50, 40));
    ASSERT_TRUE(last.has_value());
    EXPECT_EQ(last->first, 1);
    EXPECT_EQ(last->second, 3);
    EXPECT_EQ(map.cellText(0, 2), QStringLiteral("rank 0 · 2.00 ms to 2.50 ms · GPU busy 50.0%"));
}

TEST(RankHeatMap, AClickAsksForThatRankAtThatTime) {
    RankHeatMap map;
    map.resize(550, 200);
    map.setData(twoRanks());
    map.show();
    QSignalSpy spy(&map, &RankHeatMap::cellActivated);
    QTest::mouseClick(&map, Qt::LeftButton, {}, QPoint(150 + 1 * 100 + 10, 30));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.front().at(0).toInt(), 1);
    EXPECT_EQ(spy.front().at(1).value<model::TimeNs>(), 1'500'000);
    EXPECT_EQ(spy.front().at(2).value<model::TimeNs>(), 2'000'000);
    // A busy cell is darker than an idle one.
    const QImage image = map.grab().toImage();
    const QColor busy = image.pixelColor(150 + 10, 5);            // rank 0, bucket 0: 1.0
    const QColor idle = image.pixelColor(150 + 3 * 100 + 10, 5);  // rank 0, bucket 3: 0.0
    EXPECT_LT(busy.lightness(), idle.lightness());
}

TEST(RankHeatMap, EmptyDataHasNoCells) {
    RankHeatMap map;
    map.resize(400, 100);
    EXPECT_FALSE(map.cellAt(QPoint(200, 10)).has_value());
    EXPECT_EQ(map.data().buckets(), 0);
}

TEST(RankPanel, StragglersNameTheSlowestRankAndTheSpread) {
    analysis::RankStats stats;
    stats.ranks.resize(2);
    stats.ranks[0].rank = 0;
    stats.ranks[1].rank = 1;
    analysis::RangeStragglers steps;
    steps.name = "step #";
    steps.iterations.resize(30);
    steps.slowestCount = {5, 25};
    steps.mostOftenSlowest = 1;
    steps.meanSpreadNs = 8'100'000;
    steps.maxSpreadNs = 9'300'000;
    steps.meanMaxOverMedian = 1.3142;
    stats.stragglers.push_back(steps);
    EXPECT_EQ(RankPanel::stragglersText(stats),
              QStringLiteral("'step #': rank 1 slowest in 25 of 30 iterations; spread 8.10 ms on "
                             "average, at most 9.30 ms; the slowest 1.31x the median"));
    EXPECT_EQ(RankPanel::stragglersText(analysis::RankStats{}), QString());
}

}  // namespace
}  // namespace wl::ui
