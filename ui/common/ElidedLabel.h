#pragma once

#include <QLabel>

namespace wl::ui {

// A one-line label that ends in "…" when its room is too narrow, instead of being cut mid-letter
// against the next widget ("copies 269.5 GB/ No GPU" in a 1024 px status bar), and asks for no
// width of its own, so it never widens a window. The whole text is its tooltip unless one is set.
class ElidedLabel : public QLabel {
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    // The text as painted at the current width (text() is the whole of it).
    QString shownText() const;

    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;  // the whole text as the tooltip when none is set
};

}  // namespace wl::ui
