#include "model/passes/Passes.h"

#include <algorithm>
#include <array>

namespace wl::model {

namespace {

// Order matters: flows are bound after tracks are ordered, lanes assigned and times rebased;
// the derived rows read the launch flows; counts come last, after the derived rows that they
// leave out.
constexpr std::array kPasses{
    FinalizePass{"process order", orderProcesses},
    FinalizePass{"track order", orderTracks},
    FinalizePass{"rebase", rebaseTimes},
    FinalizePass{"lane assignment", assignAllLanes},
    FinalizePass{"launch flows", linkLaunches},
    FinalizePass{"explicit flows", bindExplicitFlows},
    FinalizePass{"flow index", indexFlows},
    FinalizePass{"dependencies", resolveDependencies},
    FinalizePass{"launch queue", addLaunchQueues},
    FinalizePass{"device memory", addDeviceMemory},
    FinalizePass{"NVTX projection", addNvtxProjections},
    FinalizePass{"graph launches", addGraphLaunches},
    FinalizePass{"compact", compact},
    FinalizePass{"counts", countEvents},
};

}  // namespace

std::span<const FinalizePass> finalizePasses() {
    return kPasses;
}

const FinalizePass* findFinalizePass(std::string_view name) {
    const auto it = std::find_if(kPasses.begin(), kPasses.end(),
                                 [&](const FinalizePass& p) { return p.name == name; });
    return it == kPasses.end() ? nullptr : &*it;
}

}  // namespace wl::model
