#pragma once

#include <QWidget>

#include "analysis/Statistics.h"
#include "model/StringTable.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace wl::ui {

class StatisticsModel;

// Two sortable tables, kernels by name and copies by kind, over StatisticsModel through
// QSortFilterProxyModel (click a header to sort). Kernel names are elided in the middle (where
// C++ names differ least) with the full name as tooltip; a click on a kernel row asks for its
// launches (kernelActivated). Owns its models; GUI thread only.
class StatisticsView : public QWidget {
    Q_OBJECT
public:
    explicit StatisticsView(QWidget* parent = nullptr);

    void setStatistics(const analysis::Statistics& statistics);
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

signals:
    // A kernel row was clicked: the name (KernelStats::nameId) whose launches to show.
    void kernelActivated(wl::model::StringId nameId);

private:
    StatisticsModel* m_kernels = nullptr;
    StatisticsModel* m_copies = nullptr;
    QSortFilterProxyModel* m_kernelProxy = nullptr;
    QSortFilterProxyModel* m_copyProxy = nullptr;
    QTableView* m_kernelTable = nullptr;
    QTableView* m_copyTable = nullptr;
    QLabel* m_figures = nullptr;
};

}  // namespace wl::ui
