#include "app/gui/DocumentHistory.h"

namespace wl::app {

bool DocumentHistory::add(DocumentPtr document) {
    m_documents.push_back(std::move(document));
    m_analyses.emplace_back();
    const bool dropped = size() > kMaxDocuments;
    if (dropped) {
        m_documents.erase(m_documents.begin());
        m_analyses.erase(m_analyses.begin());
    }
    m_current = size() - 1;
    return dropped;
}

bool DocumentHistory::setCurrent(int index) {
    if (index < 0 || index >= size())
        return false;
    m_current = index;
    return true;
}

DocumentPtr DocumentHistory::current() const {
    return m_current >= 0 && m_current < size() ? at(m_current) : nullptr;
}

std::shared_ptr<const DocumentAnalysis> DocumentHistory::currentAnalysis() const {
    return m_current >= 0 && m_current < size() ? analysisAt(m_current) : nullptr;
}

std::shared_ptr<const DocumentAnalysis> DocumentHistory::analysisOf(
    const model::TracePtr& trace) const {
    for (std::size_t i = 0; i < m_documents.size(); ++i) {
        if (m_documents[i]->trace == trace && m_analyses[i])
            return m_analyses[i];
    }
    return nullptr;
}

void DocumentHistory::setAnalysis(const DocumentPtr& document,
                                  std::shared_ptr<const DocumentAnalysis> analysis,
                                  bool onlyIfNone) {
    for (std::size_t i = 0; i < m_documents.size(); ++i) {
        if (m_documents[i] == document && !(onlyIfNone && m_analyses[i]))
            m_analyses[i] = analysis;
    }
}

void DocumentHistory::clearAnalyses() {
    for (auto& a : m_analyses)
        a.reset();
}

}  // namespace wl::app
