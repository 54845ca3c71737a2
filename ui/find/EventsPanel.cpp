#include "ui/find/EventsPanel.h"

#include <utility>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/common/Units.h"
#include "ui/find/SliceSort.h"

namespace wl::ui {
namespace {

// The visible time is collected once panning or zooming pauses this long.
constexpr int kViewSettleMs = 250;

struct EventRows {
    std::shared_ptr<const SliceList> base;   // time order
    std::shared_ptr<const SliceList> shown;  // sorted
    bool cancelled = false;
};

}  // namespace

EventsPanel::EventsPanel(QWidget* parent) : QWidget(parent) {
    m_scope = new QComboBox(this);
    m_scope->setObjectName(QStringLiteral("eventsScope"));
    m_scope->addItem(tr("Whole trace"));
    m_scope->addItem(tr("Visible time"));
    m_scope->addItem(tr("Time selection"));
    m_scope->setToolTip(tr("Which slices the table lists"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("eventsStatus"));

    m_model = new SliceTableModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("eventsTable"));
    m_table->setModel(m_model);
    prepareSliceTable(m_table);
    QHeaderView* header = m_table->horizontalHeader();
    // The view does not sort (it would ask the model on the GUI thread): a click on a header
    // moves the indicator, and the panel sorts on its worker.
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setSortIndicator(m_sortColumn, m_sortOrder);
    connect(header, &QHeaderView::sortIndicatorChanged, this,
            [this](int column, Qt::SortOrder order) {
                sortBy(static_cast<SliceTableModel::Column>(column), order);
            });

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_scope);
    top->addWidget(m_status, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    m_followView = new QTimer(this);
    m_followView->setSingleShot(true);
    m_followView->setInterval(kViewSettleMs);
    connect(m_followView, &QTimer::timeout, this, [this] { refresh(true); });
    connect(m_scope, &QComboBox::currentIndexChanged, this, [this] { refresh(true); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const model::SliceRef ref = m_model->sliceAt(current.row());
                if (ref.valid()) {
                    m_activating = true;
                    emit sliceActivated(ref);
                    m_activating = false;
                }
            });
    updateStatus();
}

// The request in flight is cancelled by m_jobs; it holds only shared values and ends on its own.
EventsPanel::~EventsPanel() = default;

void EventsPanel::setTrace(model::TracePtr trace) {
    m_trace = std::move(trace);
    m_selection.reset();
    m_base.reset();
    refresh(true);
}

void EventsPanel::setVisibleRange(model::TimeNs startNs, model::TimeNs endNs) {
    m_visible = {startNs, endNs};
    if (scope() == Scope::VisibleTime && !m_activating)
        m_followView->start();
}

void EventsPanel::setTimeSelection(std::optional<model::TimeRange> range) {
    m_selection = range;
    if (scope() == Scope::TimeSelection)
        refresh(true);
}

void EventsPanel::setScope(Scope scope) {
    m_scope->setCurrentIndex(static_cast<int>(scope));
}

EventsPanel::Scope EventsPanel::scope() const {
    return static_cast<Scope>(m_scope->currentIndex());
}

void EventsPanel::sortBy(SliceTableModel::Column column, Qt::SortOrder order) {
    if (column == m_sortColumn && order == m_sortOrder)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    {
        const QSignalBlocker block(m_table->horizontalHeader());
        m_table->horizontalHeader()->setSortIndicator(column, order);
    }
    refresh(!m_base);
}

std::optional<model::TimeRange> EventsPanel::window() const {
    switch (scope()) {
        case Scope::WholeTrace:
            return std::nullopt;
        case Scope::VisibleTime:
            return m_visible;
        case Scope::TimeSelection:
            // No selection: nothing (an empty range), not everything.
            return m_selection ? *m_selection : model::TimeRange{0, -1};
    }
    return std::nullopt;
}

void EventsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        refresh(!m_base);
}

void EventsPanel::refresh(bool collect) {
    m_followView->stop();
    m_jobs.abandon();  // the previous request is stale
    if (collect)
        m_base.reset();
    if (!m_trace) {
        m_stale = false;
        m_model->clear();
        updateStatus();
        emit rowsChanged();
        return;
    }
    if (!isVisible()) {
        m_stale = true;
        updateStatus();
        return;
    }
    m_stale = false;
    // Only shared values go to the worker: it may outlive this panel.
    m_jobs.startJob(
        *QThreadPool::globalInstance(),
        [trace = m_trace, base = m_base, window = window(), column = m_sortColumn,
         order = m_sortOrder](const JobToken& job) {
            // Both steps stop early once a newer request supersedes this one.
            EventRows out;
            out.base = base ? base
                            : std::make_shared<const SliceList>(
                                  SliceSort::collect(*trace, window, job.flag()));
            out.shown = std::make_shared<const SliceList>(
                SliceSort::sorted(*trace, *out.base, column, order, job.flag()));
            out.cancelled = job.isCancelled();
            return out;
        },
        [this](const EventRows& rows) {
            if (rows.cancelled)
                return;
            m_base = rows.base;
            m_model->setRows(m_trace, rows.shown);
            updateStatus();
            emit rowsChanged();
        });
    updateStatus();
}

QString EventsPanel::statusText() const {
    return m_status->text();
}

void EventsPanel::updateStatus() {
    QString text;
    if (!m_trace) {
        text = tr("No trace");
    } else if (isBusy()) {
        text = m_base ? tr("Sorting…") : tr("Collecting…");
    } else if (scope() == Scope::TimeSelection && !m_selection) {
        text = tr("No time selection: drag on the ruler (or shift-drag) to make one");
    } else {
        const auto rows = static_cast<std::int64_t>(m_model->rowCount());
        text = rows == 1 ? tr("1 slice") : tr("%1 slices").arg(units::grouped(rows));
    }
    m_status->setText(text);
}

}  // namespace wl::ui
