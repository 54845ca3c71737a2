#pragma once

namespace wl::app {

// Starts the window: `warpline [--open FILE] [run options] [--run] [--screenshot FILE.png]`.
// Returns the process exit code.
int guiMain(int argc, char** argv);

}  // namespace wl::app
