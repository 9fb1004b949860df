#ifndef PERFKIT_CSQLITE_SHIM_H
#define PERFKIT_CSQLITE_SHIM_H
// SQLite from Debian's libsqlite3-dev: the embedded history store.
#include <sqlite3.h>
#endif
