#include "app/gui/MessageBar.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

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
    m_detailsButton = new QToolButton(this);
    m_detailsButton->setText(tr("Details…"));
    m_detailsButton->setToolTip(tr("Everything the import noted, one line each"));
    m_detailsButton->hide();
    layout->addWidget(m_label, 1);
    layout->addWidget(m_detailsButton);
    layout->addWidget(close);
    connect(close, &QToolButton::clicked, this, &MessageBar::clearMessage);
    connect(m_detailsButton, &QToolButton::clicked, this, [this] { showDetails(); });
    hide();
}

void MessageBar::showMessage(Level level, const QString& text, const QString& details) {
    m_level = level;
    m_label->setText(text);
    m_details = details;
    m_detailsButton->setVisible(!details.isEmpty());
    if (m_detailsDialog)
        m_detailsDialog->close();  // it showed an earlier message's details
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
    m_details.clear();
    m_detailsButton->hide();
    if (m_detailsDialog)
        m_detailsDialog->close();
    hide();
}

QDialog* MessageBar::showDetails() {
    if (m_details.isEmpty())
        return nullptr;
    if (!m_detailsDialog) {
        // Not modal: the timeline stays usable beside it, to look up what it lists.
        auto* dialog = new QDialog(window());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setWindowTitle(tr("Import notes"));
        auto* text = new QPlainTextEdit(dialog);
        text->setObjectName(QStringLiteral("importNotesText"));
        text->setReadOnly(true);
        text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        text->setPlainText(m_details);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        auto* layout = new QVBoxLayout(dialog);
        layout->addWidget(text, 1);
        layout->addWidget(buttons);
        // Wide enough for a listed event on two lines at most.
        dialog->resize(text->fontMetrics().averageCharWidth() * 110,
                       text->fontMetrics().lineSpacing() * 30);
        m_detailsDialog = dialog;
    }
    m_detailsDialog->show();
    m_detailsDialog->raise();
    return m_detailsDialog;
}

QString MessageBar::text() const {
    return isHidden() ? QString() : m_label->text();
}

}  // namespace wl::app
