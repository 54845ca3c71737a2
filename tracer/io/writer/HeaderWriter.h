#pragma once

#include <string>

#include "io/writer/RowLayout.h"
#include "model/Trace.h"

namespace wl::io {
class JsonWriter;
}

namespace wl::io::writer {

// Everything of a Chrome trace file before its events: Kineto's shape (schemaVersion,
// baseTimeNanoseconds, deviceProperties, distributedInfo, which HTA and Perfetto read), our
// metadata, and the "warpline" block that makes export -> import -> export exact.
class HeaderWriter {
public:
    // `producerRows`: the trace's events go back on the rows of the producer's file they came
    // from, shifted by `shiftNs` to its clock.
    HeaderWriter(const model::Trace& trace, const Layout& layout, bool producerRows,
                 model::TimeNs shiftNs)
        : m_trace(trace), m_layout(layout), m_producerRows(producerRows), m_shiftNs(shiftNs) {}

    // From the file's '{' to the comma before "traceEvents".
    void write(std::string& b) const;

private:
    void writeDistributedInfo(std::string& b) const;
    void writeDevices(std::string& b) const;
    void writeOwnRows(JsonWriter& w) const;
    void writeWarplineBlock(std::string& b) const;

    const model::Trace& m_trace;
    const Layout& m_layout;
    bool m_producerRows;
    model::TimeNs m_shiftNs;
};

}  // namespace wl::io::writer
