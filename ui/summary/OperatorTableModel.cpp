#include "ui/summary/OperatorTableModel.h"

#include "analysis/Format.h"

namespace wl::ui::summary {

namespace {

QString duration(model::TimeNs ns) {
    return QString::fromStdString(analysis::formatDuration(ns));
}

}  // namespace

OperatorTableModel::OperatorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OperatorTableModel::setOperators(const analysis::OperatorTable& table, bool byShapes) {
    beginResetModel();
    m_byShapes = byShapes && !table.byNameAndShapes.empty();
    m_rows = m_byShapes ? table.byNameAndShapes : table.byName;
    m_nvtx = table.nvtxRanges;
    endResetModel();
}

void OperatorTableModel::clear() {
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

const analysis::OperatorStats* OperatorTableModel::operatorAt(int row) const {
    return row >= 0 && std::size_t(row) < m_rows.size() ? &m_rows[std::size_t(row)] : nullptr;
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(kColumns);
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const {
    const analysis::OperatorStats* op = operatorAt(index.row());
    if (op == nullptr || index.column() < 0 || index.column() >= kColumns) {
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() <= cShapes ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole && index.column() <= cShapes) {
        return QString::fromStdString(index.column() == cName ? op->name : op->inputShapes);
    }
    const bool raw = role == kSortRole;
    if (role != Qt::DisplayRole && !raw) {
        return {};
    }
    const auto time = [raw](model::TimeNs ns) {
        return raw ? QVariant::fromValue<qlonglong>(ns) : QVariant(duration(ns));
    };
    switch (index.column()) {
        case cName:
            return QString::fromStdString(op->name);
        case cShapes:
            return QString::fromStdString(op->inputShapes);
        case cCalls:
            return raw ? QVariant::fromValue<qulonglong>(op->calls)
                       : QVariant(QString::number(op->calls));
        case cHostTotal:
            return time(op->hostTotalNs);
        case cHostSelf:
            return time(op->hostSelfNs);
        case cGpuTotal:
            return time(op->gpuTotalNs);
        case cGpuSelf:
            return time(op->gpuSelfNs);
        case cGpuOps:
            return raw ? QVariant::fromValue<qulonglong>(op->gpuOps)
                       : QVariant(QString::number(op->gpuOps));
        default:
            return {};
    }
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case cHostSelf:
                return tr("Host time in the calls, less the operators nested in them");
            case cGpuTotal:
                return tr(
                    "GPU time of the kernels, copies and memsets launched from inside the "
                    "calls (linked by their launches)");
            case cGpuSelf:
                return tr(
                    "GPU time of the work launched by the calls themselves, not by an "
                    "operator nested in them");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case cName:
            return m_nvtx ? tr("NVTX range") : tr("Operator");
        case cShapes:
            return tr("Input shapes");
        case cCalls:
            return tr("Calls");
        case cHostTotal:
            return tr("Host total");
        case cHostSelf:
            return tr("Host self");
        case cGpuTotal:
            return tr("GPU total");
        case cGpuSelf:
            return tr("GPU self");
        case cGpuOps:
            return tr("GPU ops");
        default:
            return {};
    }
}

}  // namespace wl::ui::summary
