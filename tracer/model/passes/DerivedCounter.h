#pragma once

#include "model/Trace.h"

namespace wl::model {

// A counter finalize() makes from the events (CounterTrack::derived), still without samples.
inline CounterTrack derivedCounter(ProcessIndex process, std::int32_t deviceId, StringId name,
                                   StringId series, StringId unit, StringId description) {
    CounterTrack c;
    c.process = process;
    c.deviceId = deviceId;
    c.nameId = name;
    c.seriesId = series;
    c.unitId = unit;
    c.derived = true;
    c.descriptionId = description;
    return c;
}

// Sets the counter's value from `ns` on: samples come in time order, and a later change at the same
// instant replaces the earlier one.
inline void setValueAt(CounterTrack& c, TimeNs ns, double value) {
    if (!c.samples.empty() && c.samples.back().timestampNs == ns)
        c.samples.back().value = value;
    else
        c.samples.push_back({ns, value});
}

}  // namespace wl::model
