#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "analysis/Statistics.h"

namespace wl::ui {

// The statistics of a trace as a table: per kernel name (count, total, mean, min, max, % of GPU
// time) or per copy kind (count, bytes, time, GB/s). Display text is formatted; kSortRole gives
// the raw number so a QSortFilterProxyModel sorts numerically. Holds a copy of the statistics;
// GUI thread only.
class StatisticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Table { Kernels, Copies };
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit StatisticsModel(Table table, QObject* parent = nullptr);

    void setStatistics(const analysis::Statistics& statistics);
    void clear();
    Table table() const { return m_table; }

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
};

}  // namespace wl::ui
