#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/Result.h"

// The run catalog: every workload, mode and run option Warpline knows (name, unit, range, default,
// help text), defined once. `warpline run`, the window's command line, its run panel and the
// workloads' own validation all read it, so their names, limits and messages cannot drift apart.
// No CUDA: builds without a toolkit still parse and show run options.
namespace wl::workloads {

// Workload and mode names: the strings of a run request, of the command line and of a trace's
// metadata.
inline constexpr char kReduce[] = "reduce";
inline constexpr char kPower[] = "power";
inline constexpr char kBaseline[] = "baseline";
inline constexpr char kAsync[] = "async";

// The limits. Where the command line and the window once disagreed (run: size <= 2^40 and steps
// <= 10M; window options: any positive number; run panel: steps <= 1M), the workloads' own limits
// won: they are what a run can actually meet.
inline constexpr int kMinStreams = 1;
inline constexpr int kMaxStreams = 64;  // non-blocking streams a run creates (the seed's chunks)
// 256 GB of floats: more than any GPU holds, so the free-memory check (validateOnDevice) is what
// refuses a real run; the bound only keeps byte counts far from overflow.
inline constexpr std::int64_t kMaxReduceElements = std::int64_t{1} << 36;
inline constexpr std::int64_t kMaxPowerDim = 1 << 20;  // cuBLAS takes the dimension as an int
inline constexpr std::int64_t kMaxRepeat = 100'000;
inline constexpr std::int64_t kMaxPowerSteps = 10'000'000;
inline constexpr int kMaxReduceDevices = 8;  // GPUs of one host

// Defaults: the seeds' (the Numba example and the CuPy notebook).
inline constexpr std::int64_t kReduceDefaultSize = 100'000'000;
inline constexpr int kReduceDefaultRepeat = 1;
inline constexpr std::int64_t kPowerDefaultDim = 8192;
inline constexpr int kPowerDefaultMaxSteps = 1000;

enum class Mode { Baseline, Async };

const char* toString(Mode mode);  // kBaseline | kAsync
// Parses a mode name; an Error "unknown mode 'fast' (known: baseline, async)".
model::Result<Mode> parseMode(const std::string& text);

// Every option of a run, on the command line and in the window.
enum class RunOption {
    Workload,
    Mode,
    Streams,
    Size,
    Repeat,
    Steps,
    Devices,
    Pinned,
    Pageable,
    SharedStream,
    Graph,
    GpuMetrics,
};

// One workload's range and default of a whole-number option.
struct ParamRange {
    const char* workload;  // kReduce | kPower
    std::int64_t min;
    std::int64_t max;
    std::int64_t defaultValue;
    const char* unit;  // after the range in messages ("elements"); "" for none
};

// A run option: its name on the command line, what it takes, and, for numbers, per workload the
// range and default.
struct OptionSpec {
    RunOption id;
    const char* name;       // "--streams"
    const char* valueName;  // "N", "NAME"; nullptr for a flag
    const char* help;       // one line, for usages and tool tips
    // For a number: a request's 0 stands for the workload's default (size, repeat, steps).
    bool zeroMeansDefault = false;
    std::vector<ParamRange> ranges;  // numbers only: one per workload that takes the option

    bool isFlag() const { return valueName == nullptr; }
    bool isNumber() const { return !ranges.empty(); }
    // This workload's range; nullptr when the workload does not take the option.
    const ParamRange* rangeFor(std::string_view workload) const;
    // What some workload accepts: the smallest min and largest max (the first workload's default
    // and no unit), for parsing before the workload is known and for one field serving both.
    ParamRange widest() const;
};

struct WorkloadSpec {
    const char* name;   // kReduce
    const char* title;  // "Reduce / normalize"
    const char* help;   // one line
};

struct ModeSpec {
    Mode mode;
    const char* name;  // kBaseline
    const char* help;  // one line
};

const std::vector<WorkloadSpec>& workloadSpecs();
const std::vector<ModeSpec>& modeSpecs();
const std::vector<OptionSpec>& runOptions();

// The workload's entry; nullptr for an unknown name.
const WorkloadSpec* findWorkload(std::string_view name);
// The option called `name` ("--streams"); nullptr when it is no run option.
const OptionSpec* findRunOption(std::string_view name);
// The entry of `id` (every RunOption has one).
const OptionSpec& runOption(RunOption id);

// The workloads' names in the catalog's order.
std::vector<std::string> workloadNames();
// The workloads' or the modes' names joined by `separator` ("reduce|power", "baseline or async").
std::string workloadChoices(const char* separator);
std::string modeChoices(const char* separator);
// Success for a known workload; else "unknown workload 'matmul' (known: reduce, power)".
model::Status checkWorkloadName(std::string_view name);

// "<what> must be between <min> and <max> <unit> (got <value>)": the one message for an
// out-of-range value, on the command line, in the window and from the workloads.
model::Status checkRange(const std::string& what, std::int64_t value, std::int64_t min,
                         std::int64_t max, const std::string& unit = {});
// checkRange for option `option`: "--streams must be between 1 and 64 (got 65)".
model::Status checkInRange(const OptionSpec& option, const ParamRange& range, std::int64_t value);
// `value` of number option `id` against `workload`'s range (success when the workload does not
// take the option: whether it may be given at all is the workload's own check).
model::Status checkOption(RunOption id, std::string_view workload, std::int64_t value);
// Parses the text given to number option `option` (nullopt: none was given) and checks it against
// the widest range: "--streams needs a value", "--streams must be a whole number between 1 and 64
// (got 'x')", or checkInRange's message.
model::Result<std::int64_t> parseNumber(const OptionSpec& option,
                                        const std::optional<std::string>& text);

// A run's trace keeps every option of its request in its metadata, one key each, so that the
// trace says how to run it again: numbers in decimal (a default resolved), flags "true" or
// "false", names as given; with "producer" kRunProducer and the run's wall time.
inline constexpr char kProducerKey[] = "producer";
inline constexpr char kRunProducer[] = "warpline run";
inline constexpr char kWallTimeKey[] = "wall_time_ms";  // the run's wall time, host clock
// The metadata key of an option ("streams", "gpu_metrics"); nullptr for --pageable, which a
// trace keeps as "pinned" false.
const char* metadataKey(RunOption id);
// A flag as metadata keeps it, and back (anything but "true" is off).
const char* metadataFlag(bool on);
bool metadataFlagValue(std::string_view text);
// A number option's metadata read back: a whole number clamped to the option's widest range (a 0
// that stands for the default kept); nullopt for text that is no whole number.
std::optional<std::int64_t> metadataNumber(const OptionSpec& option, std::string_view text);

// The run options' part of a usage text: each option and its value, its help, and for numbers
// their ranges and defaults; help starts at `column` and lines wrap before `width`.
std::string runOptionsUsage(int column, int width = 100);
// The options in one usage line, wrapped like runOptionsUsage: "--workload reduce|power --mode
// baseline|async [--streams N] ... [--pinned|--pageable] ...": the names as choices, numbers
// with their value, flags optional (a flag and its opposite together); `more` (the caller's own
// options) after them.
std::string runOptionsSynopsis(int column, int width = 100, const std::string& more = {});

}  // namespace wl::workloads
