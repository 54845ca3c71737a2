#pragma once

#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>

#include "app/gui/DocumentAnalysis.h"
#include "app/gui/TraceDocument.h"
#include "ui/common/JobTracker.h"

namespace wl::app {

// The analyses of the two sides of a comparison.
struct AnalysisPair {
    std::shared_ptr<const DocumentAnalysis> first;
    std::shared_ptr<const DocumentAnalysis> second;
};

// Analyses documents on worker threads for the window: the current document over its window (a
// newer request supersedes the older one), and two documents for Compare (likewise). Each result
// comes to its callback on the context's thread, with nothing of the request kept here.
class DocumentAnalyzer {
public:
    using Then = std::function<void(std::shared_ptr<const DocumentAnalysis>)>;
    using ThenPair = std::function<void(AnalysisPair)>;

    // What analyses one document (analyzeDocument; injectable so that tests can watch the
    // cancel flag a worker is given).
    using AnalyzeFn = std::function<std::shared_ptr<const DocumentAnalysis>(
        const model::Trace& trace, const analysis::AnalysisOptions& options,
        const analysis::WindowRequest& request, std::shared_ptr<const DocumentAnalysis> previous,
        const std::atomic<bool>* cancel)>;

    explicit DocumentAnalyzer(QObject* context, AnalyzeFn analyze = defaultAnalyze())
        : m_analyze(std::move(analyze)), m_current(context), m_pair(context) {}

    // `previous`: an analysis of the same document (another window), whose warp badges are kept.
    // A superseded or abandoned analysis stops where it is (its token's flag) and delivers
    // nothing.
    void analyze(DocumentPtr doc, const analysis::AnalysisOptions& options,
                 const analysis::WindowRequest& request,
                 std::shared_ptr<const DocumentAnalysis> previous, Then then) {
        m_current.startJob(
            m_pool,
            [analyze = m_analyze, doc = std::move(doc), options, request,
             previous = std::move(previous)](const ui::JobToken& job) {
                return analyze(*doc->trace, options, request, previous, job.flag());
            },
            std::move(then));
    }
    // Both documents over their default windows.
    void analyzePair(DocumentPtr first, DocumentPtr second,
                     const analysis::AnalysisOptions& options, ThenPair then) {
        m_pair.startJob(
            m_pool,
            [analyze = m_analyze, first = std::move(first), second = std::move(second),
             options](const ui::JobToken& job) {
                AnalysisPair out;
                out.first = analyze(*first->trace, options, {}, nullptr, job.flag());
                if (!job.isCancelled())  // superseded: the second is not wanted either
                    out.second = analyze(*second->trace, options, {}, nullptr, job.flag());
                return out;
            },
            std::move(then));
    }
    // The current document's analysis in flight must not land (another document is shown).
    void abandonCurrent() { m_current.abandon(); }
    bool isBusy() const { return m_current.isRunning() || m_pair.isRunning(); }

private:
    static AnalyzeFn defaultAnalyze() {
        return
            [](const model::Trace& trace, const analysis::AnalysisOptions& options,
               const analysis::WindowRequest& request,
               std::shared_ptr<const DocumentAnalysis> previous, const std::atomic<bool>* cancel) {
                return analyzeDocument(trace, options, request, std::move(previous), cancel);
            };
    }

    AnalyzeFn m_analyze;
    QThreadPool m_pool;  // declared first: destroyed last, after the trackers dropped their jobs
    ui::JobTracker m_current;
    ui::JobTracker m_pair;
};

}  // namespace wl::app
