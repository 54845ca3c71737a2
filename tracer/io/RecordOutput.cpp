#include "io/RecordOutput.h"

namespace wl::io {

namespace {

model::Error error(std::string message) {
    return model::Error{std::move(message), {}, -1};
}

// "dir/mp.json.gz" -> {"dir/mp", ".json.gz"}: the trace extensions we write count as one.
std::pair<std::string, std::string> splitExtension(const std::string& path) {
    for (const char* ext : {".json.gz", ".json"}) {
        const std::string_view e(ext);
        if (path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0) {
            return {path.substr(0, path.size() - e.size()), std::string(e)};
        }
    }
    const auto slash = path.rfind('/');
    const auto dot = path.rfind('.');
    if (dot == std::string::npos || dot == 0 || (slash != std::string::npos && dot < slash + 2)) {
        return {path, ""};
    }
    return {path.substr(0, dot), path.substr(dot)};
}

// Expands every pattern but %n, which is kept as a marker (a NUL) for the counter.
model::Result<std::string> expand(std::string_view pattern, const RecordProcess& process,
                                  bool& hasCounter) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%') {
            out += pattern[i];
            continue;
        }
        if (i + 1 >= pattern.size()) {
            return error("-o '" + std::string(pattern) + "': a '%' at the end (write %% for '%')");
        }
        const char c = pattern[++i];
        if (c == '%') {
            out += '%';
        } else if (c == 'p') {
            out += std::to_string(process.pid);
        } else if (c == 'h') {
            out += process.host.empty() ? std::string("localhost") : process.host;
        } else if (c == 'n') {
            hasCounter = true;
            out += '\0';
        } else if (c == 'q') {
            const auto close = pattern.find('}', i);
            if (i + 1 >= pattern.size() || pattern[i + 1] != '{' ||
                close == std::string_view::npos) {
                return error("-o '" + std::string(pattern) + "': %q needs a variable: %q{RANK}");
            }
            const std::string name(pattern.substr(i + 2, close - i - 2));
            const char* value = process.env ? process.env(name.c_str()) : nullptr;
            if (value == nullptr) {
                return error("-o '" + std::string(pattern) + "': the environment variable " + name +
                             " is not set in process " + std::to_string(process.pid));
            }
            out += value;
            i = close;
        } else {
            return error("-o '" + std::string(pattern) + "': unknown pattern %" +
                         std::string(1, c) + " (known: %p %h %q{VAR} %n %%)");
        }
    }
    return out;
}

}  // namespace

model::Result<std::string> recordOutputPath(std::string_view pattern,
                                            const RecordProcess& process) {
    bool hasCounter = false;
    auto expanded = expand(pattern, process, hasCounter);
    if (!expanded.ok()) {
        return expanded.error();
    }
    std::string path = std::move(expanded.value());
    const bool patterned = pattern.find('%') != std::string_view::npos;
    if (!patterned && !process.root) {
        auto [stem, ext] = splitExtension(path);
        path = stem + "." + std::to_string(process.pid) + ext;
    }
    if (hasCounter) {
        const auto fill = [&path](int n) {
            std::string name;
            for (char c : path) {
                name += c == '\0' ? std::to_string(n) : std::string(1, c);
            }
            return name;
        };
        int n = 1;
        while (process.exists && process.exists(fill(n)) && n < 1'000'000) {
            ++n;
        }
        path = fill(n);
    }
    if (path.empty() || path.back() == '/') {
        return error("-o '" + std::string(pattern) + "' names no file");
    }
    if (!process.overwrite && process.exists && process.exists(path)) {
        auto [stem, ext] = splitExtension(path);
        path = stem + "." + std::to_string(process.pid) + ext;
    }
    return path;
}

std::string mergedPatternOutputPath(std::string_view pattern) {
    const auto slash = pattern.rfind('/');
    const std::string_view folder =
        slash == std::string_view::npos ? std::string_view() : pattern.substr(0, slash + 1);
    const std::string_view file =
        slash == std::string_view::npos ? pattern : pattern.substr(slash + 1);
    if (file.find('%') == std::string_view::npos || folder.find('%') != std::string_view::npos) {
        return {};
    }
    auto [patterned, ext] = splitExtension(std::string(file));
    std::string stem;
    for (std::size_t i = 0; i < patterned.size(); ++i) {
        if (patterned[i] != '%' || i + 1 >= patterned.size()) {
            stem += patterned[i];
        } else if (patterned[++i] == '%') {
            stem += '%';
        } else if (patterned[i] == 'q') {
            const auto close = patterned.find('}', i);
            i = close == std::string::npos ? patterned.size() : close;
        }
    }
    const auto isSeparator = [](char c) { return c == '-' || c == '_' || c == '.'; };
    while (!stem.empty() && isSeparator(stem.back())) {
        stem.pop_back();
    }
    while (!stem.empty() && isSeparator(stem.front())) {
        stem.erase(0, 1);
    }
    return std::string(folder) + (stem.empty() ? "warpline" : stem) + ".merged" +
           (ext.empty() ? std::string(".json.gz") : ext);
}

std::string mergedOutputPath(const std::string& firstTracePath) {
    auto [stem, ext] = splitExtension(firstTracePath);
    return stem + ".merged" + (ext.empty() ? std::string(".json.gz") : ext);
}

}  // namespace wl::io
