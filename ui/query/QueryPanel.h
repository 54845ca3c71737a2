#pragma once

#include <QWidget>
#include <memory>
#include <string>
#include <vector>

#include "model/Trace.h"
#include "ui/common/JobTracker.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace wl::ui {

// The Query panel: SQL over the open trace (the tables of `warpline query`, README.md "SQL";
// read-only). The query runs on a worker and can be stopped; the window never waits. Results fill
// a table (at most kMaxRows rows); a row with a slice id (`slice_id`, or a slice table's `id`)
// selects that slice on the timeline when clicked, one with `ts` and `dur` selects that span. The
// last queries are kept in a history box (QSettings), and the results save as CSV. An error is
// SQLite's message with where it is. GUI thread.
class QueryPanel : public QWidget {
    Q_OBJECT
public:
    explicit QueryPanel(QWidget* parent = nullptr);
    ~QueryPanel() override;

    void setTrace(model::TracePtr trace);
    void setQuery(const QString& sql);
    QString query() const;
    // Runs the editor's SQL over the trace (Ctrl+Enter); a run in progress is stopped first.
    void run();
    // Stops the running query (its result is an error that says so).
    void stop();
    bool isBusy() const { return m_jobs.isRunning(); }

    QTableView* results() const { return m_table; }
    QString statusText() const;
    QStringList history() const;
    // The results as CSV (RFC 4180), the column names first.
    QString resultsCsv() const;

    static constexpr int kMaxRows = 100'000;
    static constexpr int kHistorySize = 20;

signals:
    void sliceActivated(wl::model::SliceRef ref);
    void rangeActivated(wl::model::TimeRange range);
    // A run ended: with rows, an error, or stopped.
    void finished();

private:
    struct Outcome;
    void show(const Outcome& outcome);
    void activateRow(int row);
    void remember(const QString& sql);
    void saveCsv();

    model::TracePtr m_trace;
    QPlainTextEdit* m_editor = nullptr;
    QComboBox* m_history = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_save = nullptr;
    QLabel* m_status = nullptr;
    QStandardItemModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    JobTracker m_jobs{this};
};

}  // namespace wl::ui
