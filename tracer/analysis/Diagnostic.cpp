#include "analysis/Diagnostic.h"

#include <algorithm>
#include <array>

#include "analysis/Rules.h"

namespace wl::analysis {

std::span<const Rule> allRules() {
    // The one list of rule tables: a new file of rules adds its table here.
    static const std::vector<Rule> all = [] {
        std::vector<Rule> rules;
        for (const std::span<const Rule> table :
             std::array{collectiveRules(), copyRules(), deviceRules(), kernelRules(), memoryRules(),
                        streamRules(), syncRules(), timeRules()}) {
            rules.insert(rules.end(), table.begin(), table.end());
        }
        std::sort(rules.begin(), rules.end(),
                  [](const Rule& a, const Rule& b) { return a.rule < b.rule; });
        return rules;
    }();
    return all;
}

const char* toString(RuleId rule) {
    for (const Rule& r : allRules()) {
        if (r.rule == rule) {
            return r.id;
        }
    }
    return "unknown";
}

std::optional<RuleId> ruleFromString(std::string_view id) {
    for (const Rule& r : allRules()) {
        if (id == r.id) {
            return r.rule;
        }
    }
    return std::nullopt;
}

}  // namespace wl::analysis
