#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <array>
#include <vector>

namespace wl::ui {

// One row of paired bars: a label and the two runs' values, each with the text drawn after its
// bar. `scaleMax` > 0 gives the row a scale of its own (a percentage out of 100, a time beside a
// rate); 0 puts it on the widget's shared axis.
struct PairedBarRow {
    QString label;      // drawn (elided in the middle when the column is narrow)
    QString fullLabel;  // the tooltip's first line; the label when empty
    std::array<double, 2> values{};
    std::array<QString, 2> texts;  // "1292.27 ms", "50.3%"
    double scaleMax = 0.0;
};

// Two runs side by side as horizontal bars, one pair per row: labels in a column on the left,
// the first run's bar above the second's, every value written beside its bar (a zero too, so
// an empty pair still reads "0"), a shared axis with 1-2-5 ticks under the rows that share it,
// and a tooltip per row with the full label and both values. Replaces chart widgets that elided
// every real kernel name to "…" and kept no readable height. GUI thread only.
class PairedBars : public QWidget {
    Q_OBJECT
public:
    explicit PairedBars(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    void setRunNames(const QString& first, const QString& second);
    void setRows(std::vector<PairedBarRow> rows);
    const std::vector<PairedBarRow>& rows() const { return m_rows; }
    QString title() const { return m_title; }

    // The tooltip text for a point in the widget: the row's full label and both values; empty
    // between rows.
    QString toolTipAt(QPoint pos) const;
    // Where a row's pair of bars and its label are.
    QRect rowRect(int row) const;
    // The label as drawn at the current width (tests check nothing is elided to "…" alone).
    QString drawnLabel(int row) const;
    // Ticks of the shared axis: multiples of a 1, 2 or 5 step from 0 past the largest value.
    static std::vector<double> axisTicks(double maxValue, int maxTicks);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    static constexpr std::array<QRgb, 2> kRunColours = {0xff8c8c8c, 0xff2e86de};

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Geometry {
        int titleHeight = 0;
        int legendHeight = 0;
        int labelWidth = 0;  // the label column
        int barLeft = 0;
        int barWidth = 0;  // the longest bar, leaving room for its text
        int rowsTop = 0;
        int axisHeight = 0;
    };
    Geometry geometry() const;
    QString elided(const QString& label, const Geometry& g) const;  // as the label column fits
    int rowHeight() const;
    int barHeight() const;
    bool hasSharedAxis() const;
    double sharedMax() const;
    int rowAt(int y) const;

    QString m_title;
    std::array<QString, 2> m_runNames;
    std::vector<PairedBarRow> m_rows;
};

}  // namespace wl::ui
