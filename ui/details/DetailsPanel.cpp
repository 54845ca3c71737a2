#include "ui/details/DetailsPanel.h"

#include <algorithm>
#include <iterator>
#include <set>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QFont>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "analysis/ApiNames.h"
#include "analysis/KernelNames.h"
#include "ui/common/BreakableText.h"
#include "ui/common/TrackTitles.h"
#include "ui/common/UnifiedMemoryText.h"
#include "ui/common/Units.h"
#include "ui/details/ArgMembers.h"

namespace wl::ui {
namespace {

QString qstr(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// How a slice is named in the title and in links to it: a kernel by its short name
// (analysis::shortKernelName), anything else as analysis::shownName gives it.
std::string linkName(const model::Trace& t, const model::Slice& s) {
    if (s.kind == model::SliceKind::Kernel)
        return analysis::shortKernelName(t.str(s.nameId));
    return std::string(analysis::shownName(t, s));
}

QString kindName(model::SliceKind kind) {
    switch (kind) {
        case model::SliceKind::Kernel:
            return QStringLiteral("Kernel");
        case model::SliceKind::Memcpy:
            return QStringLiteral("Memory copy");
        case model::SliceKind::Memset:
            return QStringLiteral("Memset");
        case model::SliceKind::Memory:
            return QStringLiteral("Device memory operation");
        case model::SliceKind::Sync:
            return QStringLiteral("Synchronisation");
        case model::SliceKind::RuntimeApi:
            return QStringLiteral("CUDA runtime API");
        case model::SliceKind::DriverApi:
            return QStringLiteral("CUDA driver API");
        case model::SliceKind::Nvtx:
            return QStringLiteral("NVTX range");
        case model::SliceKind::Overhead:
            return QStringLiteral("Profiler overhead");
        case model::SliceKind::Instant:
            return QStringLiteral("Instant");
        case model::SliceKind::CpuOp:
            return QStringLiteral("CPU operator");
        case model::SliceKind::Other:
            return QStringLiteral("Other");
        case model::SliceKind::UnifiedMemory:
            return QStringLiteral("Unified memory");
    }
    return QStringLiteral("Other");
}

// Keys wider than this, one of the longest of our own, wrap ("Achieved occupancy (producer's
// estimate)", a producer's long argument names).
const QString kWidestKey = QStringLiteral("Registers per thread");

QString dim3(const std::array<std::int32_t, 3>& d) {
    return QStringLiteral("%1 × %2 × %3").arg(d[0]).arg(d[1]).arg(d[2]);
}

}  // namespace

DetailsPanel::DetailsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    // A long demangled name wraps in the width the dock has; it never widens the dock.
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setTextFormat(Qt::PlainText);
    // Labels in a grid rather than a table: long values (kernel names, occupancy explanations)
    // wrap instead of being cut off at the panel's edge.
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(m_title);
    layout->addWidget(m_scroll, 1);
    clear();
}

void DetailsPanel::setTrace(model::TracePtr trace) {
    m_trace = std::move(trace);
    m_analysis.reset();
    clear();
}

void DetailsPanel::setAnalysis(std::shared_ptr<const analysis::AnalysisResult> result) {
    m_analysis = std::move(result);
    if (m_ref.valid())
        showSlice(m_ref);
}

void DetailsPanel::clear() {
    m_ref = {};
    m_rows.clear();
    m_titleText.clear();
    // A fresh grid each time: simpler than reusing labels, and a selection is a rare event.
    auto* body = new QWidget(m_scroll);
    m_grid = new QGridLayout(body);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(3);
    m_grid->setColumnStretch(1, 1);
    m_grid->setAlignment(Qt::AlignTop);
    m_scroll->setWidget(body);  // deletes the previous grid
    m_title->setText(tr("Nothing selected — click a slice on the timeline."));
    m_title->setToolTip(QString());
}

QString DetailsPanel::title() const {
    return m_ref.valid() ? m_titleText : QString();
}

QString DetailsPanel::value(const QString& field) const {
    for (const auto& [f, v] : m_rows) {
        if (f == field)
            return v;
    }
    return {};
}

std::vector<std::pair<QString, QString>> DetailsPanel::rows() const {
    return m_rows;
}

void DetailsPanel::addGroup(const QString& name) {
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()));
    const int row = m_grid->rowCount();
    if (row > 0)
        m_grid->setRowMinimumHeight(row, 8);  // a little air above each group
    m_grid->addWidget(label, row + 1, 0, 1, 2);
}

void DetailsPanel::addRow(const QString& field, const QString& value, model::SliceRef link) {
    // Neither column may demand more width than the dock has, or the values are pushed out of
    // view (the scroll area has no horizontal bar): keys wrap within a third of a narrow panel,
    // values take what is left and wrap there. Producers' keys and values are plain text.
    auto* key = new QLabel(field);
    key->setTextFormat(Qt::PlainText);
    key->setForegroundRole(QPalette::PlaceholderText);
    key->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    const int widestKeyPx = key->fontMetrics().horizontalAdvance(kWidestKey);
    if (key->fontMetrics().horizontalAdvance(field) > widestKeyPx) {
        key->setWordWrap(true);
        key->setMaximumWidth(widestKeyPx);
    }
    auto* text = new QLabel();
    text->setWordWrap(true);
    text->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    if (link.valid()) {
        text->setTextFormat(Qt::RichText);
        text->setText(QStringLiteral("<a href=\"slice:%1:%2\">%3</a>")
                          .arg(link.track)
                          .arg(link.index)
                          .arg(breakable(value).toHtmlEscaped()));
        text->setToolTip(tr("Click to go there: selected and shown on the timeline"));
        connect(text, &QLabel::linkActivated, this,
                [this, link] { emit relatedSliceActivated(link); });
    } else {
        text->setTextFormat(Qt::PlainText);
        text->setText(breakable(value));
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    const int row = m_grid->rowCount();
    m_grid->addWidget(key, row, 0);
    m_grid->addWidget(text, row, 1);
    m_rows.emplace_back(field, value);
}

void DetailsPanel::fillExtraArgs(const model::Slice& s) {
    const auto args = splitArgMembers(m_trace->extraArgs(s));
    if (args.empty())
        return;
    addGroup(tr("Arguments"));
    constexpr qsizetype kShownChars = 200;
    for (const auto& [key, value] : args) {
        const bool elided = value.size() > kShownChars;
        addRow(key, elided ? value.left(kShownChars) + QStringLiteral("…") : value);
        if (elided) {
            if (auto* label = qobject_cast<QLabel*>(
                    m_grid->itemAtPosition(m_grid->rowCount() - 1, 1)->widget()))
                label->setToolTip(value);
        }
    }
}

void DetailsPanel::showSlice(model::SliceRef ref) {
    clear();
    if (!m_trace || !ref.valid() || ref.track >= m_trace->tracks().size() ||
        ref.index >= m_trace->track(ref.track).slices.size()) {
        return;
    }
    m_ref = ref;
    const model::Slice& s = m_trace->slice(ref);
    // Kernels under their short name (a cuBLAS kernel's demangled name runs to 15 lines; the whole
    // of it is a row below and the tooltip); API calls as the user wrote them, without CUPTI's
    // version suffix (kept in a row below).
    m_titleText = qstr(linkName(*m_trace, s));
    m_title->setText(m_titleText.isEmpty() ? tr("(unnamed)") : breakable(m_titleText));
    m_title->setToolTip(
        s.kind == model::SliceKind::Kernel
            ? QString::fromStdString(analysis::demangleKernelName(m_trace->str(s.nameId)))
            : m_titleText);
    fillSlice(s);
}

void DetailsPanel::fillSlice(const model::Slice& s) {
    const model::Trace& t = *m_trace;
    const model::Track& track = t.track(m_ref.track);
    if (track.kind == model::TrackKind::NvtxProjection)
        addRow(tr("Kind"), tr("NVTX range on the GPU: from the start of the first to the end "
                              "of the last GPU op launched inside the host's range"));
    else if (track.kind == model::TrackKind::GraphLaunches)
        addRow(tr("Kind"), tr("CUDA graph launch: from the start of the first to the end of the "
                              "last node one cudaGraphLaunch ran on this stream"));
    else
        addRow(tr("Kind"), kindName(s.kind));
    if (analysis::shownName(t, s) != analysis::versionedName(t, s)) {
        addRow(tr("CUPTI name"), qstr(analysis::versionedName(t, s)));
    }
    if (s.kind == model::SliceKind::Kernel) {
        const std::string_view name = t.str(s.nameId);
        // The whole name when the title (the short one) leaves some of it out.
        const std::string full = analysis::demangleKernelName(name);
        if (full != analysis::shortKernelName(name))
            addRow(tr("Full name"), QString::fromStdString(full));
        const std::string_view library = analysis::kernelLibrary(name);
        if (!library.empty())
            addRow(tr("Library"), qstr(library));
    }
    addRow(tr("Start"), units::timestamp(s.startNs));
    addRow(tr("Duration"), units::duration(s.durationNs));
    addRow(tr("End"), units::timestamp(s.endNs()));
    if (track.kind == model::TrackKind::GpuStream || track.deviceId >= 0) {
        const model::DeviceProperties* device = t.device(track.deviceId);
        addRow(tr("Device"), device && !device->name.empty()
                                 ? QStringLiteral("%1 (GPU %2)")
                                       .arg(QString::fromStdString(device->name))
                                       .arg(track.deviceId)
                                 : tr("GPU %1").arg(track.deviceId));
    }
    if (track.kind == model::TrackKind::GpuStream) {
        addRow(tr("Stream"), QString::number(track.streamId));
    } else {
        addRow(tr("Row"), qstr(t.str(track.nameId)));
        // As people know the thread (Kineto's negative ids unsigned); none for a thread known
        // only by a name (a synthetic id) or for a row of no thread (-1).
        const std::string thread = model::threadIdText(track.threadId);
        if (track.threadId != -1 && !thread.empty())
            addRow(tr("Thread"), QString::fromStdString(thread));
    }
    if (s.correlationId != 0)
        addRow(tr("Correlation id"), QString::number(s.correlationId));

    if (const auto* k = t.kernel(s)) {
        addGroup(tr("Launch configuration"));
        fillKernel(*k);
        if (m_analysis)
            fillWarpUse();
    }
    if (const auto* m = t.memcpy(s)) {
        addGroup(tr("Copy"));
        fillMemcpy(s, *m);
    }
    if (const auto* m = t.memset(s)) {
        addGroup(tr("Memset"));
        addRow(tr("Bytes"), QStringLiteral("%1 (%2 B)")
                                .arg(units::bytes(m->bytes),
                                     units::grouped(static_cast<std::int64_t>(m->bytes))));
        addRow(tr("Throughput"), units::gbPerSecond(m->bytes, s.durationNs));
        addRow(tr("Value"), QString::number(m->value));
        addRow(tr("Memory kind"), QString::fromUtf8(model::toString(m->memoryKind)));
    }
    if (const auto* m = t.memory(s)) {
        addGroup(m->op == model::MemoryOp::Release ? tr("Memory release")
                                                   : tr("Memory allocation"));
        addRow(tr("Bytes"), QStringLiteral("%1 (%2 B)")
                                .arg(units::bytes(m->bytes),
                                     units::grouped(static_cast<std::int64_t>(m->bytes))));
        addRow(tr("Address"), QStringLiteral("0x") + QString::number(m->address, 16));
        addRow(tr("Memory kind"), QString::fromUtf8(model::toString(m->memoryKind)));
        if (m->streamId >= 0)
            addRow(tr("Stream"), tr("%1 (stream-ordered)").arg(m->streamId));
        if (m->fromPool) {
            addRow(tr("Memory pool"), QStringLiteral("0x") + QString::number(m->poolAddress, 16));
            if (m->poolReservedBytes > 0)
                addRow(tr("Pool holds"), units::bytes(m->poolReservedBytes));
        }
    }
    if (const auto* u = t.unifiedMemory(s)) {
        addGroup(tr("Unified memory"));
        for (const auto& [field, value] : unifiedMemoryFields(*u, s.durationNs))
            addRow(field, value);
    }
    // The CUDA graph node that ran it: "graph 2, node 17" (its siblings share the launch call).
    const model::GraphNode* graph = t.graphNode(s);
    if (graph != nullptr && (graph->graphId != 0 || graph->nodeId != 0)) {
        addRow(tr("CUDA graph"), tr("graph %1, node %2").arg(graph->graphId).arg(graph->nodeId));
        fillGraphLaunch(s, graph->graphId);
    }
    if (const auto* y = t.sync(s)) {
        addGroup(tr("Synchronisation"));
        addRow(tr("Sync type"), QString::fromUtf8(model::toString(y->syncKind)));
        if (y->streamId >= 0)
            addRow(tr("Waited stream"), QString::number(y->streamId));
        if (y->eventId != 0)
            addRow(tr("Event"), QString::number(y->eventId));
    }
    if (const auto* a = t.api(s)) {
        addGroup(tr("API call"));
        if (a->callbackId != 0)
            addRow(tr("Callback id"), QString::number(a->callbackId));
        addRow(tr("Return code"),
               a->returnCode == 0 ? tr("0 (success)") : QString::number(a->returnCode));
    }
    if (const auto* n = t.nvtx(s)) {
        addGroup(tr("NVTX"));
        const QString domain = qstr(t.str(n->domainId));
        addRow(tr("Domain"), domain.isEmpty() ? tr("(default)") : domain);
        addRow(tr("Nesting depth"), QString::number(s.depth));
        if (n->colorArgb != 0) {
            addRow(tr("Colour"),
                   QStringLiteral("#%1").arg(n->colorArgb & 0xFFFFFFu, 6, 16, QLatin1Char('0')));
        }
        if (n->category != 0) {
            const QString name = qstr(t.str(n->categoryNameId));
            addRow(tr("Category"), name.isEmpty() ? QString::number(n->category)
                                                  : tr("%1 (%2)").arg(name).arg(n->category));
        }
        if (n->hasPayload)
            addRow(tr("Payload"), QString::number(n->payload, 'g', 15));
    }
    fillLaunch(s);
    fillDependencies();
    fillExtraArgs(s);
}

void DetailsPanel::fillKernel(const model::KernelDetail& k) {
    addRow(tr("Grid"), dim3(k.grid));
    addRow(tr("Block"), dim3(k.block));
    const std::int64_t threads = k.threadsPerBlock();
    addRow(tr("Threads"), tr("%1 per block, %2 in total")
                              .arg(units::grouped(threads))
                              .arg(units::grouped(threads * k.blockCount())));
    const std::int64_t warps = (threads + 31) / 32;
    const std::int64_t lanes = warps * 32;
    addRow(tr("Warps per block"),
           threads % 32 == 0 ? QString::number(warps)
                             : tr("%1 (%2 of %3 lanes used)").arg(warps).arg(threads).arg(lanes));
    addRow(tr("Registers per thread"), QString::number(k.registersPerThread));
    addRow(tr("Shared memory"),
           tr("%1 per block (static %2, dynamic %3)")
               .arg(units::bytes(static_cast<std::uint64_t>(k.sharedBytesPerBlock())),
                    units::bytes(static_cast<std::uint64_t>(k.staticSharedBytes)),
                    units::bytes(static_cast<std::uint64_t>(k.dynamicSharedBytes))));
    if (k.warpsPerSm >= 0.0f)
        addRow(tr("Warps per SM"), units::decimal(k.warpsPerSm));
    // Kineto's "est. achieved occupancy %": 0 where it could not estimate, which read as a
    // contradiction beside the theoretical occupancy, so only a real estimate is shown.
    if (k.estimatedOccupancyPct > 0.0f) {
        addRow(tr("Achieved occupancy (producer's estimate)"),
               units::percent(k.estimatedOccupancyPct));
    }
}

void DetailsPanel::fillWarpUse() {
    const analysis::WarpUse w = analysis::warpUseOf(*m_trace, *m_analysis, m_ref);
    if (!w.occupancy.valid)
        return;
    addGroup(tr("Warps"));
    const std::int64_t warpsPerSm = w.maxWarps / std::max<std::int64_t>(1, w.smCount);
    addRow(tr("Theoretical occupancy"),
           tr("%1 (%2 of %3 warps per SM, limited by %4)")
               .arg(units::percent(w.occupancy.theoreticalPct))
               .arg(w.occupancy.activeWarpsPerSm())
               .arg(warpsPerSm)
               .arg(QString::fromUtf8(analysis::toString(w.occupancy.limiter))));
    addRow(tr("Lane use"), tr("%1 of %2 lanes per block (%3)")
                               .arg(w.lanesUsedPerBlock)
                               .arg(w.lanesPerBlock)
                               .arg(units::percent(w.laneUsePct)));
    addRow(tr("GPU fill"), tr("%1 (%2 of %3 warps, %4 of %5 SMs)")
                               .arg(units::percent(w.gpuFillPct))
                               .arg(units::grouped(w.activeWarps))
                               .arg(units::grouped(w.maxWarps))
                               .arg(w.smsUsed)
                               .arg(w.smCount));
}

void DetailsPanel::fillMemcpy(const model::Slice& s, const model::MemcpyDetail& m) {
    addRow(tr("Direction"), QString::fromUtf8(model::toString(m.copyKind)));
    addRow(tr("Bytes"),
           QStringLiteral("%1 (%2 B)")
               .arg(units::bytes(m.bytes), units::grouped(static_cast<std::int64_t>(m.bytes))));
    addRow(tr("Throughput"), units::gbPerSecond(m.bytes, s.durationNs));
    addRow(tr("Memory kinds"),
           QStringLiteral("%1 → %2").arg(QString::fromUtf8(model::toString(m.srcKind)),
                                         QString::fromUtf8(model::toString(m.dstKind))));
    if (m.srcKind == model::MemoryKind::Pageable || m.dstKind == model::MemoryKind::Pageable) {
        addRow(tr("Note"), tr("Pageable host memory: the driver stages the copy through a pinned "
                              "buffer and it cannot overlap other work."));
    }
    if (m.copyKind == model::CopyKind::PeerToPeer) {
        addRow(tr("Devices"), tr("GPU %1 → GPU %2").arg(m.srcDevice).arg(m.dstDevice));
    }
}

void DetailsPanel::fillLaunch(const model::Slice& s) {
    const model::Trace& t = *m_trace;
    // Only a flow into GPU work is a launch; a producer's flow between two host slices (Perfetto's
    // flow events, a framework's "fwdbwd") links them and says nothing of streams or latency.
    const auto isLaunch = [&t](const model::Flow& f) {
        return t.track(f.to.track).kind == model::TrackKind::GpuStream;
    };
    const auto where = [&t](model::SliceRef ref) {
        return tr("%1 on %2")
            .arg(qstr(t.str(t.slice(ref).nameId)), trackTitle(t, t.track(ref.track)));
    };
    const model::Flow* in = t.flowTo(m_ref);
    const model::Flow* out = t.flowFrom(m_ref);
    const bool flowIn = in && in->from.valid() && !isLaunch(*in);
    const bool flowOut = out && out->to.valid() && !isLaunch(*out);
    if (flowIn || flowOut)
        addGroup(tr("Flow"));
    if (flowIn) {
        addRow(tr("Flow from"), where(in->from), in->from);
        in = nullptr;
    }
    if (flowOut) {
        addRow(tr("Flow to"), where(out->to), out->to);
        out = nullptr;
    }
    if (in && in->from.valid()) {
        const model::Slice& api = t.slice(in->from);
        addGroup(tr("Launch"));
        addRow(tr("Launched by"),
               tr("%1 at %2").arg(qstr(analysis::shownName(t, api)), units::timestamp(api.startNs)),
               in->from);
        addRow(tr("API call duration"), units::duration(api.durationNs));
        addRow(tr("Launch latency"), units::duration(s.startNs - api.startNs));
    }
    if (out && out->to.valid()) {
        const model::Slice& work = t.slice(out->to);
        const model::Track& workTrack = t.track(out->to.track);
        addGroup(tr("Launched work"));
        addRow(tr("Launches"),
               tr("%1 on stream %2").arg(qstr(linkName(t, work))).arg(workTrack.streamId), out->to);
        addRow(tr("Launch latency"), units::duration(work.startNs - s.startNs));
    }
}

// Waits through CUDA events: what this op waited for, and what waited for it.
void DetailsPanel::fillDependencies() {
    const model::Trace& t = *m_trace;
    const auto waitsFor = t.dependenciesTo(m_ref);
    const auto awaitedBy = t.dependenciesFrom(m_ref);
    if (waitsFor.empty() && awaitedBy.empty())
        return;
    // "<op> on stream 13 via event 7" (or "on the host" for a synchronising call).
    auto describe = [&](model::SliceRef op, model::SliceRef via) {
        const model::Slice& s = t.slice(op);
        const model::Track& track = t.track(op.track);
        QString text = track.kind == model::TrackKind::GpuStream
                           ? tr("%1 on stream %2").arg(qstr(linkName(t, s))).arg(track.streamId)
                           : tr("%1 on the host").arg(qstr(linkName(t, s)));
        if (const model::SyncDetail* y = t.sync(t.slice(via)); y != nullptr && y->eventId != 0)
            text += tr(" via event %1").arg(y->eventId);
        return text;
    };
    addGroup(tr("Dependencies"));
    for (const model::Dependency& d : waitsFor)
        addRow(tr("Waits for"), describe(d.from, d.via), d.from);
    for (const model::Dependency& d : awaitedBy)
        addRow(tr("Awaited by"), describe(d.to, d.via), d.to);
}

// The graph launch a node belongs to: which launch of its graph ("launch 3 of 5", by correlation
// id: one per cudaGraphLaunch), how many nodes the launching call ran and their span.
void DetailsPanel::fillGraphLaunch(const model::Slice& s, std::uint32_t graphId) {
    const model::Trace& t = *m_trace;
    if (s.correlationId == 0)
        return;
    std::set<std::uint64_t> launches;
    std::uint64_t nodes = 0;
    model::TimeNs firstNs = s.startNs;
    model::TimeNs lastNs = s.endNs();
    for (const model::Track& track : t.tracks()) {
        if (track.kind != model::TrackKind::GpuStream)
            continue;
        for (const model::Slice& op : track.slices) {
            const model::GraphNode* g = t.graphNode(op);
            if (g == nullptr || g->graphId != graphId || op.correlationId == 0)
                continue;
            launches.insert(op.correlationId);
            if (op.correlationId == s.correlationId) {
                ++nodes;
                firstNs = std::min(firstNs, op.startNs);
                lastNs = std::max(lastNs, op.endNs());
            }
        }
    }
    const auto at = launches.find(s.correlationId);
    if (at == launches.end())
        return;
    const auto index = std::distance(launches.begin(), at) + 1;
    addRow(tr("Graph launch"), tr("launch %1 of %2: %3 nodes over %4")
                                   .arg(index)
                                   .arg(launches.size())
                                   .arg(nodes)
                                   .arg(units::duration(lastNs - firstNs)));
}

}  // namespace wl::ui
