// Event decoding: one JSON event (an object in "traceEvents") into a RawEvent, its args
// into EventArgs, and the args the model has no field for kept as written.
#include "io/chrome/Importer.h"

#include "io/JsonCutter.h"

namespace wl::io::chrome {

using format::ArgField;

void EventArgs::set(ArgField field, std::int64_t v) {
    switch (field) {
        case ArgField::Correlation:
            correlation = v;
            break;
        case ArgField::Device:
            device = v;
            break;
        case ArgField::Stream:
            stream = v;
            break;
        case ArgField::WaitOnStream:
            waitOnStream = v;
            break;
        case ArgField::EventId:
            eventId = v;
            break;
        case ArgField::Cbid:
            cbid = v;
            break;
        case ArgField::ReturnCode:
            returnCode = v;
            break;
        case ArgField::SrcDevice:
            srcDevice = v;
            break;
        case ArgField::DstDevice:
            dstDevice = v;
            break;
        case ArgField::Category:
            category = v;
            break;
        case ArgField::SortIndex:
            sortIndex = v;
            break;
        case ArgField::Registers:
            registers = v;
            break;
        case ArgField::SharedTotal:
            sharedTotal = v;
            break;
        case ArgField::SharedStatic:
            sharedStatic = v;
            break;
        case ArgField::SharedDynamic:
            sharedDynamic = v;
            break;
        case ArgField::WaitOnRecord:
            waitOnRecord = v;
            break;
        case ArgField::DeviceType:
            deviceType = v;
            break;
        case ArgField::DeviceId:
            deviceId = v;
            break;
        case ArgField::TotalAllocated:
            totalAllocated = v;
            break;
        case ArgField::TotalReserved:
            totalReserved = v;
            break;
        default:
            return;  // not a signed field (ArgKeysTest checks the table's types)
    }
    has |= format::argBit(field);
}

void EventArgs::set(ArgField field, std::uint64_t v) {
    switch (field) {
        case ArgField::Bytes:
            bytes = v;
            break;
        case ArgField::Value:
            value = v;
            break;
        case ArgField::GraphId:
            graphId = v;
            break;
        case ArgField::GraphNodeId:
            graphNodeId = v;
            break;
        case ArgField::Address:
            address = v;
            break;
        case ArgField::PoolAddress:
            poolAddress = v;
            break;
        case ArgField::PoolReserve:
            poolReserve = v;
            break;
        case ArgField::FaultCount:
            faultCount = v;
            break;
        case ArgField::FaultPc:
            faultPc = v;
            break;
        case ArgField::Color:
            color = static_cast<std::uint32_t>(v);
            break;
        default:
            return;
    }
    has |= format::argBit(field);
}

void EventArgs::set(ArgField field, float v) {
    switch (field) {
        case ArgField::Warps:
            warps = v;
            break;
        case ArgField::Occupancy:
            occupancy = v;
            break;
        default:
            return;
    }
    has |= format::argBit(field);
}

void EventArgs::set(ArgField field, double v) {
    if (field != ArgField::Payload)
        return;
    payload = v;
    has |= format::argBit(field);
}

void EventArgs::set(ArgField field, std::string_view v) {
    switch (field) {
        case ArgField::CopyKind:
            copyKind = v;
            break;
        case ArgField::SrcKind:
            srcKind = v;
            break;
        case ArgField::DstKind:
            dstKind = v;
            break;
        case ArgField::MemoryKind:
            memoryKind = v;
            break;
        case ArgField::MemoryOp:
            memoryOp = v;
            break;
        case ArgField::SyncKind:
            syncKind = v;
            break;
        case ArgField::Domain:
            domain = v;
            break;
        case ArgField::Name:
            name = v;
            break;
        case ArgField::CategoryName:
            categoryName = v;
            break;
        case ArgField::UmKind:
            umKind = v;
            break;
        case ArgField::UmCause:
            umCause = v;
            break;
        case ArgField::UmAccess:
            umAccess = v;
            break;
        default:
            return;
    }
    has |= format::argBit(field);
}

void Importer::parseArgs(od::value& v, RawEvent& e) {
    if (typeOf(v) != od::json_type::object)
        problem("args must be an object", locate(v));
    od::object obj = v.get_object();
    e.membersBegin = static_cast<std::uint32_t>(m_members.size());
    for (auto field : obj) {
        ArgMember member;
        const std::string_view key = keyText(field, &member.key);
        od::value value = field.value();
        const od::json_type type = typeOf(value);
        member.container = type == od::json_type::object || type == od::json_type::array;
        const char* start = value.raw_json_token().data();
        if (!member.container)
            member.value = trimRight(value.raw_json_token());
        // One arg of an unexpected type (a producer's own idea of "grid") costs that arg only;
        // it is kept as written all the same.
        bool used = false;
        bool walked = false;
        member.row = format::findArgKey(key);
        try {
            used = parseArg(key, member.row, value, e);
        } catch (const FieldProblem& p) {
            ++m_ignoredArgs;
            if (!m_firstIgnoredArg)
                m_firstIgnoredArg =
                    FieldProblem{"args." + std::string(key) + ": " + p.message, p.at};
            walked = p.consumed;
        }
        if (!used && !walked)
            skipValue(value, 1);  // checks what it skips (nesting, numbers, literals)
        // An object or array as written, whether the reader used it or not (a "grid" on an API
        // call has no field in the model): the document now stands at the separator after it.
        const char* next = nullptr;
        if (member.container && !walked && m_doc &&
            m_doc->current_location().get(next) == simdjson::SUCCESS)
            member.value =
                trimRight(std::string_view(start, static_cast<std::size_t>(next - start)));
        if (!member.value.empty())
            m_members.push_back(member);
    }
    e.membersCount = static_cast<std::uint32_t>(m_members.size() - e.membersBegin);
}

void Importer::keepProducerFields(const RawEvent& e, TrackIndex track, SliceKind kind,
                                  bool withOrigin, bool bandwidthWritten) {
    model::SliceOrigin origin;
    withOrigin = withOrigin && !m_warpline;  // our own rows: the "warpline" block describes them
    if (withOrigin) {
        if (e.cat != m_lastOriginCat || m_lastOriginCatId == 0) {
            m_lastOriginCat = e.cat;
            m_lastOriginCatId = m_builder.intern(e.cat);
        }
        origin.pid = e.pid;
        origin.tid = e.tid;
        origin.cat = m_lastOriginCatId;
        origin.hasCat = e.hasCat;
        origin.pidQuoted = e.pidQuoted;
        origin.tidQuoted = e.tidQuoted;
        if (e.scope.size() == 1)
            origin.scope = e.scope.front();
    }
    std::string& out = m_extraScratch;
    out.clear();
    // Another producer's file: the members the model has are kept too, as written, for an
    // export that writes the event back as it was (Trace::producerArgs).
    std::string& model = m_modelArgsScratch;
    model.clear();
    for (std::uint32_t i = e.membersBegin; i < e.membersBegin + e.membersCount; ++i) {
        const ArgMember& m = m_members[i];
        const std::string_view plainKey = m.key.substr(1, m.key.size() - 2);
        // (A key written with escapes is kept as written, whatever it unescapes to.)
        const bool modelHasIt = m.row != nullptr && plainKey.find('\\') == std::string_view::npos &&
                                format::writerWritesArg(kind, *m.row);
        if (modelHasIt && (bandwidthWritten || plainKey != format::kArgBandwidth)) {
            if (m_warpline)
                continue;  // export writes it from the model
            appendMember(model, m);
            continue;
        }
        appendMember(out, m);
    }
    m_builder.setLastSliceProducer(track, withOrigin ? &origin : nullptr, model, out);
}

void Importer::appendMember(std::string& out, const ArgMember& m) {
    if (!out.empty())
        out += ',';
    out += m.key;
    out += ':';
    if (m.container) {
        const std::size_t at = out.size();
        out.resize(at + m.value.size());
        std::size_t length = 0;
        if (simdjson::minify(m.value.data(), m.value.size(), out.data() + at, length))
            out.resize(at), out += m.value;  // (it parsed, so this does not happen)
        else
            out.resize(at + length);
    } else {
        out += m.value;
    }
}

bool Importer::parseArg(std::string_view key, const format::ArgKey* row, od::value& value,
                        RawEvent& e) {
    EventArgs& a = e.args;
    const bool series = !e.phaseKnown || e.ph == 'C';
    if (series) {
        const char* at = locate(value);
        if (typeOf(value) == od::json_type::number) {
            const std::string_view tok = numberText(value, key);
            double d = 0;
            const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), d);
            if (r.ec != std::errc() || !std::isfinite(d))
                problem("counter value out of range", at);
            m_series.emplace_back(key, d);
        } else if (e.phaseKnown) {
            skipValue(value, 1);  // a C event's non-numeric arg: not a series
        } else if (key == "name" && typeOf(value) == od::json_type::string) {
            a.name = getString(value, "args.name");
            a.has |= kArgName;
        } else {
            skipValue(value, 1);
        }
        return true;  // counter series and metadata: nothing to keep beside them
    }
    if (row == nullptr)
        return false;
    switch (row->field) {
        case format::ArgField::Device: {
            const auto device = getArgInt<std::int64_t>(value, row->key);
            // Not an ordinal (-1 on host-side events): the pid says the device.
            if (device >= 0 && device <= std::numeric_limits<std::int32_t>::max())
                a.set(row->field, device);
            return true;
        }
        case format::ArgField::Name:
            // Metadata events name things with a string; other events may put anything here.
            if (typeOf(value) != od::json_type::string)
                return false;
            a.set(row->field, getString(value, "args.name"));
            return true;
        default:
            break;
    }
    switch (row->type) {
        case format::ArgType::Int:
            a.set(row->field, getArgInt<std::int64_t>(value, row->key));
            return true;
        case format::ArgType::UInt:
        case format::ArgType::Hex:
            a.set(row->field, getArgInt<std::uint64_t>(value, row->key));
            return true;
        case format::ArgType::Float:
            a.set(row->field, getFloat<float>(value, row->key));
            return true;
        case format::ArgType::Double:
            a.set(row->field, getFloat<double>(value, row->key));
            return true;
        case format::ArgType::Text:
            a.set(row->field, getString(value, row->key));
            return true;
        case format::ArgType::IntTriple: {
            getIntTriple(value, a.triple(row->field), row->key);
            a.has |= format::argBit(row->field);
            return true;
        }
        case format::ArgType::Color:
            a.set(row->field, std::uint64_t{getColor(value)});
            return true;
        case format::ArgType::Computed:
            break;
    }
    return false;  // not one the reader uses: kept as written by parseArgs
}

void Importer::parseEvent(od::value& v) {
    m_members.resize(m_keptMembers);  // the last event's, unless it was kept
    RawEvent e;
    e.at = locate(v);
    ++m_eventCount;
    if (typeOf(v) != od::json_type::object) {
        skipValue(v, 1);
        skipEvent({"an event must be a JSON object", e.at});
        return;
    }
    od::object obj;
    if (const auto err = v.get_object().get(obj))
        failJson(err, e.at);
    m_series.clear();
    bool hasPhase = false;
    bool empty = true;
    std::optional<FieldProblem> bad;
    for (auto field : obj) {
        empty = false;
        const std::string_view key = keyText(field);
        od::value value = field.value();
        // A field of an unexpected type or value costs this event only; it is still checked as
        // JSON. Args are read one by one (see parseArgs) and never cost the event.
        try {
            switch (keyHash(key)) {
                case keyHash("ph"):
                    if (key == "ph") {
                        const std::string_view ph = getString(value, "ph");
                        hasPhase = true;
                        e.phaseKnown = ph.size() == 1;
                        e.ph = ph.empty() ? '?' : ph[0];
                        continue;
                    }
                    break;
                case keyHash("name"):
                    if (key == "name") {
                        e.name = getString(value, "name");
                        continue;
                    }
                    break;
                case keyHash("cat"):
                    if (key == "cat") {
                        e.cat = getString(value, "cat");
                        e.hasCat = true;
                        // Our own launch and dependency arrows are rebuilt (from correlation ids
                        // and sync args): the writer puts "cat" second so the rest of these (half
                        // of all events) is skipped unread.
                        if (m_warpline && hasPhase &&
                            (e.cat == format::kCatLaunchFlow || e.cat == format::kCatDependency) &&
                            (e.ph == 's' || e.ph == 'f' || e.ph == 't')) {
                            return;
                        }
                        continue;
                    }
                    break;
                case keyHash("pid"):
                    if (key == "pid") {
                        e.pidQuoted = typeOf(value) == od::json_type::string;
                        e.pid = getProcessOrThreadId(value, "pid");
                        continue;
                    }
                    break;
                case keyHash("tid"):
                    if (key == "tid") {
                        e.tidQuoted = typeOf(value) == od::json_type::string;
                        e.tid = getProcessOrThreadId(value, "tid");
                        continue;
                    }
                    break;
                case keyHash("ts"):
                    if (key == "ts") {
                        e.ts = getTime(value, "ts");
                        e.hasTs = true;
                        continue;
                    }
                    break;
                case keyHash("dur"):
                    if (key == "dur") {
                        e.dur = getTime(value, "dur");
                        continue;
                    }
                    break;
                case keyHash("args"):
                    if (key == "args") {
                        try {
                            parseArgs(value, e);
                        } catch (const FieldProblem& p) {  // not an object: no args
                            ++m_ignoredArgs;
                            if (!m_firstIgnoredArg)
                                m_firstIgnoredArg = p;
                            skipValue(value, 1);
                        }
                        continue;
                    }
                    break;
                case keyHash("id"):
                    if (key == "id") {
                        e.id = getFlowId(value);
                        e.hasId = true;
                        e.globalId = false;
                        continue;
                    }
                    break;
                case keyHash("id2"):
                    // Newer Chrome async events: {"local": id} (one process) or {"global": id}.
                    if (key == "id2") {
                        if (typeOf(value) != od::json_type::object)
                            problem("id2 must be an object", locate(value));
                        std::optional<FieldProblem> badId;
                        for (auto part : value.get_object()) {
                            const std::string_view scope = keyText(part);
                            od::value idValue = part.value();
                            if (scope != "local" && scope != "global") {
                                skipValue(idValue, 2);
                                continue;
                            }
                            try {
                                e.id = getFlowId(idValue, "id2");
                                e.hasId = true;
                                e.globalId = scope == "global";
                            } catch (const FieldProblem& p) {
                                badId = p;
                                skipValue(idValue, 2);
                            }
                        }
                        if (badId)
                            problem(badId->message, badId->at, true);
                        continue;
                    }
                    break;
                case keyHash("bind_id"):
                    if (key == "bind_id") {
                        e.bindId = getFlowId(value, "bind_id");
                        e.hasBindId = true;
                        continue;
                    }
                    break;
                case keyHash("flow_in"):
                    if (key == "flow_in") {
                        e.flowIn = getFlag(value);
                        continue;
                    }
                    break;
                case keyHash("flow_out"):
                    if (key == "flow_out") {
                        e.flowOut = getFlag(value);
                        continue;
                    }
                    break;
                case keyHash("s"):
                    if (key == "s") {
                        e.scope = getString(value, "s");
                        continue;
                    }
                    break;
                case keyHash("bp"):
                    if (key == "bp") {
                        e.bindPoint = getString(value, "bp");
                        continue;
                    }
                    break;
                default:
                    break;
            }
            skipValue(value, 1);
        } catch (const FieldProblem& p) {
            if (!bad)
                bad = p;
            if (!p.consumed)
                skipValue(value, 1);
        }
    }
    if (empty) {
        // Chrome's own writer ends its event array with "{}": a routine quirk, not a problem.
        ++m_emptyEvents;
        return;
    }
    if (bad) {
        skipEvent(*bad);
        return;
    }
    if (!hasPhase) {
        skipEvent({"event without \"ph\"", e.at});
        return;
    }
    m_phases.add(e);
}

void Importer::skipEvent(const FieldProblem& p) {
    ++m_skippedCount;
    if (!m_firstSkip)
        m_firstSkip = p;
}

void Importer::parseEvents(od::value& v) {
    if (typeOf(v) != od::json_type::array)
        fail("\"traceEvents\" must be an array", locate(v));
    m_eventsSeen = true;
    m_eventsAt = locate(v);
    if (!m_warpline) {
        // Other producers' events are ~100-300 bytes: size the bookkeeping once, not by doubling.
        const std::size_t estimate = m_size / 256;
        m_phases.reserve(estimate);
    }
    od::array arr = v.get_array();
    for (auto element : arr) {
        od::value event = element.value();
        checkpointEvery(event);
        parseEvent(event);
    }
}

}  // namespace wl::io::chrome
