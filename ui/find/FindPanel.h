#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include <QWidget>

#include "model/Trace.h"
#include "ui/common/JobTracker.h"
#include "ui/find/SliceSearch.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;
class QToolButton;

namespace wl::ui {

class SliceTableModel;

// Find by name: a query field (substring, or a regular expression), the match count, previous /
// next buttons and the list of matches in time order. The search runs on a worker thread (a
// million-slice trace is searched while the window keeps painting); a newer query cancels the
// older one and a result that arrives late is dropped. Enter goes to the next match, Shift+Enter
// to the previous one, from the selected slice. Holds the trace shared read-only; GUI thread.
class FindPanel : public QWidget {
    Q_OBJECT
public:
    explicit FindPanel(QWidget* parent = nullptr);
    ~FindPanel() override;

    // Searches `trace` for the current query again (null clears).
    void setTrace(model::TracePtr trace);
    // The slice selected elsewhere (the timeline): next / previous go on from it.
    void setSelectedSlice(model::SliceRef ref);
    // Puts `text` in the field and searches at once (the command line's --find).
    void setQuery(const SearchQuery& query);
    SearchQuery query() const;
    // Focuses the field with its text selected (Ctrl+F).
    void focusQuery();

    void findNext();
    void findPrevious();

    // The last finished search (null while none has finished for this trace and query).
    const SearchMatchesPtr& matches() const { return m_matches; }
    bool isSearching() const { return m_jobs.isRunning(); }
    // What the count label says: "3 of 120", "120 matches", "No matches", "Searching…", an error.
    QString statusText() const;
    QLineEdit* queryField() const { return m_field; }
    QTableView* resultsTable() const { return m_table; }
    SliceTableModel* resultsModel() const { return m_model; }

signals:
    // A search finished (null: the query was cleared or is invalid).
    void matchesChanged(wl::ui::SearchMatchesPtr matches);
    // The user went to a match (Enter, the buttons, a click in the list): select and reveal it.
    void sliceActivated(wl::model::SliceRef ref);

private:
    void startSearch();
    void onSearchFinished(SearchMatchesPtr matches);
    void goTo(std::size_t index);
    void updateStatus();
    void showCurrentInTable();

    model::TracePtr m_trace;
    SearchMatchesPtr m_matches;
    model::SliceRef m_selected;
    std::optional<std::size_t> m_current;  // index of the selected slice among the matches
    JobTracker m_jobs{this};               // the search: a newer query supersedes the older one
    int m_pendingStep = 0;  // Enter pressed while searching: +1 next, -1 previous, when done
    QString m_error;
    bool m_syncingTable = false;

    QLineEdit* m_field = nullptr;
    QCheckBox* m_regex = nullptr;
    QCheckBox* m_case = nullptr;
    QToolButton* m_prev = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_status = nullptr;
    QTableView* m_table = nullptr;
    SliceTableModel* m_model = nullptr;
    QTimer* m_debounce = nullptr;
};

}  // namespace wl::ui
