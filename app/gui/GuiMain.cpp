#include "app/gui/GuiMain.h"

#include <QApplication>
#include <QIcon>
#include <QTimer>
#include <cstdio>

#include "app/cli/Commands.h"
#include "app/gui/GuiOptions.h"
#include "app/gui/MainWindow.h"
#include "ui/find/EventsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/query/QueryPanel.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

// Drives the start-up steps the command line asks for (open, run, screenshot) one after the
// other, each waiting until the window is idle again. Lives on the GUI thread for the whole
// event loop.
class StartupSequence {
public:
    StartupSequence(MainWindow& window, GuiOptions options)
        : m_window(window), m_options(std::move(options)) {
        QObject::connect(&window, &MainWindow::openFinished, [this](bool ok) {
            if (!ok)
                m_openFailed = true;
        });
        QObject::connect(&window, &MainWindow::runFinished, [this](bool ok) {
            if (!ok)
                m_runFailed = true;
        });
        QObject::connect(&window, &MainWindow::idle, [this] {
            if (m_waiting) {
                m_waiting = false;
                next();
            }
        });
    }

    void start() {
        // Opening the bundled sample depends on whether runs are possible, and a screenshot
        // should show the device: wait for the probe (quick without a GPU).
        if (m_window.isProbingDevice()) {
            QObject::connect(
                &m_window, &MainWindow::deviceProbed, &m_window, [this] { next(); },
                Qt::SingleShotConnection);
        } else {
            QTimer::singleShot(0, [this] { next(); });
        }
    }

private:
    enum class Step { Open, Run, Find, Settle, Screenshot, Done };

    void next() {
        while (m_step != Step::Done) {
            const Step step = m_step;
            m_step = static_cast<Step>(static_cast<int>(m_step) + 1);
            perform(step);
            if (step == Step::Settle && waitForPanels())
                return;
            if (m_window.isBusy()) {
                m_waiting = true;  // idle() resumes us
                return;
            }
            if (step == Step::Screenshot)
                return;  // the screenshot ends the event loop
        }
    }

    void perform(Step step) {
        switch (step) {
            case Step::Open:
                if (!m_options.moreOpenPaths.empty()) {
                    QStringList paths{QString::fromStdString(m_options.openPath)};
                    for (const std::string& p : m_options.moreOpenPaths)
                        paths << QString::fromStdString(p);
                    m_window.openRankJob(paths);
                } else if (!m_options.openPath.empty()) {
                    m_window.openFile(QString::fromStdString(m_options.openPath));
                } else if (!m_window.deviceAvailable()) {
                    m_window.openBundledSample();
                }
                break;
            case Step::Run:
                // Without a device either is an error in the window and runFinished(false).
                if (!m_options.compareWithPath.empty()) {
                    if (!m_openFailed)
                        m_window.compareWith(QString::fromStdString(m_options.compareWithPath));
                } else if (m_options.compare) {
                    m_window.startCompare();
                } else if (m_options.run) {
                    m_window.startRun();
                }
                break;
            case Step::Find:
                if (m_options.selectRange)
                    m_window.selectTime(*m_options.selectRange);
                for (const GuiOptions::Flag& flag : m_options.flags)
                    m_window.timeline()->dropFlag(flag.timeNs, QString::fromStdString(flag.name));
                if (m_options.showEvents)
                    m_window.showEvents();
                if (!m_options.querySql.empty())
                    m_window.runQuery(QString::fromStdString(m_options.querySql));
                if (m_options.summaryPage)
                    m_window.showSummary(*m_options.summaryPage);
                if (!m_options.findText.empty()) {
                    m_window.find(QString::fromStdString(m_options.findText));
                    m_window.findPanel()->findNext();  // the first match, selected and in view
                }
                break;
            case Step::Settle:
                break;
            case Step::Screenshot:
                if (m_options.screenshotPath.empty())
                    break;
                // One more turn of the event loop so layouts and the timeline settle.
                QTimer::singleShot(50, [this] { saveScreenshot(); });
                break;
            case Step::Done:
                break;
        }
    }

    // The Find panel's search and the events table's sort run on workers: the next step waits
    // until both are done (checked again after each one finishes).
    bool waitForPanels() {
        auto again = [this] {
            m_step = Step::Settle;
            next();
        };
        if (m_window.findPanel()->isSearching()) {
            QObject::connect(m_window.findPanel(), &ui::FindPanel::matchesChanged, &m_window, again,
                             Qt::SingleShotConnection);
            return true;
        }
        if (m_window.queryPanel()->isBusy()) {
            QObject::connect(m_window.queryPanel(), &ui::QueryPanel::finished, &m_window, again,
                             Qt::SingleShotConnection);
            return true;
        }
        if (m_window.eventsPanel()->isBusy()) {
            QObject::connect(m_window.eventsPanel(), &ui::EventsPanel::rowsChanged, &m_window,
                             again, Qt::SingleShotConnection);
            return true;
        }
        return false;
    }

    void saveScreenshot() {
        const QString path = QString::fromStdString(m_options.screenshotPath);
        int code = m_openFailed ? kExitBadInput : (m_runFailed ? kExitFailure : kExitOk);
        if (m_openFailed || m_runFailed) {
            printError(m_window.messageText().toStdString());
        }
        // What a user would see: widgets the last updates added are shown and laid out (both are
        // posted events) before the picture is taken.
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        if (!m_window.grab().save(path)) {
            printError(m_options.screenshotPath + ": could not write the screenshot");
            code = kExitFailure;
        }
        QCoreApplication::exit(code);
    }

    MainWindow& m_window;
    GuiOptions m_options;
    Step m_step = Step::Open;
    bool m_waiting = false;
    bool m_openFailed = false;
    bool m_runFailed = false;
};

}  // namespace

int guiMain(int argc, char** argv) {
    model::Result<GuiOptions> options =
        parseGuiOptions(std::vector<std::string>(argv + 1, argv + argc));
    if (!options) {
        printError(options.error().describe());
        return kExitBadInput;
    }
    if (options->help) {
        std::fputs(guiUsage(), stdout);
        return kExitOk;
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Warpline"));
    QApplication::setApplicationName(QStringLiteral("warpline"));
    QApplication::setApplicationDisplayName(QStringLiteral("Warpline"));
    QApplication::setApplicationVersion(QStringLiteral(WARPLINE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("warpline"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/warpline.png")));

    MainWindowDeps deps;
    // Screenshots should look the same everywhere: default size and layout, not the saved ones.
    deps.restoreLayout = options->screenshotPath.empty();
    MainWindow window(std::move(deps));
    if (options->requestGiven)
        window.setRunRequest(options->request);
    if (options->windowWidthPx > 0)
        window.resize(options->windowWidthPx, options->windowHeightPx);
    window.show();

    StartupSequence startup(window, *options);
    startup.start();
    return QApplication::exec();
}

}  // namespace wl::app
