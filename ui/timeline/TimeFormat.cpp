#include "ui/timeline/TimeFormat.h"

#include "analysis/Format.h"

#include <cmath>
#include <cstdlib>

namespace wl::ui {

namespace {

struct Unit {
    double ns;
    const char16_t* suffix;
};

constexpr Unit kUnits[] = {{1e9, u" s"}, {1e6, u" ms"}, {1e3, u" µs"}, {1.0, u" ns"}};

}  // namespace

QString formatDuration(model::TimeNs durationNs) {
    return QString::fromStdString(analysis::formatDuration(durationNs));
}

QString formatTickLabel(model::TimeNs ns, model::TimeNs stepNs, model::TimeNs magnitudeNs) {
    const double magnitude = std::abs(double(magnitudeNs));
    for (const Unit& unit : kUnits) {
        if (magnitude < unit.ns && unit.ns != 1.0) {
            continue;  // labels would all read 0.something
        }
        const double step = double(stepNs) / unit.ns;
        const int decimals = step >= 1.0 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
        if (decimals <= 3 || unit.ns == 1.0) {
            return QString::number(double(ns) / unit.ns, 'f', std::max(decimals, 0)) +
                   QString::fromUtf16(unit.suffix);
        }
    }
    return QString::number(ns) + QStringLiteral(" ns");
}

}  // namespace wl::ui
