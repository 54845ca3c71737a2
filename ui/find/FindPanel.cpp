#include "ui/find/FindPanel.h"

#include <functional>
#include <utility>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/common/Units.h"
#include "ui/find/SliceTableModel.h"

namespace wl::ui {
namespace {

// Typing searches after this pause, so a query is not searched once per keystroke.
constexpr int kTypingPauseMs = 200;

// Enter and Shift+Enter in the query field: next and previous match.
class EnterFilter : public QObject {
public:
    EnterFilter(QObject* parent, std::function<void(bool)> onEnter)
        : QObject(parent), m_onEnter(std::move(onEnter)) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::KeyPress) {
            auto* key = static_cast<QKeyEvent*>(event);
            if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
                m_onEnter((key->modifiers() & Qt::ShiftModifier) != 0);
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void(bool)> m_onEnter;
};

}  // namespace

FindPanel::FindPanel(QWidget* parent) : QWidget(parent) {
    m_field = new QLineEdit(this);
    m_field->setObjectName(QStringLiteral("findQuery"));
    m_field->setPlaceholderText(tr("Find slices by name (Ctrl+F)"));
    m_field->setClearButtonEnabled(true);
    m_field->setToolTip(
        tr("Kernels, copies, NVTX ranges and API calls whose name contains the text.\n"
           "Enter: next match, Shift+Enter: previous match."));
    m_field->installEventFilter(
        new EnterFilter(this, [this](bool back) { back ? findPrevious() : findNext(); }));
    m_regex = new QCheckBox(tr("Regex"), this);
    m_regex->setToolTip(tr("The text is a regular expression (matched anywhere in a name)"));
    m_case = new QCheckBox(tr("Aa"), this);
    m_case->setToolTip(tr("Match case"));
    m_prev = new QToolButton(this);
    m_prev->setArrowType(Qt::UpArrow);
    m_prev->setToolTip(tr("Previous match (Shift+Enter)"));
    m_next = new QToolButton(this);
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match (Enter)"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("findStatus"));
    // A long message (a regex error) is clipped rather than widening the dock; the tooltip has it.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_model = new SliceTableModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("findResults"));
    m_table->setModel(m_model);
    prepareSliceTable(m_table);
    m_table->setColumnHidden(SliceTableModel::kBytes, true);  // the events table has them

    // The field on a line of its own: a narrow dock still shows what was typed.
    auto* options = new QHBoxLayout;
    options->setContentsMargins(0, 0, 0, 0);
    options->addWidget(m_regex);
    options->addWidget(m_case);
    options->addWidget(m_prev);
    options->addWidget(m_next);
    options->addWidget(m_status, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addWidget(m_field);
    layout->addLayout(options);
    layout->addWidget(m_table, 1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kTypingPauseMs);
    connect(m_debounce, &QTimer::timeout, this, &FindPanel::startSearch);
    connect(m_field, &QLineEdit::textChanged, this, [this] { m_debounce->start(); });
    connect(m_regex, &QCheckBox::toggled, this, &FindPanel::startSearch);
    connect(m_case, &QCheckBox::toggled, this, &FindPanel::startSearch);
    connect(m_prev, &QToolButton::clicked, this, &FindPanel::findPrevious);
    connect(m_next, &QToolButton::clicked, this, &FindPanel::findNext);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!m_syncingTable && current.isValid())
                    goTo(static_cast<std::size_t>(current.row()));
            });
    updateStatus();
}

// The search in flight is cancelled by m_jobs; it holds only shared values and ends on its own.
FindPanel::~FindPanel() = default;

void FindPanel::setTrace(model::TracePtr trace) {
    m_trace = std::move(trace);
    m_selected = {};
    startSearch();
}

void FindPanel::setSelectedSlice(model::SliceRef ref) {
    m_selected = ref;
    m_current = m_matches && m_trace ? m_matches->indexOf(*m_trace, ref) : std::nullopt;
    showCurrentInTable();
    updateStatus();
}

void FindPanel::setQuery(const SearchQuery& query) {
    const QSignalBlocker blockRegex(m_regex);
    const QSignalBlocker blockCase(m_case);
    m_regex->setChecked(query.regex);
    m_case->setChecked(query.caseSensitive);
    m_field->setText(query.text);
    m_debounce->stop();
    startSearch();
}

SearchQuery FindPanel::query() const {
    return {m_field->text(), m_regex->isChecked(), m_case->isChecked()};
}

void FindPanel::focusQuery() {
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

void FindPanel::startSearch() {
    m_debounce->stop();
    m_jobs.abandon();  // the previous search is stale
    const SearchQuery q = query();
    m_error = SliceSearch::validate(q);
    m_matches.reset();
    m_current.reset();
    m_model->clear();
    if (!m_trace || q.empty() || !m_error.isEmpty()) {
        m_pendingStep = 0;
        updateStatus();
        emit matchesChanged(nullptr);
        return;
    }
    // Only shared values go to the worker: it may outlive this panel.
    m_jobs.startJob(
        *QThreadPool::globalInstance(),
        [trace = m_trace, q](const JobToken& job) {
            return SliceSearch::run(*trace, q, job.flag());  // stops once superseded
        },
        [this](SearchMatchesPtr matches) { onSearchFinished(std::move(matches)); });
    updateStatus();
}

void FindPanel::onSearchFinished(SearchMatchesPtr matches) {
    if (!matches)
        return;  // cancelled
    m_matches = std::move(matches);
    m_current = m_matches->indexOf(*m_trace, m_selected);
    m_model->setRows(m_trace, m_matches->orderedRows());
    showCurrentInTable();
    updateStatus();
    emit matchesChanged(m_matches);
    if (const int step = std::exchange(m_pendingStep, 0); step > 0)
        findNext();
    else if (step < 0)
        findPrevious();
}

void FindPanel::findNext() {
    if (isSearching() || m_debounce->isActive()) {
        m_pendingStep = 1;  // go when the search for what is typed now is done
        if (m_debounce->isActive())
            startSearch();
        return;
    }
    if (!m_matches || m_matches->empty() || !m_trace)
        return;
    std::size_t next = 0;
    if (m_current) {
        next = (*m_current + 1) % m_matches->size();
    } else if (m_selected.valid()) {
        // From the selected slice on (the first match after it in time).
        next = m_matches->firstAtOrAfter(*m_trace, m_trace->slice(m_selected).startNs);
        if (next == m_matches->size())
            next = 0;
    }
    goTo(next);
}

void FindPanel::findPrevious() {
    if (isSearching() || m_debounce->isActive()) {
        m_pendingStep = -1;
        if (m_debounce->isActive())
            startSearch();
        return;
    }
    if (!m_matches || m_matches->empty() || !m_trace)
        return;
    const std::size_t n = m_matches->size();
    std::size_t previous = n - 1;
    if (m_current) {
        previous = (*m_current + n - 1) % n;
    } else if (m_selected.valid()) {
        const std::size_t after =
            m_matches->firstAtOrAfter(*m_trace, m_trace->slice(m_selected).startNs);
        previous = after == 0 ? n - 1 : after - 1;
    }
    goTo(previous);
}

void FindPanel::goTo(std::size_t index) {
    if (!m_matches || index >= m_matches->size())
        return;
    m_current = index;
    m_selected = m_matches->at(index);
    showCurrentInTable();
    updateStatus();
    emit sliceActivated(m_selected);
}

void FindPanel::showCurrentInTable() {
    m_syncingTable = true;
    if (m_current) {
        const QModelIndex index = m_model->index(static_cast<int>(*m_current), 0);
        m_table->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    } else {
        m_table->selectionModel()->clearSelection();
    }
    m_syncingTable = false;
}

QString FindPanel::statusText() const {
    return m_status->text();
}

void FindPanel::updateStatus() {
    QString text;
    if (!m_error.isEmpty()) {
        text = tr("Invalid regular expression: %1").arg(m_error);
    } else if (isSearching()) {
        text = tr("Searching…");
    } else if (m_matches && m_matches->empty()) {
        text = tr("No matches");
    } else if (m_matches) {
        const auto count = static_cast<std::int64_t>(m_matches->size());
        text = m_current
                   ? tr("%1 of %2 matches")
                         .arg(units::grouped(static_cast<std::int64_t>(*m_current) + 1),
                              units::grouped(count))
                   : (count == 1 ? tr("1 match") : tr("%1 matches").arg(units::grouped(count)));
    }
    m_status->setText(text);
    m_status->setToolTip(text);
    const bool any = m_matches && !m_matches->empty();
    m_prev->setEnabled(any);
    m_next->setEnabled(any);
}

}  // namespace wl::ui
