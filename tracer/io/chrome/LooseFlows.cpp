#include "io/chrome/LooseFlows.h"

#include <algorithm>

namespace wl::io::chrome {

namespace {

bool earlier(const LooseFlows::Event& a, const LooseFlows::Event& b) {
    return a.ts != b.ts ? a.ts < b.ts : a.id < b.id;
}

}  // namespace

void LooseFlows::add(const Event& e) {
    const auto r = static_cast<std::size_t>(e.reason);
    ++m_total;
    ++m_counts[r];
    auto& kept = m_kept[r];
    if (kept.size() < kKeptPerReason) {
        kept.push_back(e);
        std::push_heap(kept.begin(), kept.end(), earlier);
    } else if (earlier(e, kept.front())) {
        std::pop_heap(kept.begin(), kept.end(), earlier);
        kept.back() = e;
        std::push_heap(kept.begin(), kept.end(), earlier);
    }
}

std::vector<LooseFlows::Event> LooseFlows::examples(std::size_t n) const {
    std::vector<Event> firsts;
    std::vector<Event> rest;
    for (const auto& kept : m_kept) {
        if (kept.empty())
            continue;
        std::vector<Event> sorted = kept;
        std::sort(sorted.begin(), sorted.end(), earlier);
        firsts.push_back(sorted.front());
        rest.insert(rest.end(), sorted.begin() + 1, sorted.end());
    }
    std::sort(firsts.begin(), firsts.end(), earlier);
    std::sort(rest.begin(), rest.end(), earlier);
    std::vector<Event> out(firsts.begin(), firsts.begin() + std::min(n, firsts.size()));
    for (std::size_t i = 0; out.size() < n && i < rest.size(); ++i)
        out.push_back(rest[i]);
    std::sort(out.begin(), out.end(), earlier);
    return out;
}

}  // namespace wl::io::chrome
