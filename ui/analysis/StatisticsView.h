#pragma once

#include <QWidget>

#include "analysis/Statistics.h"
#include "model/StringTable.h"
#include "model/Trace.h"

class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace wl::ui {

class RowStatisticsModel;
class SelectionSummaryView;
class StatisticsModel;

// Sortable tables over the analysis window (a time selection, an NVTX range, the default window),
// under the window's GPU and host totals: kernels by name and copies by kind (StatisticsModel) on
// one page, the rows with work in the window (RowStatisticsModel: the area-selection summary) on
// another, each through a QSortFilterProxyModel (click a header to sort); a third page summarises
// every kind of slice by name and the top-down tree of the host's ranges (SelectionSummaryView:
// Statistics::slices and topDown, when the analysis has them). Kernel names are elided in the
// middle (where C++ names differ least) with the full name as tooltip; a click on a kernel row
// asks for its launches (kernelActivated), one on a summary line for its events
// (summaryActivated). Owns its models; GUI thread only.
class StatisticsView : public QWidget {
    Q_OBJECT
public:
    explicit StatisticsView(QWidget* parent = nullptr);

    // `trace` names the rows of the row table (without it, that table stays empty).
    void setStatistics(const analysis::Statistics& statistics, model::TracePtr trace = {});
    void clear();
    void setFullKernelNames(bool full);
    // The figures under the tables, one line per fact: each GPU's launch queue, each CUDA graph,
    // each GPU's device memory ("" when the statistics have none of them).
    static QString figuresText(const analysis::Statistics& statistics);
    QLabel* figuresLabel() const { return m_figures; }

    StatisticsModel* kernelModel() const { return m_kernels; }
    StatisticsModel* copyModel() const { return m_copies; }
    QSortFilterProxyModel* kernelProxy() const { return m_kernelProxy; }
    QTableView* kernelTable() const { return m_kernelTable; }
    QTableView* copyTable() const { return m_copyTable; }
    RowStatisticsModel* rowModel() const { return m_rows; }
    QTableView* rowTable() const { return m_rowTable; }
    QLabel* rowTotalsLabel() const { return m_rowTotals; }
    // Brings the rows page forward (a time selection was made: its per-row summary).
    void showRows();
    SelectionSummaryView* summaryView() const { return m_summary; }

signals:
    // A kernel row was clicked: the name (KernelStats::nameId) whose launches to show.
    void kernelActivated(wl::model::StringId nameId);
    // A line or node of the summary page: the events of that kind and name in the window
    // (analysis::summarySlices) to select.
    void summaryActivated(wl::analysis::SummaryKind kind, wl::model::StringId nameId);

private:
    StatisticsModel* m_kernels = nullptr;
    StatisticsModel* m_copies = nullptr;
    QSortFilterProxyModel* m_kernelProxy = nullptr;
    QSortFilterProxyModel* m_copyProxy = nullptr;
    QTableView* m_kernelTable = nullptr;
    QTableView* m_copyTable = nullptr;
    QLabel* m_figures = nullptr;
    RowStatisticsModel* m_rows = nullptr;
    QSortFilterProxyModel* m_rowProxy = nullptr;
    QTableView* m_rowTable = nullptr;
    QLabel* m_rowTotals = nullptr;
    QTabWidget* m_pages = nullptr;
    SelectionSummaryView* m_summary = nullptr;
};

}  // namespace wl::ui
