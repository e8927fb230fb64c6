/*
 * pg_compat.h — every difference between the PostgreSQL major versions that
 * fastjson supports (15 to 19), in one place. The rest of the SQL layer is
 * written against the newest API and includes this through fastjson.h.
 */
#ifndef FASTJSON_PG_COMPAT_H
#define FASTJSON_PG_COMPAT_H

#include "postgres.h"
#include "fmgr.h"
#include "nodes/nodes.h"

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
#define ereturn(context, dummy_value, ...) do { errsave(context, __VA_ARGS__); return dummy_value; } while (0)
#define SOFT_ERROR_OCCURRED(escontext) false
#endif

/*
 * A built-in input function (numeric_in, int8in, jsonb_in) called with an
 * error context; false after a soft error. Before 16 every error is raised.
 */
static inline bool
fjc_direct_input_call(PGFunction func, char *s, int32 typmod, Node *escontext, Datum *result)
{
#if PG_VERSION_NUM >= 160000
	return DirectInputFunctionCallSafe(func, s, InvalidOid, typmod, escontext, result);
#else
	(void) escontext;
	*result = DirectFunctionCall3(func, CStringGetDatum(s), ObjectIdGetDatum(InvalidOid),
								  Int32GetDatum(typmod));
	return true;
#endif
}

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

/* ================================================== TOAST
 *
 * What reading values out of line (src/fastjson_toast.c) needs that differs
 * between versions; active where FASTJSON_TOAST_COMPAT is defined first.
 */
#if defined(FASTJSON_TOAST_COMPAT) && !defined(FASTJSON_PG_COMPAT_TOAST_H)
#define FASTJSON_PG_COMPAT_TOAST_H

#include "access/toast_internals.h"
#include "storage/proc.h"

/*
 * 18 made the TOAST snapshot one the server keeps (get_toast_snapshot);
 * before, the caller filled in its own (init_toast_snapshot).
 */
#if PG_VERSION_NUM >= 180000
typedef int FjToastSnapshotData;
#define fj_toast_snapshot(data) ((void) (data), get_toast_snapshot())
#else
typedef SnapshotData FjToastSnapshotData;
static inline Snapshot
fj_toast_snapshot(SnapshotData *data)
{
	init_toast_snapshot(data);
	return data;
}
#endif

/* 17 moved the backend's local transaction id into PGPROC's vxid. */
#if PG_VERSION_NUM >= 170000
#define FJ_MY_LXID (MyProc->vxid.lxid)
#else
#define FJ_MY_LXID (MyProc->lxid)
#endif

/*
 * Whether this transaction created the relation or gave it a new file: only
 * then may a TRUNCATE cut its file short in place. 16 renamed relfilenodes
 * relfilelocators.
 */
#if PG_VERSION_NUM >= 160000
#define FJ_REL_NEW_IN_XACT(rel) \
	((rel)->rd_createSubid != InvalidSubTransactionId || \
	 (rel)->rd_newRelfilelocatorSubid != InvalidSubTransactionId)
#else
#define FJ_REL_NEW_IN_XACT(rel) \
	((rel)->rd_createSubid != InvalidSubTransactionId || \
	 (rel)->rd_newRelfilenodeSubid != InvalidSubTransactionId)
#endif

#endif							/* FASTJSON_PG_COMPAT_TOAST_H */

/* ================================================== Rows from objects
 *
 * What src/fastjson_record.c needs to fill a row softly
 * (fastjson_populate_record_valid); active where FASTJSON_RECORD_COMPAT is
 * defined first. Input functions report softly from 16, domain checks from 17
 * (domain_check_safe), so the function answers from 17, as jsonb's; before,
 * these raise every error, which is all that the other callers, passing no
 * escontext, ask of them.
 */
#if defined(FASTJSON_RECORD_COMPAT) && !defined(FASTJSON_PG_COMPAT_RECORD_H)
#define FASTJSON_PG_COMPAT_RECORD_H

#include "utils/builtins.h"

#define FJC_SOFT_RECORDS (PG_VERSION_NUM >= 170000)

/* An input function through its FmgrInfo; false after a soft error. */
static inline bool
fjc_input_call(FmgrInfo *flinfo, char *s, Oid ioparam, int32 typmod, Node *escontext,
			   Datum *result)
{
#if PG_VERSION_NUM >= 160000
	return InputFunctionCallSafe(flinfo, s, ioparam, typmod, escontext, result);
#else
	(void) escontext;
	*result = InputFunctionCall(flinfo, s, ioparam, typmod);
	return true;
#endif
}

/* A domain's constraints on a value; false after a soft error. */
static inline bool
fjc_domain_check(Datum value, bool isnull, Oid domain, void **extra, MemoryContext mcxt,
				 Node *escontext)
{
#if FJC_SOFT_RECORDS
	return domain_check_safe(value, isnull, domain, extra, mcxt, escontext);
#else
	(void) escontext;
	domain_check(value, isnull, domain, extra, mcxt);
	return true;
#endif
}

#endif							/* FASTJSON_RECORD_COMPAT */

/* ================================================== SQL/JSON path (jsonpath)
 *
 * What the jsonpath executor (src/fastjson_path*.c) needs that differs
 * between versions. Active only where FASTJSON_JSONPATH_COMPAT is defined
 * before this file is included (src/fastjson_path.h does so), so the other
 * files do not pull in jsonpath.h; it has its own guard, outside the one
 * above, for that reason.
 */
#if defined(FASTJSON_JSONPATH_COMPAT) && !defined(FASTJSON_PG_COMPAT_JSONPATH_H)
#define FASTJSON_PG_COMPAT_JSONPATH_H

#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/formatting.h"
#include "utils/jsonpath.h"
#include "utils/numeric.h"
#include "utils/datetime.h"
#include "utils/fmgrprotos.h"

/*
 * Item types. Each is jsonpath.h's number (part of the type's on-disk form,
 * so fixed): 17 added the conversion methods .bigint() to .timestamp_tz(),
 * 19 the string methods .replace() to .split_part(). A server whose parser
 * does not know an item never produces it; the executor switches on the
 * item type as an int, so it can name them all on every version.
 */
#define FJPI_BIGINT 43
#define FJPI_BOOLEAN 44
#define FJPI_DATE 45
#define FJPI_DECIMAL 46
#define FJPI_INTEGER 47
#define FJPI_NUMBER 48
#define FJPI_STRING_FUNC 49
#define FJPI_TIME 50
#define FJPI_TIME_TZ 51
#define FJPI_TIMESTAMP 52
#define FJPI_TIMESTAMP_TZ 53
#define FJPI_STR_REPLACE 54
#define FJPI_STR_LOWER 55
#define FJPI_STR_UPPER 56
#define FJPI_STR_LTRIM 57
#define FJPI_STR_RTRIM 58
#define FJPI_STR_BTRIM 59
#define FJPI_STR_INITCAP 60
#define FJPI_STR_SPLIT_PART 61

#if PG_VERSION_NUM >= 170000
StaticAssertDecl(FJPI_BIGINT == jpiBigint && FJPI_TIMESTAMP_TZ == jpiTimestampTz,
				 "jsonpath item numbers of 17");
#endif
#if PG_VERSION_NUM >= 190000
StaticAssertDecl(FJPI_STR_REPLACE == jpiStrReplace && FJPI_STR_SPLIT_PART == jpiStrSplitPart,
				 "jsonpath item numbers of 19");
#endif

/* The item types the server knows, for tests: every one below this number. */
#if PG_VERSION_NUM >= 190000
#define FJPI_END (FJPI_STR_SPLIT_PART + 1)
#elif PG_VERSION_NUM >= 170000
#define FJPI_END (FJPI_TIMESTAMP_TZ + 1)
#else
#define FJPI_END (jpiLikeRegex + 1)
#endif

/*
 * Numeric arithmetic and conversions that can fail softly: with error NULL
 * they raise their error, otherwise they set *error and return 0 / NULL.
 * 15 to 18 have the *_opt_error forms (bool *), 19 the *_safe forms (an
 * ErrorSaveContext).
 */
#if PG_VERSION_NUM >= 190000
#define FJC_SOFT_CALL(call) \
	do { \
		ErrorSaveContext es = {.type = T_ErrorSaveContext}; \
		Node	   *escontext = error ? (Node *) &es : NULL; \
		\
		r = call; \
		if (error) \
			*error = es.error_occurred; \
	} while (0)

static inline Numeric
fjc_numeric_add(Numeric a, Numeric b, bool *error)
{
	Numeric		r;

	FJC_SOFT_CALL(numeric_add_safe(a, b, escontext));
	return r;
}
static inline Numeric
fjc_numeric_sub(Numeric a, Numeric b, bool *error)
{
	Numeric		r;

	FJC_SOFT_CALL(numeric_sub_safe(a, b, escontext));
	return r;
}
static inline Numeric
fjc_numeric_mul(Numeric a, Numeric b, bool *error)
{
	Numeric		r;

	FJC_SOFT_CALL(numeric_mul_safe(a, b, escontext));
	return r;
}
static inline Numeric
fjc_numeric_div(Numeric a, Numeric b, bool *error)
{
	Numeric		r;

	FJC_SOFT_CALL(numeric_div_safe(a, b, escontext));
	return r;
}
static inline Numeric
fjc_numeric_mod(Numeric a, Numeric b, bool *error)
{
	Numeric		r;

	FJC_SOFT_CALL(numeric_mod_safe(a, b, escontext));
	return r;
}
static inline int32
fjc_numeric_int4(Numeric n, bool *error)
{
	int32		r;

	FJC_SOFT_CALL(numeric_int4_safe(n, escontext));
	return r;
}
static inline int64
fjc_numeric_int8(Numeric n, bool *error)
{
	int64		r;

	FJC_SOFT_CALL(numeric_int8_safe(n, escontext));
	return r;
}
#else
static inline Numeric
fjc_numeric_add(Numeric a, Numeric b, bool *error)
{
	if (error)
		*error = false;
	return numeric_add_opt_error(a, b, error);
}
static inline Numeric
fjc_numeric_sub(Numeric a, Numeric b, bool *error)
{
	if (error)
		*error = false;
	return numeric_sub_opt_error(a, b, error);
}
static inline Numeric
fjc_numeric_mul(Numeric a, Numeric b, bool *error)
{
	if (error)
		*error = false;
	return numeric_mul_opt_error(a, b, error);
}
static inline Numeric
fjc_numeric_div(Numeric a, Numeric b, bool *error)
{
	if (error)
		*error = false;
	return numeric_div_opt_error(a, b, error);
}
static inline Numeric
fjc_numeric_mod(Numeric a, Numeric b, bool *error)
{
	if (error)
		*error = false;
	return numeric_mod_opt_error(a, b, error);
}
static inline int32
fjc_numeric_int4(Numeric n, bool *error)
{
	if (error)
		*error = false;
	return numeric_int4_opt_error(n, error);
}
#if PG_VERSION_NUM >= 170000
static inline int64
fjc_numeric_int8(Numeric n, bool *error)
{
	if (error)
		*error = false;
	return numeric_int8_opt_error(n, error);
}
#else
/* only .bigint() (17 and later) converts to int64 softly */
static inline int64
fjc_numeric_int8(Numeric n, bool *error)
{
	if (error)
		*error = false;
	return DatumGetInt64(DirectFunctionCall1(numeric_int8, NumericGetDatum(n)));
}
#endif
#endif

/*
 * A double from text (float8in's rules), as "double precision"; soft when
 * error is not NULL. 16 passes an ErrorSaveContext to float8in_internal, 15
 * has float8in_internal_opt_error.
 */
static inline float8
fjc_float8in(char *s, bool *error)
{
#if PG_VERSION_NUM >= 160000
	ErrorSaveContext es = {.type = T_ErrorSaveContext};
	float8		r = float8in_internal(s, NULL, "double precision", s, error ? (Node *) &es : NULL);

	if (error)
		*error = es.error_occurred;
	return r;
#else
	if (error)
		*error = false;
	return float8in_internal_opt_error(s, NULL, "double precision", s, error);
#endif
}

/* parse_datetime, soft when error is not NULL (15: a bool *, 16: an ErrorSaveContext). */
static inline Datum
fjc_parse_datetime(text *date, text *fmt, Oid *typid, int32 *typmod, int *tz, bool *error)
{
#if PG_VERSION_NUM >= 160000
	ErrorSaveContext es = {.type = T_ErrorSaveContext};
	Datum		r = parse_datetime(date, fmt, DEFAULT_COLLATION_OID, true, typid, typmod, tz,
								   error ? (Node *) &es : NULL);

	if (error)
		*error = es.error_occurred;
	return r;
#else
	if (error)
		*error = false;
	return parse_datetime(date, fmt, DEFAULT_COLLATION_OID, true, typid, typmod, tz, error);
#endif
}

/* The regex flags of a like_regex item (16 added the soft-error form). */
static inline int
fjc_regex_flags(uint32 xflags)
{
#if PG_VERSION_NUM >= 160000
	int			cflags = 0;

	(void) jspConvertRegexFlags(xflags, &cflags, NULL);
	return cflags;
#else
	return jspConvertRegexFlags(xflags);
#endif
}

/*
 * An input function called softly (16): false when it reports a soft
 * error. Only the conversion methods of 17 and later use it; on 15 the
 * error is raised.
 */
static inline bool
fjc_input_safe(PGFunction func, char *s, int32 typmod, Datum *result)
{
#if PG_VERSION_NUM >= 160000
	ErrorSaveContext es = {.type = T_ErrorSaveContext};

	return fjc_direct_input_call(func, s, typmod, (Node *) &es, result);
#else
	return fjc_direct_input_call(func, s, typmod, NULL, result);
#endif
}

/*
 * The numeric typmod of .decimal(precision, scale). 19 makes it softly
 * (an invalid precision is then an error that silent suppresses); before
 * 19 it goes through numerictypmodin, whose errors are always raised.
 */
#define FJC_DECIMAL_TYPMOD_SOFT (PG_VERSION_NUM >= 190000)
static inline int32
fjc_numeric_typmod(int32 precision, int32 scale, bool *error)
{
#if PG_VERSION_NUM >= 190000
	ErrorSaveContext es = {.type = T_ErrorSaveContext};
	int32		r = make_numeric_typmod_safe(precision, scale, error ? (Node *) &es : NULL);

	if (error)
		*error = es.error_occurred;
	return r;
#else
	char		pstr[12],
				sstr[12];
	Datum		elems[2];
	ArrayType  *arr;

	if (error)
		*error = false;
	pg_ltoa(precision, pstr);
	pg_ltoa(scale, sstr);
	elems[0] = CStringGetDatum(pstr);
	elems[1] = CStringGetDatum(sstr);
	arr = construct_array(elems, 2, CSTRINGOID, -2, false, TYPALIGN_CHAR);
	return DatumGetInt32(DirectFunctionCall1(numerictypmodin, PointerGetDatum(arr)));
#endif
}

/* AdjustTimestampForTypmod, soft (15 names the soft form ...Error). */
static inline bool
fjc_adjust_timestamp(Timestamp *ts, int32 typmod)
{
#if PG_VERSION_NUM >= 160000
	ErrorSaveContext es = {.type = T_ErrorSaveContext};

	return AdjustTimestampForTypmod(ts, typmod, (Node *) &es);
#else
	bool		error = false;

	return AdjustTimestampForTypmodError(ts, typmod, &error) && !error;
#endif
}

/*
 * The ISO formats .datetime() without a template tries, in order. 17 added
 * the TZ template pattern and uses it; 15 and 16 spell time zones TZH:TZM.
 */
#if PG_VERSION_NUM >= 170000
#define FJC_DATETIME_ISO_FORMATS \
	"yyyy-mm-dd", \
	"HH24:MI:SS.USTZ", "HH24:MI:SSTZ", \
	"HH24:MI:SS.US", "HH24:MI:SS", \
	"yyyy-mm-dd HH24:MI:SS.USTZ", "yyyy-mm-dd HH24:MI:SSTZ", \
	"yyyy-mm-dd\"T\"HH24:MI:SS.USTZ", "yyyy-mm-dd\"T\"HH24:MI:SSTZ", \
	"yyyy-mm-dd HH24:MI:SS.US", "yyyy-mm-dd HH24:MI:SS", \
	"yyyy-mm-dd\"T\"HH24:MI:SS.US", "yyyy-mm-dd\"T\"HH24:MI:SS"
#else
#define FJC_DATETIME_ISO_FORMATS \
	"yyyy-mm-dd", \
	"HH24:MI:SS.USTZH:TZM", "HH24:MI:SS.USTZH", "HH24:MI:SSTZH:TZM", "HH24:MI:SSTZH", \
	"HH24:MI:SS.US", "HH24:MI:SS", \
	"yyyy-mm-dd HH24:MI:SS.USTZH:TZM", "yyyy-mm-dd HH24:MI:SS.USTZH", \
	"yyyy-mm-dd HH24:MI:SSTZH:TZM", "yyyy-mm-dd HH24:MI:SSTZH", \
	"yyyy-mm-dd\"T\"HH24:MI:SS.USTZH:TZM", "yyyy-mm-dd\"T\"HH24:MI:SS.USTZH", \
	"yyyy-mm-dd\"T\"HH24:MI:SSTZH:TZM", "yyyy-mm-dd\"T\"HH24:MI:SSTZH", \
	"yyyy-mm-dd HH24:MI:SS.US", "yyyy-mm-dd HH24:MI:SS", \
	"yyyy-mm-dd\"T\"HH24:MI:SS.US", "yyyy-mm-dd\"T\"HH24:MI:SS"
#endif

/*
 * .double()'s errors: 17 quotes the argument and tells NaN and Infinity
 * apart; 15 and 16 have one message for numbers and one for strings.
 */
#define FJC_DOUBLE_ERRORS_QUOTE_ARGUMENT (PG_VERSION_NUM >= 170000)

/*
 * A variable when there are no vars at all (@? and @@): 16 gives null, 15
 * and 17 and later raise "could not find jsonpath variable" (measured on
 * 15.20, 16.14, 17.10, 18.4 and 19beta2).
 */
#define FJC_NO_VARS_GIVES_NULL (PG_VERSION_NUM >= 160000 && PG_VERSION_NUM < 170000)

#endif							/* FASTJSON_JSONPATH_COMPAT */
