#include "workloads/catalog/RunCatalog.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <sstream>

namespace wl::workloads {
namespace {

std::vector<OptionSpec> makeRunOptions() {
    using O = RunOption;
    return {
        {O::Workload, "--workload", "NAME", "the workload:"},
        {O::Mode, "--mode", "MODE", "the version:"},
        {O::Streams,
         "--streams",
         "N",
         "async: CUDA streams (reduce: one chunk per stream; power: one compute stream plus copy "
         "streams)",
         false,
         {{kReduce, kMinStreams, kMaxStreams, 1, ""}, {kPower, kMinStreams, kMaxStreams, 1, ""}}},
        {O::Size,
         "--size",
         "N",
         "reduce: elements; power: matrix dimension",
         true,
         {{kReduce, 1, kMaxReduceElements, kReduceDefaultSize, "elements"},
          {kPower, 1, kMaxPowerDim, kPowerDefaultDim, "(matrix dimension)"}}},
        {O::Repeat,
         "--repeat",
         "N",
         "reduce: reductions per chunk (the seed uses 50)",
         true,
         {{kReduce, 1, kMaxRepeat, kReduceDefaultRepeat, "reductions per chunk"}}},
        {O::Steps,
         "--steps",
         "N",
         "power: most steps (the loop stops earlier once the residual is small enough)",
         true,
         {{kPower, 1, kMaxPowerSteps, kPowerDefaultMaxSteps, ""}}},
        {O::Devices,
         "--devices",
         "N",
         "reduce: split the array over GPUs 0..N-1 (baseline one GPU after another, async all "
         "at once with peer copies of the sums)",
         false,
         {{kReduce, 1, kMaxReduceDevices, 1, "GPUs"}}},
        {O::Pinned, "--pinned", nullptr, "page-locked host memory for the copies"},
        {O::Pageable, "--pageable", nullptr, "pageable host memory for the copies (the default)"},
        {O::SharedStream, "--shared-stream", nullptr,
         "reduce async: every chunk on one stream (the [stream] * n bug)"},
        {O::Graph, "--graph", nullptr,
         "power async: capture each batch of steps once as a CUDA graph and replay it (one "
         "launch per batch instead of two per step)"},
        {O::GpuMetrics, "--gpu-metrics", nullptr,
         "also sample warp occupancy and SM active % (locks GPU clocks)"},
    };
}

std::string joined(const std::vector<std::string>& names, const char* separator) {
    std::string out;
    for (const std::string& name : names) {
        out += (out.empty() ? "" : separator) + name;
    }
    return out;
}

// The names of a spec table, or "name (help)" for each (the usage's choices).
template <class Specs>
std::vector<std::string> namesOf(const Specs& specs, bool withHelp = false) {
    std::vector<std::string> names;
    for (const auto& spec : specs) {
        names.push_back(withHelp ? std::string(spec.name) + " (" + spec.help + ")"
                                 : std::string(spec.name));
    }
    return names;
}

// Joins words that a usage line must not break apart; appendWrapped() writes it as a space.
constexpr char kNoBreak = '\x1f';

// "1..64, default 1"
std::string rangeText(const ParamRange& range) {
    return std::to_string(range.min) + ".." + std::to_string(range.max) + ", default" + kNoBreak +
           std::to_string(range.defaultValue);
}

// What follows an option's help in the usage: the choices, or the ranges and defaults.
std::string usageDetails(const OptionSpec& option) {
    if (option.id == RunOption::Workload) {
        return " " + joined(namesOf(workloadSpecs(), true), ", ");
    }
    if (option.id == RunOption::Mode) {
        return " " + joined(namesOf(modeSpecs(), true), ", ");
    }
    if (!option.isNumber()) {
        return {};
    }
    const ParamRange& first = option.ranges.front();
    const bool same = std::all_of(option.ranges.begin(), option.ranges.end(), [&](const auto& r) {
        return r.min == first.min && r.max == first.max && r.defaultValue == first.defaultValue;
    });
    if (same) {
        return "; " + rangeText(first);
    }
    std::vector<std::string> parts;
    for (const ParamRange& range : option.ranges) {
        parts.push_back(std::string(range.workload) + " " + rangeText(range));
    }
    return "; " + joined(parts, "; ");
}

// Appends `text` word by word, lines starting at `column` and ending before `width`.
void appendWrapped(std::string& out, const std::string& text, int column, int width) {
    std::istringstream words(text);
    std::string word;
    std::size_t lineLength = static_cast<std::size_t>(column);
    bool firstOnLine = true;
    while (words >> word) {
        if (!firstOnLine && lineLength + 1 + word.size() >= static_cast<std::size_t>(width)) {
            out += "\n" + std::string(static_cast<std::size_t>(column), ' ');
            lineLength = static_cast<std::size_t>(column);
            firstOnLine = true;
        }
        if (!firstOnLine) {
            out += ' ';
            ++lineLength;
        }
        std::replace(word.begin(), word.end(), kNoBreak, ' ');
        out += word;
        lineLength += word.size();
        firstOnLine = false;
    }
    out += '\n';
}

}  // namespace

const char* toString(Mode mode) {
    return mode == Mode::Async ? kAsync : kBaseline;
}

model::Result<Mode> parseMode(const std::string& text) {
    for (const ModeSpec& mode : modeSpecs()) {
        if (text == mode.name) {
            return mode.mode;
        }
    }
    return model::Error{"unknown mode '" + text + "' (known: " + modeChoices(", ") + ")"};
}

const ParamRange* OptionSpec::rangeFor(std::string_view workload) const {
    for (const ParamRange& range : ranges) {
        if (workload == range.workload) {
            return &range;
        }
    }
    return nullptr;
}

ParamRange OptionSpec::widest() const {
    ParamRange out = ranges.front();
    out.unit = "";
    for (const ParamRange& range : ranges) {
        out.min = std::min(out.min, range.min);
        out.max = std::max(out.max, range.max);
    }
    return out;
}

const std::vector<WorkloadSpec>& workloadSpecs() {
    static const std::vector<WorkloadSpec> specs = {
        {kReduce, "Reduce / normalize", "reduce/normalize, float32"},
        {kPower, "Power iteration", "power iteration, float64"},
    };
    return specs;
}

const std::vector<ModeSpec>& modeSpecs() {
    static const std::vector<ModeSpec> specs = {
        {Mode::Baseline, kBaseline, "one stream with blocking copies"},
        {Mode::Async, kAsync, "the asynchronous version"},
    };
    return specs;
}

const std::vector<OptionSpec>& runOptions() {
    static const std::vector<OptionSpec> options = makeRunOptions();
    return options;
}

const WorkloadSpec* findWorkload(std::string_view name) {
    for (const WorkloadSpec& spec : workloadSpecs()) {
        if (name == spec.name) {
            return &spec;
        }
    }
    return nullptr;
}

const OptionSpec* findRunOption(std::string_view name) {
    for (const OptionSpec& option : runOptions()) {
        if (name == option.name) {
            return &option;
        }
    }
    return nullptr;
}

const OptionSpec& runOption(RunOption id) {
    const auto& options = runOptions();
    return *std::find_if(options.begin(), options.end(),
                         [id](const OptionSpec& option) { return option.id == id; });
}

std::vector<std::string> workloadNames() {
    return namesOf(workloadSpecs());
}

std::string workloadChoices(const char* separator) {
    return joined(workloadNames(), separator);
}

std::string modeChoices(const char* separator) {
    return joined(namesOf(modeSpecs()), separator);
}

model::Status checkWorkloadName(std::string_view name) {
    if (findWorkload(name) != nullptr) {
        return {};
    }
    return model::Error{"unknown workload '" + std::string(name) +
                        "' (known: " + workloadChoices(", ") + ")"};
}

model::Status checkRange(const std::string& what, std::int64_t value, std::int64_t min,
                         std::int64_t max, const std::string& unit) {
    if (value >= min && value <= max) {
        return {};
    }
    std::string message =
        what + " must be between " + std::to_string(min) + " and " + std::to_string(max);
    if (!unit.empty()) {
        message += " " + unit;
    }
    return model::Error{message + " (got " + std::to_string(value) + ")"};
}

model::Status checkInRange(const OptionSpec& option, const ParamRange& range, std::int64_t value) {
    return checkRange(option.name, value, range.min, range.max, range.unit);
}

model::Status checkOption(RunOption id, std::string_view workload, std::int64_t value) {
    const OptionSpec& option = runOption(id);
    const ParamRange* range = option.rangeFor(workload);
    return range != nullptr ? checkInRange(option, *range, value) : model::Status{};
}

model::Result<std::int64_t> parseNumber(const OptionSpec& option,
                                        const std::optional<std::string>& text) {
    if (!text || text->empty()) {
        return model::Error{std::string(option.name) + " needs a value"};
    }
    const ParamRange range = option.widest();
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text->c_str(), &end, 10);
    // strtoll also takes leading blanks and a '+': a whole number is digits with an optional '-'.
    const char lead = text->front();
    if (errno != 0 || end == nullptr || *end != '\0' ||
        !(lead == '-' || (lead >= '0' && lead <= '9'))) {
        return model::Error{std::string(option.name) + " must be a whole number between " +
                            std::to_string(range.min) + " and " + std::to_string(range.max) +
                            " (got '" + *text + "')"};
    }
    if (model::Status status = checkInRange(option, range, value); !status.ok()) {
        return status.error();
    }
    return static_cast<std::int64_t>(value);
}

const char* metadataKey(RunOption id) {
    switch (id) {
        case RunOption::Workload:
            return "workload";
        case RunOption::Mode:
            return "mode";
        case RunOption::Streams:
            return "streams";
        case RunOption::Size:
            return "size";
        case RunOption::Repeat:
            return "repeat";
        case RunOption::Steps:
            return "steps";
        case RunOption::Devices:
            return "devices";
        case RunOption::Pinned:
            return "pinned";
        case RunOption::Pageable:
            return nullptr;  // "pinned" false
        case RunOption::SharedStream:
            return "shared_stream";
        case RunOption::Graph:
            return "graph";
        case RunOption::GpuMetrics:
            return "gpu_metrics";
    }
    return nullptr;
}

const char* metadataFlag(bool on) {
    return on ? "true" : "false";
}

bool metadataFlagValue(std::string_view text) {
    return text == "true";
}

std::optional<std::int64_t> metadataNumber(const OptionSpec& option, std::string_view text) {
    std::int64_t value = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
        return std::nullopt;
    if (value == 0 && option.zeroMeansDefault)
        return 0;
    const ParamRange range = option.widest();
    return std::clamp(value, range.min, range.max);
}

std::string runOptionsSynopsis(int column, int width, const std::string& more) {
    std::vector<std::string> words;
    for (const OptionSpec& option : runOptions()) {
        if (option.id == RunOption::Workload) {
            words.push_back(std::string(option.name) + kNoBreak + workloadChoices("|"));
        } else if (option.id == RunOption::Mode) {
            words.push_back(std::string(option.name) + kNoBreak + modeChoices("|"));
        } else if (option.id == RunOption::Pinned) {
            words.push_back(std::string("[") + option.name + "|" +
                            runOption(RunOption::Pageable).name + "]");
        } else if (option.id == RunOption::Pageable) {
            continue;  // with --pinned
        } else if (option.isFlag()) {
            words.push_back(std::string("[") + option.name + "]");
        } else {
            words.push_back(std::string("[") + option.name + kNoBreak + option.valueName + "]");
        }
    }
    if (!more.empty()) {
        std::string unbroken = more;  // kept on one line
        std::replace(unbroken.begin(), unbroken.end(), ' ', kNoBreak);
        words.push_back(unbroken);
    }
    std::string out;
    appendWrapped(out, joined(words, " "), column, width);
    out.pop_back();  // the caller ends the line
    return out;
}

std::string runOptionsUsage(int column, int width) {
    std::string out;
    for (const OptionSpec& option : runOptions()) {
        std::string head = std::string("  ") + option.name;
        if (!option.isFlag()) {
            head += std::string(" ") + option.valueName;
        }
        out += head;
        if (head.size() + 1 > static_cast<std::size_t>(column)) {
            out += "\n" + std::string(static_cast<std::size_t>(column), ' ');
        } else {
            out += std::string(static_cast<std::size_t>(column) - head.size(), ' ');
        }
        appendWrapped(out, std::string(option.help) + usageDetails(option), column, width);
    }
    return out;
}

}  // namespace wl::workloads
