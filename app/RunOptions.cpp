#include "app/RunOptions.h"

namespace wl::app {
namespace {

using workloads::RunOption;

// A name option's value: one of `known` ("reduce or power"), else the catalog's error.
model::Result<std::string> nameValue(const workloads::OptionSpec& option,
                                     const std::optional<std::string>& value,
                                     const std::string& known) {
    if (!value || value->empty()) {
        return model::Error{std::string(option.name) + " needs a value (" + known + ")"};
    }
    if (option.id == RunOption::Workload) {
        if (model::Status status = workloads::checkWorkloadName(*value); !status.ok()) {
            return status.error();
        }
    } else if (auto mode = workloads::parseMode(*value); !mode.ok()) {
        return mode.error();
    }
    return *value;
}

}  // namespace

model::Status applyRunOption(const workloads::OptionSpec& option,
                             const std::optional<std::string>& value, RunRequest& request) {
    if (option.id == RunOption::Workload || option.id == RunOption::Mode) {
        const bool workload = option.id == RunOption::Workload;
        auto name = nameValue(
            option, value,
            workload ? workloads::workloadChoices(" or ") : workloads::modeChoices(" or "));
        if (!name.ok()) {
            return name.error();
        }
        (workload ? request.workload : request.mode) = *name;
        return {};
    }
    if (option.isNumber()) {
        auto number = workloads::parseNumber(option, value);
        if (!number.ok()) {
            return number.error();
        }
        // The widest ranges fit an int for all but size.
        const int small = static_cast<int>(*number);
        switch (option.id) {
            case RunOption::Streams:
                request.streams = small;
                break;
            case RunOption::Size:
                request.size = *number;
                break;
            case RunOption::Repeat:
                request.repeat = small;
                break;
            case RunOption::Steps:
                request.steps = small;
                break;
            case RunOption::Devices:
                request.devices = small;
                break;
            default:
                break;
        }
        return {};
    }
    switch (option.id) {
        case RunOption::Pinned:
            request.pinned = true;
            break;
        case RunOption::Pageable:
            request.pinned = false;
            break;
        case RunOption::SharedStream:
            request.sharedStreamBug = true;
            break;
        case RunOption::Graph:
            request.graph = true;
            break;
        case RunOption::GpuMetrics:
            request.gpuMetrics = true;
            break;
        default:
            break;
    }
    return {};
}

}  // namespace wl::app
