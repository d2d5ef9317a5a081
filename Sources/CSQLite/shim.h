#ifndef DBB_CSQLITE_SHIM_H
#define DBB_CSQLITE_SHIM_H

// The system SQLite (Debian/Ubuntu: `apt-get install libsqlite3-dev`).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import: this inline function hands it over with its proper type.
static inline sqlite3_destructor_type dbb_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call: this sets one on/off option
// (SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DQS_DDL, …) and returns SQLite's result code.
static inline int dbb_sqlite_db_config_flag(sqlite3 *db, int option, int on) {
    return sqlite3_db_config(db, option, on, (int *)0);
}

#endif
