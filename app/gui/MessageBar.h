#pragma once

#include <QFrame>
#include <QPointer>
#include <QString>

class QDialog;
class QLabel;
class QToolButton;

namespace wl::app {

// A one-line banner above the timeline for errors and notices, so failures show in the window
// rather than on stderr or in a modal dialog that would block a run or a test. A message may
// come with details (every note a trace's import made, one per line): a "Details" button then
// opens them in a window of their own, beside the timeline. Main thread only.
class MessageBar : public QFrame {
    Q_OBJECT

public:
    enum class Level { Info, Warning, Error };

    explicit MessageBar(QWidget* parent = nullptr);

    // `details`: plain text the Details button shows (none: no button).
    void showMessage(Level level, const QString& text, const QString& details = {});
    void clearMessage();

    QString text() const;
    Level level() const { return m_level; }
    QString details() const { return m_details; }
    QToolButton* detailsButton() const { return m_detailsButton; }
    // Opens (or raises) the window with the details; nullptr when there are none.
    QDialog* showDetails();

private:
    QLabel* m_label = nullptr;
    QToolButton* m_detailsButton = nullptr;
    QPointer<QDialog> m_detailsDialog;
    QString m_details;
    Level m_level = Level::Info;
};

}  // namespace wl::app
