// Our own "warpline" block (processes, tracks, devices, diagnostics, metadata) and other
// producers' top-level facts: what makes export -> import -> export exact.
#include "io/chrome/Importer.h"

namespace wl::io::chrome {

void Importer::keepScalar(const std::string& key, od::value& value) {
    switch (typeOf(value)) {
        case od::json_type::string:
            m_foreignMetadata[key] = std::string(getString(value, key));
            break;
        case od::json_type::number:
            m_foreignMetadata[key] = std::string(numberText(value, key));
            break;
        case od::json_type::boolean:
            m_foreignMetadata[key] = value.get_bool().value() ? "true" : "false";
            break;
        default:
            skipValue(value, 1);
            break;
    }
}

void Importer::parseMetadataObject(od::value& v) {
    if (typeOf(v) != od::json_type::object)
        fail("\"warplineMetadata\" must be an object", locate(v));
    m_ourMetadata = true;
    od::object obj = v.get_object();
    for (auto field : obj) {
        const std::string_view key = keyText(field);
        od::value value = field.value();
        m_builder.setMetadata(std::string(key), std::string(getString(value, "metadata value")));
    }
}

void Importer::parseWarplineBlock(od::value& v) {
    if (typeOf(v) != od::json_type::object)
        fail("\"warpline\" must be an object", locate(v));
    if (m_eventsSeen) {  // too late to place events on its tracks: read the file as any other
        skipValue(v, 1);
        return;
    }
    m_warpline = true;
    od::object obj = v.get_object();
    auto forEachObject = [&](od::value& arrValue, std::string_view what, auto&& handle) {
        if (typeOf(arrValue) != od::json_type::array)
            fail(std::string(what) + " must be an array", locate(arrValue));
        od::array arr = arrValue.get_array();
        for (auto element : arr) {
            od::value item = element.value();
            if (typeOf(item) != od::json_type::object)
                fail(std::string(what) + " entries must be objects", locate(item));
            od::object o = item.get_object();
            handle(o);
        }
    };
    for (auto field : obj) {
        const std::string_view key = keyText(field);
        od::value value = field.value();
        if (key == format::kWarplineRows) {
            // An imported trace written on its producer's rows: read as that producer's file.
            if (getString(value, key) == format::kWarplineProducerRows) {
                m_warpline = false;
                m_producerRowsBlock = true;
            }
        } else if (key == "processes") {
            forEachObject(value, "warpline.processes", [&](od::object& o) {
                const char* at = nullptr;
                std::int64_t pid = 0, processId = 0, device = -1, owner = -1;
                std::int32_t rank = -1;
                std::string name;
                for (auto f : o) {
                    const std::string_view k = keyText(f);
                    od::value fv = f.value();
                    if (k == "pid") {
                        at = locate(fv);
                        pid = getInt<std::int64_t>(fv, k);
                    } else if (k == "processId")
                        processId = getInt<std::int64_t>(fv, k);
                    else if (k == "device")
                        device = getInt<std::int32_t>(fv, k);
                    else if (k == "name")
                        name = std::string(getString(fv, k));
                    else if (k == "owner")
                        owner = getInt<std::int64_t>(fv, k);
                    else if (k == "rank")
                        rank = getInt<std::int32_t>(fv, k);
                    else
                        skipValue(fv, 3);
                }
                // Keyed by (device, owner): a merged trace's GPU processes of one ordinal in
                // different traced processes stay apart (the pids tell them apart in the file).
                const ProcessIndex p =
                    device >= 0
                        ? m_builder.gpuProcess(static_cast<std::int32_t>(device), name, owner, rank)
                        : m_builder.hostProcess(processId, name, rank);
                // One process per pid: a second would leave the tracks' owner ambiguous.
                if (!m_pidProcesses.emplace(pid, p).second)
                    fail("warpline.processes lists pid " + std::to_string(pid) + " twice", at);
                if (device >= 0)
                    m_pidDevices[pid] = static_cast<std::int32_t>(device);
            });
        } else if (key == "tracks") {
            forEachObject(value, "warpline.tracks", [&](od::object& o) {
                const char* at = nullptr;
                std::int64_t pid = 0, thread = -1, stream = -1;
                std::int32_t sortIndex = 0;
                std::vector<std::int64_t> tids;
                std::string_view kind, domain, name, unifiedMemory;
                for (auto f : o) {
                    const std::string_view k = keyText(f);
                    od::value fv = f.value();
                    if (!at)
                        at = locate(fv);
                    if (k == "pid") {
                        pid = getInt<std::int64_t>(fv, k);
                    } else if (k == "tids") {
                        if (typeOf(fv) != od::json_type::array)
                            fail("tids must be an array", locate(fv));
                        od::array ta = fv.get_array();
                        for (auto t : ta) {
                            od::value tv = t.value();
                            tids.push_back(getInt<std::int64_t>(tv, "tid"));
                        }
                    } else if (k == "kind") {
                        kind = getString(fv, k);
                    } else if (k == "thread") {
                        thread = getInt<std::int64_t>(fv, k);
                    } else if (k == "stream") {
                        stream = getInt<std::int64_t>(fv, k);
                    } else if (k == "domain") {
                        domain = getString(fv, k);
                    } else if (k == "name") {
                        name = getString(fv, k);
                    } else if (k == "sortIndex") {
                        sortIndex = getInt<std::int32_t>(fv, k);
                    } else if (k == "unifiedMemory") {
                        unifiedMemory = getString(fv, k);
                    } else {
                        skipValue(fv, 3);
                    }
                }
                auto pit = m_pidProcesses.find(pid);
                if (pit == m_pidProcesses.end())
                    fail("warpline track of an unknown pid", at);
                const ProcessIndex p = pit->second;
                const bool gpu = m_pidDevices.count(pid) > 0;
                TrackIndex track = 0;
                if (kind == "api") {
                    track = m_builder.hostApiTrack(p, thread);
                } else if (kind == "nvtx") {
                    track = m_builder.nvtxTrack(p, thread, domain);
                } else if (kind == "nvtx_async") {
                    track = m_builder.nvtxAsyncTrack(p, domain);
                } else if (kind == "stream" && gpu) {
                    track = m_builder.gpuStreamTrack(p, stream);
                } else if (kind == "sync" && gpu) {
                    track = m_builder.syncTrack(p);
                } else if (kind == "memory" && gpu) {
                    track = m_builder.memoryTrack(p);
                } else if (kind == "host") {
                    track = m_builder.hostTrack(p, thread);
                } else if (kind == "unified_memory") {
                    track = m_builder.unifiedMemoryTrack(
                        p, model::unifiedMemoryKindFromString(unifiedMemory));
                } else {
                    fail("unknown warpline track kind", at);
                }
                m_builder.setTrackName(track, name);
                m_builder.setTrackSortIndex(track, sortIndex);
                for (auto tid : tids) {
                    auto [row, first] = m_tidTracks.try_emplace({pid, tid}, track);
                    if (!first) {
                        // A row of several tracks (a thread's CUDA calls and NVTX ranges):
                        // each event goes to the track of its kind (trackFor).
                        auto& shared = m_sharedRows[{pid, tid}];
                        if (shared.empty())
                            shared.push_back(row->second);
                        shared.push_back(track);
                    }
                }
            });
        } else if (key == "counters") {
            forEachObject(value, "warpline.counters", [&](od::object& o) {
                std::int64_t pid = 0;
                std::string_view name, series, unit;
                for (auto f : o) {
                    const std::string_view k = keyText(f);
                    od::value fv = f.value();
                    if (k == "pid")
                        pid = getInt<std::int64_t>(fv, k);
                    else if (k == "name")
                        name = getString(fv, k);
                    else if (k == "series")
                        series = getString(fv, k);
                    else if (k == "unit")
                        unit = getString(fv, k);
                    else
                        skipValue(fv, 3);
                }
                auto pit = m_pidProcesses.find(pid);
                const ProcessIndex p = pit != m_pidProcesses.end() ? pit->second : hostProcess(pid);
                m_builder.counterTrack(p, name, series, unit);
            });
        } else if (key == "captureWindows") {
            // In ns from the file's time zero, as the events' ts: rebased with them.
            forEachObject(value, "warpline.captureWindows", [&](od::object& o) {
                TimeNs startNs = 0, endNs = 0;
                for (auto f : o) {
                    const std::string_view k = keyText(f);
                    od::value fv = f.value();
                    if (k == "startNs")
                        startNs = getInt<TimeNs>(fv, k);
                    else if (k == "endNs")
                        endNs = getInt<TimeNs>(fv, k);
                    else
                        skipValue(fv, 3);
                }
                m_builder.addCaptureWindow(startNs, endNs);
            });
        } else if (key == "diagnostics") {
            if (typeOf(value) != od::json_type::object)
                fail("diagnostics must be an object", locate(value));
            // A producer's file read again gives the diagnostics of its first import once more:
            // those of the block replace them (finish()).
            auto& d = m_producerRowsBlock ? m_blockDiagnostics.emplace() : m_builder.diagnostics();
            od::object o = value.get_object();
            for (auto f : o) {
                const std::string_view k = keyText(f);
                od::value fv = f.value();
                if (k == "droppedRecords")
                    d.droppedRecords += getInt<std::uint64_t>(fv, k);
                else if (k == "invalidTimestamps")
                    d.invalidTimestamps += getInt<std::uint64_t>(fv, k);
                else if (k == "spilledOverlaps")
                    d.spilledOverlaps += getInt<std::uint64_t>(fv, k);
                else if (k == "unknownPhases")
                    d.unknownPhases += getInt<std::uint64_t>(fv, k);
                else if (k == "unmatchedEnds")
                    d.unmatchedEnds += getInt<std::uint64_t>(fv, k);
                else if (k == "unknownRecords")
                    d.unknownRecords += getInt<std::uint64_t>(fv, k);
                else if (k == "truncatedStrings")
                    d.truncatedStrings += getInt<std::uint64_t>(fv, k);
                else if (k == "skippedEvents")
                    d.skippedEvents += getInt<std::uint64_t>(fv, k);
                else if (k == "warningCount")
                    d.warningCount += getInt<std::uint64_t>(fv, k);
                else if (k == "noteCount")
                    d.noteCount += getInt<std::uint64_t>(fv, k);
                else if (k == "warnings" || k == "notes") {
                    const bool warning = k == "warnings";
                    if (typeOf(fv) != od::json_type::array)
                        fail(std::string(k) + " must be an array", locate(fv));
                    auto& messages = warning ? d.warnings : d.notes;
                    od::array wa = fv.get_array();
                    for (auto w : wa) {
                        od::value wv = w.value();
                        const std::string_view msg = getString(wv, warning ? "warning" : "note");
                        if (messages.size() < model::Diagnostics::kMaxMessages) {
                            messages.emplace_back(msg);
                        }
                    }
                } else {
                    skipValue(fv, 3);
                }
            }
        } else {
            skipValue(value, 2);
        }
    }
}

}  // namespace wl::io::chrome
