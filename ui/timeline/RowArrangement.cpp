#include "ui/timeline/RowArrangement.h"

#include <QRegularExpression>
#include <algorithm>
#include <unordered_map>

#include "ui/common/TrackTitles.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {

namespace {

QString groupIdentity(const model::Trace& trace, model::ProcessIndex index) {
    const model::Process& p = trace.processes()[index];
    const QString rank = p.rank >= 0 ? QStringLiteral("rank %1/").arg(p.rank) : QString();
    if (p.deviceId >= 0)
        return rank + QStringLiteral("gpu %1").arg(p.deviceId);
    const std::string_view name = trace.str(p.nameId);
    QString text = QString::fromUtf8(name.data(), qsizetype(name.size()));
    // A producer that names the pid ("python3 (pid 4242)"): the pid changes from run to run.
    static const QRegularExpression pidText(QStringLiteral("\\s*\\(pid [0-9]+\\)\\s*$"));
    text.remove(pidText);
    return rank + QStringLiteral("host ") + (text.isEmpty() ? QStringLiteral("process") : text);
}

// `text` with the whole number `number` (not part of a longer one) written as "#".
QString withoutNumber(QString text, const QString& number) {
    if (number.isEmpty()) {
        return text;  // a thread known by no number (a producer's name for it)
    }
    for (qsizetype at = text.indexOf(number); at >= 0; at = text.indexOf(number, at + 1)) {
        const qsizetype end = at + number.size();
        const bool alone =
            (at == 0 || !text[at - 1].isDigit()) && (end == text.size() || !text[end].isDigit());
        if (alone) {
            text.replace(at, number.size(), QStringLiteral("#"));  // `at + 1` is past it
        }
    }
    return text;
}

QString trackPart(const model::Trace& trace, const model::Track& track) {
    QString title = trackTitle(trace, track);
    switch (track.kind) {
        case model::TrackKind::GpuStream:
        case model::TrackKind::GraphLaunches:
        case model::TrackKind::Sync:
        case model::TrackKind::Memory:
        case model::TrackKind::UnifiedMemory:
            return title;  // streams keep their numbers: they are the program's own
        default:
            break;
    }
    if (track.threadId == -1) {  // no thread
        return title;
    }
    // Thread ids change from run to run; what the thread does does not.
    title = withoutNumber(title, QString::fromStdString(model::threadIdText(track.threadId)));
    title.replace(QStringLiteral("(tid #)"), QStringLiteral("(thread #)"));
    return title;
}

}  // namespace

QString rowIdentityPart(const model::Trace& trace, const TimelineRow& row) {
    switch (row.kind) {
        case RowKind::Process:
            return {};
        case RowKind::Track:
        case RowKind::UnifiedMemory:
            return trackPart(trace, trace.track(row.track));
        case RowKind::DeviceGaps:
        case RowKind::Counter:
            return row.title;
    }
    return {};
}

RowIdentity rowIdentity(const model::Trace& trace, const TimelineRow& row) {
    RowIdentity id;
    id.group = groupIdentity(trace, row.process);
    id.row = row.kind == RowKind::Process
                 ? id.group
                 : id.group + QLatin1Char('/') + rowIdentityPart(trace, row);
    return id;
}

void RowArrangement::hide(const QString& identity) {
    if (!hidden.contains(identity))
        hidden << identity;
}

void RowArrangement::show(const QString& identity) {
    hidden.removeAll(identity);
}

void RowArrangement::pin(const QString& identity) {
    if (!pinned.contains(identity))
        pinned << identity;
}

void RowArrangement::unpin(const QString& identity) {
    pinned.removeAll(identity);
}

void RowArrangement::move(const QString& moved, const QString& before,
                          const QStringList& siblings) {
    QStringList sequence;
    for (const int i : arrange(siblings))
        sequence << siblings[i];
    sequence.removeAll(moved);
    const qsizetype at = before.isEmpty() ? -1 : sequence.indexOf(before);
    sequence.insert(at < 0 ? sequence.size() : at, moved);
    // The siblings' new order replaces what the order said of them; other groups' entries stay.
    QStringList kept;
    for (const QString& identity : order) {
        if (!siblings.contains(identity))
            kept << identity;
    }
    order = kept + sequence;
}

std::vector<int> RowArrangement::arrange(const QStringList& identities) const {
    std::unordered_map<QString, int> rank;
    for (int i = 0; i < order.size(); ++i)
        rank.emplace(order[i], i);
    std::vector<int> positions(std::size_t(identities.size()));
    for (int i = 0; i < identities.size(); ++i)
        positions[std::size_t(i)] = i;
    const auto rankOf = [&](int i) {
        const auto it = rank.find(identities[i]);
        return it == rank.end() ? int(order.size()) : it->second;
    };
    std::stable_sort(positions.begin(), positions.end(),
                     [&](int a, int b) { return rankOf(a) < rankOf(b); });
    return positions;
}

QString RowArrangement::key(const model::Trace& trace) {
    std::string producer;
    if (const auto it = trace.metadata().find("producer"); it != trace.metadata().end())
        producer = it->second;
    QString name = QString::fromStdString(producer).trimmed();
    // A producer's version is not its kind: "PyTorch Profiler (0)" and "... (2.1)" are one.
    name.remove(QRegularExpression(QStringLiteral("[\\s(]*[0-9][0-9.]*[)]?\\s*$")));
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    return QStringLiteral("rows/") + (name.isEmpty() ? QStringLiteral("unknown") : name);
}

QStringList RowArrangement::toStrings() const {
    QStringList out;
    for (const QString& h : hidden)
        out << QStringLiteral("hide:") + h;
    for (const QString& p : pinned)
        out << QStringLiteral("pin:") + p;
    for (const QString& o : order)
        out << QStringLiteral("order:") + o;
    return out;
}

RowArrangement RowArrangement::fromStrings(const QStringList& strings) {
    RowArrangement a;
    for (const QString& s : strings) {
        if (s.startsWith(QLatin1String("hide:")))
            a.hidden << s.mid(5);
        else if (s.startsWith(QLatin1String("pin:")))
            a.pinned << s.mid(4);
        else if (s.startsWith(QLatin1String("order:")))
            a.order << s.mid(6);
    }
    return a;
}

}  // namespace wl::ui
