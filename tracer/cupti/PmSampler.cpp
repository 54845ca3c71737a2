#include "cupti/PmSampler.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "cupti/PmSamplingApi.h"
#include "cupti/PmSamplingErrors.h"
#include "cupti/PmSamplingSeries.h"

namespace wl::cupti {
namespace {

// How often the decode thread drains the hardware buffer. A decode call itself takes about
// 100 ms on an H100 with the default 128 MiB buffer, whatever it finds there (PERFORMANCE.md), so
// the thread decodes almost without pause and each call finds about 100 ms of samples.
constexpr auto kDrainPeriod = std::chrono::milliseconds(10);
// Host counter data image capacity: one second of samples (so a decode call does not fill it),
// within these bounds. A call that fills the image loses samples: with 4,096 samples at 20 µs
// (82 ms) the series had holes of 20-130 ms and half of a real program's samples were missing.
// Larger images make each decode call slower.
constexpr std::int64_t kImageNs = 1'000'000'000;
constexpr std::uint32_t kMinSamplesPerImage = 4096;
constexpr std::uint32_t kMaxSamplesPerImage = 50'000;
// While sampling, a drain gives up after this many full images in a row (the rest waits for the
// next drain); the last drain after sampling stopped goes on until the buffer is empty.
constexpr int kMaxPassesPerDrain = 64;
constexpr int kMaxPassesFinalDrain = 100'000;

std::uint32_t samplesPerImage(std::int64_t intervalNs) {
    const std::int64_t samples = kImageNs / std::max<std::int64_t>(intervalNs, 1);
    return static_cast<std::uint32_t>(
        std::clamp<std::int64_t>(samples, kMinSamplesPerImage, kMaxSamplesPerImage));
}

// One PM sampling session per device per process: CUPTI allows one, and a second one here would
// otherwise fail with a less helpful message from deep inside the call sequence.
std::mutex g_devicesMutex;
std::set<int> g_devicesInUse;

bool claimDevice(int deviceId) {
    std::lock_guard lock(g_devicesMutex);
    return g_devicesInUse.insert(deviceId).second;
}

void releaseDevice(int deviceId) {
    std::lock_guard lock(g_devicesMutex);
    g_devicesInUse.erase(deviceId);
}

std::vector<std::string> seriesNames() {
    std::vector<std::string> names;
    for (const auto& metric : kPmMetrics) {
        names.emplace_back(metric.seriesName);
    }
    return names;
}

std::vector<std::string> cuptiNames() {
    std::vector<std::string> names;
    for (const auto& metric : kPmMetrics) {
        names.emplace_back(metric.cuptiName);
    }
    return names;
}

}  // namespace

struct PmSampler::Impl {
    std::unique_ptr<PmSamplingApi> api;
    int deviceId = -1;
    std::int64_t intervalNs = kDefaultIntervalNs;
    std::size_t hardwareBufferBytes = kDefaultHardwareBufferBytes;
    std::string chip;

    // What is set up, so teardown undoes exactly that, in reverse order.
    bool claimed = false;
    bool deviceOpen = false;
    bool profilerInitialized = false;
    bool hostInitialized = false;
    bool enabled = false;
    bool sampling = false;
    bool running = false;

    PmSamplingSeries series{seriesNames()};  // decode thread while running, then stop()
    std::thread decoder;
    mutable std::mutex mutex;  // guards the members below
    std::condition_variable wake;
    bool stopRequested = false;
    std::optional<model::Error> decodeError;
    PmSamplingStats stats;

    std::vector<std::pair<std::string, double>> steps;  // this start's or stop's, then stats

    // Runs one setup or teardown step and keeps its duration (start and stop cost a few hundred
    // ms in all; PERFORMANCE.md says where it goes).
    template <class F>
    auto timed(const char* step, F&& function) {
        const auto begin = std::chrono::steady_clock::now();
        struct Record {
            Impl* self;
            const char* step;
            std::chrono::steady_clock::time_point begin;
            ~Record() {
                self->steps.emplace_back(step, std::chrono::duration<double, std::milli>(
                                                   std::chrono::steady_clock::now() - begin)
                                                   .count());
            }
        } record{this, step, begin};
        return function();
    }

    std::optional<model::Error> check(std::string_view step, CUptiResult result) {
        if (result == CUPTI_SUCCESS) {
            return std::nullopt;
        }
        return pmSamplingError(step, result, api->resultName(result), deviceId, chip);
    }

    std::optional<model::Error> setUp() {
        if (auto status = timed("openDevice", [&] { return api->openDevice(deviceId); }); !status) {
            return status.error();
        }
        deviceOpen = true;
        if (auto error = check("cuptiProfilerInitialize", timed("profilerInitialize", [&] {
                                   return api->profilerInitialize();
                               }))) {
            return error;
        }
        profilerInitialized = true;
        if (auto error = check("cuptiDeviceGetChipName",
                               timed("chipName", [&] { return api->chipName(deviceId, chip); }))) {
            return error;
        }
        std::vector<std::uint8_t> availability;
        if (auto error =
                check("cuptiPmSamplingGetCounterAvailability", timed("counterAvailability", [&] {
                          return api->counterAvailability(deviceId, availability);
                      }))) {
            return error;
        }
        if (auto error = check("cuptiProfilerHostInitialize", timed("hostInitialize", [&] {
                                   return api->hostInitialize(chip, availability);
                               }))) {
            return error;
        }
        hostInitialized = true;
        std::vector<std::uint8_t> config;
        std::size_t passes = 0;
        if (auto error = check("cuptiProfilerHostConfigAddMetrics", timed("configure", [&] {
                                   return api->configure(cuptiNames(), config, passes);
                               }))) {
            return error;
        }
        if (passes != 1) {
            return model::Error{"GPU metrics: GPU " + std::to_string(deviceId) + " (" + chip +
                                ") cannot sample warp occupancy and SM activity together (" +
                                std::to_string(passes) +
                                " passes needed, PM sampling allows one); run without GPU metrics"};
        }
        if (auto error = check("cuptiPmSamplingEnable",
                               timed("enable", [&] { return api->enable(deviceId); }))) {
            return error;
        }
        enabled = true;
        if (auto error = check("cuptiPmSamplingSetConfig", timed("setConfig", [&] {
                                   return api->setConfig(config, hardwareBufferBytes,
                                                         static_cast<std::uint64_t>(intervalNs));
                               }))) {
            return error;
        }
        if (auto error =
                check("cuptiPmSamplingCounterDataImageInitialize", timed("createCounterData", [&] {
                          return api->createCounterData(samplesPerImage(intervalNs));
                      }))) {
            return error;
        }
        if (auto error = check("cuptiPmSamplingStart",
                               timed("startSampling", [&] { return api->startSampling(); }))) {
            return error;
        }
        sampling = true;
        return std::nullopt;
    }

    void tearDown() {
        if (sampling) {
            timed("stopSampling", [&] { api->stopSampling(); });
            sampling = false;
        }
        if (enabled) {
            timed("disable", [&] { api->disable(); });
            enabled = false;
        }
        if (hostInitialized) {
            timed("hostDeinitialize", [&] { api->hostDeinitialize(); });
            hostInitialized = false;
        }
        if (profilerInitialized) {
            api->profilerDeinitialize();
            profilerInitialized = false;
        }
        if (deviceOpen) {
            timed("closeDevice", [&] { api->closeDevice(); });
            deviceOpen = false;
        }
        if (claimed) {
            releaseDevice(deviceId);
            claimed = false;
        }
    }

    // Decodes everything the hardware buffer holds into `series`. Called by the decode thread
    // while sampling and once by stop() after sampling stopped; never both at once.
    std::optional<model::Error> drain(int maxPasses) {
        PmSamplingStats delta;
        std::optional<model::Error> error;
        PmSamplingApi::RawSample raw;
        using Ms = std::chrono::duration<double, std::milli>;
        for (int pass = 0; pass < maxPasses && !error; ++pass) {
            const auto decodeBegin = std::chrono::steady_clock::now();
            const auto decoded = api->decode();
            const auto evaluateBegin = std::chrono::steady_clock::now();
            delta.decodeMs += Ms(evaluateBegin - decodeBegin).count();
            ++delta.decodePasses;
            // KEEP_OLDEST mode answers OUT_OF_MEMORY when the buffer overflowed; what it holds is
            // still valid, so read it and go on.
            const bool lost = decoded.overflow || decoded.status == CUPTI_ERROR_OUT_OF_MEMORY;
            delta.overflows += lost ? 1 : 0;
            if (decoded.status != CUPTI_SUCCESS && decoded.status != CUPTI_ERROR_OUT_OF_MEMORY) {
                error = check("cuptiPmSamplingDecodeData", decoded.status);
                break;
            }
            for (std::size_t i = 0; i < decoded.completedSamples; ++i) {
                if ((error = check("cuptiPmSamplingCounterDataGetSampleInfo",
                                   api->readSample(i, raw)))) {
                    break;
                }
                series.add(raw.startNs, raw.endNs, raw.values);
                ++delta.decodedSamples;
            }
            delta.evaluateMs += Ms(std::chrono::steady_clock::now() - evaluateBegin).count();
            if (!error) {
                error = check("cuptiPmSamplingCounterDataImageInitialize", api->resetCounterData());
            }
            if (!decoded.counterDataFull) {
                break;
            }
            ++delta.counterDataFull;
        }
        std::lock_guard lock(mutex);
        stats.decodedSamples += delta.decodedSamples;
        stats.overflows += delta.overflows;
        stats.counterDataFull += delta.counterDataFull;
        stats.decodePasses += delta.decodePasses;
        stats.decodeMs += delta.decodeMs;
        stats.evaluateMs += delta.evaluateMs;
        stats.invalidSamples = series.invalidSamples();
        return error;
    }

    void decodeLoop() {
        std::unique_lock lock(mutex);
        while (!stopRequested) {
            wake.wait_for(lock, kDrainPeriod, [this] { return stopRequested; });
            if (stopRequested) {
                break;
            }
            lock.unlock();
            auto error = drain(kMaxPassesPerDrain);
            lock.lock();
            if (error) {
                decodeError = std::move(error);
                break;
            }
        }
    }
};

PmSampler::PmSampler() : PmSampler(makeCuptiPmSamplingApi()) {}

PmSampler::PmSampler(std::unique_ptr<PmSamplingApi> api) : m_impl(std::make_unique<Impl>()) {
    m_impl->api = std::move(api);
}

PmSampler::~PmSampler() {
    if (running()) {
        stop();
    }
}

model::Status PmSampler::start(int deviceId, std::int64_t intervalNs) {
    Impl& d = *m_impl;
    if (d.running) {
        return model::Error{"GPU metrics: already sampling GPU " + std::to_string(d.deviceId)};
    }
    if (intervalNs < kMinIntervalNs || intervalNs > kMaxIntervalNs) {
        return model::Error{"GPU metrics: sampling interval " + std::to_string(intervalNs) +
                            " ns is outside " + std::to_string(kMinIntervalNs / 1000) + " µs to " +
                            std::to_string(kMaxIntervalNs / 1'000'000'000) + " s"};
    }
    if (deviceId < 0) {
        return model::Error{"GPU metrics: there is no CUDA device " + std::to_string(deviceId)};
    }
    if (d.hardwareBufferBytes < kMinHardwareBufferBytes) {
        return model::Error{"GPU metrics: a PM sampling buffer of " +
                            std::to_string(d.hardwareBufferBytes) + " bytes is below 1 MiB"};
    }
    if (!claimDevice(deviceId)) {
        return model::Error{"GPU metrics: GPU " + std::to_string(deviceId) +
                            " is already being sampled by another GPU metrics session of this "
                            "process (one per device)"};
    }
    d.deviceId = deviceId;
    d.intervalNs = intervalNs;
    d.chip.clear();
    d.claimed = true;
    d.series = PmSamplingSeries(seriesNames());
    {
        std::lock_guard lock(d.mutex);
        d.stats = {};
        d.decodeError.reset();
        d.stopRequested = false;
    }
    d.steps.clear();
    if (auto error = d.setUp()) {
        d.tearDown();
        return *error;
    }
    {
        std::lock_guard lock(d.mutex);
        d.stats.stepMs = d.steps;
    }
    d.steps.clear();
    d.running = true;
    d.decoder = std::thread([&d] { d.decodeLoop(); });
    return model::Status::success();
}

model::Result<std::vector<MetricSeries>> PmSampler::stop() {
    Impl& d = *m_impl;
    if (!d.running) {
        return model::Error{"GPU metrics: stop() without a successful start()"};
    }
    {
        std::lock_guard lock(d.mutex);
        d.stopRequested = true;
    }
    d.wake.notify_all();
    d.timed("joinDecodeThread", [&] { d.decoder.join(); });

    std::vector<std::string> warnings;
    std::optional<model::Error> error;
    {
        std::lock_guard lock(d.mutex);
        error = d.decodeError;
    }
    if (auto stopError = d.check("cuptiPmSamplingStop",
                                 d.timed("stopSampling", [&] { return d.api->stopSampling(); }))) {
        warnings.push_back(stopError->message);
    }
    d.sampling = false;
    if (!error) {
        // Since the last pass.
        error = d.timed("finalDrain", [&] { return d.drain(kMaxPassesFinalDrain); });
    }
    auto series = d.series.finish();
    d.tearDown();
    d.running = false;

    std::lock_guard lock(d.mutex);
    d.stats.stepMs.insert(d.stats.stepMs.end(), d.steps.begin(), d.steps.end());
    d.steps.clear();
    if (d.stats.overflows > 0) {
        warnings.push_back("GPU metrics: the PM sampling buffer of GPU " +
                           std::to_string(d.deviceId) + " overflowed " +
                           std::to_string(d.stats.overflows) +
                           " time(s); samples were lost, possibly all after the first overflow "
                           "(use a longer interval)");
    }
    if (d.stats.counterDataFull > 0) {
        warnings.push_back("GPU metrics: a decode of GPU " + std::to_string(d.deviceId) +
                           " filled its host buffer " + std::to_string(d.stats.counterDataFull) +
                           " time(s); the series may have holes there");
    }
    if (d.stats.invalidSamples > 0) {
        warnings.push_back("GPU metrics: dropped " + std::to_string(d.stats.invalidSamples) +
                           " PM sample(s) of GPU " + std::to_string(d.deviceId) +
                           " with invalid timestamps or values");
    }
    if (error) {
        if (d.series.acceptedSamples() == 0) {
            d.stats.warnings = warnings;
            return *error;
        }
        warnings.push_back(error->message + " (the series end early)");
    }
    d.stats.warnings = std::move(warnings);
    return series;
}

void PmSampler::setHardwareBufferBytes(std::size_t bytes) {
    m_impl->hardwareBufferBytes = bytes;
}

bool PmSampler::running() const {
    return m_impl->running;
}

int PmSampler::deviceId() const {
    return m_impl->deviceId;
}

std::int64_t PmSampler::intervalNs() const {
    return m_impl->intervalNs;
}

PmSamplingStats PmSampler::stats() const {
    std::lock_guard lock(m_impl->mutex);
    return m_impl->stats;
}

}  // namespace wl::cupti
