#pragma once

#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "model/Time.h"

namespace wl::ui {

// What the rank × time overview draws: one row per rank, one column per time bucket, each cell
// the share of the bucket its GPUs were busy (0..1). A plain value; the analysis makes it.
struct RankHeatMapData {
    std::vector<QString> rowNames;  // "rank 0", "rank 3 · node7"
    model::TimeNs startNs = 0;      // the first bucket's start, in the job's trace times
    model::TimeNs bucketNs = 1;     // each bucket's width
    // values[row][bucket] in 0..1; every row has the same number of buckets.
    std::vector<std::vector<float>> values;
    QString valueName = QStringLiteral("GPU busy");  // what a cell's share is, for its tooltip

    int rows() const { return static_cast<int>(values.size()); }
    int buckets() const { return values.empty() ? 0 : static_cast<int>(values.front().size()); }
};

// The rank × time overview of a job: a heat map where a rank that waits shows as a pale streak
// among busy ones (a straggler makes a pale column everywhere but its own row). Hovering a cell
// names the rank, the time and the busy share; clicking it asks to see that rank at that time
// (cellActivated), which the window turns into a timeline zoomed on that rank's rows. Paints at
// most one rectangle per cell and pixel, so thousands of buckets of 64 ranks stay cheap. GUI
// thread only.
class RankHeatMap : public QWidget {
    Q_OBJECT
public:
    explicit RankHeatMap(QWidget* parent = nullptr);

    void setData(RankHeatMapData data);
    const RankHeatMapData& data() const { return m_data; }

    // The cell under a widget position (row, bucket); nullopt outside the cells.
    std::optional<std::pair<int, int>> cellAt(QPoint pos) const;
    // The tooltip text of a cell: "rank 3 · 12.00 ms to 14.00 ms · GPU busy 42.0%" (valueName).
    QString cellText(int row, int bucket) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellActivated(int row, wl::model::TimeNs startNs, wl::model::TimeNs endNs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

private:
    QRect cellArea() const;  // where the cells are drawn (right of the names, above the axis)

    RankHeatMapData m_data;
};

}  // namespace wl::ui
