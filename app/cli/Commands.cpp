#include "app/cli/Commands.h"

#include <cstdio>

namespace wl::app {

void printError(const std::string& text) {
    std::fprintf(stderr, "warpline: error: %s\n", text.c_str());
}

}  // namespace wl::app
