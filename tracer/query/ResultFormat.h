#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "query/TraceQuery.h"

namespace wl::query {

// A value as text: integers in decimal, reals in the shortest form that reads back the same,
// text as is, NULL as `null`, a blob as its bytes in hex ("x'0a1b'").
std::string valueText(const Value& v, const char* null = "NULL");

// An aligned text table for a terminal: a header, a rule, numbers right-aligned, text cut in the
// middle ("...") beyond maxWidth characters, then "(N rows)".
void writeTable(std::ostream& out, const QueryResult& result, std::size_t maxWidth = 60);

// RFC 4180 CSV, written as rows come: a header line, fields quoted when they hold a comma, a
// quote or a line break (quotes doubled), CRLF line ends, NULL as an empty field.
class CsvSink final : public RowSink {
public:
    explicit CsvSink(std::ostream& out) : m_out(out) {}
    void columns(const std::vector<std::string>& names) override;
    bool row(const std::vector<Value>& values) override;

private:
    void field(const std::string& text);
    std::ostream& m_out;
};

// A JSON array of objects, one per row, keys the column names; integers and finite reals as
// numbers, NaN and infinities as null, blobs as hex strings. finish() closes the array.
class JsonSink final : public RowSink {
public:
    explicit JsonSink(std::ostream& out) : m_out(out) {}
    void columns(const std::vector<std::string>& names) override;
    bool row(const std::vector<Value>& values) override;
    void finish();

private:
    std::ostream& m_out;
    std::vector<std::string> m_keys;  // quoted and escaped
    bool m_first = true;
};

// `text` as a JSON string, quotes included.
std::string jsonString(const std::string& text);

}  // namespace wl::query
