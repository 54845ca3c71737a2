#include "io/TraceFile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "io/Gzip.h"
#include "io/MemoryBudget.h"

namespace wl::io {

namespace {

model::Error fileError(const std::string& what, const std::string& path) {
    return model::Error{what + ": " + std::strerror(errno), path, -1};
}

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Parses bytes that may be gzip-compressed, with the reader their content calls for.
// `readable`: room after the bytes for a reader's padding (0: none, the reader copies).
model::Result<model::TracePtr> parseBuffer(std::string_view bytes, std::size_t readable,
                                           const std::string& name, const ReadControl& control,
                                           bool fileMapping = false) {
    constexpr std::size_t kHeadBytes = 4096;  // what a reader sees to recognise its format
    auto readWith = [&](std::string_view text, std::size_t room, bool mapped) {
        auto reader = readerFor(text.substr(0, kHeadBytes));
        if (!reader) {
            model::Error e = reader.error();
            e.file = name;
            return model::Result<model::TracePtr>(e);
        }
        // (A format read from files, in memory or compressed: its reader says to open the file.)
        return reader.value()->read(text, name, room, mapped, control);
    };
    if (!isGzip(bytes)) {
        if (auto shortfall = memoryShortfall(bytes.size(), 0, name))
            return *shortfall;
        return readWith(bytes, readable, fileMapping);
    }
    // The trailer's size of the text (modulo 4 GiB: never more than the truth), which is held
    // whole while it is read.
    if (bytes.size() >= 4) {
        std::uint32_t textBytes = 0;
        for (int i = 0; i < 4; ++i)
            textBytes |= static_cast<std::uint32_t>(static_cast<unsigned char>(
                             bytes[bytes.size() - 4 + static_cast<std::size_t>(i)]))
                         << (8 * i);
        if (auto shortfall = memoryShortfall(textBytes, textBytes, name))
            return *shortfall;
    }
    std::string json;
    if (auto status = gunzip(bytes, json, ChromeTraceReader::kPadding, kMaxGunzipBytes, control);
        !status) {
        model::Error e = status.error();
        e.file = name;
        return e;
    }
    auto result = readWith(json, json.capacity(), false);
    if (!result && result.error().message != kReadCancelled) {
        model::Error e = result.error();
        e.message = "decompressed data: " + e.message;
        return e;
    }
    return result;
}

// A new file beside `path` that nobody else has (its name in `tmp`), made as any new file is:
// mode 0666 less the process's umask, which the system applies. (mkstemp makes 0600, and reading
// the umask to correct that means setting it: process-wide state, changed under every other
// thread that creates a file meanwhile.)
int createTemporary(const std::string& path, std::string& tmp) {
    static std::atomic<std::uint64_t> made{0};
    static const std::uint64_t salt = std::random_device{}();
    for (int attempt = 0; attempt < 100; ++attempt) {
        char suffix[64];
        std::snprintf(
            suffix, sizeof suffix, ".tmp-%d-%016llx", static_cast<int>(::getpid()),
            static_cast<unsigned long long>(salt ^ (made.fetch_add(1) * 0x9E3779B97F4A7C15ull)));
        tmp = path + suffix;
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

// A regular file mapped privately with readable, writable room for the parser's padding after
// it: no zero-filled buffer and no copy (the pages come from the page cache), and the reader may
// change bytes in it (copy-on-write, the file is never touched).
class MappedFile {
public:
    static constexpr std::size_t kPopulateBytes = std::size_t{256} << 20;

    MappedFile(int fd, std::size_t size) : m_size(size) {
        const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        m_length = (size + ChromeTraceReader::kPadding + page - 1) / page * page;
        // Anonymous pages for the whole length first, then the file over its own pages: the
        // padding beyond the file's last page stays readable (zeros) instead of faulting.
        void* area =
            ::mmap(nullptr, m_length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (area == MAP_FAILED)
            return;
        // Read-only (a writable private mapping would be populated with copies of every page),
        // then made writable: only the pages the reader writes get copied. A file of up to
        // kPopulateBytes is populated at once (fewer page faults); a bigger one is paged in as
        // the reader goes and given back behind it, so that it never holds all of the file.
        const int populate = size <= kPopulateBytes ? MAP_POPULATE : 0;
        if (size > 0 && (::mmap(area, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | populate, fd, 0) ==
                             MAP_FAILED ||
                         ::mprotect(area, size, PROT_READ | PROT_WRITE) != 0)) {
            ::munmap(area, m_length);
            return;
        }
        m_data = static_cast<char*>(area);
    }
    ~MappedFile() {
        if (m_data)
            ::munmap(m_data, m_length);
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    bool ok() const { return m_data != nullptr; }
    std::string_view bytes() const { return {m_data, m_size}; }
    std::size_t readable() const { return m_length; }

private:
    char* m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_length = 0;
};

}  // namespace

model::Result<model::TracePtr> loadTrace(const std::string& path, const ReadControl& control) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fileError("cannot open", path);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const model::Error e = fileError("cannot read", path);
        ::close(fd);
        return e;
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return model::Error{"is a directory, not a trace file", path, -1};
    }
    if (S_ISREG(st.st_mode)) {
        // A format its reader reads from the file itself (an SQLite database, an Nsight Systems
        // report), known by its first bytes: the reader gets the path.
        char head[64] = {};
        const ssize_t got = ::pread(fd, head, sizeof head, 0);
        if (got > 0) {
            auto reader = readerFor(std::string_view(head, static_cast<std::size_t>(got)));
            if (reader && reader.value()->readsFiles()) {
                ::close(fd);
                auto result = reader.value()->readFile(path, control);
                if (!result && result.error().file.empty()) {
                    model::Error e = result.error();
                    e.file = path;
                    return e;
                }
                return result;
            }
        }
        // (A file truncated by another program while it is mapped would fault; trace files are
        // written whole and renamed into place, by record and by the usual profilers alike.)
        const MappedFile mapped(fd, static_cast<std::size_t>(st.st_size));
        ::close(fd);
        if (!mapped.ok())
            return fileError("cannot read", path);
        return parseBuffer(mapped.bytes(), mapped.readable(), path, control, true);
    }
    // Pipes and devices (/dev/stdin): read into a buffer that grows as they deliver, with room
    // for the parser's padding.
    std::string bytes;
    const std::size_t want = std::size_t{1} << 20;
    bytes.reserve(want + ChromeTraceReader::kPadding);
    bytes.resize(want);
    std::size_t done = 0;
    while (true) {
        if (done == bytes.size()) {
            bytes.reserve(bytes.size() * 2 + ChromeTraceReader::kPadding);
            bytes.resize(bytes.size() * 2);
        }
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const model::Error e = fileError("cannot read", path);
            ::close(fd);
            return e;
        }
        if (n == 0)
            break;  // end of file (or the file shrank while we read it)
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    bytes.resize(done);
    return parseBuffer(bytes, bytes.capacity(), path, control);
}

model::Result<model::TracePtr> parseTrace(std::string_view bytes, const std::string& name,
                                          const ReadControl& control) {
    return parseBuffer(bytes, 0, name, control);
}

model::Status saveTrace(const model::Trace& trace, const std::string& path) {
    std::string tmp;
    const int fd = createTemporary(path, tmp);
    if (fd < 0)
        return fileError("cannot write", path);
    std::FILE* file = ::fdopen(fd, "wb");
    if (!file) {
        const model::Error e = fileError("cannot write", path);
        ::close(fd);
        ::unlink(tmp.c_str());
        return e;
    }
    int writeErrno = 0;
    const auto rawSink = [&](std::string_view chunk) {
        if (std::fwrite(chunk.data(), 1, chunk.size(), file) != chunk.size()) {
            writeErrno = errno;
            return false;
        }
        return true;
    };
    // What went wrong in the writer (or the compressor) itself, when the file did not: said as
    // it is, never as a stale errno.
    model::Status written;
    try {
        const ChromeTraceWriter writer(trace);
        if (endsWith(path, ".gz")) {
            GzipWriter gz(rawSink);
            written = writer.write([&](std::string_view chunk) { return gz.write(chunk); });
            if (written.ok() && !gz.finish())
                written = model::Error{"compressing the trace failed", {}, -1};
        } else {
            written = writer.write(rawSink);
        }
    } catch (const std::exception& e) {
        written = model::Error{std::string("writing the trace failed: ") + e.what(), {}, -1};
    }
    if (std::fflush(file) != 0 && writeErrno == 0)
        writeErrno = errno;
    if (std::fclose(file) != 0 && writeErrno == 0)
        writeErrno = errno;
    if (writeErrno == 0 && written.ok() && std::rename(tmp.c_str(), path.c_str()) == 0)
        return {};
    if (writeErrno == 0 && written.ok())
        writeErrno = errno;  // the rename's
    ::unlink(tmp.c_str());
    if (writeErrno != 0) {
        errno = writeErrno;
        return fileError("cannot write", path);
    }
    return model::Error{"cannot write: " + written.error().message, path, -1};
}

}  // namespace wl::io
