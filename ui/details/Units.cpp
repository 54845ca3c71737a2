#include "ui/details/Units.h"

#include <cmath>
#include <cstdlib>

namespace wl::ui::units {

QString duration(model::TimeNs ns) {
    const double abs = std::fabs(static_cast<double>(ns));
    const double v = static_cast<double>(ns);
    if (abs < 1e3)
        return QStringLiteral("%1 ns").arg(ns);
    if (abs < 1e6)
        return QStringLiteral("%1 µs").arg(v / 1e3, 0, 'f', abs < 1e4 ? 3 : 2);
    if (abs < 1e9)
        return QStringLiteral("%1 ms").arg(v / 1e6, 0, 'f', 3);
    return QStringLiteral("%1 s").arg(v / 1e9, 0, 'f', 3);
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
    if (value < 1024)
        return QStringLiteral("%1 B").arg(value);
    const double v = static_cast<double>(value);
    if (value < 1024ull * 1024)
        return QStringLiteral("%1 KiB").arg(v / 1024.0, 0, 'f', 1);
    if (value < 1024ull * 1024 * 1024) {
        return QStringLiteral("%1 MiB").arg(v / (1024.0 * 1024.0), 0, 'f', 1);
    }
    return QStringLiteral("%1 GiB").arg(v / (1024.0 * 1024.0 * 1024.0), 0, 'f', 2);
}

QString gbPerSecond(std::uint64_t value, model::TimeNs ns) {
    if (ns <= 0)
        return QStringLiteral("n/a");
    // bytes per ns is exactly GB/s.
    return QStringLiteral("%1 GB/s").arg(static_cast<double>(value) / static_cast<double>(ns), 0,
                                         'f', 2);
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
