#pragma once

#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

namespace wl::ui {

// Answers a tooltip event with `text`, or hides the tooltip and lets the event go when there is
// nothing to say at that point (between rows, over an empty area).
inline bool showToolTipOrHide(QHelpEvent* event, const QString& text, QWidget* widget) {
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(event->globalPos(), text, widget);
    }
    return true;
}

}  // namespace wl::ui
