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
// View > Dependencies (arrows for every wait through a CUDA event in view); off by default, the
// selected op's own are drawn either way.
bool loadShowDependencies(const QSettings& settings);
void saveShowDependencies(QSettings& settings, bool show);

// The folder a file dialog opens in: the remembered one when it is a real folder that can be
// read (and written, for a save dialog), else the home folder. Pseudo file systems (/proc, /sys,
// /dev) are never used: a dialog that lists /proc reads files such as /proc/kmsg that block for
// ever, which froze the window, and again at every start once the folder was remembered.
QString dialogFolder(const QString& remembered, bool forWriting);

}  // namespace wl::app
