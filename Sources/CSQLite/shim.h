#ifndef DBB_CSQLITE_SHIM_H
#define DBB_CSQLITE_SHIM_H

// The system SQLite (Debian/Ubuntu: `apt-get install libsqlite3-dev`).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import: this inline function hands it over with its proper type.
static inline sqlite3_destructor_type dbb_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
