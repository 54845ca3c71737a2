#pragma once

#include <QObject>

#include "model/Time.h"

namespace wl::ui {

// The visible time range [startNs, endNs) shared by one or more TimelineViews, so that two views
// (baseline vs async in Compare) stay aligned on one time scale: zooming or panning one moves the
// other. Lives on the GUI thread; owned through std::shared_ptr by the views that use it.
class TimeScale : public QObject {
    Q_OBJECT
public:
    explicit TimeScale(QObject* parent = nullptr) : QObject(parent) {}

    model::TimeNs startNs() const { return m_startNs; }
    model::TimeNs endNs() const { return m_endNs; }
    model::TimeNs durationNs() const { return m_endNs - m_startNs; }

    // Sets the range (end is forced > start); emits rangeChanged only when it changes.
    void setRange(model::TimeNs startNs, model::TimeNs endNs) {
        if (endNs <= startNs) {
            endNs = startNs + 1;
        }
        if (startNs == m_startNs && endNs == m_endNs) {
            return;
        }
        m_startNs = startNs;
        m_endNs = endNs;
        emit rangeChanged(m_startNs, m_endNs);
    }

signals:
    void rangeChanged(wl::model::TimeNs startNs, wl::model::TimeNs endNs);

private:
    model::TimeNs m_startNs = 0;
    model::TimeNs m_endNs = 1;
};

}  // namespace wl::ui
