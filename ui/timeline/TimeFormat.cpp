#include "ui/timeline/TimeFormat.h"

#include <QObject>
#include <algorithm>
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

namespace {

constexpr int kMaxLabelDigits = 7;  // "1234.567 ms" reads; "1215140.784 µs" does not

int digitCount(const QString& text) {
    return int(std::count_if(text.begin(), text.end(), [](QChar c) { return c.isDigit(); }));
}

model::TimeNs magnitudeOf(model::TimeNs startNs, model::TimeNs endNs) {
    return std::max(std::abs(startNs), std::abs(endNs));
}

}  // namespace

RulerOrigin rulerOrigin(model::TimeNs startNs, model::TimeNs endNs, model::TimeNs stepNs) {
    RulerOrigin origin;
    const QString absolute = formatTickLabel(endNs, stepNs, magnitudeOf(startNs, endNs));
    if (digitCount(absolute) <= kMaxLabelDigits || stepNs <= 0) {
        return origin;
    }
    // A power of ten at least 100 steps long: offsets keep three or four digits, and the anchor
    // changes only every hundred steps of panning.
    model::TimeNs anchorStep = 1;
    while (anchorStep < stepNs * 100 && anchorStep < model::TimeNs(1) << 60) {
        anchorStep *= 10;
    }
    origin.relative = true;
    origin.anchorStepNs = anchorStep;
    // Rounded down, negative times included.
    origin.anchorNs =
        (startNs >= 0 ? startNs / anchorStep : -((-startNs + anchorStep - 1) / anchorStep)) *
        anchorStep;
    return origin;
}

RulerOrigin rulerOriginAt(model::TimeNs anchorNs, QString anchorName) {
    RulerOrigin origin;
    origin.relative = true;
    origin.anchorNs = anchorNs;
    origin.anchorName = std::move(anchorName);
    return origin;
}

QString rulerLabel(const RulerOrigin& origin, model::TimeNs ns, model::TimeNs stepNs,
                   model::TimeNs startNs, model::TimeNs endNs) {
    if (!origin.relative) {
        return formatTickLabel(ns, stepNs, magnitudeOf(startNs, endNs));
    }
    const model::TimeNs offset = ns - origin.anchorNs;
    const QString text = formatTickLabel(
        offset, stepNs, magnitudeOf(startNs - origin.anchorNs, endNs - origin.anchorNs));
    return offset >= 0 ? QStringLiteral("+") + text : text;
}

QString rulerAnchorText(const RulerOrigin& origin) {
    if (!origin.anchorName.isEmpty())
        return QObject::tr("from %1").arg(origin.anchorName);
    return QObject::tr("from %1").arg(
        formatTickLabel(origin.anchorNs, origin.anchorStepNs, origin.anchorNs));
}

}  // namespace wl::ui
