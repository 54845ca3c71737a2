#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "analysis/Statistics.h"
#include "ui/analysis/SortableCells.h"

namespace wl::ui {

// The statistics of a trace as a table: per kernel name (count, total, mean, median, p95, std-dev,
// min, max, % of GPU time, the launch configuration, registers, theoretical occupancy, tensor
// cores, then the name: numbers line up on the left, long names get the rest of the width) or per
// copy kind (count, bytes, time, GB/s). Kernels are named by their short names unless
// setFullKernelNames(true); the tooltip always gives the full demangled name. Display text is
// formatted; kSortRole gives the raw number so a QSortFilterProxyModel sorts numerically. Holds a
// copy of the statistics; GUI thread only.
class StatisticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Table { Kernels, Copies };
    enum KernelColumn {
        kCount,
        kTotal,
        kMean,
        kMedian,
        kP95,
        kStdDev,
        kMin,
        kMax,
        kPct,
        kGrid,
        kBlock,
        kRegisters,
        kOccupancy,
        kTensorCores,
        kName,
        kKernelColumns
    };
    // The columns from kGrid to kTensorCores: how each kernel was launched (the Summary shows
    // them; the Statistics dock, narrower, leaves them out).
    static bool isLaunchColumn(int column) { return column >= kGrid && column <= kTensorCores; }
    static constexpr int kSortRole = cells::kSortRole;

    explicit StatisticsModel(Table table, QObject* parent = nullptr);

    void setStatistics(const analysis::Statistics& statistics);
    void clear();
    Table table() const { return m_table; }
    void setFullKernelNames(bool full);
    bool fullKernelNames() const { return m_fullNames; }
    // The kernel row `row` stands for (Kernels table; nullptr when out of range).
    const analysis::KernelStats* kernelAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant kernelData(int row, int column, int role) const;
    QVariant copyData(int row, int column, int role) const;

    Table m_table;
    analysis::Statistics m_stats;
    std::vector<QString> m_demangled;  // full names, demangled once, parallel to m_stats.kernels
    bool m_fullNames = false;
};

}  // namespace wl::ui
