#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "analysis/SliceSummary.h"
#include "model/Trace.h"
#include "ui/analysis/SortableCells.h"

namespace wl::ui {

// The slice summary of an area selection as a table (Perfetto's "Slices" tab): one line per
// (kind, name) with count, total, self, mean, min and max time in the window. Kernels are named by
// their short names (as the kernel statistics name them), with the full demangled name as
// tooltip. Display text is formatted (units::duration, grouped counts); kSortRole gives the raw
// value for a QSortFilterProxyModel. Holds the trace (shared, read-only) for the names; GUI
// thread only.
class SliceSummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { kKind, kName, kCount, kTotal, kSelf, kMean, kMin, kMax, kColumns };
    static constexpr int kSortRole = cells::kSortRole;

    explicit SliceSummaryModel(QObject* parent = nullptr);

    // Without a trace there are no names: the table stays empty.
    void setSummary(model::TracePtr trace, const analysis::SliceSummary& summary);
    void clear();
    // The line `row` stands for (nullptr when out of range).
    const analysis::SliceStats* lineAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    model::TracePtr m_trace;
    analysis::SliceSummary m_summary;
    std::vector<QString> m_names;      // shown, parallel to m_summary.rows
    std::vector<QString> m_fullNames;  // tooltips
};

}  // namespace wl::ui
