#include "ui/common/UnifiedMemoryText.h"

#include "ui/common/Units.h"

namespace wl::ui {

QString unifiedMemoryProcessor(std::int32_t device) {
    if (device == model::kUnifiedMemoryCpu)
        return QStringLiteral("host");
    if (device < 0)
        return {};
    return QStringLiteral("GPU %1").arg(device);
}

QString unifiedMemoryCauseText(model::UnifiedMemoryCause cause) {
    switch (cause) {
        case model::UnifiedMemoryCause::User:
            return QStringLiteral("requested (cudaMemPrefetchAsync)");
        case model::UnifiedMemoryCause::Coherence:
            return QStringLiteral("page fault");
        case model::UnifiedMemoryCause::Prefetch:
            return QStringLiteral("driver's speculative prefetch");
        case model::UnifiedMemoryCause::Eviction:
            return QStringLiteral("eviction (GPU memory full)");
        case model::UnifiedMemoryCause::AccessCounters:
            return QStringLiteral("GPU access counters");
        case model::UnifiedMemoryCause::Thrashing:
            return QStringLiteral("thrashing");
        case model::UnifiedMemoryCause::Policy:
            return QStringLiteral("cudaMemAdvise policy");
        case model::UnifiedMemoryCause::OutOfMemory:
            return QStringLiteral("out of memory");
        case model::UnifiedMemoryCause::Unknown:
            break;
    }
    return {};
}

std::vector<std::pair<QString, QString>> unifiedMemoryFields(const model::UnifiedMemoryDetail& d,
                                                             model::TimeNs durationNs) {
    std::vector<std::pair<QString, QString>> out;
    out.emplace_back(QStringLiteral("Event"),
                     QString::fromUtf8(model::unifiedMemoryEventName(d.kind)));
    const bool sized =
        !model::isPageFault(d.kind) && d.kind != model::UnifiedMemoryKind::Throttling;
    if (sized) {
        out.emplace_back(
            QStringLiteral("Bytes"),
            QStringLiteral("%1 (%2 B)")
                .arg(units::bytes(d.bytes), units::grouped(static_cast<std::int64_t>(d.bytes))));
        if (model::isMigration(d.kind) && durationNs > 0)
            out.emplace_back(QStringLiteral("Throughput"), units::gbPerSecond(d.bytes, durationNs));
    }
    if (model::isPageFault(d.kind))
        out.emplace_back(QStringLiteral("Page faults"), units::grouped(std::int64_t(d.faultCount)));
    if (const QString from = unifiedMemoryProcessor(d.srcDevice); !from.isEmpty())
        out.emplace_back(d.kind == model::UnifiedMemoryKind::GpuPageFault
                             ? QStringLiteral("Faulted on")
                             : QStringLiteral("From"),
                         from);
    if (const QString to = unifiedMemoryProcessor(d.dstDevice); !to.isEmpty())
        out.emplace_back(QStringLiteral("To"), to);
    if (const QString cause = unifiedMemoryCauseText(d.cause); !cause.isEmpty())
        out.emplace_back(QStringLiteral("Cause"), cause);
    if (d.access != model::UnifiedMemoryAccess::Unknown)
        out.emplace_back(QStringLiteral("Access"), QString::fromUtf8(model::toString(d.access)));
    out.emplace_back(
        model::isPageFault(d.kind) ? QStringLiteral("Page address") : QStringLiteral("Address"),
        QStringLiteral("0x") + QString::number(d.address, 16));
    if (d.pc != 0)
        out.emplace_back(QStringLiteral("Faulting instruction"),
                         QStringLiteral("0x") + QString::number(d.pc, 16));
    return out;
}

}  // namespace wl::ui
