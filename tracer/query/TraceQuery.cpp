// The database behind `warpline query`: open, lock down, run one statement.
#include "query/TraceQuery.h"

#include <sqlite3.h>

#include <cstring>

#include "query/TraceTables.h"

namespace wl::query {

struct TraceDatabase::Impl {
    explicit Impl(model::TracePtr trace) : ctx(std::move(trace)) {}
    ~Impl() {
        if (db)
            sqlite3_close_v2(db);
    }
    TraceContext ctx;
    sqlite3* db = nullptr;
    // What the authorizer refused last (its message replaces SQLite's "not authorized").
    std::string refusal;
    const QueryOptions* options = nullptr;  // of the running query
};

namespace {

// PRAGMAs that only read (any others, and any PRAGMA given a value, are refused).
bool readOnlyPragma(const char* name, const char* value) {
    static const char* const kAllowed[] = {"table_info",    "table_xinfo", "table_list",
                                           "function_list", "module_list", "pragma_list"};
    if (name == nullptr)
        return false;
    for (const char* allowed : kAllowed) {
        if (sqlite3_stricmp(name, allowed) == 0)
            return value == nullptr || std::strcmp(allowed, "table_info") == 0 ||
                   std::strcmp(allowed, "table_xinfo") == 0;
    }
    return false;
}

const char* actionName(int action) {
    switch (action) {
        case SQLITE_ATTACH:
            return "ATTACH";
        case SQLITE_DETACH:
            return "DETACH";
        case SQLITE_INSERT:
            return "INSERT";
        case SQLITE_UPDATE:
            return "UPDATE";
        case SQLITE_DELETE:
            return "DELETE";
        case SQLITE_TRANSACTION:
        case SQLITE_SAVEPOINT:
            return "a transaction";
        case SQLITE_ALTER_TABLE:
            return "ALTER TABLE";
        case SQLITE_ANALYZE:
            return "ANALYZE";
        case SQLITE_REINDEX:
            return "REINDEX";
        case SQLITE_CREATE_VTABLE:
        case SQLITE_DROP_VTABLE:
            return "a virtual table";
        default:
            break;
    }
    if (action >= SQLITE_CREATE_INDEX && action <= SQLITE_DROP_VIEW)
        return "CREATE or DROP";
    return "this statement";
}

int authorize(void* user, int action, const char* a, const char* b, const char*, const char*) {
    auto* impl = static_cast<TraceDatabase::Impl*>(user);
    switch (action) {
        case SQLITE_SELECT:
        case SQLITE_READ:
        case SQLITE_RECURSIVE:
            return SQLITE_OK;
        case SQLITE_UPDATE:
            // SQLite asks this of itself when a statement first reads an eponymous table (its
            // schema table's "type"); a user's UPDATE of the schema table is refused by SQLite
            // (defensive mode) and by the read-only check in run().
            if (a != nullptr && (sqlite3_stricmp(a, "sqlite_master") == 0 ||
                                 sqlite3_stricmp(a, "sqlite_schema") == 0))
                return SQLITE_OK;
            break;
        case SQLITE_FUNCTION:
            // Extension loading is off as well; this says why in words.
            if (b != nullptr && sqlite3_stricmp(b, "load_extension") == 0) {
                impl->refusal =
                    "load_extension is not allowed: the trace database loads no "
                    "extensions";
                return SQLITE_DENY;
            }
            return SQLITE_OK;
        case SQLITE_PRAGMA:
            if (readOnlyPragma(a, b))
                return SQLITE_OK;
            impl->refusal = std::string("PRAGMA ") + (a ? a : "") + (b ? " with a value" : "") +
                            " is not allowed: the trace database is read-only";
            return SQLITE_DENY;
        default:
            break;
    }
    impl->refusal = std::string(actionName(action)) +
                    " is not allowed: the trace database is read-only (SELECT only)";
    return SQLITE_DENY;
}

int progress(void* user) {
    const auto* impl = static_cast<const TraceDatabase::Impl*>(user);
    const QueryOptions* options = impl->options;
    if (options == nullptr)
        return 0;
    if (options->onProgress)
        options->onProgress();
    return options->cancel && options->cancel->load(std::memory_order_relaxed) ? 1 : 0;
}

// A short piece of the SQL at `offset`, for the message.
std::string near(const std::string& sql, int offset) {
    constexpr std::size_t kSnippet = 24;
    std::string piece = sql.substr(static_cast<std::size_t>(offset), kSnippet);
    for (char& ch : piece) {
        if (ch == '\n' || ch == '\r' || ch == '\t')
            ch = ' ';
    }
    if (static_cast<std::size_t>(offset) + kSnippet < sql.size())
        piece += "...";
    return piece;
}

Value columnValue(sqlite3_stmt* stmt, int i) {
    Value v;
    switch (sqlite3_column_type(stmt, i)) {
        case SQLITE_INTEGER:
            v.type = Value::Type::Integer;
            v.integer = sqlite3_column_int64(stmt, i);
            break;
        case SQLITE_FLOAT:
            v.type = Value::Type::Real;
            v.real = sqlite3_column_double(stmt, i);
            break;
        case SQLITE_TEXT: {
            v.type = Value::Type::Text;
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
            v.text.assign(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
            break;
        }
        case SQLITE_BLOB: {
            v.type = Value::Type::Blob;
            const auto* data = static_cast<const char*>(sqlite3_column_blob(stmt, i));
            if (data)
                v.text.assign(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
            break;
        }
        default:
            break;
    }
    return v;
}

}  // namespace

TraceDatabase::TraceDatabase(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
TraceDatabase::~TraceDatabase() = default;

model::Result<std::unique_ptr<TraceDatabase>> TraceDatabase::open(model::TracePtr trace) {
    if (!trace)
        return model::Error{"no trace to query"};
    auto impl = std::make_unique<Impl>(std::move(trace));
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY |
                      SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    if (sqlite3_open_v2(":memory:", &impl->db, flags, nullptr) != SQLITE_OK) {
        return model::Error{std::string("cannot open an SQLite database: ") +
                            (impl->db ? sqlite3_errmsg(impl->db) : "out of memory")};
    }
    sqlite3* db = impl->db;
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    if (registerTraceTables(db, impl->ctx) != SQLITE_OK)
        return model::Error{std::string("cannot register the trace tables: ") + sqlite3_errmsg(db)};
    sqlite3_set_authorizer(db, authorize, impl.get());
    sqlite3_progress_handler(db, kProgressSteps, progress, impl.get());
    return std::unique_ptr<TraceDatabase>(new TraceDatabase(std::move(impl)));
}

std::optional<QueryError> TraceDatabase::run(const std::string& sql, RowSink& sink,
                                             const QueryOptions& options) {
    Impl& impl = *m_impl;
    sqlite3* db = impl.db;
    impl.refusal.clear();
    impl.options = &options;
    impl.ctx.cancel = options.cancel;  // the analysis tables' analysis stops on it too
    struct Reset {
        Impl& impl;
        ~Reset() {
            impl.options = nullptr;
            impl.ctx.cancel = nullptr;
        }
    } reset{impl};

    const auto cancelled = [&] {
        return QueryError{QueryErrorKind::Cancelled, "the query was cancelled", -1};
    };
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    const int prepared =
        sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt, &tail);
    if (prepared != SQLITE_OK) {
        if ((prepared & 0xff) == SQLITE_INTERRUPT)
            return cancelled();
        if (!impl.refusal.empty())
            return QueryError{QueryErrorKind::Refused, impl.refusal, -1};
        const int offset = sqlite3_error_offset(db);
        std::string message = sqlite3_errmsg(db);
        if (offset >= 0 && static_cast<std::size_t>(offset) < sql.size())
            message += " (at offset " + std::to_string(offset) + ": \"" + near(sql, offset) + "\")";
        return QueryError{QueryErrorKind::Invalid, message, offset};
    }
    struct Finalize {
        sqlite3_stmt* stmt;
        ~Finalize() { sqlite3_finalize(stmt); }
    } finalize{stmt};
    if (stmt == nullptr)
        return QueryError{QueryErrorKind::Invalid, "the query is empty", -1};
    for (const char* p = tail; p && *p; ++p) {
        if (*p != ';' && *p != ' ' && *p != '\n' && *p != '\t' && *p != '\r') {
            const int offset = static_cast<int>(p - sql.c_str());
            return QueryError{QueryErrorKind::Invalid,
                              "one statement at a time: more SQL follows the first (at offset " +
                                  std::to_string(offset) + ": \"" + near(sql, offset) + "\")",
                              offset};
        }
    }
    if (!sqlite3_stmt_readonly(stmt))
        return QueryError{QueryErrorKind::Refused,
                          "only statements that read are allowed: the trace database is read-only",
                          -1};

    const int count = sqlite3_column_count(stmt);
    std::vector<std::string> names;
    for (int i = 0; i < count; ++i) {
        const char* name = sqlite3_column_name(stmt, i);
        names.emplace_back(name ? name : "");
    }
    sink.columns(names);
    std::vector<Value> row(static_cast<std::size_t>(count));
    for (;;) {
        const int rc = sqlite3_step(stmt);
        if (rc == SQLITE_DONE)
            return std::nullopt;
        if (rc != SQLITE_ROW) {
            if ((rc & 0xff) == SQLITE_INTERRUPT)
                return cancelled();
            return QueryError{QueryErrorKind::Failed, sqlite3_errmsg(db), -1};
        }
        for (int i = 0; i < count; ++i)
            row[static_cast<std::size_t>(i)] = columnValue(stmt, i);
        if (!sink.row(row))
            return std::nullopt;
    }
}

std::uint64_t TraceDatabase::slicesVisited() const {
    return m_impl->ctx.slicesVisited;
}

}  // namespace wl::query
