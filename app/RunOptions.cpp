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

// The request's field of each number option and each flag: the one place that knows which is
// which, for the command line and for metadata both ways.
std::int64_t numberOf(RunOption id, const RunRequest& r) {
    switch (id) {
        case RunOption::Streams:
            return r.streams;
        case RunOption::Size:
            return r.size;
        case RunOption::Repeat:
            return r.repeat;
        case RunOption::Steps:
            return r.steps;
        case RunOption::Devices:
            return r.devices;
        default:
            return 0;
    }
}

// The widest ranges fit an int for all but size.
void setNumber(RunOption id, std::int64_t value, RunRequest& r) {
    const int small = static_cast<int>(value);
    switch (id) {
        case RunOption::Streams:
            r.streams = small;
            break;
        case RunOption::Size:
            r.size = value;
            break;
        case RunOption::Repeat:
            r.repeat = small;
            break;
        case RunOption::Steps:
            r.steps = small;
            break;
        case RunOption::Devices:
            r.devices = small;
            break;
        default:
            break;
    }
}

template <class Request>  // RunRequest, const or not
auto* flagField(RunOption id, Request& r) {
    switch (id) {
        case RunOption::Pinned:
            return &r.pinned;
        case RunOption::SharedStream:
            return &r.sharedStreamBug;
        case RunOption::Graph:
            return &r.graph;
        case RunOption::GpuMetrics:
            return &r.gpuMetrics;
        default:
            return static_cast<decltype(&r.pinned)>(nullptr);
    }
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
        setNumber(option.id, *number, request);
        return {};
    }
    if (option.id == RunOption::Pageable) {
        request.pinned = false;
    } else if (bool* flag = flagField(option.id, request)) {
        *flag = true;
    }
    return {};
}

std::map<std::string, std::string> runMetadata(const RunRequest& request) {
    std::map<std::string, std::string> metadata{{workloads::kProducerKey, workloads::kRunProducer}};
    for (const workloads::OptionSpec& option : workloads::runOptions()) {
        const char* key = workloads::metadataKey(option.id);
        if (key == nullptr)
            continue;
        if (option.id == RunOption::Workload) {
            metadata[key] = request.workload;
        } else if (option.id == RunOption::Mode) {
            metadata[key] = request.mode;
        } else if (option.isNumber()) {
            std::int64_t value = numberOf(option.id, request);
            if (value == 0 && option.zeroMeansDefault) {
                if (const workloads::ParamRange* range = option.rangeFor(request.workload))
                    value = range->defaultValue;
            }
            metadata[key] = std::to_string(value);
        } else if (const bool* flag = flagField(option.id, request)) {
            metadata[key] = workloads::metadataFlag(*flag);
        }
    }
    return metadata;
}

std::optional<RunRequest> runRequestOf(const model::Trace& trace) {
    if (trace.metadataValue(workloads::kProducerKey) != workloads::kRunProducer)
        return std::nullopt;
    RunRequest r;
    for (const workloads::OptionSpec& option : workloads::runOptions()) {
        const char* key = workloads::metadataKey(option.id);
        if (key == nullptr)
            continue;
        const std::string text = trace.metadataValue(key);
        if (option.id == RunOption::Workload) {
            if (workloads::checkWorkloadName(text).ok())
                r.workload = text;
        } else if (option.id == RunOption::Mode) {
            if (workloads::parseMode(text).ok())
                r.mode = text;
        } else if (option.isNumber()) {
            if (const auto value = workloads::metadataNumber(option, text))
                setNumber(option.id, *value, r);
        } else if (bool* flag = flagField(option.id, r)) {
            *flag = workloads::metadataFlagValue(text);
        }
    }
    return r;
}

}  // namespace wl::app
