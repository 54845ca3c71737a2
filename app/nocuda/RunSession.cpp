// RunSession for builds without CUDA: the viewer works, running workloads does not, and says why.
#include "app/RunSession.h"

namespace wl::app {
namespace {

model::Error noCuda() {
    return model::Error{
        "this build of Warpline has no CUDA support (built without a CUDA toolkit): it can open, "
        "analyse and export traces, but not run workloads"};
}

}  // namespace

model::Status checkRequest(const RunRequest&) {
    return {};
}

model::Status validateRun(const RunRequest&) {
    return noCuda();
}

void prepareRuns() {}

model::Result<std::string> runDevice() {
    return noCuda();
}

model::Result<RunOutcome> runTraced(const RunRequest&, const ProgressFn&,
                                    const std::atomic<bool>*) {
    return noCuda();
}

}  // namespace wl::app
