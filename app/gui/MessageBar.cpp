#include "app/gui/MessageBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace wl::app {

MessageBar::MessageBar(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("messageBar"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 5, 6, 5);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    layout->addWidget(m_label, 1);
    layout->addWidget(close);
    connect(close, &QToolButton::clicked, this, &MessageBar::clearMessage);
    hide();
}

void MessageBar::showMessage(Level level, const QString& text) {
    m_level = level;
    m_label->setText(text);
    switch (level) {
        case Level::Info:
            setStyleSheet(
                QStringLiteral("#messageBar { background: #e8f1fb; border: 1px solid #9cc0e8; "
                               "border-radius: 3px; }"));
            break;
        case Level::Warning:
            setStyleSheet(
                QStringLiteral("#messageBar { background: #fff6dc; border: 1px solid #e6c463; "
                               "border-radius: 3px; }"));
            break;
        case Level::Error:
            setStyleSheet(
                QStringLiteral("#messageBar { background: #fde8e6; border: 1px solid #e59a92; "
                               "border-radius: 3px; }"));
            break;
    }
    show();
}

void MessageBar::clearMessage() {
    m_label->clear();
    hide();
}

QString MessageBar::text() const {
    return isHidden() ? QString() : m_label->text();
}

}  // namespace wl::app
