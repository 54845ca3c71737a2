#include "app/gui/StatusLine.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

#include "ui/common/ElidedLabel.h"

namespace wl::app {

StatusLine::StatusLine(QStatusBar& bar) : QObject(&bar) {
    m_device = new QLabel(&bar);
    m_run = new ui::ElidedLabel(&bar);
    m_run->setText(tr("No run yet"));
    m_analysis = new ui::ElidedLabel(&bar);
    m_activity = new QLabel(&bar);
    m_progress = new QProgressBar(&bar);
    m_progress->setMaximumWidth(260);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_stop = new QToolButton(&bar);
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop opening this file (Esc)"));
    m_stop->setAutoRaise(true);
    m_stop->hide();
    connect(m_stop, &QToolButton::clicked, this, &StatusLine::stopRequested);
    // A long run check must give way to the analysis summary instead of painting over it: each
    // label takes the room that is left and ends in "…" there (the whole text in its tooltip);
    // neither may widen the window past a small screen.
    bar.addWidget(m_run, 1);
    bar.addWidget(m_analysis, 2);
    // The timeline's measure: between two flags, a time selection's span. Elided in the middle
    // to leave the analysis summary its room at 1024 px; the whole line in its tooltip.
    m_measure = new QLabel(&bar);
    m_measure->setObjectName(QStringLiteral("measureStatus"));
    m_measure->hide();
    bar.addPermanentWidget(m_measure);
    bar.addPermanentWidget(m_activity);
    bar.addPermanentWidget(m_progress);
    bar.addPermanentWidget(m_stop);
    bar.addPermanentWidget(m_device);
}

void StatusLine::setRunText(const QString& text) {
    m_run->setText(text);
}

QString StatusLine::runText() const {
    return m_run->text();
}

void StatusLine::keepRunTextAsToolTip() {
    m_run->setToolTip(m_run->text());
}

void StatusLine::setAnalysisText(const QString& text, bool withToolTip) {
    m_analysis->setText(text);
    if (withToolTip)
        m_analysis->setToolTip(text);
}

void StatusLine::setMeasure(const QString& text) {
    constexpr int kMaxMeasurePx = 320;
    m_measure->setText(m_measure->fontMetrics().elidedText(text, Qt::ElideMiddle, kMaxMeasurePx));
    m_measure->setToolTip(text);
    m_measure->setVisible(!text.isEmpty());
}

void StatusLine::setActivity(const QString& text) {
    m_activity->setText(text);
}

void StatusLine::setRunProgress(double fraction) {
    m_progress->setRange(0, 1000);
    m_progress->setValue(static_cast<int>(fraction * 1000.0));
}

void StatusLine::setBusy(bool busy, bool fractionKnown) {
    m_progress->setVisible(busy);
    m_activity->setVisible(busy);
    if (busy && !fractionKnown)
        m_progress->setRange(0, 0);  // loading: no fraction known
}

void StatusLine::setStoppable(bool stoppable) {
    m_stop->setVisible(stoppable);
}

void StatusLine::setDevice(const QString& text, const QString& toolTip) {
    m_device->setText(text);
    m_device->setToolTip(toolTip);
}

void StatusLine::setDeviceText(const QString& text) {
    m_device->setText(text);
}

}  // namespace wl::app
