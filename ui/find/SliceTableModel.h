#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include <QAbstractTableModel>

class QTableView;

#include "model/Slice.h"
#include "model/Trace.h"
#include "ui/find/SliceList.h"

namespace wl::ui {

using SliceRows = std::shared_ptr<const SliceList>;

// Slices of a trace as a table (start, duration, row, name, bytes): a view over a shared list of
// slice references in display order, never a copy of the slices or their strings; cells are
// formatted when asked for, so a million rows cost 8 bytes each. Names as the timeline shows them
// (kernels by short name, API calls without CUPTI's suffix; the full name in the tooltip), times
// with ui::units. Holds the trace shared read-only; GUI thread only.
class SliceTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { kStart, kDuration, kRow, kName, kBytes, kColumnCount };

    explicit SliceTableModel(QObject* parent = nullptr);

    // Shows `rows` of `trace` (null: nothing).
    void setRows(model::TracePtr trace, SliceRows rows);
    void clear() { setRows(nullptr, nullptr); }
    const model::TracePtr& trace() const { return m_trace; }
    const SliceRows& rows() const { return m_rows; }
    // The slice at `row` (invalid when out of range).
    model::SliceRef sliceAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Texts shared with the events table's sort (a row is sorted by what it shows).
    static QString rowTitle(const model::Trace& trace, model::TrackIndex track);
    static QString shownName(const model::Trace& trace, const model::Slice& slice);
    // Bytes a copy or memset moved, or a memory operation allocated or released; 0 for every
    // other slice.
    static std::uint64_t sliceBytes(const model::Trace& trace, const model::Slice& slice);

private:
    const QString& nameOf(const model::Slice& slice) const;

    model::TracePtr m_trace;
    SliceRows m_rows;
    std::vector<QString> m_trackTitles;  // per track, made once per trace
    // Shown names, made the first time a row with that name is drawn (short kernel names cost a
    // demangling each).
    mutable std::unordered_map<std::uint64_t, QString> m_names;
};

// Sets up a table view over a SliceTableModel the way both slice tables want it: whole rows
// selected one at a time, fixed row heights (a million rows are never measured), the numbers'
// columns wide enough for their longest usual text, names elided in the middle.
void prepareSliceTable(QTableView* table);

}  // namespace wl::ui
