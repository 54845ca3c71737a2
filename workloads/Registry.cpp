#include <memory>
#include <string>
#include <vector>

#include "workloads/PowerIteration.h"
#include "workloads/ReduceWorkload.h"
#include "workloads/Workload.h"

namespace wl::workloads {

const char* toString(Mode mode) {
    return mode == Mode::Async ? "async" : "baseline";
}

std::vector<std::string> workloadNames() {
    return {"reduce", "power"};
}

model::Result<std::unique_ptr<Workload>> makeWorkload(const std::string& name) {
    if (name == "reduce") {
        return std::unique_ptr<Workload>(std::make_unique<ReduceWorkload>());
    }
    if (name == "power") {
        return std::unique_ptr<Workload>(std::make_unique<PowerIteration>());
    }
    return model::Error{"unknown workload '" + name + "' (known: reduce, power)"};
}

model::Result<Mode> parseMode(const std::string& text) {
    if (text == "baseline") {
        return Mode::Baseline;
    }
    if (text == "async") {
        return Mode::Async;
    }
    return model::Error{"unknown mode '" + text + "' (known: baseline, async)"};
}

}  // namespace wl::workloads
