#ifndef TESSERA_CSQLITE_SHIM_H
#define TESSERA_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
