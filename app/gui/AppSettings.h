#pragma once

#include <QSettings>

#include "app/RunSession.h"

namespace wl::app {

// The run panel's last parameters in QSettings (group "run"). Unknown or out-of-range stored
// values fall back to the defaults so a stale settings file never produces a bad request.
RunRequest loadRunRequest(const QSettings& settings);
void saveRunRequest(QSettings& settings, const RunRequest& request);

// View > Full kernel names (group "view"): full names on the timeline and in the statistics
// instead of the short ones. Off by default.
bool loadFullKernelNames(const QSettings& settings);
void saveFullKernelNames(QSettings& settings, bool full);

}  // namespace wl::app
