#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "analysis/RowStatistics.h"
#include "model/Trace.h"
#include "ui/analysis/SortableCells.h"

namespace wl::ui {

// The area-selection summary as a table: one line per timeline row with work in the analysis
// window (a GPU stream or a host thread's CUDA calls): its name under its process, ops, kernels,
// copies, busy time and share of the window, copy bytes and rate. Display text is formatted;
// kSortRole gives the raw number for a QSortFilterProxyModel. totalsText() says the same for all
// rows together. Holds the trace (shared, read-only) for the names; GUI thread only.
class RowStatisticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { kRow, kOps, kKernels, kCopies, kBusy, kBusyPct, kBytes, kRate, kColumns };
    static constexpr int kSortRole = cells::kSortRole;

    explicit RowStatisticsModel(QObject* parent = nullptr);

    // `gpus`: how many GPUs worked in the window; on several, the GPU total is named for what it
    // is (the time any of them was busy), unlike the mean over them the status bar shows.
    void setSummary(model::TracePtr trace, const analysis::RowSummary& summary,
                    std::size_t gpus = 1);
    void clear();
    const analysis::RowSummary& summary() const { return m_summary; }
    // "GPU: busy 240 ns (70.6% of 340 ns), 4 ops: 3 kernels, 1 copy, 2.0 KB copied at 10.0
    // GB/s" ("2 GPUs: any GPU busy ..." on several) and a line for the host threads; "" when
    // nothing is in the window.
    QString totalsText() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    model::TracePtr m_trace;
    analysis::RowSummary m_summary;
    std::size_t m_gpus = 1;
    std::vector<QString> m_titles;  // parallel to m_summary.rows
};

}  // namespace wl::ui
