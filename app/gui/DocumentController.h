#pragma once

#include <QObject>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <memory>
#include <utility>

#include "app/gui/DocumentAnalysis.h"
#include "app/gui/DocumentAnalyzer.h"
#include "app/gui/DocumentHistory.h"
#include "app/gui/MessageBar.h"
#include "app/gui/RecentFiles.h"
#include "app/gui/RunController.h"
#include "app/gui/TraceDocument.h"
#include "app/gui/TraceExporter.h"
#include "app/gui/TraceLoader.h"

namespace wl::app {

// The window's documents and what happens to them, with no widget: opening a trace (a file, a
// job's per-rank traces, a sample, a pair to compare; each load carries its LoadIntent and gets
// it back with the result), the history of documents and which one is current, the analysis of
// the current one over its window, the analyses of a comparison, the recent files and the
// export of a trace. It says what happened through signals; the window decides how to show it.
// GUI thread; the loads, analyses and exports run on the workers of its loader, analyzer and
// exporter, which stop what they were doing when a newer request or the destructor comes.
class DocumentController : public QObject {
    Q_OBJECT

public:
    // `load`: empty for io::loadTrace (and resources). `settings`: where the recent files live.
    DocumentController(QSettings& settings, TraceLoadFn load, QObject* parent = nullptr);
    ~DocumentController() override;

    // ---- opening ----
    // Loads `intent` in the background (several paths or a folder: a job's per-rank traces).
    void load(LoadIntent intent);
    // Adds a document (a run's, a built trace) and makes it current.
    void add(DocumentPtr document);
    // Adds a finished run's document, numbered after the runs before it.
    void addRun(const RunRequest& request, const RunOutcome& outcome);
    // Whether there is no GPU here: a sample then says it stands in for a run.
    void setDeviceAvailable(bool available) { m_deviceAvailable = available; }

    // ---- the documents ----
    const DocumentHistory& documents() const { return m_documents; }
    DocumentPtr current() const { return m_documents.current(); }
    // False (nothing changes) for an index out of range.
    bool setCurrent(int index);
    std::shared_ptr<const DocumentAnalysis> currentAnalysis() const;
    std::shared_ptr<const DocumentAnalysis> analysisOf(const model::TracePtr& trace) const;
    RecentFiles& recent() { return m_recent; }

    // ---- analyses ----
    // Analyses the current document over `request` (a selection, an NVTX range, the whole trace,
    // {}: the default window), keeping the user's view.
    void analyzeWindow(const analysis::WindowRequest& request);
    analysis::WindowRequest windowRequest() const { return m_windowRequest; }
    // Idle gaps shorter than this are not gaps; every document is analysed again as asked.
    void setGapThresholdNs(model::TimeNs thresholdNs);
    const analysis::AnalysisOptions& analysisOptions() const { return m_options; }
    // Analyses both documents over their default windows; comparisonReady() answers. `names`:
    // what the two sides are called ("Baseline"/"Async" when empty).
    void compare(DocumentPtr baseline, DocumentPtr async, std::pair<QString, QString> names = {});

    // Writes the current trace to `path` on a worker; exported() answers. False without one.
    bool exportCurrent(const QString& path);

    // Loading, analysing or exporting.
    bool isBusy() const;
    bool isLoading() const;
    // Stops the file (or job) being opened; what was shown stays, and the message bar says so.
    void stopLoading();

signals:
    // What the status line says a long job is doing, and how far it is (loads: 0..1).
    void activity(const QString& text);
    void progressChanged(double fraction, const QString& label);
    // isBusy() may have changed.
    void busyChanged();
    // A document joined the history (last); `droppedOldest`: the first one left it for it.
    void documentAdded(const QString& title, bool droppedOldest);
    // The current document is `doc` now: show its trace. Its analysis follows
    // (analysisStarted(), then analysisReady()), then currentSettled().
    void currentChanged(const wl::app::DocumentPtr& doc);
    void currentSettled();
    // An analysis of the current document started (the status line says so meanwhile).
    void analysisStarted();
    // The current document's analysis; `focus`: zoom to the GPU's work (a newly shown document).
    void analysisReady(const std::shared_ptr<const wl::app::DocumentAnalysis>& analysis,
                       bool focus);
    void comparisonReady(const wl::app::DocumentPtr& baseline, const wl::app::DocumentPtr& async,
                         const wl::app::AnalysisPair& results, const QString& baselineName,
                         const QString& asyncName);
    // What a load found to tell (an error, what the reader noticed, a job's alignment), or that
    // the message bar has nothing to say about the new document. `details`: all of it, one
    // line each, when the text names only the first (MessageBar's Details).
    void message(wl::app::MessageBar::Level level, const QString& text,
                 const QString& details = {});
    void messageCleared();
    void recentChanged(const QStringList& paths);
    void openFinished(bool ok);
    void exportingChanged(bool exporting);
    void exported(const QString& path, const wl::model::Status& status);

private:
    void onLoaded(const LoadIntent& intent, const model::Result<model::TracePtr>& result);
    void onJobLoaded(const LoadIntent& intent, const model::Result<io::RankJob>& result);
    // Tells what reading the trace at `path` noticed (lost records, warnings), or clears the bar.
    void reportLoad(const QString& path, const model::Diagnostics& diag,
                    TraceDocument::Origin origin);
    // `focus`: zoom the timeline to the GPU's work when the analysis arrives.
    void analyzeCurrent(bool focus);

    RecentFiles m_recent;
    TraceLoader* m_loader = nullptr;
    TraceExporter* m_exporter = nullptr;
    DocumentHistory m_documents;
    analysis::AnalysisOptions m_options;
    analysis::WindowRequest m_windowRequest;  // of the current document
    DocumentAnalyzer m_analyzer{this};
    int m_runNumber = 0;
    bool m_deviceAvailable = false;
};

}  // namespace wl::app
