#pragma once

#include <memory>
#include <vector>

#include "app/gui/DocumentAnalysis.h"
#include "app/gui/TraceDocument.h"

namespace wl::app {

// The window's documents (every opened file and every run), newest last, at most kMaxDocuments
// (the oldest goes), each with its latest analysis (null until one is computed, and after the
// analysis options change), and which one is current. A document is found by identity, since an
// analysis finishing on a worker may find it moved in the list or gone. Plain value; GUI thread.
class DocumentHistory {
public:
    static constexpr int kMaxDocuments = 16;

    // Adds `document` last and makes it current; true when the oldest was dropped for it.
    bool add(DocumentPtr document);
    int size() const { return static_cast<int>(m_documents.size()); }
    DocumentPtr at(int index) const { return m_documents.at(static_cast<std::size_t>(index)); }
    std::shared_ptr<const DocumentAnalysis> analysisAt(int index) const {
        return m_analyses.at(static_cast<std::size_t>(index));
    }

    int currentIndex() const { return m_current; }
    // False (and nothing changes) for an index out of range.
    bool setCurrent(int index);
    DocumentPtr current() const;  // null when there is none
    std::shared_ptr<const DocumentAnalysis> currentAnalysis() const;

    // The analysis of whichever document shows `trace` (null when none has one).
    std::shared_ptr<const DocumentAnalysis> analysisOf(const model::TracePtr& trace) const;
    // Records `analysis` for `document` wherever it is now; `onlyIfNone` keeps one it has.
    void setAnalysis(const DocumentPtr& document, std::shared_ptr<const DocumentAnalysis> analysis,
                     bool onlyIfNone = false);
    // Forgets every analysis (the options they were made with changed).
    void clearAnalyses();

private:
    std::vector<DocumentPtr> m_documents;
    std::vector<std::shared_ptr<const DocumentAnalysis>> m_analyses;  // parallel to m_documents
    int m_current = -1;
};

}  // namespace wl::app
