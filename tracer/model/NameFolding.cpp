#include "model/NameFolding.h"

#include <cctype>

namespace wl::model {

std::string foldDigits(std::string_view name) {
    // Only numbers that stand as words fold: "I/O 45", "step_3", "Compute 1 to 15"; digits inside
    // a word are part of its name ("H2D Memory", "conv2d", "x86").
    const auto isLetter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
    const auto isDigit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    std::string out;
    out.reserve(name.size());
    for (std::size_t i = 0; i < name.size();) {
        if (!isDigit(name[i])) {
            out += name[i++];
            continue;
        }
        std::size_t end = i;
        while (end < name.size() && isDigit(name[end])) {
            ++end;
        }
        const bool inWord =
            (i > 0 && isLetter(name[i - 1])) || (end < name.size() && isLetter(name[end]));
        if (inWord) {
            out.append(name.substr(i, end - i));
        } else if (i == 0 || name[i - 1] != '#') {
            out += '#';
        }  // else "Step#551": the '#' already says "a number here"
        i = end;
    }
    return out;
}

}  // namespace wl::model
