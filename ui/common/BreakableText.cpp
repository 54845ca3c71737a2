#include "ui/common/BreakableText.h"

namespace wl::ui {

QString breakable(const QString& text) {
    QString out;
    out.reserve(text.size() + text.size() / 8);
    for (const QChar c : text) {
        out += c;
        if (c == QLatin1Char(':') || c == QLatin1Char(',') || c == QLatin1Char('(') ||
            c == QLatin1Char('<') || c == QLatin1Char('_') || c == QLatin1Char('.') ||
            c == QLatin1Char('#')) {
            out += QChar(0x200B);
        }
    }
    return out;
}

}  // namespace wl::ui
