#include "ui/analysis/StatisticsModel.h"

#include <cmath>

#include "analysis/Format.h"
#include "analysis/KernelNames.h"

namespace wl::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

enum CopyColumn { cKind, cCount, cBytes, cTime, cRate, cPageable, kCopyColumns };

}  // namespace

StatisticsModel::StatisticsModel(Table table, QObject* parent)
    : QAbstractTableModel(parent), m_table(table) {}

void StatisticsModel::setStatistics(const analysis::Statistics& statistics) {
    beginResetModel();
    m_stats = statistics;
    m_demangled.clear();
    m_demangled.reserve(m_stats.kernels.size());
    for (const analysis::KernelStats& k : m_stats.kernels) {
        m_demangled.push_back(qs(analysis::demangleKernelName(k.name)));
    }
    endResetModel();
}

void StatisticsModel::setFullKernelNames(bool full) {
    if (full == m_fullNames) {
        return;
    }
    m_fullNames = full;
    if (m_table == Table::Kernels && rowCount() > 0) {
        emit dataChanged(index(0, kName), index(rowCount() - 1, kName));
    }
}

const analysis::KernelStats* StatisticsModel::kernelAt(int row) const {
    if (m_table != Table::Kernels || row < 0 || row >= rowCount()) {
        return nullptr;
    }
    return &m_stats.kernels[static_cast<std::size_t>(row)];
}

void StatisticsModel::clear() {
    setStatistics({});
}

int StatisticsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return static_cast<int>(m_table == Table::Kernels ? m_stats.kernels.size()
                                                      : m_stats.copies.size());
}

int StatisticsModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return m_table == Table::Kernels ? static_cast<int>(kKernelColumns)
                                     : static_cast<int>(kCopyColumns);
}

QVariant StatisticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) {
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        const int nameColumn = m_table == Table::Kernels ? int(kName) : int(cKind);
        return index.column() == nameColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != kSortRole && role != Qt::ToolTipRole) {
        return {};
    }
    return m_table == Table::Kernels ? kernelData(index.row(), index.column(), role)
                                     : copyData(index.row(), index.column(), role);
}

namespace {

QString durationText(double ns) {
    return QString::fromStdString(
        analysis::formatDuration(static_cast<model::TimeNs>(std::llround(ns))));
}

// "128×1×1"; trailing ones left out but the first ("128", "64×8").
QString dims(const std::array<std::int32_t, 3>& d) {
    QString out = QString::number(d[0]);
    const int last = d[2] != 1 ? 2 : (d[1] != 1 ? 1 : 0);
    for (int i = 1; i <= last; ++i) {
        out += QStringLiteral("×%1").arg(d[std::size_t(i)]);
    }
    return out;
}

}  // namespace

QVariant StatisticsModel::kernelData(int row, int column, int role) const {
    const analysis::KernelStats& k = m_stats.kernels[static_cast<std::size_t>(row)];
    const bool raw = role == kSortRole;
    if (role == Qt::ToolTipRole) {
        // The whole name wherever the pointer is: cells elide it, numbers need no tooltip.
        return m_demangled[static_cast<std::size_t>(row)];
    }
    if (role == kSortRole && (column == kGrid || column == kBlock)) {
        const auto& d = column == kGrid ? k.grid : k.block;
        return QVariant::fromValue<qlonglong>(qlonglong(d[0]) * d[1] * d[2]);
    }
    switch (column) {
        case kName:
            return m_fullNames ? m_demangled[static_cast<std::size_t>(row)] : qs(k.shortName);
        case kCount:
            return raw ? QVariant::fromValue<qulonglong>(k.count)
                       : QVariant(QString::number(k.count));
        case kTotal:
            return raw ? QVariant::fromValue<qlonglong>(k.totalNs)
                       : QVariant(qs(analysis::formatDuration(k.totalNs)));
        case kMean:
            return raw ? QVariant(k.meanNs)
                       : QVariant(
                             qs(analysis::formatDuration(static_cast<model::TimeNs>(k.meanNs))));
        case kMedian:
            return raw ? QVariant(k.medianNs) : QVariant(durationText(k.medianNs));
        case kP95:
            return raw ? QVariant(k.p95Ns) : QVariant(durationText(k.p95Ns));
        case kStdDev:
            return raw ? QVariant(k.stdDevNs) : QVariant(durationText(k.stdDevNs));
        case kGrid:
            return dims(k.grid);
        case kBlock:
            return dims(k.block);
        case kRegisters:
            return raw ? QVariant(k.registersPerThread)
                       : QVariant(k.registersPerThread > 0 ? QString::number(k.registersPerThread)
                                                           : QString());
        case kOccupancy:
            return raw ? QVariant(k.theoreticalOccupancyPct)
                       : QVariant(k.theoreticalOccupancyPct >= 0.0
                                      ? qs(analysis::formatPercent(k.theoreticalOccupancyPct))
                                      : QString());
        case kTensorCores:
            return raw ? QVariant(int(k.tensorCores))
                       : QVariant(k.tensorCores ? tr("yes") : QString());
        case kMin:
            return raw ? QVariant::fromValue<qlonglong>(k.minNs)
                       : QVariant(qs(analysis::formatDuration(k.minNs)));
        case kMax:
            return raw ? QVariant::fromValue<qlonglong>(k.maxNs)
                       : QVariant(qs(analysis::formatDuration(k.maxNs)));
        case kPct:
            return raw ? QVariant(k.pctOfGpuTime)
                       : QVariant(qs(analysis::formatPercent(k.pctOfGpuTime)));
        default:
            return {};
    }
}

QVariant StatisticsModel::copyData(int row, int column, int role) const {
    const analysis::CopyStats& c = m_stats.copies[static_cast<std::size_t>(row)];
    const bool raw = role == kSortRole;
    switch (column) {
        case cKind:
            return QString::fromLatin1(model::toString(c.kind));
        case cCount:
            return raw ? QVariant::fromValue<qulonglong>(c.count)
                       : QVariant(QString::number(c.count));
        case cBytes:
            return raw ? QVariant::fromValue<qulonglong>(c.bytes)
                       : QVariant(qs(analysis::formatBytes(c.bytes)));
        case cTime:
            return raw ? QVariant::fromValue<qlonglong>(c.totalNs)
                       : QVariant(qs(analysis::formatDuration(c.totalNs)));
        case cRate:
            return raw ? QVariant(c.gbPerSecond())
                       : QVariant(qs(analysis::formatRate(c.gbPerSecond())));
        case cPageable:
            return raw ? QVariant::fromValue<qulonglong>(c.pageableCount)
                       : QVariant(QString::number(c.pageableCount));
        default:
            return {};
    }
}

QVariant StatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && m_table == Table::Kernels) {
        switch (section) {
            case kMedian:
            case kP95:
            case kStdDev:
                return tr(
                    "Over the launches' durations: the median, the 95th percentile "
                    "(interpolated) and the standard deviation (of the population)");
            case kGrid:
            case kBlock:
            case kRegisters:
                return tr("The launch configuration used most often");
            case kOccupancy:
                return tr(
                    "Theoretical occupancy of that configuration on its GPU: the share of "
                    "the SM's warp slots its blocks can fill");
            case kTensorCores:
                return tr(
                    "Judged from the kernel's name (tensorop, wmma, hmma, xmma, gmma, ...), "
                    "as the PyTorch profiler did: a guess, not a measurement");
            default:
                break;
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (m_table == Table::Kernels) {
        static const char* kHeaders[] = {"Count",      "Total",        "Mean",  "Median",
                                         "p95",        "Std dev",      "Min",   "Max",
                                         "% GPU time", "Grid",         "Block", "Registers",
                                         "Occupancy",  "Tensor cores", "Kernel"};
        return section >= 0 && section < kKernelColumns ? tr(kHeaders[section]) : QVariant();
    }
    static const char* kHeaders[] = {"Copy", "Count", "Bytes", "Time", "GB/s", "Pageable"};
    return section >= 0 && section < kCopyColumns ? tr(kHeaders[section]) : QVariant();
}

}  // namespace wl::ui
