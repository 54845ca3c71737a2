#include "app/gui/TraceDocument.h"

#include <QFileInfo>
#include <QObject>
#include <algorithm>
#include <string>

#include "app/RunOptions.h"

namespace wl::app {

QString describeRequest(const RunRequest& r) {
    QString text = QStringLiteral("%1 %2").arg(QString::fromStdString(r.workload),
                                               QString::fromStdString(r.mode));
    if (r.mode == workloads::kAsync || r.streams > 1) {
        text += QStringLiteral(", %1 stream%2").arg(r.streams).arg(r.streams == 1 ? "" : "s");
    }
    text += r.pinned ? QStringLiteral(", pinned") : QStringLiteral(", pageable");
    if (r.size > 0)
        text += QStringLiteral(", size %1").arg(r.size);
    if (r.repeat > 0 && r.workload == workloads::kReduce)
        text += QStringLiteral(", repeat %1").arg(r.repeat);
    if (r.steps > 0 && r.workload == workloads::kPower)
        text += QStringLiteral(", %1 steps").arg(r.steps);
    if (r.sharedStreamBug)
        text += QStringLiteral(", shared-stream bug");
    if (r.graph)
        text += QStringLiteral(", CUDA graphs");
    if (r.devices > 1 && r.workload == workloads::kReduce)
        text += QStringLiteral(", %1 GPUs").arg(r.devices);
    if (r.gpuMetrics)
        text += QStringLiteral(", GPU metrics");
    return text;
}

DocumentPtr TraceDocument::fromFile(model::TracePtr trace, const QString& path, Origin origin) {
    auto doc = std::make_shared<TraceDocument>();
    doc->origin = origin;
    doc->trace = std::move(trace);
    doc->path = path;
    doc->title = QFileInfo(path).fileName();
    doc->exportStem = traceFileStem(path);
    doc->request = runRequestOf(*doc->trace);
    if (origin == Origin::Sample)
        doc->title += QStringLiteral(" (sample)");
    return doc;
}

DocumentPtr TraceDocument::fromJob(model::TracePtr trace, const QStringList& rankPaths) {
    auto doc = std::make_shared<TraceDocument>();
    doc->origin = Origin::File;
    doc->trace = std::move(trace);
    const QString first = rankPaths.isEmpty() ? QString() : QFileInfo(rankPaths.front()).fileName();
    doc->title = QObject::tr("%1 ranks: %2%3")
                     .arg(rankPaths.size())
                     .arg(first, rankPaths.size() > 1 ? QObject::tr(" and more") : QString());
    doc->exportStem = jobExportStem(rankPaths);
    doc->request = runRequestOf(*doc->trace);
    return doc;
}

QString traceFileStem(const QString& path) {
    QString name = QFileInfo(path).fileName();
    for (const QLatin1String ext : {QLatin1String(".gz"), QLatin1String(".json"),
                                    QLatin1String(".trace"), QLatin1String(".pt")}) {
        if (name.endsWith(ext, Qt::CaseInsensitive))
            name.chop(ext.size());
    }
    return name;
}

QString jobExportStem(const QStringList& rankPaths) {
    QString common;
    for (int i = 0; i < rankPaths.size(); ++i) {
        const QString stem = traceFileStem(rankPaths[i]);
        if (i == 0) {
            common = stem;
            continue;
        }
        qsizetype n = 0;
        while (n < common.size() && n < stem.size() && common[n] == stem[n])
            ++n;
        common.truncate(n);
    }
    // What tells the ranks apart goes, and what only led up to it: "hta_sampled_rank-" loses
    // "-" and "_rank"; a single rank's file keeps its number.
    if (rankPaths.size() > 1) {
        const auto trimSeparators = [&common] {
            while (!common.isEmpty() && QStringLiteral("-_. ").contains(common.back()))
                common.chop(1);
        };
        trimSeparators();
        if (common.endsWith(QLatin1String("rank"), Qt::CaseInsensitive)) {
            common.chop(4);
            trimSeparators();
        }
    }
    return (common.isEmpty() ? QStringLiteral("ranks") : common) + QStringLiteral(".merged");
}

DocumentPtr TraceDocument::fromRun(const RunRequest& request, const RunOutcome& outcome,
                                   int runNumber) {
    auto doc = std::make_shared<TraceDocument>();
    doc->origin = Origin::Run;
    doc->trace = outcome.trace;
    doc->request = request;
    doc->checkPassed = outcome.checkPassed;
    doc->checkText = QString::fromStdString(outcome.checkText);
    doc->summaryText = QString::fromStdString(outcome.summaryText);
    doc->wallTimeMs = outcome.wallTimeMs;
    doc->timedPartMs = outcome.timedPartMs;
    doc->title = QStringLiteral("Run %1: %2").arg(runNumber).arg(describeRequest(request));
    return doc;
}

QString lastRunSummary(const TraceDocument& doc) {
    QString text = doc.title;
    if (!doc.checkText.isEmpty()) {
        // Words, not check-mark glyphs: screenshots are taken where few fonts are installed.
        text +=
            QStringLiteral(" — %1: %2")
                .arg(doc.checkPassed ? QObject::tr("check passed") : QObject::tr("CHECK FAILED"),
                     doc.checkText);
    }
    if (doc.wallTimeMs > 0.0)
        text += QObject::tr(" — wall time %1 ms").arg(doc.wallTimeMs, 0, 'f', 1);
    return text;
}

}  // namespace wl::app
