/*
 * pg_compat.h — every difference between the PostgreSQL major versions that
 * fastjson supports (15 to 19), in one place. The rest of the SQL layer is
 * written against the newest API and includes this through fastjson.h.
 */
#ifndef FASTJSON_PG_COMPAT_H
#define FASTJSON_PG_COMPAT_H

#include "postgres.h"
#include "fmgr.h"

/* 16 moved the varlena macros (VARDATA_ANY, SET_VARSIZE, ...) to varatt.h. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * 18 replaced the postfix pg_attribute_noreturn() with the prefix
 * pg_noreturn; older versions get the prefix form from GCC's attribute.
 */
#ifndef pg_noreturn
#define pg_noreturn __attribute__((noreturn))
#endif

/* 18 names the module and its version in the magic block. */
#ifdef PG_MODULE_MAGIC_EXT
#define FASTJSON_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "fastjson", .version = FASTJSON_VERSION)
#else
#define FASTJSON_MODULE_MAGIC PG_MODULE_MAGIC
#endif

#endif							/* FASTJSON_PG_COMPAT_H */
