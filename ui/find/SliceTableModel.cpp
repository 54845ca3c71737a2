#include "ui/find/SliceTableModel.h"

#include <QHeaderView>
#include <QTableView>

#include "analysis/ApiNames.h"
#include "analysis/KernelNames.h"
#include "ui/common/TrackTitles.h"
#include "ui/common/Units.h"

namespace wl::ui {
namespace {

QString qstr(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

SliceTableModel::SliceTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SliceTableModel::setRows(model::TracePtr trace, SliceRows rows) {
    beginResetModel();
    if (trace != m_trace) {
        m_names.clear();
        m_trackTitles.clear();
        if (trace) {
            m_trackTitles.reserve(trace->tracks().size());
            for (model::TrackIndex t = 0; t < trace->tracks().size(); ++t)
                m_trackTitles.push_back(rowTitle(*trace, t));
        }
    }
    m_trace = std::move(trace);
    m_rows = m_trace ? std::move(rows) : nullptr;
    endResetModel();
}

model::SliceRef SliceTableModel::sliceAt(int row) const {
    if (!m_rows || row < 0 || static_cast<std::size_t>(row) >= m_rows->size())
        return {};
    return (*m_rows)[static_cast<std::size_t>(row)];
}

int SliceTableModel::rowCount(const QModelIndex& parent) const {
    // A view handles at most INT_MAX rows; a trace has fewer slices than that in practice.
    return parent.isValid() || !m_rows ? 0 : static_cast<int>(m_rows->size());
}

int SliceTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

QString SliceTableModel::rowTitle(const model::Trace& trace, model::TrackIndex track) {
    const model::Track& t = trace.track(track);
    const QString title = trackTitle(trace, t);
    // "Stream 13" is ambiguous when there are several GPUs.
    if (t.deviceId >= 0 && trace.devices().size() > 1)
        return QStringLiteral("GPU %1 %2").arg(t.deviceId).arg(title);
    return title;
}

QString SliceTableModel::shownName(const model::Trace& trace, const model::Slice& slice) {
    if (slice.kind == model::SliceKind::Kernel)
        return QString::fromStdString(analysis::shortKernelName(trace.str(slice.nameId)));
    return qstr(analysis::shownName(trace, slice));
}

std::uint64_t SliceTableModel::sliceBytes(const model::Trace& trace, const model::Slice& slice) {
    if (const auto* m = trace.memcpy(slice))
        return m->bytes;
    if (const auto* m = trace.memset(slice))
        return m->bytes;
    if (const auto* m = trace.memory(slice))  // allocated or released
        return m->bytes;
    return 0;
}

const QString& SliceTableModel::nameOf(const model::Slice& slice) const {
    // Kernels and API calls are named differently from other slices of the same name id.
    const std::uint64_t key = (std::uint64_t(slice.nameId) << 8) | std::uint8_t(slice.kind);
    auto it = m_names.find(key);
    if (it == m_names.end())
        it = m_names.emplace(key, shownName(*m_trace, slice)).first;
    return it->second;
}

QVariant SliceTableModel::data(const QModelIndex& index, int role) const {
    const model::SliceRef ref = sliceAt(index.row());
    if (!ref.valid())
        return {};
    const model::Slice& s = m_trace->slice(ref);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case kStart:
                return units::timestamp(s.startNs);
            case kDuration:
                return units::duration(s.durationNs);
            case kRow:
                return m_trackTitles[ref.track];
            case kName:
                return nameOf(s);
            case kBytes: {
                const std::uint64_t bytes = sliceBytes(*m_trace, s);
                return bytes > 0 ? units::bytes(bytes) : QString();
            }
            default:
                return {};
        }
    }
    if (role == Qt::TextAlignmentRole) {
        const bool number =
            index.column() == kStart || index.column() == kDuration || index.column() == kBytes;
        return QVariant::fromValue(
            Qt::Alignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == kName && s.kind == model::SliceKind::Kernel)
            return QString::fromStdString(analysis::demangleKernelName(m_trace->str(s.nameId)));
        if (index.column() == kRow) {
            return QStringLiteral("%1 — %2").arg(
                processTitle(*m_trace, m_trace->track(ref.track).process),
                m_trackTitles[ref.track]);
        }
        if (index.column() == kBytes) {
            const std::uint64_t bytes = sliceBytes(*m_trace, s);
            if (bytes > 0)
                return QStringLiteral("%1 B").arg(units::grouped(std::int64_t(bytes)));
        }
        return {};
    }
    return {};
}

QVariant SliceTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole) {
        // The longest ops and the biggest transfers are what one sorts those columns for.
        return QVariant::fromValue(section == kDuration || section == kBytes ? Qt::DescendingOrder
                                                                             : Qt::AscendingOrder);
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case kStart:
            return tr("Start");
        case kDuration:
            return tr("Duration");
        case kRow:
            return tr("Row");
        case kName:
            return tr("Name");
        case kBytes:
            return tr("Bytes");
        default:
            return {};
    }
}

void prepareSliceTable(QTableView* table) {
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideMiddle);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 4);
    QHeaderView* header = table->horizontalHeader();
    header->setStretchLastSection(false);
    // The name right after the times, with a width of its own, and the row taking what is left:
    // in a narrow dock (1024 px window) a stretched name came last and got no width at all.
    header->moveSection(header->visualIndex(SliceTableModel::kName),
                        header->visualIndex(SliceTableModel::kRow));
    header->setSectionResizeMode(SliceTableModel::kRow, QHeaderView::Stretch);
    const QFontMetrics fm = table->fontMetrics();
    const int pad = 3 * fm.averageCharWidth();
    header->resizeSection(SliceTableModel::kStart,
                          fm.horizontalAdvance(QStringLiteral("00000.000000 ms")) + pad);
    header->resizeSection(SliceTableModel::kDuration,
                          fm.horizontalAdvance(QStringLiteral("000.000 ms")) + pad);
    header->resizeSection(
        SliceTableModel::kName,
        fm.horizontalAdvance(QStringLiteral("vectorized_elementwise_kernel")) + pad);
    header->resizeSection(SliceTableModel::kBytes,
                          fm.horizontalAdvance(QStringLiteral("000.0 MiB")) + pad);
}

}  // namespace wl::ui
