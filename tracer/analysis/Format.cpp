#include "analysis/Format.h"

#include <cstdio>

namespace wl::analysis {

namespace {
std::string printf1(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}
}  // namespace

std::string formatDuration(model::TimeNs ns) {
    const double v = static_cast<double>(ns);
    const double a = v < 0 ? -v : v;
    if (a < 1e3) {
        return std::to_string(ns) + " ns";
    }
    if (a < 1e6) {
        return printf1("%.1f \u00b5s", v / 1e3);
    }
    if (a < 1e9) {
        return printf1("%.2f ms", v / 1e6);
    }
    return printf1("%.3f s", v / 1e9);
}

std::string formatBytes(std::uint64_t bytes) {
    const double v = static_cast<double>(bytes);
    if (bytes < 1000) {
        return std::to_string(bytes) + " B";
    }
    if (v < 1e6) {
        return printf1("%.1f KB", v / 1e3);
    }
    if (v < 1e9) {
        return printf1("%.1f MB", v / 1e6);
    }
    return printf1("%.2f GB", v / 1e9);
}

std::string formatPercent(double pct) {
    return pct != 0.0 && pct < 0.1 && pct > -0.1 ? printf1("%.3f%%", pct) : printf1("%.1f%%", pct);
}

std::string formatRate(double gbPerSecond) {
    return printf1("%.1f GB/s", gbPerSecond);
}

}  // namespace wl::analysis
