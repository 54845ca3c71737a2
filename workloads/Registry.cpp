#include <memory>
#include <string>

#include "workloads/PowerIteration.h"
#include "workloads/ReduceWorkload.h"
#include "workloads/Workload.h"

namespace wl::workloads {

model::Result<std::unique_ptr<Workload>> makeWorkload(const std::string& name) {
    if (name == kReduce) {
        return std::unique_ptr<Workload>(std::make_unique<ReduceWorkload>());
    }
    if (name == kPower) {
        return std::unique_ptr<Workload>(std::make_unique<PowerIteration>());
    }
    return checkWorkloadName(name).error();
}

}  // namespace wl::workloads
