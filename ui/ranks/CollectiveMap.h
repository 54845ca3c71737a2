#pragma once

#include <QWidget>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "analysis/Ranks.h"

namespace wl::ui {

// The collectives of a job, rank by rank: one row per rank, one column per collective matched
// across the ranks (analysis::CollectiveStats, in time order). A rank that waited in a collective
// is amber, darker the longer it waited; the rank that arrived last is red, darker the later it
// was (its lateness: its arrival minus the second-last one's); both on one scale, the longest
// wait or lateness of the map. Where more collectives than pixel columns share a column, each
// rank's cell shows the collective in which its value was largest, and that is the one hovered
// and clicked. Hovering a cell names the rank, the collective and its wait or lateness; clicking
// it asks to see that collective (cellActivated). GUI thread only.
class CollectiveMap : public QWidget {
    Q_OBJECT
public:
    explicit CollectiveMap(QWidget* parent = nullptr);

    // Shows the collectives of `stats` (null, or none matched: an empty map that says so).
    void setStats(std::shared_ptr<const analysis::RankStats> stats);

    int rows() const;     // ranks
    int columns() const;  // matched collectives
    // The cell under a widget position: (rank index, collective index); nullopt outside the cells.
    std::optional<std::pair<int, std::size_t>> cellAt(QPoint pos) const;
    // The centre of the cell that shows collective `collective` for rank `rank` (nullopt when
    // it has no cell: another of its pixel column is drawn there for that rank).
    std::optional<QPoint> cellCentre(int rank, std::size_t collective) const;
    // A cell's tooltip: "rank 1 · AllReduce #35 · NCCL stream 17\narrived last, 21.96 ms after
    // rank 0; the others waited 21.96 ms".
    QString cellText(int rank, std::size_t collective) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellActivated(int rank, int collective);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

private:
    // A rank's value in a collective: its lateness when it arrived last and late, else its wait;
    // nullopt when it is no member of the collective's communicator.
    struct CellValue {
        model::TimeNs ns = 0;
        bool late = false;
    };
    std::optional<CellValue> valueOf(int rank, std::size_t collective) const;
    QRect cellArea() const;  // where the cells are (right of the names, above the axis)
    // Columns drawn: one per collective, or one per pixel when there are more.
    int drawnColumns() const;
    // The collectives [first, second) of a drawn column, and its pixels [left, right).
    std::pair<std::size_t, std::size_t> collectivesOf(int drawn) const;
    std::pair<int, int> pixelsOf(int drawn) const;
    // The collective a rank's cell of a drawn column shows: the largest value among them.
    std::optional<std::size_t> shownIn(int rank, int drawn) const;

    std::shared_ptr<const analysis::RankStats> m_stats;
    model::TimeNs m_scaleNs = 1;  // the longest wait or lateness: the darkest colour
};

}  // namespace wl::ui
