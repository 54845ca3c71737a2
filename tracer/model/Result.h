#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace wl::model {

// An error as a value: what went wrong, and where in which file when there is such a place.
// Libraries return these; only app/ decides whether that becomes a dialog, a status line or stderr.
struct Error {
    std::string message;
    std::string file;              // empty when the error is not about a file
    std::int64_t byteOffset = -1;  // -1 when there is no position

    // "FILE: message (at byte N)" — the form the command line prints after "warpline: error: ".
    std::string describe() const {
        std::string out;
        if (!file.empty()) {
            out += file;
            out += ": ";
        }
        out += message;
        if (byteOffset >= 0) {
            out += " (at byte " + std::to_string(byteOffset) + ")";
        }
        return out;
    }
};

// Minimal std::expected stand-in (C++20 has none): either a value or an Error.
template <class T>
class Result {
public:
    Result(T value) : m_state(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_state(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(m_state); }
    const T& value() const& { return std::get<0>(m_state); }
    T&& value() && { return std::get<0>(std::move(m_state)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(m_state); }

private:
    std::variant<T, Error> m_state;
};

// Success or an Error, for operations with no value.
class Status {
public:
    Status() = default;
    Status(Error error) : m_error(std::move(error)), m_failed(true) {}
    static Status success() { return {}; }

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return m_error; }

private:
    Error m_error;
    bool m_failed = false;
};

}  // namespace wl::model
