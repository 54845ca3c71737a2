#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QToolButton;
class QStatusBar;

namespace wl::app {

// The window's status bar: the last run in words and the analysis summary on the left (each
// ending in "…" where its room ends, never widening the window), and on the right the
// timeline's measure, what is being done with its progress, and the device. It only shows what
// it is told; GUI thread.
class StatusLine : public QObject {
    Q_OBJECT

public:
    explicit StatusLine(QStatusBar& bar);

    // The last run in words ("No run yet" at first).
    void setRunText(const QString& text);
    QString runText() const;
    // The run text's tooltip: the text as it is now (it stays when the text changes).
    void keepRunTextAsToolTip();
    // The analysis summary, with itself as tooltip when `withToolTip`.
    void setAnalysisText(const QString& text, bool withToolTip);
    // The timeline's measure (between two flags, a time selection's span); hidden when empty.
    void setMeasure(const QString& text);
    // What is being done (opening, exporting, a run's step).
    void setActivity(const QString& text);
    // A run's progress, a fraction of 1.
    void setRunProgress(double fraction);
    // The activity and progress bar shown while busy; without a known fraction (a load) the bar
    // just moves.
    void setBusy(bool busy, bool fractionKnown);
    // Whether what is being done can be stopped from here (opening a file): a Stop button beside
    // the progress bar, which emits stopRequested().
    void setStoppable(bool stoppable);
    // The device: its short text, and the whole as tooltip.
    void setDevice(const QString& text, const QString& toolTip);
    void setDeviceText(const QString& text);

signals:
    void stopRequested();

private:
    QLabel* m_run = nullptr;
    QLabel* m_analysis = nullptr;
    QLabel* m_measure = nullptr;
    QLabel* m_activity = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_stop = nullptr;
    QLabel* m_device = nullptr;
};

}  // namespace wl::app
