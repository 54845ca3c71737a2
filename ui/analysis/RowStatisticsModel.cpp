#include "ui/analysis/RowStatisticsModel.h"

#include "analysis/Format.h"
#include "ui/common/TrackTitles.h"

namespace wl::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// "1 copy", "3 copies".
QString countOf(std::uint64_t n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

double sharePct(model::TimeNs part, model::TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

RowStatisticsModel::RowStatisticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RowStatisticsModel::setSummary(model::TracePtr trace, const analysis::RowSummary& summary,
                                    std::size_t gpus) {
    beginResetModel();
    m_trace = std::move(trace);
    m_gpus = gpus;
    m_summary = m_trace ? summary : analysis::RowSummary{};
    m_titles.clear();
    for (const analysis::RowStats& r : m_summary.rows) {
        const model::Track& track = m_trace->track(r.track);
        const model::Process& process = m_trace->processes()[track.process];
        // Under its process, as the timeline groups it, a GPU by its ordinal ("GPU 0 · Stream
        // 7"; "GPU 0 (pid 42)" where several processes' GPUs are merged): the device's full
        // name would push the stream out of a narrow column.
        QString owner = qs(std::string(m_trace->str(process.nameId)));
        if (process.deviceId >= 0) {
            owner =
                process.ownerPid >= 0
                    ? QStringLiteral("GPU %1 (pid %2)").arg(process.deviceId).arg(process.ownerPid)
                    : QStringLiteral("GPU %1").arg(process.deviceId);
        }
        m_titles.push_back(QStringLiteral("%1 · %2").arg(owner, trackTitle(*m_trace, track)));
    }
    endResetModel();
}

void RowStatisticsModel::clear() {
    setSummary(nullptr, {});
}

QString RowStatisticsModel::totalsText() const {
    const analysis::RowSummary& s = m_summary;
    QStringList lines;
    const analysis::RowStats& g = s.gpuTotal;
    if (g.ops > 0) {
        // On several GPUs the total is the time any of them was busy (the union of their
        // rows), not the mean over them: say so.
        QString line = (m_gpus > 1 ? tr("%n GPUs: any GPU busy %1 (%2 of %3), %4: %5, %6", nullptr,
                                        static_cast<int>(m_gpus))
                                   : tr("GPU: busy %1 (%2 of %3), %4: %5, %6"))
                           .arg(qs(analysis::formatDuration(g.busyNs)))
                           .arg(qs(analysis::formatPercent(sharePct(g.busyNs, s.windowNs))))
                           .arg(qs(analysis::formatDuration(s.windowNs)))
                           .arg(countOf(g.ops, "op", "ops"))
                           .arg(countOf(g.kernels, "kernel", "kernels"))
                           .arg(countOf(g.copies, "copy", "copies"));
        if (g.copyBytes > 0) {
            line += tr(", %1 copied at %2")
                        .arg(qs(analysis::formatBytes(g.copyBytes)))
                        .arg(qs(analysis::formatRate(g.copyGbPerSecond())));
        }
        lines << line;
    }
    const analysis::RowStats& h = s.hostTotal;
    if (h.ops > 0) {
        lines << tr("Host: in CUDA calls %1 (%2 of the window), %3")
                     .arg(qs(analysis::formatDuration(h.busyNs)))
                     .arg(qs(analysis::formatPercent(sharePct(h.busyNs, s.windowNs))))
                     .arg(countOf(h.ops, "call", "calls"));
    }
    return lines.join(QLatin1Char('\n'));
}

int RowStatisticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_summary.rows.size());
}

int RowStatisticsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(kColumns);
}

QVariant RowStatisticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= kColumns)
        return {};
    if (role == Qt::TextAlignmentRole) {
        return index.column() == kRow ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    const bool raw = role == kSortRole;
    if (role != Qt::DisplayRole && !raw)
        return {};
    const analysis::RowStats& r = m_summary.rows[static_cast<std::size_t>(index.row())];
    const bool gpu = m_trace->track(r.track).kind == model::TrackKind::GpuStream;
    const auto count = [raw](std::uint64_t n) {
        return raw ? QVariant::fromValue<qulonglong>(n) : QVariant(QString::number(n));
    };
    switch (index.column()) {
        case kRow:
            return m_titles[static_cast<std::size_t>(index.row())];
        case kOps:
            return count(r.ops);
        case kKernels:
            return gpu || raw ? count(r.kernels) : QVariant(QString());
        case kCopies:
            return gpu || raw ? count(r.copies) : QVariant(QString());
        case kBusy:
            return cells::duration(r.busyNs, raw);
        case kBusyPct: {
            const double pct = sharePct(r.busyNs, m_summary.windowNs);
            return raw ? QVariant(pct) : QVariant(qs(analysis::formatPercent(pct)));
        }
        case kBytes:
            if (raw)
                return QVariant::fromValue<qulonglong>(r.copyBytes);
            return r.copyBytes > 0 ? qs(analysis::formatBytes(r.copyBytes)) : QString();
        case kRate:
            if (raw)
                return r.copyGbPerSecond();
            return r.copyNs > 0 ? qs(analysis::formatRate(r.copyGbPerSecond())) : QString();
        default:
            return {};
    }
}

QVariant RowStatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* kHeaders[] = {"Row",  "Ops",         "Kernels",    "Copies",
                                     "Busy", "% of window", "Copy bytes", "Copy GB/s"};
    return section >= 0 && section < kColumns ? tr(kHeaders[section]) : QVariant();
}

}  // namespace wl::ui
