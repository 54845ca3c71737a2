#pragma once

#include <chrono>
#include <future>
#include <mutex>

namespace wl::test {

// A gate that a fake worker (a loader, a run, a sampler's start) waits at until the test opens
// it, so that "still in flight" lasts exactly as long as the test needs, on a fast machine or a
// loaded one, instead of as long as a sleep happened to last. Opening twice is harmless; open it
// before anything that waits for the worker (a destructor joining its thread) runs.
class Gate {
public:
    void open() {
        std::call_once(m_once, [this] { m_promise.set_value(); });
    }
    bool isOpen() const {
        return m_future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    }
    // Waits until the gate opens or `limit` passes (a test that never opens it fails instead of
    // hanging); true when it opened.
    bool waitOpen(std::chrono::milliseconds limit) const {
        return m_future.wait_for(limit) == std::future_status::ready;
    }

private:
    std::promise<void> m_promise;
    std::shared_future<void> m_future = m_promise.get_future().share();
    std::once_flag m_once;
};

// Opens a gate when it goes out of scope: declared after the object that waits for the worker,
// it runs first, so a test that fails half-way never leaves a worker waiting for ever.
class GateOpener {
public:
    explicit GateOpener(Gate& gate) : m_gate(gate) {}
    ~GateOpener() { m_gate.open(); }
    GateOpener(const GateOpener&) = delete;
    GateOpener& operator=(const GateOpener&) = delete;

private:
    Gate& m_gate;
};

}  // namespace wl::test
