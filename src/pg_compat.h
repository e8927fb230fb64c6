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
 * 16 added soft errors: an input function reports through fcinfo->context
 * (an ErrorSaveContext) with errsave/ereturn, so that pg_input_is_valid and
 * COPY ... ON_ERROR (17) can go on. Before 16 every error is raised.
 */
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#else
#define errsave(context, ...) do { (void) (context); ereport(ERROR, __VA_ARGS__); } while (0)
#define SOFT_ERROR_OCCURRED(escontext) false
#endif

/*
 * 18 replaced the postfix pg_attribute_noreturn() with the prefix
 * pg_noreturn; older versions get the prefix form from GCC's attribute.
 */
#ifndef pg_noreturn
#define pg_noreturn __attribute__((noreturn))
#endif

/*
 * 18 made a cast of a jsonb null to an SQL scalar type (boolean, numeric,
 * the integers, the floats) give SQL NULL instead of an error; fastjson's
 * casts do what the server's jsonb does.
 */
#define FASTJSON_NULL_CASTS_TO_SQL_NULL (PG_VERSION_NUM >= 180000)

/* 18 names the module and its version in the magic block. */
#ifdef PG_MODULE_MAGIC_EXT
#define FASTJSON_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "fastjson", .version = FASTJSON_VERSION)
#else
#define FASTJSON_MODULE_MAGIC PG_MODULE_MAGIC
#endif

#endif							/* FASTJSON_PG_COMPAT_H */
