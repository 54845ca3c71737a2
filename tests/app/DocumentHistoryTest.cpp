// The window's documents: bounded, newest last, analyses found by identity.
#include <gtest/gtest.h>

#include "app/gui/DocumentHistory.h"
#include "support/TraceFactory.h"

namespace wl::app {
namespace {

DocumentPtr documentNamed(const QString& title) {
    test::SyntheticTraceSpec spec;
    spec.kernels = 2;
    return TraceDocument::fromFile(test::makeSyntheticTrace(spec), title,
                                   TraceDocument::Origin::File);
}

std::shared_ptr<const DocumentAnalysis> someAnalysis() {
    return std::make_shared<const DocumentAnalysis>();
}

TEST(DocumentHistory, KeepsTheNewestAndDropsTheOldest) {
    DocumentHistory history;
    EXPECT_EQ(history.current(), nullptr);
    EXPECT_EQ(history.currentAnalysis(), nullptr);
    const DocumentPtr first = documentNamed("first");
    EXPECT_FALSE(history.add(first));
    for (int i = 1; i < DocumentHistory::kMaxDocuments; ++i)
        EXPECT_FALSE(history.add(documentNamed(QString::number(i))));
    EXPECT_EQ(history.at(0), first);
    EXPECT_TRUE(history.add(documentNamed("one too many")));  // the first goes
    EXPECT_EQ(history.size(), DocumentHistory::kMaxDocuments);
    EXPECT_NE(history.at(0), first);
    EXPECT_EQ(history.currentIndex(), DocumentHistory::kMaxDocuments - 1);
    EXPECT_EQ(history.current()->title, QStringLiteral("one too many"));
    EXPECT_FALSE(history.setCurrent(DocumentHistory::kMaxDocuments));
    EXPECT_TRUE(history.setCurrent(0));
    EXPECT_EQ(history.current(), history.at(0));
}

TEST(DocumentHistory, AnalysesFollowTheirDocumentWhereverItIs) {
    DocumentHistory history;
    const DocumentPtr a = documentNamed("a");
    const DocumentPtr b = documentNamed("b");
    history.add(a);
    history.add(b);
    const auto first = someAnalysis();
    history.setAnalysis(a, first);
    EXPECT_EQ(history.analysisAt(0), first);
    EXPECT_EQ(history.analysisAt(1), nullptr);
    EXPECT_EQ(history.analysisOf(a->trace), first);
    EXPECT_EQ(history.analysisOf(b->trace), nullptr);
    // onlyIfNone keeps the one it has; a document that left the history is ignored.
    history.setAnalysis(a, someAnalysis(), /*onlyIfNone=*/true);
    EXPECT_EQ(history.analysisAt(0), first);
    history.setAnalysis(documentNamed("gone"), someAnalysis());
    EXPECT_EQ(history.analysisAt(1), nullptr);
    history.clearAnalyses();
    EXPECT_EQ(history.analysisAt(0), nullptr);
}

}  // namespace
}  // namespace wl::app
