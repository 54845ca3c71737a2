#include "ui/timeline/SliceText.h"

#include <QStringList>

#include "analysis/ApiNames.h"
#include "analysis/KernelNames.h"
#include "ui/common/TrackTitles.h"
#include "ui/common/UnifiedMemoryText.h"
#include "ui/common/Units.h"
#include "ui/timeline/TimeFormat.h"

namespace wl::ui {

namespace {

QString qstr(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString dim3(const std::array<std::int32_t, 3>& v) {
    return QStringLiteral("(%1, %2, %3)").arg(v[0]).arg(v[1]).arg(v[2]);
}

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='color:#56616d'>%1</td><td>%2</td></tr>")
        .arg(key, value.toHtmlEscaped());
}

}  // namespace

QString sliceKindName(const model::Trace& trace, const model::Slice& slice) {
    using model::SliceKind;
    switch (slice.kind) {
        case SliceKind::Kernel:
            return QStringLiteral("Kernel");
        case SliceKind::Memcpy: {
            const model::MemcpyDetail* d = trace.memcpy(slice);
            return QStringLiteral("Memcpy ") +
                   QString::fromUtf8(model::toString(d ? d->copyKind : model::CopyKind::Unknown));
        }
        case SliceKind::Memset:
            return QStringLiteral("Memset");
        case SliceKind::Memory: {
            const model::MemoryDetail* d = trace.memory(slice);
            return d && d->op == model::MemoryOp::Release ? QStringLiteral("Memory release")
                                                          : QStringLiteral("Memory allocation");
        }
        case SliceKind::Sync:
            return QStringLiteral("Synchronization");
        case SliceKind::RuntimeApi:
            return QStringLiteral("CUDA runtime API");
        case SliceKind::DriverApi:
            return QStringLiteral("CUDA driver API");
        case SliceKind::Nvtx:
            return slice.durationNs == 0 ? QStringLiteral("NVTX mark")
                                         : QStringLiteral("NVTX range");
        case SliceKind::Overhead:
            return QStringLiteral("Profiler overhead");
        case SliceKind::Instant:
            return QStringLiteral("Instant");
        case SliceKind::UnifiedMemory: {
            const model::UnifiedMemoryDetail* d = trace.unifiedMemory(slice);
            return QStringLiteral("Unified memory: ") +
                   QString::fromUtf8(model::unifiedMemoryEventName(
                       d ? d->kind : model::UnifiedMemoryKind::Unknown));
        }
        case SliceKind::CpuOp:
            return QStringLiteral("CPU operator");
        case SliceKind::Other:
            break;
    }
    return QStringLiteral("Slice");
}

QString sliceTooltip(const model::Trace& trace, model::SliceRef ref, const KernelBadge* badge) {
    const model::Slice& s = trace.slice(ref);
    const model::Track& track = trace.track(ref.track);
    // Kernels under their full demangled name; the short one the timeline writes, and the library
    // they come from, below it.
    // API calls as the user wrote them ("cudaMemcpyAsync"), CUPTI's versioned name below.
    QString title = qstr(analysis::shownName(trace, s));
    QString rows;
    rows += row(QStringLiteral("Kind"), sliceKindName(trace, s));
    if (analysis::shownName(trace, s) != analysis::versionedName(trace, s)) {
        rows += row(QStringLiteral("CUPTI name"), qstr(analysis::versionedName(trace, s)));
    }
    if (s.kind == model::SliceKind::Kernel) {
        const std::string full = analysis::demangleKernelName(trace.str(s.nameId));
        title = QString::fromStdString(full);
        const QString shortName = QString::fromStdString(analysis::shortKernelName(full));
        if (shortName != title) {
            rows += row(QStringLiteral("Short name"), shortName);
        }
        const std::string_view library = analysis::kernelLibrary(full);
        if (!library.empty()) {
            rows += row(QStringLiteral("Library"), qstr(library));
        }
    }
    rows += row(QStringLiteral("Row"), trackTitle(trace, track));
    rows += row(QStringLiteral("Start"), units::duration(s.startNs));
    rows += row(QStringLiteral("Duration"), units::duration(s.durationNs));

    if (const model::KernelDetail* k = trace.kernel(s)) {
        rows += row(QStringLiteral("Grid"), dim3(k->grid));
        rows += row(QStringLiteral("Block"), dim3(k->block));
        rows += row(QStringLiteral("Registers/thread"), QString::number(k->registersPerThread));
        rows += row(QStringLiteral("Shared memory"),
                    QStringLiteral("%1 static + %2 dynamic")
                        .arg(units::bytes(std::uint64_t(k->staticSharedBytes)),
                             units::bytes(std::uint64_t(k->dynamicSharedBytes))));
    }
    if (const model::MemcpyDetail* m = trace.memcpy(s)) {
        rows += row(QStringLiteral("Bytes"), units::bytes(m->bytes));
        if (s.durationNs > 0) {
            rows += row(QStringLiteral("Throughput"), units::gbPerSecond(m->bytes, s.durationNs));
        }
        rows += row(QStringLiteral("Memory"),
                    QStringLiteral("%1 → %2").arg(QString::fromUtf8(model::toString(m->srcKind)),
                                                  QString::fromUtf8(model::toString(m->dstKind))));
    }
    if (const model::MemsetDetail* m = trace.memset(s)) {
        rows += row(QStringLiteral("Bytes"), units::bytes(m->bytes));
        rows += row(QStringLiteral("Value"), QString::number(m->value));
    }
    if (const model::MemoryDetail* m = trace.memory(s)) {
        rows += row(QStringLiteral("Bytes"), units::bytes(m->bytes));
        rows +=
            row(QStringLiteral("Address"), QStringLiteral("0x") + QString::number(m->address, 16));
    }
    if (const model::SyncDetail* y = trace.sync(s)) {
        rows += row(QStringLiteral("Sync"), QString::fromUtf8(model::toString(y->syncKind)));
        if (y->streamId >= 0) {
            rows += row(QStringLiteral("Stream"), QString::number(y->streamId));
        }
    }
    if (const model::ApiDetail* a = trace.api(s); a && a->returnCode != 0) {
        rows += row(QStringLiteral("Returned"), QStringLiteral("error %1").arg(a->returnCode));
    }
    if (const model::NvtxDetail* n = trace.nvtx(s); n && n->domainId != 0) {
        rows += row(QStringLiteral("Domain"), qstr(trace.str(n->domainId)));
    }
    if (const model::UnifiedMemoryDetail* u = trace.unifiedMemory(s)) {
        for (const auto& [field, value] : unifiedMemoryFields(*u, s.durationNs)) {
            if (field != QLatin1String("Event"))  // the kind says it
                rows += row(field, value);
        }
    }
    // Only a flow into GPU work is a launch; a flow between host slices just links them.
    const auto launch = [&trace](const model::Flow& f) {
        return trace.track(f.to.track).kind == model::TrackKind::GpuStream;
    };
    const auto where = [&trace](model::SliceRef other) {
        return qstr(trace.str(trace.slice(other).nameId)) + QStringLiteral(" on ") +
               trackTitle(trace, trace.track(other.track));
    };
    if (const model::Flow* f = trace.flowTo(ref); f && launch(*f)) {
        const model::Slice& api = trace.slice(f->from);
        rows += row(QStringLiteral("Launched by"), qstr(trace.str(api.nameId)));
        rows += row(QStringLiteral("Launch latency"), units::duration(s.startNs - api.startNs));
    } else if (f) {
        rows += row(QStringLiteral("Flow from"), where(f->from));
    }
    if (const model::Flow* f = trace.flowFrom(ref); f && launch(*f)) {
        rows += row(QStringLiteral("Launches"), where(f->to));
    } else if (f) {
        rows += row(QStringLiteral("Flow to"), where(f->to));
    }
    if (badge) {
        // The one formatter Details uses: the two once read 31.3 % and 31.2 %.
        rows += row(QStringLiteral("Theoretical occupancy"), units::percent(badge->occupancyPct));
        // Each warning names what is low: the triangle is drawn for low fill only.
        if (badge->lowOccupancy) {
            rows += row(QStringLiteral("Warning"), QStringLiteral("low theoretical occupancy"));
        }
        if (badge->lowFill) {
            rows += row(QStringLiteral("Warning"), QStringLiteral("low GPU fill"));
        }
    }
    QString html = QStringLiteral("<b>%1</b><table cellspacing='0' cellpadding='1'>%2</table>")
                       .arg(title.toHtmlEscaped(), rows);
    if (badge && !badge->tooltip.isEmpty()) {
        // One line each, as written: HTML would run the lines together.
        html += QStringLiteral("<p>%1</p>")
                    .arg(badge->tooltip.toHtmlEscaped().replace(QLatin1Char('\n'),
                                                                QStringLiteral("<br>")));
    }
    return html;
}

QString gapTooltip(const GapOverlay& gap, const QString& details) {
    // The duration and the cause's id once; the analysis's explanation below it, line by line.
    QString html = QStringLiteral("<b>Idle gap</b> %1 &middot; %2")
                       .arg(units::duration(gap.durationNs), gap.cause.toHtmlEscaped());
    if (!details.isEmpty()) {
        html += QStringLiteral("<br>") +
                details.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    }
    return html;
}

}  // namespace wl::ui
