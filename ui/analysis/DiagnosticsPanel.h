#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "analysis/Analysis.h"
#include "model/Slice.h"
#include "model/Trace.h"

class QDoubleSpinBox;
class QLabel;
class QListWidget;

namespace wl::ui {

// The diagnosis of a trace as a list: one entry per finding (rule id, one-line explanation), the
// fix of the current entry below it, and the gap threshold the analysis used. Clicking an entry
// emits its evidence so the window can select and zoom to it. Holds the result it shows (shared,
// read-only); GUI thread only.
class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(QWidget* parent = nullptr);
    ~DiagnosticsPanel() override;

    // Shows the findings of `result` (computed on `trace`); nullptr clears the list.
    void setAnalysis(model::TracePtr trace, std::shared_ptr<const analysis::AnalysisResult> result);
    std::shared_ptr<const analysis::AnalysisResult> analysis() const { return m_result; }

    // The line over the findings: the window, GPU busy, how many findings, what a selection
    // leaves out.
    QString summaryText() const;
    int entryCount() const;
    // Acts as if the user clicked entry `row` (also used by keyboard activation).
    void activate(int row);
    QListWidget* list() const { return m_list; }
    QString fixText() const;
    double gapThresholdUs() const;
    void setGapThresholdUs(double us);  // does not emit gapThresholdChanged

signals:
    // The slices that show the finding, for select + zoom. A finding without evidence emits
    // rangeActivated instead: where on the timeline to look.
    void evidenceActivated(const std::vector<wl::model::SliceRef>& refs);
    void rangeActivated(wl::model::TimeNs startNs, wl::model::TimeNs endNs);
    // The user changed the threshold; the owner re-runs the analysis and calls setAnalysis().
    void gapThresholdChanged(wl::model::TimeNs thresholdNs);

private:
    void showFix(int row);

    model::TracePtr m_trace;
    std::shared_ptr<const analysis::AnalysisResult> m_result;
    QListWidget* m_list = nullptr;
    QLabel* m_fix = nullptr;
    QLabel* m_summary = nullptr;
    QDoubleSpinBox* m_threshold = nullptr;
    bool m_settingThreshold = false;
};

}  // namespace wl::ui
