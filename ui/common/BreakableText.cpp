#include "ui/common/BreakableText.h"

namespace wl::ui {

QString breakable(const QString& text) {
    QString out;
    out.reserve(text.size() + text.size() / 8);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        out += c;
        // A '.' between digits is a number's ("0.087%"), not a place to break a name.
        const bool numberPoint =
            c == QLatin1Char('.') && i + 1 < text.size() && text[i + 1].isDigit();
        if (c == QLatin1Char(':') || c == QLatin1Char(',') || c == QLatin1Char('(') ||
            c == QLatin1Char('<') || c == QLatin1Char('_') || c == QLatin1Char('#') ||
            (c == QLatin1Char('.') && !numberPoint)) {
            out += QChar(0x200B);
        }
    }
    return out;
}

}  // namespace wl::ui
