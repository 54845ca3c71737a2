#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "analysis/Summary.h"

namespace wl::ui::summary {

// Operators (or NVTX ranges) as a table: name, input shapes, calls, host total and self, GPU total
// and self, GPU ops launched; times formatted, kSortRole raw for sorting. By name, or by name and
// input shapes. Holds a copy; GUI thread.
class OperatorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        cName,
        cShapes,
        cCalls,
        cHostTotal,
        cHostSelf,
        cGpuTotal,
        cGpuSelf,
        cGpuOps,
        kColumns
    };
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit OperatorTableModel(QObject* parent = nullptr);

    void setOperators(const analysis::OperatorTable& table, bool byShapes);
    void clear();
    const analysis::OperatorStats* operatorAt(int row) const;
    bool byShapes() const { return m_byShapes; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<analysis::OperatorStats> m_rows;
    bool m_nvtx = false;
    bool m_byShapes = false;
};

}  // namespace wl::ui::summary
