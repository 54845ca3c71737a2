#pragma once

#include <QObject>
#include <QThreadPool>
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

    explicit DocumentAnalyzer(QObject* context) : m_current(context), m_pair(context) {}

    // `previous`: an analysis of the same document (another window), whose warp badges are kept.
    // A superseded or abandoned analysis stops where it is (its token's flag) and delivers
    // nothing.
    void analyze(DocumentPtr doc, const analysis::AnalysisOptions& options,
                 const analysis::WindowRequest& request,
                 std::shared_ptr<const DocumentAnalysis> previous, Then then) {
        m_current.startJob(
            m_pool,
            [doc = std::move(doc), options, request,
             previous = std::move(previous)](const ui::JobToken& job) {
                return analyzeDocument(*doc->trace, options, request, previous, job.flag());
            },
            std::move(then));
    }
    // Both documents over their default windows.
    void analyzePair(DocumentPtr first, DocumentPtr second,
                     const analysis::AnalysisOptions& options, ThenPair then) {
        m_pair.startJob(
            m_pool,
            [first = std::move(first), second = std::move(second),
             options](const ui::JobToken& job) {
                AnalysisPair out;
                out.first = analyzeDocument(*first->trace, options, {}, nullptr, job.flag());
                if (!job.isCancelled())  // superseded: the second is not wanted either
                    out.second = analyzeDocument(*second->trace, options, {}, nullptr, job.flag());
                return out;
            },
            std::move(then));
    }
    // The current document's analysis in flight must not land (another document is shown).
    void abandonCurrent() { m_current.abandon(); }
    bool isBusy() const { return m_current.isRunning() || m_pair.isRunning(); }

private:
    QThreadPool m_pool;  // declared first: destroyed last, after the trackers dropped their jobs
    ui::JobTracker m_current;
    ui::JobTracker m_pair;
};

}  // namespace wl::app
