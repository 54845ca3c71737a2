#pragma once

#include <QWidget>

#include "analysis/SliceSummary.h"
#include "analysis/TopDown.h"
#include "model/StringTable.h"
#include "model/Trace.h"

class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace wl::ui {

class SliceSummaryModel;
class TopDownModel;

// The summary of an area selection across every kind of row, on two tabs: "Slices" (every kind of
// slice by name: SliceSummaryModel) and "Top-down" (nested NVTX ranges and CPU ops with the GPU
// time under each: TopDownModel, with the GPU time launched outside every range below it). Both
// sort by a click on a header. A click on a line or node, or Enter on it, asks for the events it
// stands for (summaryActivated; a double-click asks twice, for the same events). Owns its models;
// GUI thread only.
class SelectionSummaryView : public QWidget {
    Q_OBJECT
public:
    explicit SelectionSummaryView(QWidget* parent = nullptr);

    // Without a trace (no names) both tabs stay empty.
    void setSummary(model::TracePtr trace, const analysis::SliceSummary& slices,
                    const analysis::TopDown& tree);
    void clear();

    SliceSummaryModel* sliceModel() const { return m_slices; }
    TopDownModel* topDownModel() const { return m_tree; }
    QSortFilterProxyModel* sliceProxy() const { return m_sliceProxy; }
    QSortFilterProxyModel* topDownProxy() const { return m_treeProxy; }
    QTableView* sliceTable() const { return m_sliceTable; }
    QTreeView* topDownTree() const { return m_treeView; }
    QLabel* outsideLabel() const { return m_outside; }
    QTabWidget* tabs() const { return m_tabs; }

signals:
    // A line of the slice table or a node of the tree: the events of that kind and name in the
    // window (analysis::summarySlices finds them).
    void summaryActivated(wl::analysis::SummaryKind kind, wl::model::StringId nameId);

private:
    void activateSlice(const QModelIndex& proxyIndex);
    void activateNode(const QModelIndex& proxyIndex);

    SliceSummaryModel* m_slices = nullptr;
    TopDownModel* m_tree = nullptr;
    QSortFilterProxyModel* m_sliceProxy = nullptr;
    QSortFilterProxyModel* m_treeProxy = nullptr;
    QTableView* m_sliceTable = nullptr;
    QTreeView* m_treeView = nullptr;
    QLabel* m_outside = nullptr;
    QTabWidget* m_tabs = nullptr;
};

}  // namespace wl::ui
