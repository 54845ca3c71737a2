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

}  // namespace wl::model
