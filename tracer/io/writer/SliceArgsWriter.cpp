#include "io/writer/SliceArgsWriter.h"

#include <cmath>
#include <cstdio>

namespace wl::io::writer {

using format::ArgField;
using format::ArgType;
using model::SliceKind;

void SliceArgsWriter::write(const model::Track& t, const model::Slice& s) {
    m_open = false;
    const Details d = detailsOf(s);
    for (const ArgField f : format::writtenArgs(s.kind))
        writeField(f, t, s, d);
    if (m_open)
        m_out.put('}');
}

SliceArgsWriter::Details SliceArgsWriter::detailsOf(const model::Slice& s) const {
    Details d;
    switch (s.kind) {
        case SliceKind::Kernel:
            if ((d.kernel = m_trace.kernel(s)))
                d.graph = &d.kernel->graph;
            break;
        case SliceKind::Memcpy:
            if ((d.memcpy = m_trace.memcpy(s))) {
                d.graph = &d.memcpy->graph;
                d.bytes = d.memcpy->bytes;
                d.hasBytes = true;
            }
            break;
        case SliceKind::Memset:
            if ((d.memset = m_trace.memset(s))) {
                d.graph = &d.memset->graph;
                d.bytes = d.memset->bytes;
                d.hasBytes = true;
            }
            break;
        case SliceKind::Memory:
            if ((d.memory = m_trace.memory(s))) {
                d.bytes = d.memory->bytes;
                d.hasBytes = true;
            }
            break;
        case SliceKind::Sync:
            d.sync = m_trace.sync(s);
            break;
        case SliceKind::RuntimeApi:
        case SliceKind::DriverApi:
            d.api = m_trace.api(s);
            break;
        case SliceKind::Nvtx:
            d.nvtx = m_trace.nvtx(s);
            break;
        case SliceKind::UnifiedMemory:
            if ((d.unifiedMemory = m_trace.unifiedMemory(s))) {
                // What moves or maps a region has a size; a fault or throttling has none.
                d.bytes = d.unifiedMemory->bytes;
                d.hasBytes =
                    d.bytes != 0 || (!model::isPageFault(d.unifiedMemory->kind) &&
                                     d.unifiedMemory->kind != model::UnifiedMemoryKind::Throttling);
            }
            break;
        default:
            break;
    }
    return d;
}

// Each field's value for this slice, and when it has none. Which kinds carry it is the table's
// (format::writtenArgs); a value that depends on the kind says so here.
void SliceArgsWriter::writeField(ArgField f, const model::Track& t, const model::Slice& s,
                                 const Details& d) {
    const auto* k = d.kernel;
    const auto* n = d.nvtx;
    const auto* y = d.sync;
    const auto* u = d.unifiedMemory;
    switch (f) {
        case ArgField::Device:
            putInt(f, t.deviceId);
            break;
        case ArgField::Stream:
            if (s.kind == SliceKind::Memory) {
                if (d.memory && d.memory->streamId >= 0)
                    putInt(f, d.memory->streamId);
            } else if (s.kind == SliceKind::Sync) {
                if (y)
                    putInt(f, y->streamFromRecord ? -1 : y->streamId);
            } else {
                putInt(f, t.streamId);
            }
            break;
        case ArgField::Correlation:
            // GPU work, memory operations, syncs and API calls always say theirs (0: none);
            // annotations and other slices only when they have one.
            if (s.correlationId != 0 || model::isCalledFromHost(s.kind) ||
                s.kind == SliceKind::Sync || s.kind == SliceKind::RuntimeApi ||
                s.kind == SliceKind::DriverApi)
                putUnsigned(f, s.correlationId);
            break;
        case ArgField::Grid:
            if (k)
                putTriple(f, k->grid);
            break;
        case ArgField::Block:
            if (k)
                putTriple(f, k->block);
            break;
        case ArgField::Registers:
            if (k)
                putInt(f, k->registersPerThread);
            break;
        case ArgField::SharedTotal:
            if (k)
                putInt(f, std::int64_t{k->staticSharedBytes} + k->dynamicSharedBytes);
            break;
        case ArgField::SharedStatic:
            if (k)
                putInt(f, k->staticSharedBytes);
            break;
        case ArgField::SharedDynamic:
            if (k)
                putInt(f, k->dynamicSharedBytes);
            break;
        case ArgField::Warps:
            if (k && k->warpsPerSm >= 0.0f && std::isfinite(k->warpsPerSm))
                putFloat(f, k->warpsPerSm);
            break;
        case ArgField::Occupancy:
            if (k && k->estimatedOccupancyPct >= 0.0f && std::isfinite(k->estimatedOccupancyPct))
                putFloat(f, k->estimatedOccupancyPct);
            break;
        case ArgField::GraphId:
        case ArgField::GraphNodeId:
            // The CUDA graph node that ran a GPU op, when it came from a graph.
            if (d.graph && (d.graph->graphId != 0 || d.graph->nodeId != 0))
                putUnsigned(f, f == ArgField::GraphId ? d.graph->graphId : d.graph->nodeId);
            break;
        case ArgField::Bytes:
            if (d.hasBytes)
                putUnsigned(f, d.bytes);
            break;
        case ArgField::Bandwidth:
            if (d.hasBytes && s.durationNs > 0)
                putDouble(f, static_cast<double>(d.bytes) / static_cast<double>(s.durationNs));
            break;
        case ArgField::CopyKind:
            if (d.memcpy)
                putText(f, model::toString(d.memcpy->copyKind));
            break;
        case ArgField::SrcKind:
            if (d.memcpy)
                putText(f, model::toString(d.memcpy->srcKind));
            break;
        case ArgField::DstKind:
            if (d.memcpy)
                putText(f, model::toString(d.memcpy->dstKind));
            break;
        case ArgField::SrcDevice:
            if (d.memcpy && d.memcpy->srcDevice != -1)
                putInt(f, d.memcpy->srcDevice);
            else if (u && u->srcDevice != model::kUnifiedMemoryNone)
                putInt(f, u->srcDevice);  // -1: the host
            break;
        case ArgField::DstDevice:
            if (d.memcpy && d.memcpy->dstDevice != -1)
                putInt(f, d.memcpy->dstDevice);
            else if (u && u->dstDevice != model::kUnifiedMemoryNone)
                putInt(f, u->dstDevice);
            break;
        case ArgField::Value:
            if (d.memset)
                putUnsigned(f, d.memset->value);
            break;
        case ArgField::MemoryKind:
            if (d.memset)
                putText(f, model::toString(d.memset->memoryKind));
            else if (d.memory)
                putText(f, model::toString(d.memory->memoryKind));
            break;
        case ArgField::MemoryOp:
            if (d.memory)
                putText(f, model::toString(d.memory->op));
            break;
        case ArgField::Address:
            if (d.memory)
                putUnsigned(f, d.memory->address);
            else if (u)
                putUnsigned(f, u->address);
            break;
        case ArgField::UmKind:
            if (u)
                putText(f, model::toString(u->kind));
            break;
        case ArgField::UmCause:
            if (u && u->cause != model::UnifiedMemoryCause::Unknown)
                putText(f, model::toString(u->cause));
            break;
        case ArgField::UmAccess:
            if (u && u->access != model::UnifiedMemoryAccess::Unknown)
                putText(f, model::toString(u->access));
            break;
        case ArgField::FaultCount:
            if (u && (model::isPageFault(u->kind) || u->faultCount != 0))
                putUnsigned(f, u->faultCount);
            break;
        case ArgField::FaultPc:
            if (u && u->pc != 0)
                putUnsigned(f, u->pc);
            break;
        case ArgField::PoolAddress:
            if (d.memory && d.memory->fromPool)
                putUnsigned(f, d.memory->poolAddress);
            break;
        case ArgField::PoolReserve:
            if (d.memory && d.memory->fromPool)
                putUnsigned(f, d.memory->poolReservedBytes);
            break;
        case ArgField::SyncKind:
            if (y)
                putText(f, model::toString(y->syncKind));
            break;
        case ArgField::EventId:
            if (y)
                putUnsigned(f, y->eventId);
            break;
        case ArgField::WaitOnStream:
            if (y)
                putInt(f, y->recordStreamId);
            break;
        case ArgField::WaitOnRecord:
            if (y) {
                if (y->recordCorrelationId == 0)
                    putInt(f, -1);  // Kineto's "none"
                else
                    putUnsigned(f, y->recordCorrelationId);
            }
            break;
        case ArgField::Cbid:
            if (d.api)
                putUnsigned(f, d.api->callbackId);
            break;
        case ArgField::ReturnCode:
            if (d.api && d.api->returnCode != 0)
                putInt(f, d.api->returnCode);
            break;
        case ArgField::Color:
            if (n && n->colorArgb != 0)
                putColor(f, n->colorArgb);
            break;
        case ArgField::Domain:
            if (n && n->domainId != 0)
                putName(f, n->domainId);
            break;
        case ArgField::Category:
            if (n && n->category != 0)
                putInt(f, n->category);
            break;
        case ArgField::CategoryName:
            if (n && n->category != 0 && n->categoryNameId != 0)
                putName(f, n->categoryNameId);
            break;
        case ArgField::Payload:
            if (n && n->hasPayload)
                putDouble(f, n->payload);
            break;
        case ArgField::SortIndex:
        case ArgField::Name:
        case ArgField::DeviceType:
        case ArgField::DeviceId:
        case ArgField::TotalAllocated:
        case ArgField::TotalReserved:
        case ArgField::Count:
            break;  // read only: no kind's layout has them
    }
}

void SliceArgsWriter::key(ArgField f) {
    m_out.put(m_open ? ",\"" : ",\"args\":{\"");
    m_open = true;
    m_out.put(format::argKey(f).key);
    m_out.put("\":");
}

void SliceArgsWriter::putInt(ArgField f, std::int64_t v) {
    key(f);
    m_out.putInt(v);
}

void SliceArgsWriter::putUnsigned(ArgField f, std::uint64_t v) {
    key(f);
    if (format::argKey(f).type == ArgType::Hex) {
        // Addresses as people read them ("0x7f3a00000000"); readers take hex strings as integers.
        char text[24];
        const int n =
            std::snprintf(text, sizeof text, "\"0x%llx\"", static_cast<unsigned long long>(v));
        m_out.put(std::string_view(text, static_cast<std::size_t>(n)));
    } else {
        m_out.putInt(v);
    }
}

// An enum's name: plain text, no escapes needed.
void SliceArgsWriter::putText(ArgField f, std::string_view v) {
    key(f);
    m_out.put('"');
    m_out.put(v);
    m_out.put('"');
}

void SliceArgsWriter::putName(ArgField f, model::StringId id) {
    key(f);
    m_out.put(m_names(id));
}

void SliceArgsWriter::putTriple(ArgField f, const std::array<std::int32_t, 3>& v) {
    key(f);
    m_out.put('[');
    m_out.putInt(v[0]);
    m_out.put(',');
    m_out.putInt(v[1]);
    m_out.put(',');
    m_out.putInt(v[2]);
    m_out.put(']');
}

void SliceArgsWriter::putFloat(ArgField f, float v) {
    key(f);
    m_out.putFloat(v);
}

void SliceArgsWriter::putDouble(ArgField f, double v) {
    key(f);
    m_out.putDouble(v);
}

void SliceArgsWriter::putColor(ArgField f, std::uint32_t argb) {
    static constexpr char kHex[] = "0123456789abcdef";
    char color[11] = {'"', '#'};
    for (int i = 0; i < 8; ++i)
        color[2 + i] = kHex[(argb >> (28 - 4 * i)) & 15u];
    color[10] = '"';
    key(f);
    m_out.put(std::string_view(color, 11));
}

}  // namespace wl::io::writer
