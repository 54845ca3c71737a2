#pragma once

#include <QSettings>

#include "app/RunSession.h"

namespace wl::app {

// The run panel's last parameters in QSettings (group "run"). Unknown or out-of-range stored
// values fall back to the defaults so a stale settings file never produces a bad request.
RunRequest loadRunRequest(const QSettings& settings);
void saveRunRequest(QSettings& settings, const RunRequest& request);

}  // namespace wl::app
