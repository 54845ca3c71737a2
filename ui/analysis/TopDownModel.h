#pragma once

#include <QAbstractItemModel>

#include "analysis/TopDown.h"
#include "model/Trace.h"
#include "ui/analysis/SortableCells.h"

namespace wl::ui {

// The top-down tree of an area selection: nested NVTX ranges and CPU ops merged by name path,
// each with its instances, host time and the GPU time its calls launched (analysis::TopDown).
// Each index's internal id is its node. Display text is formatted (units::duration); kSortRole
// gives the raw value for a QSortFilterProxyModel, which sorts each level of the tree. Holds the
// trace (shared, read-only) for the names; GUI thread only.
class TopDownModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { kName, kCount, kHost, kGpu, kColumns };
    static constexpr int kSortRole = cells::kSortRole;

    explicit TopDownModel(QObject* parent = nullptr);

    // Without a trace there are no names: the tree stays empty.
    void setTree(model::TracePtr trace, const analysis::TopDown& tree);
    void clear();
    const analysis::TopDown& tree() const { return m_tree; }
    // The node an index of this model stands for (nullptr for an invalid index).
    const analysis::TopDownNode* nodeAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    // The row of a node under its parent.
    int rowOf(std::uint32_t node) const;

    model::TracePtr m_trace;
    analysis::TopDown m_tree;
};

}  // namespace wl::ui
