#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cupti/PmSampler.h"

namespace wl::cupti {

// Turns decoded PM samples (start/end timestamps, one value per metric) into one MetricSeries per
// metric. A sample with a zero or reversed time range is dropped whole; a non-finite value is
// dropped from its series only; both are counted. Samples arrive in hardware order, which is time
// order; finish() sorts anyway so a reordered decode cannot break the model's sorted-series rule.
// Single-threaded (owned by the decode thread while sampling, by stop() afterwards).
class PmSamplingSeries {
public:
    explicit PmSamplingSeries(std::vector<std::string> seriesNames, std::string unit = "%");

    void add(std::uint64_t startNs, std::uint64_t endNs, std::span<const double> values);
    std::vector<MetricSeries> finish();  // leaves this empty

    std::uint64_t acceptedSamples() const { return m_accepted; }
    std::uint64_t invalidSamples() const { return m_invalid; }

private:
    std::vector<MetricSeries> m_series;
    std::uint64_t m_accepted = 0;
    std::uint64_t m_invalid = 0;
};

}  // namespace wl::cupti
