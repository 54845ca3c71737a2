#pragma once

#include <QMetaObject>
#include <QObject>
#include <QThreadPool>
#include <memory>
#include <utility>

namespace wl::app {

// Runs a job on a thread pool and hands its result to a callback on the context object's thread,
// unless a newer job was started or the job was abandoned in the meantime: stale results are
// dropped (the idea of KDAB hotspot's JobTracker). The owner must wait for the pool before it and
// this tracker are destroyed, so a running job never outlives them.
class JobTracker {
public:
    explicit JobTracker(QObject* context) : m_context(context) {}

    bool isRunning() const { return m_running; }
    quint64 currentJob() const { return m_current; }

    // Forget the running job: its result will be dropped.
    void abandon() {
        ++m_current;
        m_running = false;
    }

    // `work()` runs on `pool`; `then(result)` runs later on the context's thread if still current.
    template <class Work, class Then>
    quint64 start(QThreadPool& pool, Work work, Then then) {
        const quint64 id = ++m_current;
        m_running = true;
        pool.start([this, id, work = std::move(work), then = std::move(then)]() mutable {
            using R = decltype(work());
            auto result = std::make_shared<R>(work());
            QMetaObject::invokeMethod(
                m_context,
                [this, id, result, then]() mutable {
                    if (id != m_current)
                        return;  // stale: a newer job owns the UI now
                    m_running = false;
                    then(std::move(*result));
                },
                Qt::QueuedConnection);
        });
        return id;
    }

private:
    QObject* m_context;
    quint64 m_current = 0;
    bool m_running = false;
};

}  // namespace wl::app
