#include "ui/query/QueryPanel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QStandardItem>
#include <QStandardItemModel>
#include <QTableView>
#include <QThreadPool>
#include <QVBoxLayout>
#include <algorithm>
#include <optional>

#include "query/ResultFormat.h"
#include "query/TraceQuery.h"
#include "ui/charts/ChartExport.h"

namespace wl::ui {

namespace {

const QString kHistoryKey = QStringLiteral("query/history");

// Keeps at most kMaxRows rows, then stops the query (and says so).
struct CappedResult final : query::RowSink {
    std::vector<std::string> names;
    std::vector<std::vector<query::Value>> rows;
    bool truncated = false;
    void columns(const std::vector<std::string>& n) override { names = n; }
    bool row(const std::vector<query::Value>& values) override {
        if (rows.size() >= std::size_t(QueryPanel::kMaxRows)) {
            truncated = true;
            return false;
        }
        rows.push_back(values);
        return true;
    }
};

QString cellText(const query::Value& v) {
    return QString::fromStdString(query::valueText(v, ""));
}

}  // namespace

struct QueryPanel::Outcome {
    CappedResult result;
    std::optional<query::QueryError> error;
    qint64 ms = 0;
};

QueryPanel::QueryPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout();
    m_history = new QComboBox(this);
    m_history->setObjectName(QStringLiteral("queryHistory"));
    m_history->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_history->setMinimumContentsLength(20);
    m_history->setToolTip(tr("The last %1 queries").arg(kHistorySize));
    m_run = new QPushButton(tr("Run"), this);
    m_run->setToolTip(tr("Run the query (Ctrl+Enter)"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setEnabled(false);
    m_save = new QPushButton(tr("Save CSV…"), this);
    m_save->setEnabled(false);
    top->addWidget(m_history, 1);
    top->addWidget(m_run);
    top->addWidget(m_stop);
    top->addWidget(m_save);
    layout->addLayout(top);
    m_editor = new QPlainTextEdit(this);
    m_editor->setObjectName(QStringLiteral("queryEditor"));
    m_editor->setPlaceholderText(
        tr("SELECT name, count(*), sum(dur) FROM slice WHERE kind = 'kernel' GROUP BY name "
           "ORDER BY 3 DESC"));
    m_editor->setMaximumHeight(m_editor->fontMetrics().height() * 5);
    layout->addWidget(m_editor);
    m_status = new QLabel(tr("Tables: slice, kernel, memcpy, track, process, thread, counter, "
                             "flow (the README's \"SQL\")"),
                          this);
    m_status->setObjectName(QStringLiteral("queryStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_model = new QStandardItemModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("queryResults"));
    m_table->setModel(m_model);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);

    const QStringList saved = QSettings().value(kHistoryKey).toStringList();
    m_history->addItems(saved);
    m_history->setCurrentIndex(-1);

    connect(m_run, &QPushButton::clicked, this, &QueryPanel::run);
    connect(m_stop, &QPushButton::clicked, this, &QueryPanel::stop);
    connect(m_save, &QPushButton::clicked, this, &QueryPanel::saveCsv);
    connect(m_history, &QComboBox::activated, this,
            [this](int index) { m_editor->setPlainText(m_history->itemText(index)); });
    auto* runKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), m_editor);
    runKey->setContext(Qt::WidgetShortcut);
    connect(runKey, &QShortcut::activated, this, &QueryPanel::run);
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex& index) { activateRow(index.row()); });
}

QueryPanel::~QueryPanel() = default;

void QueryPanel::setTrace(model::TracePtr trace) {
    m_jobs.abandon();
    m_trace = std::move(trace);
    m_model->clear();
    m_stop->setEnabled(false);
    m_save->setEnabled(false);
}

void QueryPanel::setQuery(const QString& sql) {
    m_editor->setPlainText(sql);
}

QString QueryPanel::query() const {
    return m_editor->toPlainText();
}

QString QueryPanel::statusText() const {
    return m_status->text();
}

QStringList QueryPanel::history() const {
    QStringList out;
    for (int i = 0; i < m_history->count(); ++i)
        out << m_history->itemText(i);
    return out;
}

void QueryPanel::run() {
    const QString sql = query().trimmed();
    if (sql.isEmpty())
        return;
    if (!m_trace) {
        m_status->setText(tr("No trace open to query."));
        emit finished();
        return;
    }
    remember(sql);
    m_status->setText(tr("Running…"));
    m_stop->setEnabled(true);
    // The worker opens its own database over the shared, immutable trace: a connection is one
    // thread's.
    m_jobs.startJob(
        *QThreadPool::globalInstance(),
        [trace = m_trace, text = sql.toStdString()](const JobToken& token) {
            Outcome out;
            QElapsedTimer clock;
            clock.start();
            auto db = query::TraceDatabase::open(trace);
            if (!db.ok()) {
                out.error =
                    query::QueryError{query::QueryErrorKind::Failed, db.error().describe(), -1};
                return out;
            }
            query::QueryOptions options;
            options.cancel = token.flag();
            out.error = db.value()->run(text, out.result, options);
            out.ms = clock.elapsed();
            return out;
        },
        [this](const Outcome& outcome) { show(outcome); });
}

void QueryPanel::stop() {
    m_jobs.requestStop();
}

void QueryPanel::show(const Outcome& outcome) {
    m_stop->setEnabled(false);
    m_model->clear();
    if (outcome.error) {
        m_status->setText(
            outcome.error->kind == query::QueryErrorKind::Cancelled
                ? tr("Stopped.")
                : tr("Error: %1").arg(QString::fromStdString(outcome.error->message)));
        m_save->setEnabled(false);
        emit finished();
        return;
    }
    const CappedResult& r = outcome.result;
    QStringList headers;
    for (const std::string& name : r.names)
        headers << QString::fromStdString(name);
    m_model->setColumnCount(int(headers.size()));
    m_model->setHorizontalHeaderLabels(headers);
    m_model->setRowCount(int(r.rows.size()));
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        for (std::size_t c = 0; c < r.rows[i].size(); ++c) {
            auto* item = new QStandardItem(cellText(r.rows[i][c]));
            const query::Value& v = r.rows[i][c];
            if (v.type == query::Value::Type::Integer || v.type == query::Value::Type::Real) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                // Sorts by number, not by text.
                item->setData(v.type == query::Value::Type::Integer
                                  ? QVariant::fromValue<qlonglong>(v.integer)
                                  : QVariant(v.real),
                              Qt::UserRole + 1);
            }
            m_model->setItem(int(i), int(c), item);
        }
    }
    // Each column as wide as its text, but none wider than a third of the table: a kernel's
    // signature must not push the numbers out of sight.
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_table->setColumnWidth(
            c, std::min(m_table->columnWidth(c), std::max(m_table->width() / 3, 120)));
    m_status->setText(r.truncated ? tr("The first %L1 rows (%2 ms); the rest left out.")
                                        .arg(r.rows.size())
                                        .arg(outcome.ms)
                                  : tr("%L1 row(s) in %2 ms.").arg(r.rows.size()).arg(outcome.ms));
    m_save->setEnabled(!r.rows.empty());
    emit finished();
}

void QueryPanel::activateRow(int row) {
    if (!m_trace || row < 0 || row >= m_model->rowCount())
        return;
    int sliceIdColumn = -1;
    int idColumn = -1;
    int tsColumn = -1;
    int durColumn = -1;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const QString name = m_model->headerData(c, Qt::Horizontal).toString();
        if (name == QLatin1String("slice_id"))
            sliceIdColumn = c;
        else if (name == QLatin1String("id"))
            idColumn = c;
        else if (name == QLatin1String("ts"))
            tsColumn = c;
        else if (name == QLatin1String("dur"))
            durColumn = c;
    }
    const auto number = [&](int column, bool& ok) {
        const QStandardItem* item = column >= 0 ? m_model->item(row, column) : nullptr;
        ok = item != nullptr;
        return ok ? item->text().toLongLong(&ok) : 0;
    };
    bool tsOk = false;
    const qlonglong ts = number(tsColumn, tsOk);
    const auto slice = [&](int column) -> std::optional<model::SliceRef> {
        bool ok = false;
        const model::SliceRef ref = query::sliceRefFromId(number(column, ok));
        if (!ok || ref.track >= m_trace->tracks().size() ||
            ref.index >= m_trace->track(ref.track).slices.size())
            return std::nullopt;
        return ref;
    };
    // `slice_id` names a slice in every table. Every table has an `id`, a slice's only in the
    // slice tables: it is taken for one when the row's ts, if it has one, is that slice's start
    // (an idle gap's or a finding's id is not a slice, and its row selects its span).
    std::optional<model::SliceRef> ref = slice(sliceIdColumn);
    if (!ref) {
        ref = slice(idColumn);
        if (ref && tsOk && m_trace->slice(*ref).startNs != ts)
            ref.reset();
    }
    if (ref) {
        emit sliceActivated(*ref);
        return;
    }
    bool durOk = false;
    const qlonglong dur = number(durColumn, durOk);
    if (tsOk && durOk && dur > 0)
        emit rangeActivated({ts, ts + dur});
}

void QueryPanel::remember(const QString& sql) {
    QStringList list = history();
    list.removeAll(sql);
    list.prepend(sql);
    while (list.size() > kHistorySize)
        list.removeLast();
    m_history->clear();
    m_history->addItems(list);
    m_history->setCurrentIndex(0);
    QSettings().setValue(kHistoryKey, list);
}

QString QueryPanel::resultsCsv() const {
    QStringList header;
    for (int c = 0; c < m_model->columnCount(); ++c)
        header << m_model->headerData(c, Qt::Horizontal).toString();
    std::vector<QStringList> rows;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_model->columnCount(); ++c)
            cells << (m_model->item(r, c) ? m_model->item(r, c)->text() : QString());
        rows.push_back(std::move(cells));
    }
    return charts::csvText(header, rows);
}

void QueryPanel::saveCsv() {
    // The window asks where and writes it (ExportRequests), as for the charts' data.
    emit charts::ExportRequests::instance().csvRequested(resultsCsv(), QStringLiteral("query"));
}

}  // namespace wl::ui
