#pragma once

#include <QFrame>
#include <QString>

class QLabel;

namespace wl::app {

// A one-line banner above the timeline for errors and notices, so failures show in the window
// rather than on stderr or in a modal dialog that would block a run or a test. Main thread only.
class MessageBar : public QFrame {
    Q_OBJECT

public:
    enum class Level { Info, Warning, Error };

    explicit MessageBar(QWidget* parent = nullptr);

    void showMessage(Level level, const QString& text);
    void clearMessage();

    QString text() const;
    Level level() const { return m_level; }

private:
    QLabel* m_label = nullptr;
    Level m_level = Level::Info;
};

}  // namespace wl::app
