#pragma once

#include <QString>
#include <cstddef>

#include "analysis/Statistics.h"
#include "analysis/Summary.h"
#include "ui/charts/BarChart.h"
#include "ui/charts/LineChart.h"

namespace wl::ui::summary {

// What the Summary's charts show, made from the analysis' figures: pure functions, so the charts
// and their tests read the same numbers. Times in ms, sizes in MB (10^6 bytes).

// One stacked bar per iteration (categories "1", "2", ...; the iterations' names on hover), a
// series per StepPart in the order the parts are taken.
charts::BarChartSpec iterationChart(const analysis::Summary& summary);
// The mean of each part over the iterations, and its share of the mean iteration: "Mean of 12
// iterations: 21.4 ms · Kernel 45.1% · Memcpy 3.2% · ..." (parts with no time left out).
QString iterationBreakdownText(const analysis::Summary& summary);
// The same as rich text, each part after a square of its colour in the iteration chart: the
// chart's legend, with the figures.
QString iterationBreakdownHtml(const analysis::Summary& summary);
// The colour of a part in the iteration chart.
QColor stepPartColour(analysis::StepPart part);
// GPU busy (%) over the window, against the time since the trace's start.
charts::LineChartSpec utilizationChart(const analysis::Summary& summary);
// The kernels that took the most time (at most `count`), longest first, under their short names.
charts::BarChartSpec topKernelsChart(const analysis::Statistics& statistics, std::size_t count);
// Launches per duration bin of one kernel ("1.20–1.35 µs").
charts::BarChartSpec durationHistogramChart(const analysis::DurationHistogram& histogram,
                                            const QString& kernelName);
// The operators that took the most host time (at most `count`), host total and GPU total.
charts::BarChartSpec topOperatorsChart(const analysis::OperatorTable& operators, std::size_t count);
// A device's memory series over the window in MB, with at most `maxPoints` points per series (the
// largest value of each stretch kept, so the peak is never smoothed away) and the peak marked.
charts::LineChartSpec memoryChart(const analysis::MemoryTimeline& memory, std::size_t maxPoints);
// Per rank: computation only, communication only, both at once, and neither, stacked (ms).
charts::BarChartSpec rankChart(const std::vector<analysis::RankTimeBreakdown>& ranks);

// Keeps at most `maxPoints` of a step series' samples: in each of equal stretches of the samples,
// the first and the largest (so the peak stays). The samples as they are when there are fewer.
std::vector<model::CounterSample> thinned(const std::vector<model::CounterSample>& samples,
                                          std::size_t maxPoints);

}  // namespace wl::ui::summary
