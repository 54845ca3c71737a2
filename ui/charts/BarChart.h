#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <vector>

#include "ui/charts/ChartWidget.h"

class QBarCategoryAxis;
class QGraphicsSimpleTextItem;
class QValueAxis;

namespace wl::ui::charts {

// One series of bars: a value per category.
struct BarSet {
    QString name;
    QColor colour;
    std::vector<double> values;
};

// What a bar chart shows. The categories come in the order given: the first at the top of
// horizontal bars, at the left of vertical ones.
struct BarChartSpec {
    QString title;
    QString unit;            // after every value: "ms", "%", "GB/s"
    QStringList categories;  // names (drawn elided in the middle, whole in the tooltip)
    QStringList fullNames;   // per category, the tooltip's first line when longer (a kernel's
                             // full signature); empty: the category
    std::vector<BarSet> sets;
    bool horizontal = true;
    bool stacked = false;
    int significantDigits = 4;  // of the values written beside the bars
    double axisMax = 0.0;       // > 0: the value axis' end (100 for a percentage); 0: from the data
    bool legend = true;
};

// A Qt Charts bar chart with what a profiler's bars need: every value written beside its bar (a
// zero too; stacked bars give theirs on hover), long names elided in the middle with the whole
// name and every series' value in the tooltip, the height its rows need (a caller's scroll area
// scrolls when there are many), a click on a bar as a signal, and a context menu that saves the
// chart as PNG and its data as CSV. GUI thread.
class BarChart : public ChartWidget {
    Q_OBJECT
public:
    explicit BarChart(QWidget* parent = nullptr);

    void setSpec(BarChartSpec spec);
    const BarChartSpec& spec() const { return m_spec; }
    // The tooltip of a bar: the category's full name, then each series' value ("A: 2.00 ms"), and
    // for two series the second's ratio to the first.
    QString toolTipFor(int category, int set) const;
    // The category names as drawn at the current width.
    QStringList drawnCategories() const;
    // The text written beside each bar, per series then category as in the spec ("2 ms", "0 ms":
    // Qt Charts' own labels leave out a zero, so the chart writes its own); none for stacked bars.
    std::vector<QStringList> valueLabels() const;
    // The data as CSV: one row per category, a column per series.
    QString csv() const override;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // A bar was clicked: its category and series, as indices into the spec.
    void barClicked(int category, int set);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void relabel();      // the categories elided to the current width
    void placeLabels();  // each value beside its bar, after the plot area is laid out
    int specIndex(int shownIndex) const;
    int neededHeight() const;
    QString valueText(double value) const;

    BarChartSpec m_spec;
    QBarCategoryAxis* m_categoryAxis = nullptr;
    QValueAxis* m_valueAxis = nullptr;
    bool m_widening = false;  // placeLabels is lengthening the axis
    double m_baseMax = 0.0;   // the value axis' end and tick step for the data alone
    double m_baseStep = 0.0;
    QStringList m_drawn;  // as shown, in the spec's order
    // Per series, per category in the spec's order: the value written beside its bar.
    std::vector<std::vector<QGraphicsSimpleTextItem*>> m_labels;
};

}  // namespace wl::ui::charts
