#pragma once

#include <cstddef>
#include <vector>

#include <QColor>
#include <QRectF>

#include "model/Trace.h"

class QPainter;

namespace wl::ui {

// An arrow between two slices as the timeline draws them: a curve from the bottom left of
// `from` to the top left of `to` (the top of `to` when it lies above), with a head at `to`.
void paintArrow(QPainter& p, const QRectF& from, const QRectF& to, QColor color, double widthPx);

// The dependencies (waits through CUDA events) that touch the visible time [startNs, endNs]
// (an end inside it, or both ends around it), at most `maxCount` of them so a trace of a
// million waits still paints at once.
std::vector<model::Dependency> dependenciesInView(const model::Trace& trace, model::TimeNs startNs,
                                                  model::TimeNs endNs, std::size_t maxCount);

}  // namespace wl::ui
