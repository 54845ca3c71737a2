#include "cupti/PmSamplingSeries.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wl::cupti {

PmSamplingSeries::PmSamplingSeries(std::vector<std::string> seriesNames, std::string unit) {
    m_series.reserve(seriesNames.size());
    for (auto& name : seriesNames) {
        m_series.push_back(MetricSeries{std::move(name), unit, {}});
    }
}

void PmSamplingSeries::add(std::uint64_t startNs, std::uint64_t endNs,
                           std::span<const double> values) {
    constexpr auto kMaxTime = static_cast<std::uint64_t>(std::numeric_limits<model::TimeNs>::max());
    if (startNs == 0 || endNs <= startNs || endNs > kMaxTime || values.size() != m_series.size()) {
        ++m_invalid;
        return;
    }
    bool allFinite = true;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) {
            allFinite = false;
            continue;
        }
        m_series[i].samples.push_back({static_cast<model::TimeNs>(startNs), values[i]});
    }
    if (allFinite) {
        ++m_accepted;
    } else {
        ++m_invalid;
    }
}

std::vector<MetricSeries> PmSamplingSeries::finish() {
    const auto byTime = [](const model::CounterSample& a, const model::CounterSample& b) {
        return a.timestampNs < b.timestampNs;
    };
    for (auto& series : m_series) {
        if (!std::is_sorted(series.samples.begin(), series.samples.end(), byTime)) {
            std::stable_sort(series.samples.begin(), series.samples.end(), byTime);
        }
    }
    std::vector<MetricSeries> out;
    out.reserve(m_series.size());
    for (auto& series : m_series) {
        out.push_back(MetricSeries{series.name, series.unit, std::move(series.samples)});
        series.samples = {};
    }
    return out;
}

}  // namespace wl::cupti
