#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/Ranks.h"
#include "analysis/Summary.h"

class QLabel;
class QTableWidget;

namespace wl::ui::charts {
class BarChart;
}

namespace wl::ui::summary {

// The Summary of a job, as the PyTorch profiler's Distributed view gave it: per rank, the time
// its GPUs computed, communicated, did both at once or neither, and the collectives that kept the
// ranks waiting longest (which rank came last, by how much, what the others waited).
// Double-clicking a collective asks for its kernels on the timeline. GUI thread.
class RanksPage : public QWidget {
    Q_OBJECT
public:
    explicit RanksPage(QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const analysis::Summary> summary,
                     std::shared_ptr<const analysis::RankStats> ranks);
    void clear();

    charts::BarChart* chart() const { return m_chart; }
    QTableWidget* collectives() const { return m_collectives; }

    static constexpr std::size_t kSlowest = 20;

signals:
    void slicesActivated(std::vector<wl::model::SliceRef> refs);

private:
    std::shared_ptr<const analysis::RankStats> m_ranks;
    std::vector<std::size_t> m_shown;  // the collectives listed, indices into m_ranks'
    charts::BarChart* m_chart = nullptr;
    QLabel* m_caption = nullptr;
    QTableWidget* m_collectives = nullptr;
};

}  // namespace wl::ui::summary
