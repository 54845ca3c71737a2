#pragma once

#include "app/gui/MainWindow.h"

namespace wl::app {

// A window for GUI tests: no saved layout, and a device probe that answers at once that there
// is no GPU (runs stay unavailable; opening and analysing traces is what these tests do).
inline MainWindowDeps windowTestDeps() {
    MainWindowDeps d;
    d.deviceProbe = [] { return model::Result<std::string>(model::Error{"no GPU here", {}, -1}); };
    d.restoreLayout = false;
    d.probeDeviceInBackground = false;
    return d;
}

}  // namespace wl::app
