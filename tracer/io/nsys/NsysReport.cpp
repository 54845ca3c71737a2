// An Nsight Systems report (.nsys-rep, .qdrep): only `nsys` reads it. The `nsys` named by
// WARPLINE_NSYS, else the one on PATH, exports it to SQLite in a cache folder (run as an argument
// list, never through a shell), and the export is read. The cached export is used again while the
// report's size and modification time are unchanged.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "io/nsys/NsysReader.h"

namespace wl::io {

namespace {

namespace fs = std::filesystem;

bool executable(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
}

// WARPLINE_NSYS (a path, or a name looked up on PATH), else `nsys` on PATH; empty when none.
std::string findNsys() {
    std::string wanted = "nsys";
    if (const char* env = std::getenv("WARPLINE_NSYS"); env && *env) {
        wanted = env;
        if (wanted.find('/') != std::string::npos)
            return executable(wanted) ? wanted : std::string();
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t colon = dirs.find(':', start);
        std::string dir =
            dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (dir.empty())
            dir = ".";
        const std::string candidate = dir + "/" + wanted;
        if (executable(candidate))
            return candidate;
        if (colon == std::string::npos)
            break;
        start = colon + 1;
    }
    return {};
}

fs::path cacheFolder() {
    if (const char* env = std::getenv("WARPLINE_NSYS_CACHE"); env && *env)
        return env;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return fs::path(xdg) / "warpline" / "nsys";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".cache" / "warpline" / "nsys";
    return fs::temp_directory_path() / "warpline-nsys";
}

// FNV-1a, 64 bits: names cache entries (not a security boundary: the folder is the user's).
std::uint64_t hash(std::string_view text, std::uint64_t h = 1469598103934665603ull) {
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

std::string hex(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string exportCommand(const std::string& report) {
    return "nsys export --type sqlite --output report.sqlite '" + report + "'";
}

// Runs `argv` with stdout and stderr into `output` (the last 4 KB kept); polls the cancel flag.
// Returns the exit status, -1 when it could not run, -2 when cancelled.
int run(const std::vector<std::string>& argv, std::string& output, const ReadControl& control,
        const std::string& growing) {
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0)
        return -1;
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(pipeFds[0]);
        ::close(pipeFds[1]);
        return -1;
    }
    if (pid == 0) {
        ::dup2(pipeFds[1], STDOUT_FILENO);
        ::dup2(pipeFds[1], STDERR_FILENO);
        const int null = ::open("/dev/null", O_RDONLY);
        if (null >= 0)
            ::dup2(null, STDIN_FILENO);
        ::execv(args[0], args.data());
        _exit(127);
    }
    ::close(pipeFds[1]);
    ::fcntl(pipeFds[0], F_SETFL, O_NONBLOCK);
    int status = 0;
    bool cancelled = false;
    auto killedAt = std::chrono::steady_clock::time_point{};
    while (true) {
        char buf[4096];
        ssize_t n;
        while ((n = ::read(pipeFds[0], buf, sizeof buf)) > 0) {
            output.append(buf, static_cast<std::size_t>(n));
            if (output.size() > 4096)
                output.erase(0, output.size() - 4096);
        }
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (control.cancelled() && !cancelled) {
            cancelled = true;
            ::kill(pid, SIGTERM);
            killedAt = std::chrono::steady_clock::now();
        } else if (cancelled &&
                   std::chrono::steady_clock::now() - killedAt > std::chrono::seconds(2)) {
            ::kill(pid, SIGKILL);
        }
        std::error_code ec;
        const auto size = fs::file_size(growing, ec);
        control.report(ec ? 0 : static_cast<std::uint64_t>(size), 0);  // the whole is not known
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::close(pipeFds[0]);
    if (cancelled)
        return -2;
    return WIFEXITED(status) ? WEXITSTATUS(status)
                             : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

bool NsysReportReader::recognizes(std::string_view head) const {
    // Every report since the .qdrep of 2020 opens with this text.
    return head.starts_with("NVIDIA Tegra Profiler Report") || head.starts_with("NVIDIA Nsight");
}

model::Result<model::TracePtr> NsysReportReader::readFile(const std::string& path,
                                                          const ReadControl& control) const {
    std::error_code ec;
    const fs::path report = fs::absolute(path, ec);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return model::Error{std::string("cannot read: ") + std::strerror(errno), path, -1};
    // The cache entry: the report's path, size and modification time; a changed report is a new
    // entry, and the older ones of the same report are removed when it is made.
    const std::string pathKey = hex(hash(report.string()));
    const std::string stamp = std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) +
                              "." + std::to_string(st.st_mtim.tv_nsec);
    const fs::path folder = cacheFolder();
    const fs::path cached =
        folder / (report.stem().string() + "-" + pathKey + "-" + hex(hash(stamp)) + ".sqlite");
    if (fs::is_regular_file(cached, ec))
        return readNsysSqlite(cached.string(), control);

    const std::string nsys = findNsys();
    if (nsys.empty()) {
        return model::Error{
            "an Nsight Systems report opens through Nsight Systems' `nsys`, which "
            "is not on PATH (or set WARPLINE_NSYS to it); or export it yourself "
            "and open the .sqlite: " +
                exportCommand(path),
            path, -1};
    }
    fs::create_directories(folder, ec);
    if (ec)
        return model::Error{"cannot make the cache folder " + folder.string() + ": " + ec.message(),
                            path, -1};
    // Exported under a temporary name, renamed when complete: a cancelled or failed export leaves
    // no entry that looks finished.
    const fs::path partial = folder / (cached.filename().string() + ".partial-" +
                                       std::to_string(::getpid()) + ".sqlite");
    fs::remove(partial, ec);
    std::string output;
    const int status = run({nsys, "export", "--type", "sqlite", "--force-overwrite", "true",
                            "--output", partial.string(), report.string()},
                           output, control, partial.string());
    if (status == -2) {
        fs::remove(partial, ec);
        return model::Error{kReadCancelled, path, -1};
    }
    if (status != 0 || !fs::is_regular_file(partial, ec)) {
        fs::remove(partial, ec);
        while (!output.empty() && (output.back() == '\n' || output.back() == ' '))
            output.pop_back();
        return model::Error{
            (status == -1 ? "cannot run " + nsys
                          : nsys + " export failed (exit " + std::to_string(status) + ")") +
                (output.empty() ? std::string() : ": " + output) +
                ". A report opens only with the Nsight Systems version that made it or a newer "
                "one; with that version run: " +
                exportCommand(path) + " and open report.sqlite",
            path, -1};
    }
    // Older exports of this report (it changed since) go.
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(report.stem().string() + "-" + pathKey + "-") &&
            name != partial.filename().string() && name.ends_with(".sqlite"))
            fs::remove(entry.path(), ec);
    }
    fs::rename(partial, cached, ec);
    if (ec)
        return model::Error{"cannot keep the export in " + folder.string() + ": " + ec.message(),
                            path, -1};
    return readNsysSqlite(cached.string(), control);
}

}  // namespace wl::io
