#include "io/nsys/Sqlite.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <cctype>

namespace wl::io::nsys {

namespace {

// A path as an SQLite URI's path: every byte but unreserved ones and '/' percent-encoded, so
// '?', '#', '%' and spaces in a file name stay part of it.
std::string uriPath(const std::string& path) {
    std::string out;
    constexpr char kHex[] = "0123456789ABCDEF";
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
    }
    return out;
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

std::string describe(sqlite3* db, int code) {
    std::string text = db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    switch (code & 0xFF) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return "the database is locked by another program (is it still being written?): " +
                   text;
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB:
            return "the database is damaged or truncated: " + text;
        default:
            return text;
    }
}

}  // namespace

std::string quoteName(std::string_view name) {
    std::string out = "\"";
    for (const char c : name) {
        out += c;
        if (c == '"')
            out += '"';
    }
    return out + "\"";
}

Statement::~Statement() {
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement&& other) noexcept : m_db(other.m_db), m_stmt(other.m_stmt) {
    other.m_stmt = nullptr;
}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_db = other.m_db;
        m_stmt = other.m_stmt;
        other.m_stmt = nullptr;
    }
    return *this;
}

model::Result<bool> Statement::step() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    return model::Error{describe(m_db, rc), {}, -1};
}

void Statement::rebind(int index, std::int64_t value) {
    sqlite3_reset(m_stmt);
    sqlite3_bind_int64(m_stmt, index, value);
}

bool Statement::isNull(int column) const {
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::int64_t Statement::integer(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}

double Statement::real(int column) const {
    return sqlite3_column_double(m_stmt, column);
}

std::string_view Statement::text(int column) const {
    const auto* p = sqlite3_column_text(m_stmt, column);
    if (!p)
        return {};
    return {reinterpret_cast<const char*>(p),
            static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))};
}

model::Result<std::unique_ptr<Database>> Database::open(const std::string& path) {
    // Without a journal or write-ahead log beside it no program is writing the file: read it as
    // immutable (no locks, no -shm file made beside it, which a read-only folder would refuse).
    // With one, the usual read-only open, which waits briefly for a writer and then says so.
    const bool writerMayBeActive = exists(path + "-journal") || exists(path + "-wal");
    const std::string uri =
        "file:" + uriPath(path) + (writerMayBeActive ? "?mode=ro" : "?mode=ro&immutable=1");
    sqlite3* db = nullptr;
    int rc = sqlite3_open_v2(uri.c_str(), &db,
                             SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string text = describe(db, rc);
        sqlite3_close(db);
        return model::Error{"cannot open the database: " + text, path, -1};
    }
    sqlite3_busy_timeout(db, 250);
    std::unique_ptr<Database> out(new Database(db));
    auto tables = out->prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')");
    if (!tables) {
        model::Error e = tables.error();
        e.file = path;
        return e;
    }
    while (true) {
        auto row = tables.value().step();
        if (!row) {
            model::Error e = row.error();
            e.file = path;
            return e;
        }
        if (!row.value())
            break;
        out->m_tables.insert(std::string(tables.value().text(0)));
    }
    return out;
}

Database::~Database() {
    if (m_db)
        sqlite3_close(m_db);
}

const std::set<std::string>& Database::columns(const std::string& table) {
    auto [it, fresh] = m_columns.try_emplace(table);
    if (fresh && hasTable(table)) {
        auto info = prepare("PRAGMA table_info(" + quoteName(table) + ")");
        if (info) {
            while (true) {
                auto row = info.value().step();
                if (!row || !row.value())
                    break;
                it->second.insert(std::string(info.value().text(1)));
            }
        }
    }
    return it->second;
}

std::string Database::select(const std::string& table, const std::string& alias,
                             std::initializer_list<const char*> names) {
    const auto& have = columns(table);
    std::string out;
    for (const char* name : names) {
        if (!out.empty())
            out += ", ";
        if (have.count(name))
            out += alias + "." + quoteName(name);
        else
            out += "NULL";
    }
    return out;
}

model::Result<Statement> Database::prepare(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    const int rc =
        sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(stmt);
        return model::Error{describe(m_db, rc), {}, -1};
    }
    return Statement(m_db, stmt);
}

model::Result<std::int64_t> Database::scalar(const std::string& sql, std::int64_t otherwise) {
    auto st = prepare(sql);
    if (!st)
        return st.error();
    auto row = st.value().step();
    if (!row)
        return row.error();
    if (!row.value() || st.value().isNull(0))
        return otherwise;
    return st.value().integer(0);
}

}  // namespace wl::io::nsys
