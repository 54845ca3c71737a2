#include <gtest/gtest.h>

#include "ui/common/ElidedLabel.h"

namespace wl::ui {
namespace {

TEST(ElidedLabel, EndsInAnEllipsisWhenNarrowAndAsksForNoWidth) {
    ElidedLabel label;
    const QString text = QStringLiteral(
        "GPU busy 57.6% in 5 iterations 'ProfilerStep#' (1.738 s) · copy/compute overlap 0.0% · "
        "copies 269.5 GB/s · 3 finding(s) (2 warnings)");
    label.setText(text);
    label.resize(200, 20);
    EXPECT_TRUE(label.shownText().endsWith(QStringLiteral("…"))) << label.shownText().toStdString();
    EXPECT_LE(label.fontMetrics().horizontalAdvance(label.shownText()), 200);
    EXPECT_LT(label.minimumSizeHint().width(), 100);
    label.resize(2000, 20);
    EXPECT_EQ(label.shownText(), text);
}

}  // namespace
}  // namespace wl::ui
