#pragma once

// Nsight Systems: its SQLite exports (`nsys export --type sqlite`, export schema 2.x of nsys
// 2022.x through 3.x of 2026.1) read table by table into the neutral GPU activities of
// model/GpuActivity.h, and its reports (.nsys-rep, .qdrep) exported to SQLite by the `nsys` found
// on PATH (or named by WARPLINE_NSYS) into a cache folder first (NsysExport.h).

#include "io/TraceReader.h"

namespace wl::io {

class NsysSqliteReader final : public FileTraceReader {
public:
    std::string_view formatName() const override { return "Nsight Systems SQLite export"; }
    bool recognizes(std::string_view head) const override;
    model::Result<model::TracePtr> readFile(const std::string& path,
                                            const ReadControl& control) const override;
};

class NsysReportReader final : public FileTraceReader {
public:
    std::string_view formatName() const override { return "Nsight Systems report (.nsys-rep)"; }
    bool recognizes(std::string_view head) const override;
    model::Result<model::TracePtr> readFile(const std::string& path,
                                            const ReadControl& control) const override;
};

// Reads an Nsight Systems SQLite export (what NsysSqliteReader::readFile does).
model::Result<model::TracePtr> readNsysSqlite(const std::string& path, const ReadControl& control);

}  // namespace wl::io
