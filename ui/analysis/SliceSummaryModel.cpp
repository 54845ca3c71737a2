#include "ui/analysis/SliceSummaryModel.h"

#include <cmath>

#include "analysis/KernelNames.h"
#include "ui/analysis/SortableCells.h"
#include "ui/common/Units.h"

namespace wl::ui {

SliceSummaryModel::SliceSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void SliceSummaryModel::setSummary(model::TracePtr trace, const analysis::SliceSummary& summary) {
    beginResetModel();
    m_trace = std::move(trace);
    m_summary = m_trace ? summary : analysis::SliceSummary{};
    m_names.clear();
    m_fullNames.clear();
    // Kernels by the short names every other table gives them, told apart where two share one.
    std::vector<std::string_view> kernelNames;
    for (const analysis::SliceStats& line : m_summary.rows) {
        if (line.kind == analysis::SummaryKind::Kernel)
            kernelNames.push_back(m_trace->str(line.nameId));
    }
    const std::vector<std::string> shortNames = analysis::distinctShortKernelNames(kernelNames);
    std::size_t kernel = 0;
    for (const analysis::SliceStats& line : m_summary.rows) {
        const std::string_view name = m_trace->str(line.nameId);
        if (line.kind == analysis::SummaryKind::Kernel) {
            m_names.push_back(QString::fromStdString(shortNames[kernel++]));
            m_fullNames.push_back(QString::fromStdString(analysis::demangleKernelName(name)));
        } else {
            m_names.push_back(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
            m_fullNames.push_back(m_names.back());
        }
    }
    endResetModel();
}

void SliceSummaryModel::clear() {
    setSummary(nullptr, {});
}

const analysis::SliceStats* SliceSummaryModel::lineAt(int row) const {
    return row >= 0 && row < rowCount() ? &m_summary.rows[static_cast<std::size_t>(row)] : nullptr;
}

int SliceSummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_summary.rows.size());
}

int SliceSummaryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(kColumns);
}

QVariant SliceSummaryModel::data(const QModelIndex& index, int role) const {
    const analysis::SliceStats* line = lineAt(index.row());
    if (!index.isValid() || line == nullptr || index.column() >= kColumns)
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    if (role == Qt::TextAlignmentRole) {
        return index.column() <= kName ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole)
        return index.column() == kName ? m_fullNames[row] : QVariant();
    const bool raw = role == kSortRole;
    if (role != Qt::DisplayRole && !raw)
        return {};
    switch (index.column()) {
        case kKind:
            // Raw: the kinds in their order (kernels, copies, memsets, calls, ranges, ops).
            return raw ? QVariant(static_cast<int>(line->kind))
                       : QVariant(tr(analysis::toString(line->kind)));
        case kName:
            return m_names[row];
        case kCount:
            return cells::count(line->count, raw);
        case kTotal:
            return cells::duration(line->totalNs, raw);
        case kSelf:
            return cells::duration(line->selfNs, raw);
        case kMean:
            return raw ? QVariant(line->meanNs())
                       : QVariant(units::duration(std::llround(line->meanNs())));
        case kMin:
            return cells::duration(line->minNs, raw);
        case kMax:
            return cells::duration(line->maxNs, raw);
        default:
            return {};
    }
}

QVariant SliceSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* kHeaders[] = {"Kind", "Name", "Count", "Total",
                                     "Self", "Mean", "Min",   "Max"};
    return section >= 0 && section < kColumns ? tr(kHeaders[section]) : QVariant();
}

}  // namespace wl::ui
