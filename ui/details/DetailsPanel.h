#pragma once

#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

#include <memory>

#include "analysis/Analysis.h"
#include "model/Slice.h"
#include "model/Trace.h"

class QLabel;
class QGridLayout;
class QScrollArea;

namespace wl::ui {

// Shows what is known about one selected slice: name, timing, where it ran, its launch
// configuration or copy parameters, and (through the trace's flows) the API call that launched it
// and the launch latency. Holds a shared read-only Trace; main thread only. Times in the model's
// ns, shown in readable units.
class DetailsPanel : public QWidget {
    Q_OBJECT

public:
    explicit DetailsPanel(QWidget* parent = nullptr);

    void setTrace(model::TracePtr trace);
    // Analysis of the current trace (warp use of kernels); null until it is computed. Refreshes
    // the shown slice.
    void setAnalysis(std::shared_ptr<const analysis::AnalysisResult> result);
    // Shows `ref` of the current trace; an invalid ref clears the panel.
    void showSlice(model::SliceRef ref);
    void clear();

    model::TracePtr trace() const { return m_trace; }
    model::SliceRef slice() const { return m_ref; }
    QString title() const;
    // The value shown for a field ("Duration", "Grid", "Launch latency", ...); empty if absent.
    QString value(const QString& field) const;
    // All (field, value) rows in display order.
    std::vector<std::pair<QString, QString>> rows() const;

signals:
    // The user asked to go to a related slice (the launching API call or the launched work, what
    // it waited for or what waited for it): a click on its link.
    void relatedSliceActivated(wl::model::SliceRef ref);

private:
    void addGroup(const QString& name);
    void addRow(const QString& field, const QString& value, model::SliceRef link = {});
    // The producer's args the model has no field for (Trace::extraArgs), in the file's order.
    void fillExtraArgs(const model::Slice& s);
    void fillSlice(const model::Slice& s);
    void fillKernel(const model::KernelDetail& k);
    void fillWarpUse();
    void fillMemcpy(const model::Slice& s, const model::MemcpyDetail& m);
    void fillLaunch(const model::Slice& s);
    void fillDependencies();
    void fillGraphLaunch(const model::Slice& s, std::uint32_t graphId);

    model::TracePtr m_trace;
    std::shared_ptr<const analysis::AnalysisResult> m_analysis;
    model::SliceRef m_ref;
    QLabel* m_title = nullptr;
    QScrollArea* m_scroll = nullptr;
    QGridLayout* m_grid = nullptr;  // owned by the scroll area's widget
    QString m_titleText;
    std::vector<std::pair<QString, QString>> m_rows;
};

}  // namespace wl::ui
