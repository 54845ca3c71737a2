#pragma once

// A small read-only view of an SQLite database: opening (read-only; immutable, without locks,
// where no other program may be writing it), tables and their columns by name, and prepared
// statements whose rows stream. Internal to wl_io.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/Result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace wl::io::nsys {

class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, sqlite3_stmt* stmt) : m_db(db), m_stmt(stmt) {}
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // The next row: true while there is one; false at the end. An error of the database
    // (a corrupt page, an I/O error) is an Error.
    model::Result<bool> step();
    // For a statement run again with other values: binds parameter `index` (from 1) after a
    // reset.
    void rebind(int index, std::int64_t value);
    bool isNull(int column) const;
    std::int64_t integer(int column) const;  // NULL reads 0
    double real(int column) const;
    std::string_view text(int column) const;  // NULL reads ""

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

class Database {
public:
    // Opens `path` read-only. Errors say what is wrong (not a database, locked, unreadable).
    static model::Result<std::unique_ptr<Database>> open(const std::string& path);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    bool hasTable(std::string_view name) const { return m_tables.count(std::string(name)) != 0; }
    const std::set<std::string>& tables() const { return m_tables; }
    // The table's columns (PRAGMA table_info), cached.
    const std::set<std::string>& columns(const std::string& table);
    bool hasColumn(const std::string& table, const std::string& column) {
        return columns(table).count(column) != 0;
    }
    // "t.a, t.b, NULL, ..." for `names` of `table` as `alias`: columns it lacks as NULL.
    std::string select(const std::string& table, const std::string& alias,
                       std::initializer_list<const char*> names);
    model::Result<Statement> prepare(const std::string& sql);
    // One integer (the first column of the first row; `otherwise` when none or NULL).
    model::Result<std::int64_t> scalar(const std::string& sql, std::int64_t otherwise = 0);

private:
    explicit Database(sqlite3* db) : m_db(db) {}
    sqlite3* m_db = nullptr;
    std::set<std::string> m_tables;
    std::map<std::string, std::set<std::string>> m_columns;
};

// A name as SQL quotes it: "name" (double quotes doubled).
std::string quoteName(std::string_view name);

}  // namespace wl::io::nsys
