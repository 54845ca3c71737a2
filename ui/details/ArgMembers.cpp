#include "ui/details/ArgMembers.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace wl::ui {

namespace {

// Where the JSON string starting at `open` (a quote) ends: one past its closing quote.
std::size_t stringEnd(std::string_view text, std::size_t open) {
    std::size_t i = open + 1;
    while (i < text.size() && text[i] != '"') {
        i += text[i] == '\\' ? 2 : 1;
    }
    return std::min(i + 1, text.size());
}

// A JSON string's text, unescaped (Qt's parser does the escapes).
QString unescaped(std::string_view quoted) {
    const QByteArray json = QByteArray("[") +
                            QByteArray(quoted.data(), static_cast<qsizetype>(quoted.size())) +
                            QByteArray("]");
    return QJsonDocument::fromJson(json).array().at(0).toString();
}

}  // namespace

std::vector<std::pair<QString, QString>> splitArgMembers(std::string_view members) {
    std::vector<std::pair<QString, QString>> out;
    std::size_t i = 0;
    while (i < members.size()) {
        if (members[i] != '"') {
            break;  // not a member (the model only holds well-formed ones)
        }
        const std::size_t keyEnd = stringEnd(members, i);
        const QString key = unescaped(members.substr(i, keyEnd - i));
        std::size_t v = keyEnd + 1;  // past ':'
        // The value runs to the next comma outside strings and brackets.
        std::size_t end = v;
        int depth = 0;
        while (end < members.size() && (depth > 0 || members[end] != ',')) {
            const char c = members[end];
            if (c == '"') {
                end = stringEnd(members, end);
                continue;
            }
            depth += (c == '[' || c == '{') ? 1 : (c == ']' || c == '}') ? -1 : 0;
            ++end;
        }
        const std::string_view value = members.substr(v, end - v);
        out.emplace_back(
            key, value.starts_with('"')
                     ? unescaped(value)
                     : QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size())));
        i = end + 1;
    }
    return out;
}

}  // namespace wl::ui
