#include "ui/style/Palette.h"

namespace wl::ui {

QRgb Palette::sliceColor(const model::Trace& trace, const model::Slice& slice) {
    using model::SliceKind;
    switch (slice.kind) {
        case SliceKind::Kernel:
            return kKernel[slice.nameId % kKernel.size()];
        case SliceKind::Memcpy: {
            const model::MemcpyDetail* d = trace.memcpy(slice);
            switch (d ? d->copyKind : model::CopyKind::Unknown) {
                case model::CopyKind::HostToDevice:
                    return kCopyHtoD;
                case model::CopyKind::DeviceToHost:
                    return kCopyDtoH;
                case model::CopyKind::DeviceToDevice:
                    return kCopyDtoD;
                case model::CopyKind::PeerToPeer:
                    return kCopyPtoP;
                default:
                    return kCopyOther;
            }
        }
        case SliceKind::Memset:
            return kMemset;
        case SliceKind::Memory: {
            const model::MemoryDetail* d = trace.memory(slice);
            return d && d->op == model::MemoryOp::Release ? kMemoryRelease : kMemoryAlloc;
        }
        case SliceKind::Sync:
            return kSync;
        case SliceKind::RuntimeApi:
            return kRuntimeApi;
        case SliceKind::DriverApi:
            return kDriverApi;
        case SliceKind::Nvtx: {
            const model::NvtxDetail* d = trace.nvtx(slice);
            if (d && d->colorArgb != 0) {
                return d->colorArgb | 0xff000000u;
            }
            return kNvtx[slice.nameId % kNvtx.size()];
        }
        case SliceKind::UnifiedMemory: {
            // Migrations in their copy direction's colour, faults and the rest in their own.
            const model::UnifiedMemoryDetail* d = trace.unifiedMemory(slice);
            switch (d ? d->kind : model::UnifiedMemoryKind::Unknown) {
                case model::UnifiedMemoryKind::MigrationHtoD:
                    return kCopyHtoD;
                case model::UnifiedMemoryKind::MigrationDtoH:
                    return kCopyDtoH;
                case model::UnifiedMemoryKind::MigrationDtoD:
                    return kCopyDtoD;
                case model::UnifiedMemoryKind::GpuPageFault:
                case model::UnifiedMemoryKind::CpuPageFault:
                    return kPageFault;
                default:
                    return kUnifiedMemoryOther;
            }
        }
        case SliceKind::Overhead:
        case SliceKind::Instant:
        case SliceKind::Other:
        case SliceKind::CpuOp:
            break;
    }
    return kHostOther;
}

QRgb Palette::mergedColor(QRgb base) {
    // 80% of each channel (QColor::darker goes through HSV: too slow for once per drawn block).
    return qRgb(qRed(base) * 4 / 5, qGreen(base) * 4 / 5, qBlue(base) * 4 / 5);
}

QRgb Palette::gapColor(QStringView cause) {
    if (cause == u"after_blocking_call") {
        return kGapAfterBlocking;
    }
    if (cause == u"gpu_wait") {
        return kGapGpuWait;
    }
    return kGapHost;
}

QRgb Palette::textColorOn(QRgb background) {
    // Perceived luminance (ITU-R BT.601 weights) decides between dark and light text.
    const int luma =
        (299 * qRed(background) + 587 * qGreen(background) + 114 * qBlue(background)) / 1000;
    return luma > 150 ? 0xff111111 : 0xffffffff;
}

std::vector<Palette::LegendEntry> Palette::legend() {
    return {
        {QStringLiteral("Kernel"), kKernel[0], false},
        {QStringLiteral("HtoD"), kCopyHtoD, false},
        {QStringLiteral("DtoH"), kCopyDtoH, false},
        {QStringLiteral("DtoD"), kCopyDtoD, false},
        {QStringLiteral("PtoP"), kCopyPtoP, false},
        {QStringLiteral("Memset"), kMemset, false},
        {QStringLiteral("Sync"), kSync, false},
        {QStringLiteral("Page fault"), kPageFault, false},
        {QStringLiteral("CUDA API"), kRuntimeApi, false},
        {QStringLiteral("NVTX"), kNvtx[0], false},
        {QStringLiteral("Idle (after blocking call)"), kGapAfterBlocking, true},
        {QStringLiteral("Idle (host busy)"), kGapHost, true},
        {QStringLiteral("Idle (GPU waiting)"), kGapGpuWait, true},
        // The triangle is drawn on kernels whose grid leaves most of the GPU empty (GPU fill),
        // not on low-occupancy ones: the same words as its tooltip and the diagnostics.
        {QStringLiteral("Low GPU fill"), kLowFillMark, false},
    };
}

}  // namespace wl::ui
