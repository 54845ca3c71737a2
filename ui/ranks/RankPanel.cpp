#include "ui/ranks/RankPanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>
#include <optional>

#include "ui/common/Units.h"
#include "ui/ranks/CollectiveMap.h"
#include "ui/ranks/RankHeatMap.h"

namespace wl::ui {

namespace {

enum Column { cRank, cHost, cBusyPct, cIdle, cKernels, cComms, kColumns };

// A number cell that sorts by its value.
QTableWidgetItem* numberItem(const QString& text, double value) {
    auto* item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString emptyText() {
    return QObject::tr(
        "Open several ranks' traces together (File > Open Rank Traces) to compare them.");
}

RankHeatMapData heatMapOf(const analysis::RankStats& stats) {
    RankHeatMapData d;
    const analysis::RankOverview& o = stats.overview;
    if (o.buckets.empty())
        return d;
    d.startNs = o.buckets.front().startNs;
    d.bucketNs = std::max<model::TimeNs>(1, o.buckets.front().durationNs());
    // Collectives left out: a rank waiting inside an all-reduce for a late one is not working,
    // and shows pale beside the late rank's dark cells.
    d.valueName = QObject::tr("GPU busy outside collectives");
    for (std::size_t r = 0; r < stats.ranks.size() && r < o.workFraction.size(); ++r) {
        d.rowNames.push_back(QString::fromStdString(stats.ranks[r].label));
        std::vector<float> row;
        row.reserve(o.workFraction[r].size());
        for (const double v : o.workFraction[r])
            row.push_back(static_cast<float>(v));
        d.values.push_back(std::move(row));
    }
    return d;
}

// The process a click on a rank's cells shows: its first GPU, whose busy share the cell is;
// its host process when it has no GPU.
std::optional<model::ProcessIndex> shownProcess(const model::Trace& trace,
                                                const analysis::JobRank& rank) {
    for (const model::ProcessIndex p : rank.processes) {
        if (p < trace.processes().size() && trace.processes()[p].deviceId >= 0)
            return p;
    }
    if (rank.processes.empty())
        return std::nullopt;
    return rank.processes.front();
}

}  // namespace

RankPanel::RankPanel(QWidget* parent) : QWidget(parent) {
    m_summary = new QLabel(emptyText(), this);
    m_summary->setObjectName(QStringLiteral("rankSummary"));
    m_summary->setWordWrap(true);
    m_overviewCaption = new QLabel(
        tr("Over time: dark where a rank's GPUs worked (NCCL collectives, which wait for late "
           "ranks, left out); click to see a rank at that time."),
        this);
    m_overviewCaption->setWordWrap(true);
    m_heatMap = new RankHeatMap(this);
    m_heatMap->setObjectName(QStringLiteral("rankHeatMap"));
    m_collectives = new QLabel(this);
    m_collectives->setObjectName(QStringLiteral("rankCollectives"));
    m_collectives->setWordWrap(true);
    m_collectives->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_collectiveMap = new CollectiveMap(this);
    m_collectiveMap->setObjectName(QStringLiteral("rankCollectiveMap"));
    m_table = new QTableWidget(0, kColumns, this);
    m_table->setObjectName(QStringLiteral("rankTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Host"), tr("GPU busy"), tr("Idle"), tr("Kernels"), tr("NCCL")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Rows as short as the text: a two-rank job's both rows fit a low dock.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_stragglers = new QLabel(this);
    m_stragglers->setObjectName(QStringLiteral("rankStragglers"));
    m_stragglers->setWordWrap(true);
    m_stragglers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stragglers->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    // The panel lives in a bottom dock a few hundred pixels high: each part keeps the height it
    // is read at (the maps their ranks' rows, the table three ranks' rows: setStats, the texts
    // their lines) and the panel scrolls when the dock is lower than their sum; a taller dock
    // gives the rest to the maps, the table and the stragglers.
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    // Who kept the others waiting at the collectives first: what a job's user asks first.
    layout->addWidget(m_summary);
    layout->addWidget(m_collectives);
    layout->addWidget(m_collectiveMap, 2);
    layout->addWidget(m_overviewCaption);
    layout->addWidget(m_heatMap, 2);
    layout->addWidget(m_table, 2);
    layout->addWidget(m_stragglers, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the texts wrap instead
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(m_heatMap, &RankHeatMap::cellActivated, this,
            [this](int row, model::TimeNs startNs, model::TimeNs endNs) {
                if (!m_stats || row < 0 || row >= static_cast<int>(m_stats->ranks.size()))
                    return;
                const auto process = shownProcess(*m_trace, m_stats->ranks[std::size_t(row)]);
                if (process)
                    emit rankTimeActivated(*process, startNs, endNs);
            });
    connect(m_collectiveMap, &CollectiveMap::cellActivated, this, [this](int rank, int collective) {
        if (!m_stats || rank < 0 || collective < 0)
            return;
        const auto kernels =
            collectiveKernels(*m_stats, std::size_t(collective), std::size_t(rank));
        if (!kernels.empty())
            emit collectiveActivated(kernels);
    });
}

std::vector<model::SliceRef> RankPanel::collectiveKernels(const analysis::RankStats& stats,
                                                          std::size_t collective,
                                                          std::size_t rank) {
    const auto& all = stats.collectives.collectives;
    if (collective >= all.size())
        return {};
    std::vector<model::SliceRef> out;
    const analysis::MatchedCollective& c = all[collective];
    if (const analysis::CollectiveArrival* clicked = c.arrivalOf(rank))
        out.push_back(clicked->kernel);
    for (const analysis::CollectiveArrival& a : c.arrivals) {
        if (a.rank != rank)
            out.push_back(a.kernel);
    }
    return out;
}

QString RankPanel::collectivesText(const analysis::RankStats& stats) {
    const analysis::CollectiveStats& s = stats.collectives;
    QStringList parts;
    if (!s.collectives.empty()) {
        QStringList names;
        bool byOrder = false;
        for (const analysis::Communicator& c : s.communicators) {
            names << QString::fromStdString(c.name);
            byOrder = byOrder || c.key == analysis::CollectiveKey::StreamOrder;
        }
        parts << tr("Collectives: %1 matched on %2%3.")
                     .arg(s.collectives.size())
                     .arg(names.join(QStringLiteral(", ")))
                     .arg(byOrder ? tr(" (by each rank's kernel order)") : QString());
        if (const auto most = s.mostOftenLast()) {
            parts << tr("Rank %1 arrived last at %2, late by %3 in all; the ranks waited %4.")
                         .arg(stats.ranks[*most].rank)
                         .arg(s.lastCount[*most])
                         .arg(units::duration(s.latenessNs[*most]), units::duration(s.totalWaitNs));
        }
        if (const auto costliest = s.costliest(1); !costliest.empty()) {
            const analysis::MatchedCollective& c = s.collectives[costliest.front()];
            parts << tr("Costliest: %1 #%2, rank %3 late by %4.")
                         .arg(QString::fromStdString(c.name))
                         .arg(c.sequence)
                         .arg(stats.ranks[c.lastArrival().rank].rank)
                         .arg(units::duration(c.latenessNs));
        }
        parts << tr("Amber: a rank waited; red: it arrived last; click to select.");
    }
    for (const analysis::CollectiveMismatch& m : s.mismatches)
        parts << tr("Not matched: %1.").arg(QString::fromStdString(s.describe(m)));
    return parts.join(QLatin1Char(' '));
}

QString RankPanel::stragglersText(const analysis::RankStats& stats) {
    QStringList lines;
    for (const analysis::RangeStragglers& s : stats.stragglers) {
        if (s.iterations.empty() || s.mostOftenSlowest >= stats.ranks.size())
            continue;
        const analysis::JobRank& slowest = stats.ranks[s.mostOftenSlowest];
        lines << tr("'%1': rank %2 slowest in %3 of %4 iterations; spread %5 on average, at most "
                    "%6; the slowest %7x the median")
                     .arg(QString::fromStdString(s.name))
                     .arg(slowest.rank)
                     .arg(s.slowestCount[s.mostOftenSlowest])
                     .arg(s.iterations.size())
                     .arg(units::duration(s.meanSpreadNs), units::duration(s.maxSpreadNs))
                     .arg(s.meanMaxOverMedian, 0, 'f', 2);
        if (lines.size() == 3)
            break;
    }
    return lines.join(QLatin1Char('\n'));
}

void RankPanel::setStats(model::TracePtr trace, std::shared_ptr<const analysis::RankStats> stats) {
    m_trace = std::move(trace);
    m_stats = m_trace ? std::move(stats) : nullptr;
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    if (!m_stats || m_stats->ranks.empty()) {
        m_summary->setText(emptyText());
        m_overviewCaption->hide();
        m_heatMap->setData({});
        m_collectives->clear();
        m_collectives->hide();
        m_collectiveMap->setStats(nullptr);
        m_collectiveMap->hide();
        m_stragglers->clear();
        return;
    }
    const analysis::RankStats& s = *m_stats;
    m_summary->setText(tr("%1 ranks, %2, over %3.")
                           .arg(s.ranks.size())
                           .arg(QString::fromStdString(analysis::rankAlignment(*m_trace)))
                           .arg(QString::fromStdString(analysis::describeWindow(s.window))));
    m_overviewCaption->show();
    m_heatMap->setData(heatMapOf(s));
    // The map only where collectives were matched; a job without any says so in a line.
    const QString collectives = collectivesText(s);
    m_collectives->setText(collectives.isEmpty()
                               ? tr("Collectives: no NCCL collective on two or more ranks.")
                               : collectives);
    m_collectives->show();
    m_collectiveMap->setStats(m_stats);
    m_collectiveMap->setVisible(!s.collectives.collectives.empty());
    m_table->setRowCount(static_cast<int>(s.ranks.size()));
    for (std::size_t r = 0; r < s.ranks.size(); ++r) {
        const int row = static_cast<int>(r);
        const analysis::JobRank& rank = s.ranks[r];
        auto* name = new QTableWidgetItem(QString::fromStdString(rank.label));
        name->setData(Qt::UserRole, rank.rank);
        m_table->setItem(row, cRank, name);
        m_table->setItem(row, cHost, new QTableWidgetItem(QString::fromStdString(rank.host)));
        if (r < s.utilization.size()) {
            const analysis::RankUtilization& u = s.utilization[r];
            m_table->setItem(row, cBusyPct, numberItem(units::percent(u.busyPct()), u.busyPct()));
            m_table->setItem(row, cIdle,
                             numberItem(units::duration(u.idleNs()), double(u.idleNs())));
            m_table->setItem(row, cKernels,
                             numberItem(units::duration(u.kernelNs), double(u.kernelNs)));
            m_table->setItem(row, cComms,
                             numberItem(units::duration(u.commsNs), double(u.commsNs)));
        }
    }
    m_table->resizeColumnsToContents();
    const int shownRows = std::min(m_table->rowCount(), 3);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              shownRows * m_table->verticalHeader()->defaultSectionSize() +
                              m_table->horizontalScrollBar()->sizeHint().height() +
                              2 * m_table->frameWidth() + 2);
    QString text = stragglersText(s);
    // The estimate from NCCL time alone, where no collective could be matched to say it.
    const auto late =
        s.collectives.collectives.empty() ? analysis::lateRankAtCollectives(s) : std::nullopt;
    if (late) {
        // Busy shares count the time a rank waits inside its collectives as work: say who the
        // others wait for.
        const analysis::JobRank& rank = s.ranks[late->index];
        const QString lateText =
            tr("Rank %1 arrives last at the collectives: its NCCL kernels took %2, the others' up "
               "to %3, so they waited for it about %4 in all (their busy share counts that "
               "waiting)")
                .arg(rank.rank)
                .arg(units::duration(s.utilization[late->index].commsNs),
                     units::duration(late->maxCommsNs), units::duration(late->waitedNs));
        text = text.isEmpty() ? lateText : lateText + QLatin1Char('\n') + text;
    }
    m_stragglers->setText(text);
}

}  // namespace wl::ui
