#include "app/gui/DocumentController.h"

#include <QFileInfo>

#include "app/gui/ImportNotes.h"
#include "io/ReadControl.h"

namespace wl::app {

DocumentController::DocumentController(QSettings& settings, TraceLoadFn load, QObject* parent)
    : QObject(parent), m_recent(settings) {
    m_loader = new TraceLoader(this);
    if (load)
        m_loader->setLoadFunction(std::move(load));
    connect(m_loader, &TraceLoader::loadingChanged, this, &DocumentController::busyChanged);
    connect(m_loader, &TraceLoader::progressChanged, this, &DocumentController::progressChanged);
    connect(m_loader, &TraceLoader::loaded, this, &DocumentController::onLoaded);
    connect(m_loader, &TraceLoader::jobLoaded, this, &DocumentController::onJobLoaded);
    m_exporter = new TraceExporter(this);
    connect(m_exporter, &TraceExporter::savingChanged, this, &DocumentController::exportingChanged);
    connect(m_exporter, &TraceExporter::savingChanged, this, &DocumentController::busyChanged);
    connect(m_exporter, &TraceExporter::saved, this, &DocumentController::exported);
}

// The loader, exporter and analyzer drop what they have not delivered yet: no worker holds this.
DocumentController::~DocumentController() = default;

bool DocumentController::isLoading() const {
    return m_loader->isLoading();
}

void DocumentController::stopLoading() {
    m_loader->stop();
}

bool DocumentController::isBusy() const {
    return m_loader->isLoading() || m_analyzer.isBusy() || m_exporter->isSaving();
}

void DocumentController::load(LoadIntent intent) {
    if (intent.paths.isEmpty())
        return;
    // Several files, or a folder: a job's per-rank traces.
    if (intent.paths.size() > 1 || QFileInfo(intent.path()).isDir())
        intent.source = LoadIntent::Source::RankJob;
    if (intent.source == LoadIntent::Source::RankJob) {
        emit activity(tr("Opening %n rank trace(s)...", nullptr, int(intent.paths.size())));
        m_loader->loadJob(std::move(intent));  // onJobLoaded answers
        return;
    }
    if (intent.origin() == TraceDocument::Origin::File)
        emit activity(tr("Opening %1...").arg(QFileInfo(intent.path()).fileName()));
    m_loader->load(std::move(intent));  // onLoaded answers
}

void DocumentController::add(DocumentPtr document) {
    const QString title = document->title;
    const bool dropped = m_documents.add(std::move(document));
    emit documentAdded(title, dropped);
    setCurrent(m_documents.size() - 1);
}

void DocumentController::addRun(const RunRequest& request, const RunOutcome& outcome) {
    add(TraceDocument::fromRun(request, outcome, ++m_runNumber));
}

bool DocumentController::setCurrent(int index) {
    if (!m_documents.setCurrent(index))
        return false;
    const DocumentPtr doc = m_documents.at(index);
    emit currentChanged(doc);
    const std::shared_ptr<const DocumentAnalysis> known = m_documents.analysisAt(index);
    m_windowRequest = known ? known->request : analysis::WindowRequest{};
    if (known) {
        m_analyzer.abandonCurrent();  // an older document's analysis must not land here
        emit analysisReady(known, true);
    } else {
        analyzeCurrent(true);
    }
    emit currentSettled();
    return true;
}

std::shared_ptr<const DocumentAnalysis> DocumentController::currentAnalysis() const {
    return m_documents.currentAnalysis();
}

std::shared_ptr<const DocumentAnalysis> DocumentController::analysisOf(
    const model::TracePtr& trace) const {
    return m_documents.analysisOf(trace);
}

void DocumentController::analyzeWindow(const analysis::WindowRequest& request) {
    if (!current())
        return;
    m_windowRequest = request;
    analyzeCurrent(false);  // keep the user's view
}

void DocumentController::setGapThresholdNs(model::TimeNs thresholdNs) {
    m_options.gapThresholdNs = thresholdNs;
    m_documents.clearAnalyses();  // every one used the old threshold
    analyzeCurrent(false);        // keep the user's view
}

void DocumentController::analyzeCurrent(bool focus) {
    const DocumentPtr doc = current();
    if (!doc)
        return;
    emit analysisStarted();
    // The analysis this document has (another window of it): its warp badges can be kept.
    std::shared_ptr<const DocumentAnalysis> previous = currentAnalysis();
    m_analyzer.analyze(doc, m_options, m_windowRequest, std::move(previous),
                       [this, doc, focus](std::shared_ptr<const DocumentAnalysis> result) {
                           // The document may have moved in the history (or left it) meanwhile.
                           m_documents.setAnalysis(doc, result);
                           if (current() == doc)
                               emit analysisReady(result, focus);
                           emit busyChanged();
                       });
    emit busyChanged();
}

void DocumentController::compare(DocumentPtr baseline, DocumentPtr async,
                                 std::pair<QString, QString> names) {
    if (names.first.isEmpty())
        names = {tr("Baseline"), tr("Async")};
    m_analyzer.analyzePair(
        baseline, async, m_options, [this, baseline, async, names](AnalysisPair results) {
            m_documents.setAnalysis(baseline, results.first,
                                    /*onlyIfNone=*/true);
            m_documents.setAnalysis(async, results.second,
                                    /*onlyIfNone=*/true);
            emit comparisonReady(baseline, async, results, names.first, names.second);
            emit busyChanged();
        });
    emit busyChanged();
}

bool DocumentController::exportCurrent(const QString& path) {
    const DocumentPtr doc = current();
    if (!doc)
        return false;
    emit activity(tr("Exporting %1…").arg(QFileInfo(path).fileName()));
    m_exporter->save(doc->trace, path);  // exported() says how it went
    return true;
}

void DocumentController::onLoaded(const LoadIntent& intent,
                                  const model::Result<model::TracePtr>& result) {
    const QString path = intent.path();
    if (!result.ok() && result.error().message == io::kReadCancelled) {
        emit message(MessageBar::Level::Info,
                     tr("Stopped opening %1.").arg(QFileInfo(path).fileName()));
        emit openFinished(false);
        return;
    }
    if (!result.ok()) {
        // Nothing to compare with, nor a pair to go on with: the intent ends here.
        emit message(MessageBar::Level::Error,
                     tr("Could not open %1: %2")
                         .arg(QFileInfo(path).fileName(),
                              QString::fromStdString(result.error().describe())));
        emit openFinished(false);
        return;
    }
    add(TraceDocument::fromFile(result.value(), path, intent.origin()));
    if (!intent.next.isEmpty()) {
        // A sample pair: its second trace comes next, to be compared with this one.
        m_loader->load({LoadIntent::Source::SamplePair, {intent.next}, current()});
        return;  // openFinished comes with the second
    }
    if (const DocumentPtr& first = intent.compareWith)
        compare(first, current(), {QFileInfo(first->title).fileName(), QFileInfo(path).fileName()});
    if (intent.origin() == TraceDocument::Origin::File) {
        m_recent.add(path);
        emit recentChanged(m_recent.list());
    }
    reportLoad(path, result.value()->diagnostics(), intent.origin());
    emit openFinished(true);
}

void DocumentController::onJobLoaded(const LoadIntent& intent,
                                     const model::Result<io::RankJob>& result) {
    if (!result.ok() && result.error().message == io::kReadCancelled) {
        emit message(MessageBar::Level::Info, tr("Stopped opening the rank traces."));
        emit openFinished(false);
        return;
    }
    if (!result.ok()) {
        emit message(MessageBar::Level::Error,
                     tr("Could not open the rank traces: %1")
                         .arg(QString::fromStdString(result.error().describe())));
        emit openFinished(false);
        return;
    }
    const io::RankJob& job = result.value();
    QStringList rankPaths;
    for (const auto& rank : job.ranks)
        rankPaths << QString::fromStdString(rank.path);
    add(TraceDocument::fromJob(job.trace, rankPaths.isEmpty() ? intent.paths : rankPaths));
    QString text = tr("Opened %1 ranks, %2.")
                       .arg(job.ranks.size())
                       .arg(QString::fromStdString(job.alignmentText));
    for (const std::string& w : job.warnings)
        text += QLatin1Char(' ') + QString::fromStdString(w);
    emit message(job.warnings.empty() ? MessageBar::Level::Info : MessageBar::Level::Warning, text);
    emit openFinished(true);
}

void DocumentController::reportLoad(const QString& path, const model::Diagnostics& diag,
                                    TraceDocument::Origin origin) {
    if (origin == TraceDocument::Origin::Sample && !m_deviceAvailable) {
        emit message(MessageBar::Level::Info,
                     tr("No GPU here, so this is %1, a sample recorded on a real GPU (more in "
                        "File > Open Sample). Open your own trace with Ctrl+O or drop it on the "
                        "window.")
                         .arg(QFileInfo(path).fileName()));
    } else if (diag.lostData()) {
        emit message(MessageBar::Level::Error,
                     tr("This trace lost %1 records (tracer buffers were full): gaps may be "
                        "missing work.")
                         .arg(diag.droppedRecords));
    } else if (diag.warningCount > 0 || diag.noteCount > 0) {
        // Warnings in yellow; routine quirks of the producer (flow ends Kineto leaves unmatched,
        // ...) said quietly.
        const bool warn = diag.warningCount > 0;
        const auto& messages = warn ? diag.warnings : diag.notes;
        emit message(
            warn ? MessageBar::Level::Warning : MessageBar::Level::Info,
            (warn ? tr("%1 warning(s) while reading %2; first: %3")
                  : tr("%1 note(s) on %2 (routine quirks of the tool that wrote it); first: %3"))
                .arg(warn ? diag.warningCount : diag.noteCount)
                .arg(QFileInfo(path).fileName(),
                     messages.empty() ? QString() : QString::fromStdString(messages.front())),
            importNotesListing(diag));
    } else {
        emit messageCleared();
    }
}

}  // namespace wl::app
