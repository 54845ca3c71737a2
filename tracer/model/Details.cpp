#include "model/Details.h"

#include <string_view>

namespace wl::model {

const char* toString(CopyKind kind) {
    switch (kind) {
        case CopyKind::HostToDevice:
            return "HtoD";
        case CopyKind::DeviceToHost:
            return "DtoH";
        case CopyKind::DeviceToDevice:
            return "DtoD";
        case CopyKind::HostToHost:
            return "HtoH";
        case CopyKind::PeerToPeer:
            return "PtoP";
        case CopyKind::Unknown:
            break;
    }
    return "Unknown";
}

const char* toString(MemoryKind kind) {
    switch (kind) {
        case MemoryKind::Pageable:
            return "Pageable";
        case MemoryKind::Pinned:
            return "Pinned";
        case MemoryKind::Device:
            return "Device";
        case MemoryKind::Managed:
            return "Managed";
        case MemoryKind::Array:
            return "Array";
        case MemoryKind::Unknown:
            break;
    }
    return "Unknown";
}

const char* toString(SyncKind kind) {
    switch (kind) {
        case SyncKind::EventSynchronize:
            return "Event Sync";
        case SyncKind::StreamWaitEvent:
            return "Stream Wait Event";
        case SyncKind::StreamSynchronize:
            return "Stream Sync";
        case SyncKind::ContextSynchronize:
            return "Context Sync";
        case SyncKind::Unknown:
            break;
    }
    return "Unknown";
}

const char* toString(MemoryOp op) {
    return op == MemoryOp::Release ? "release" : "allocation";
}

std::optional<MemoryOp> memoryOpFromString(std::string_view text) {
    for (auto op : {MemoryOp::Allocation, MemoryOp::Release}) {
        if (text == toString(op))
            return op;
    }
    return std::nullopt;
}

CopyKind copyKindFromString(std::string_view text) {
    for (auto k : {CopyKind::HostToDevice, CopyKind::DeviceToHost, CopyKind::DeviceToDevice,
                   CopyKind::HostToHost, CopyKind::PeerToPeer}) {
        if (text == toString(k))
            return k;
    }
    return CopyKind::Unknown;
}

MemoryKind memoryKindFromString(std::string_view text) {
    for (auto k : {MemoryKind::Pageable, MemoryKind::Pinned, MemoryKind::Device,
                   MemoryKind::Managed, MemoryKind::Array}) {
        if (text == toString(k))
            return k;
    }
    return MemoryKind::Unknown;
}

SyncKind syncKindFromString(std::string_view text) {
    for (auto k : {SyncKind::EventSynchronize, SyncKind::StreamWaitEvent,
                   SyncKind::StreamSynchronize, SyncKind::ContextSynchronize}) {
        if (text == toString(k))
            return k;
    }
    return SyncKind::Unknown;
}

const char* toString(UnifiedMemoryKind kind) {
    switch (kind) {
        case UnifiedMemoryKind::MigrationHtoD:
            return "migration HtoD";
        case UnifiedMemoryKind::MigrationDtoH:
            return "migration DtoH";
        case UnifiedMemoryKind::MigrationDtoD:
            return "migration DtoD";
        case UnifiedMemoryKind::CpuPageFault:
            return "cpu page fault";
        case UnifiedMemoryKind::GpuPageFault:
            return "gpu page fault";
        case UnifiedMemoryKind::Thrashing:
            return "thrashing";
        case UnifiedMemoryKind::Throttling:
            return "throttling";
        case UnifiedMemoryKind::RemoteMap:
            return "remote map";
        case UnifiedMemoryKind::Unknown:
            break;
    }
    return "unknown";
}

const char* toString(UnifiedMemoryCause cause) {
    switch (cause) {
        case UnifiedMemoryCause::User:
            return "user";
        case UnifiedMemoryCause::Coherence:
            return "coherence";
        case UnifiedMemoryCause::Prefetch:
            return "prefetch";
        case UnifiedMemoryCause::Eviction:
            return "eviction";
        case UnifiedMemoryCause::AccessCounters:
            return "access counters";
        case UnifiedMemoryCause::Thrashing:
            return "thrashing";
        case UnifiedMemoryCause::Policy:
            return "policy";
        case UnifiedMemoryCause::OutOfMemory:
            return "out of memory";
        case UnifiedMemoryCause::Unknown:
            break;
    }
    return "unknown";
}

const char* toString(UnifiedMemoryAccess access) {
    switch (access) {
        case UnifiedMemoryAccess::Read:
            return "read";
        case UnifiedMemoryAccess::Write:
            return "write";
        case UnifiedMemoryAccess::Atomic:
            return "atomic";
        case UnifiedMemoryAccess::Prefetch:
            return "prefetch";
        case UnifiedMemoryAccess::Unknown:
            break;
    }
    return "unknown";
}

const char* unifiedMemoryEventName(UnifiedMemoryKind kind) {
    switch (kind) {
        case UnifiedMemoryKind::MigrationHtoD:
            return "Migration HtoD";
        case UnifiedMemoryKind::MigrationDtoH:
            return "Migration DtoH";
        case UnifiedMemoryKind::MigrationDtoD:
            return "Migration DtoD";
        case UnifiedMemoryKind::CpuPageFault:
            return "CPU page fault";
        case UnifiedMemoryKind::GpuPageFault:
            return "GPU page fault";
        case UnifiedMemoryKind::Thrashing:
            return "Thrashing";
        case UnifiedMemoryKind::Throttling:
            return "Throttling";
        case UnifiedMemoryKind::RemoteMap:
            return "Remote map";
        case UnifiedMemoryKind::Unknown:
            break;
    }
    return "Unified memory";
}

const char* unifiedMemoryTrackName(UnifiedMemoryKind kind) {
    switch (kind) {
        case UnifiedMemoryKind::MigrationHtoD:
            return "Unified memory HtoD";
        case UnifiedMemoryKind::MigrationDtoH:
            return "Unified memory DtoH";
        case UnifiedMemoryKind::MigrationDtoD:
            return "Unified memory DtoD";
        case UnifiedMemoryKind::CpuPageFault:
            return "CPU page faults";
        case UnifiedMemoryKind::GpuPageFault:
            return "GPU page faults";
        case UnifiedMemoryKind::Thrashing:
            return "Unified memory thrashing";
        case UnifiedMemoryKind::Throttling:
            return "Unified memory throttling";
        case UnifiedMemoryKind::RemoteMap:
            return "Unified memory remote maps";
        case UnifiedMemoryKind::Unknown:
            break;
    }
    return "Unified memory";
}

namespace {

// The value of an enum whose toString gives `text`, searched from its first value after Unknown
// to `last`; Unknown otherwise.
template <class Enum>
Enum enumFromString(std::string_view text, Enum last) {
    for (auto v = static_cast<unsigned>(Enum::Unknown) + 1; v <= static_cast<unsigned>(last); ++v) {
        if (text == toString(static_cast<Enum>(v)))
            return static_cast<Enum>(v);
    }
    return Enum::Unknown;
}

}  // namespace

UnifiedMemoryKind unifiedMemoryKindFromString(std::string_view text) {
    return enumFromString(text, UnifiedMemoryKind::RemoteMap);
}

UnifiedMemoryCause unifiedMemoryCauseFromString(std::string_view text) {
    return enumFromString(text, UnifiedMemoryCause::OutOfMemory);
}

UnifiedMemoryAccess unifiedMemoryAccessFromString(std::string_view text) {
    return enumFromString(text, UnifiedMemoryAccess::Prefetch);
}

}  // namespace wl::model
