#ifndef PERFKIT_CLIBPQ_SHIM_H
#define PERFKIT_CLIBPQ_SHIM_H
// PostgreSQL's client library from Debian's libpq-dev: the shared history store.
#include <libpq-fe.h>
#endif
