#include "BigTrace.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <iterator>
#include <string_view>
#include <vector>

#include "io/Gzip.h"

namespace wl::bench {

namespace {

// The position of the ']' that closes the array whose '[' is at `open` (strings skipped).
std::size_t closingBracket(std::string_view text, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\')
                    ++i;
            }
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if (c == ']' || c == '}') {
            if (--depth == 0)
                return i;
        }
    }
    return std::string_view::npos;
}

// A number the copies move: where its whole part is in the events, its value, and whether it is
// a time (else an id).
struct Field {
    std::size_t begin = 0;
    std::size_t end = 0;
    long long value = 0;
    bool time = false;
};

// Every "ts", "id", "correlation" and "External id" value of `events`, in order.
std::vector<Field> movedFields(std::string_view events) {
    static constexpr std::string_view kKeys[] = {
        "\"ts\":", "\"id\":", "\"correlation\":", "\"External id\":"};
    std::vector<Field> fields;
    for (std::size_t at = events.find('"'); at != std::string_view::npos;
         at = events.find('"', at + 1)) {
        for (const std::string_view key : kKeys) {
            if (events.compare(at, key.size(), key) != 0)
                continue;
            std::size_t p = at + key.size();
            while (p < events.size() && events[p] == ' ')
                ++p;
            Field f;
            f.begin = p;
            f.time = key == kKeys[0];
            const auto [end, ec] =
                std::from_chars(events.data() + p, events.data() + events.size(), f.value);
            if (ec == std::errc{} && f.value >= 0) {
                f.end = static_cast<std::size_t>(end - events.data());
                fields.push_back(f);
            }
            at = p;
            break;
        }
        if (at < events.size() && events[at] == '"') {
            // Past this string: a key or a value, whose quotes must not be taken for keys'.
            for (++at; at < events.size() && events[at] != '"'; ++at) {
                if (events[at] == '\\')
                    ++at;
            }
        }
    }
    return fields;
}

double secondsOf(const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

ChildUsage waitFor(pid_t pid, std::chrono::steady_clock::time_point start) {
    ChildUsage usage;
    int status = 0;
    rusage ru{};
    if (::wait4(pid, &status, 0, &ru) != pid)
        return usage;
    usage.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    usage.cpuS = secondsOf(ru.ru_utime) + secondsOf(ru.ru_stime);
    usage.peakRssMiB = static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
    usage.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return usage;
}

}  // namespace

std::string readTraceText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!io::isGzip(bytes))
        return bytes;
    std::string json;
    if (!io::gunzip(bytes, json, 0).ok())
        return {};
    return json;
}

std::uint64_t writeRepeatedTrace(const std::string& json, std::uint64_t targetBytes,
                                 const std::string& path) {
    const std::size_t key = json.find("\"traceEvents\"");
    const std::size_t open = key == std::string::npos ? key : json.find('[', key);
    const std::size_t close = open == std::string::npos ? open : closingBracket(json, open);
    if (close == std::string::npos)
        return 0;
    const std::string_view events(json.data() + open + 1, close - open - 1);
    const std::vector<Field> fields = movedFields(events);
    long long firstTs = -1;
    long long lastTs = 0;
    long long largestId = 0;
    for (const Field& f : fields) {
        if (f.time) {
            firstTs = firstTs < 0 ? f.value : std::min(firstTs, f.value);
            lastTs = std::max(lastTs, f.value);
        } else {
            largestId = std::max(largestId, f.value);
        }
    }
    const long long timeShiftUs = lastTs - std::max(firstTs, 0LL) + 1000;
    const long long idShift = largestId + 1;
    std::ofstream out(path, std::ios::binary);
    out.write(json.data(), static_cast<std::streamsize>(open + 1));
    std::uint64_t written = open + 1;
    std::string copy;
    for (long long k = 0; written + events.size() < targetBytes || k == 0; ++k) {
        copy.clear();
        std::size_t from = 0;
        for (const Field& f : fields) {
            copy.append(events.substr(from, f.begin - from));
            copy += std::to_string(f.value + k * (f.time ? timeShiftUs : idShift));
            from = f.end;
        }
        copy.append(events.substr(from));
        if (k > 0)
            out.put(',');
        out.write(copy.data(), static_cast<std::streamsize>(copy.size()));
        written += copy.size() + (k > 0 ? 1 : 0);
        if (!out)
            return 0;
    }
    out.write(json.data() + close, static_cast<std::streamsize>(json.size() - close));
    written += json.size() - close;
    out.close();
    return out ? written : 0;
}

ChildUsage runChild(const char* const* argv, const std::string& stdoutPath) {
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0)
        return {};
    if (pid == 0) {
        if (!stdoutPath.empty()) {
            const int fd = ::open(stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0 || ::dup2(fd, STDERR_FILENO) < 0)
                ::_exit(127);
        }
        ::execvp(argv[0], const_cast<char* const*>(argv));
        ::_exit(127);
    }
    return waitFor(pid, start);
}

ChildUsage runForked(const std::function<int()>& body) {
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0)
        return {};
    if (pid == 0)
        ::_exit(body());
    return waitFor(pid, start);
}

}  // namespace wl::bench
