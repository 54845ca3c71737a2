#pragma once

#include <QMetaObject>
#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

namespace wl::ui {

namespace detail {

// What a tracker and its jobs share. A job may outlive both the tracker and its context object:
// it then finds `context` null and posts nothing.
struct JobChannel {
    std::mutex mutex;  // guards `context` against its destruction while a worker posts
    QObject* context;  // null once the context or the tracker is gone (written on its thread)
    std::atomic<quint64> current{0};  // the id of the newest job
    bool running = false;             // the newest job has not delivered yet (context thread only)

    explicit JobChannel(QObject* c) : context(c) {}

    void detach() {
        const std::lock_guard lock(mutex);
        context = nullptr;
    }
};

// Queues `fn` to the context's thread, where it runs only while job `id` is still the newest and
// the tracker still exists; otherwise it is dropped (on whichever thread lets go of it).
inline void post(const std::shared_ptr<JobChannel>& channel, quint64 id, std::function<void()> fn) {
    const std::lock_guard lock(channel->mutex);
    // Under the lock: the context cannot finish its destruction between this test and the post
    // (its destroyed() handler takes the same lock, and ~QObject then discards what was queued).
    if (channel->context == nullptr || channel->current.load() != id)
        return;
    QMetaObject::invokeMethod(
        channel->context,
        [channel, id, fn = std::move(fn)] {
            if (channel->context != nullptr && channel->current.load() == id)
                fn();
        },
        Qt::QueuedConnection);
}

}  // namespace detail

// What a job's work is handed: whether it should stop (a newer job superseded it, it was
// abandoned or asked to stop, or its tracker went away), and a way to send progress back.
// Copyable; safe on any thread.
class JobToken {
public:
    bool isCancelled() const { return m_cancel->load(); }
    // For functions that poll a flag themselves (SliceSearch::run, runTraced).
    const std::atomic<bool>* flag() const { return m_cancel.get(); }
    // Runs `fn` on the context's thread if this job is still the newest and running when it gets
    // there (progress of a superseded job is dropped).
    void post(std::function<void()> fn) const {
        detail::post(m_channel, m_id, [channel = m_channel.get(), fn = std::move(fn)] {
            if (channel->running)  // (the post keeps the channel alive)
                fn();
        });
    }

private:
    friend class JobTracker;
    JobToken(std::shared_ptr<detail::JobChannel> channel, quint64 id,
             std::shared_ptr<std::atomic<bool>> cancel)
        : m_channel(std::move(channel)), m_id(id), m_cancel(std::move(cancel)) {}

    std::shared_ptr<detail::JobChannel> m_channel;
    quint64 m_id;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

// Runs jobs on a thread pool and hands each result to a callback on the context object's thread,
// only the newest job's (the idea of KDAB hotspot's JobTracker): starting a job supersedes the
// one before, whose work sees its token cancelled and whose result is dropped. A result whose
// context object or tracker was destroyed in the meantime is dropped too, so neither has to wait
// for the pool. Used from the context's thread only; the work must capture nothing it does not
// share (it may outlive everything here).
class JobTracker {
public:
    explicit JobTracker(QObject* context)
        : m_channel(std::make_shared<detail::JobChannel>(context)) {
        // Direct: runs in ~QObject, before the events still queued to the context are discarded.
        m_destroyed = QObject::connect(context, &QObject::destroyed,
                                       [channel = m_channel] { channel->detach(); });
    }
    ~JobTracker() {
        QObject::disconnect(m_destroyed);
        cancelCurrent();
        m_channel->detach();
    }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // The newest job has started and not yet delivered (nor been abandoned).
    bool isRunning() const { return m_channel->running; }
    quint64 currentJob() const { return m_channel->current.load(); }

    // Forgets the running job: its token is cancelled and its result dropped.
    void abandon() {
        cancelCurrent();
        ++m_channel->current;
        m_channel->running = false;
    }
    // Asks the running job to stop (its token reads cancelled) but still delivers its result: the
    // work says what it got done.
    void requestStop() { cancelCurrent(); }

    // `work(token)` (or `work()`) runs on `pool`; `then(result)` runs later on the context's
    // thread if this is still the newest job. Returns the job's id.
    template <class Work, class Then>
    quint64 startJob(QThreadPool& pool, Work work, Then then) {
        cancelCurrent();  // the job before is stale
        const quint64 id = ++m_channel->current;
        m_cancel = std::make_shared<std::atomic<bool>>(false);
        m_channel->running = true;
        JobToken token(m_channel, id, m_cancel);
        pool.start([token, id, work = std::move(work), then = std::move(then)]() mutable {
            using Result = std::decay_t<decltype(invoke(work, token))>;
            auto result = std::make_shared<Result>(invoke(work, token));
            detail::JobChannel* channel = token.m_channel.get();
            detail::post(token.m_channel, id, [channel, result, then]() mutable {
                channel->running = false;
                then(std::move(*result));
            });
        });
        return id;
    }

private:
    template <class Work>
    static decltype(auto) invoke(Work& work, const JobToken& token) {
        if constexpr (std::is_invocable_v<Work&, const JobToken&>)
            return work(token);
        else
            return work();
    }

    void cancelCurrent() {
        if (m_cancel)
            m_cancel->store(true);
    }

    std::shared_ptr<detail::JobChannel> m_channel;
    std::shared_ptr<std::atomic<bool>> m_cancel;  // the newest job's
    QMetaObject::Connection m_destroyed;
};

}  // namespace wl::ui
