#include "ui/timeline/RowArrangement.h"

#include <QRegularExpression>
#include <algorithm>
#include <unordered_map>

namespace wl::ui {

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

void RowArrangement::move(const QString& moved, const QString& before, const QStringList& siblings) {
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
