#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "model/Time.h"
#include "model/Trace.h"
#include "ui/common/JobTracker.h"
#include "ui/find/SliceTableModel.h"

class QComboBox;
class QLabel;
class QTableView;
class QTimer;

namespace wl::ui {

// The events table: every slice of the whole trace, of the visible time or of the time selection,
// with start, duration, row, name and bytes, sortable by any column (click a header: the longest
// copies, the biggest transfers). Collecting and sorting run on a worker thread, a newer request
// cancels the older one and late results are dropped; the table is a SliceTableModel over the
// sorted references. A click on a row asks for the slice (sliceActivated). Holds the trace shared
// read-only; GUI thread only.
class EventsPanel : public QWidget {
    Q_OBJECT
public:
    enum class Scope { WholeTrace, VisibleTime, TimeSelection };

    explicit EventsPanel(QWidget* parent = nullptr);
    ~EventsPanel() override;

    void setTrace(model::TracePtr trace);
    // The timeline's visible time and time selection: the scopes of the same names follow them.
    void setVisibleRange(model::TimeNs startNs, model::TimeNs endNs);
    void setTimeSelection(std::optional<model::TimeRange> range);
    void setScope(Scope scope);
    Scope scope() const;
    void sortBy(SliceTableModel::Column column, Qt::SortOrder order);
    SliceTableModel::Column sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    bool isBusy() const { return m_jobs.isRunning(); }
    QString statusText() const;
    SliceTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

protected:
    void showEvent(QShowEvent* event) override;

signals:
    void sliceActivated(wl::model::SliceRef ref);
    // The rows changed (a new scope, trace or order is shown).
    void rowsChanged();

private:
    // Recollects the scope's slices (`collect`) or only re-sorts them, on the worker.
    void refresh(bool collect);
    std::optional<model::TimeRange> window() const;
    void updateStatus();

    model::TracePtr m_trace;
    // The scope's slices in time order: sorting starts from it.
    std::shared_ptr<const SliceList> m_base;
    model::TimeRange m_visible;
    std::optional<model::TimeRange> m_selection;
    SliceTableModel::Column m_sortColumn = SliceTableModel::kStart;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    JobTracker m_jobs{this};  // collecting and sorting: a newer request supersedes the older
    // What is shown no longer fits the trace or scope; refreshed when the panel is shown (a hidden
    // table collects nothing).
    bool m_stale = false;
    // A row is being activated: the view moves to show its slice, and the visible-time scope
    // must not reload the list the user is working through because of it.
    bool m_activating = false;

    QComboBox* m_scope = nullptr;
    QLabel* m_status = nullptr;
    QTableView* m_table = nullptr;
    SliceTableModel* m_model = nullptr;
    QTimer* m_followView = nullptr;  // the visible time settles before it is collected
};

}  // namespace wl::ui
