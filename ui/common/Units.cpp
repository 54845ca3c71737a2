#include "ui/common/Units.h"

#include "analysis/Format.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace wl::ui::units {

QString duration(model::TimeNs ns) {
    return QString::fromStdString(analysis::formatDuration(ns));
}

QString timestamp(model::TimeNs ns) {
    // Integer arithmetic so the digits are exact.
    const bool negative = ns < 0;
    const std::int64_t a = negative ? -ns : ns;
    return QStringLiteral("%1%2.%3 ms")
        .arg(negative ? QStringLiteral("-") : QString())
        .arg(a / 1'000'000)
        .arg(a % 1'000'000, 6, 10, QLatin1Char('0'));
}

QString bytes(std::uint64_t value) {
    return QString::fromStdString(analysis::formatBytes(value));
}

QString gbPerSecond(std::uint64_t value, model::TimeNs ns) {
    if (ns <= 0)
        return QStringLiteral("n/a");
    // bytes per ns is exactly GB/s.
    return decimal(static_cast<double>(value) / static_cast<double>(ns)) + QStringLiteral(" GB/s");
}

QString percent(double pct) {
    // formatPercent keeps three decimals under 0.1%: below 0.0005% that is "0.000%".
    if (pct != 0.0 && std::fabs(pct) < 0.0005)
        return decimal(pct) + QLatin1Char('%');
    return QString::fromStdString(analysis::formatPercent(pct));
}

QString decimal(double value) {
    if (value == 0.0)
        return QStringLiteral("0");
    const double magnitude = std::fabs(value);
    // Digits after the point: 1 from 1 up; below 1, enough for two significant ones.
    constexpr int kMaxDecimals = 6;
    const int decimals =
        magnitude >= 1.0
            ? 1
            : std::min(kMaxDecimals, static_cast<int>(std::ceil(-std::log10(magnitude))) + 1);
    return QString::number(value, 'f', decimals);
}

QString grouped(std::int64_t value) {
    QString digits = QString::number(std::llabs(value));
    for (int i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return value < 0 ? QStringLiteral("-") + digits : digits;
}

QString counterValue(double value, std::string_view unit, int decimals) {
    if (unit == "B")
        return bytes(value > 0 ? static_cast<std::uint64_t>(value + 0.5) : 0);
    const QString number = QString::number(value, 'f', decimals);
    return unit.empty() ? number
                        : number + QLatin1Char(' ') +
                              QString::fromUtf8(unit.data(), static_cast<qsizetype>(unit.size()));
}

}  // namespace wl::ui::units
