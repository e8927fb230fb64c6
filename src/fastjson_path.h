/*
 * fastjson_path.h — SQL/JSON path on the tape: what the executor's files
 * share (src/fastjson_path_exec.c, fastjson_path_method.c,
 * fastjson_path_sql.c).
 *
 * The path is PostgreSQL's own jsonpath, walked in its compiled form with
 * the API of utils/jsonpath.h (jspInit, jspGetNext, jspGetArg, ...). The
 * document and the vars are read where they are, in their tapes; nothing is
 * converted to jsonb. Semantics are jsonb's (jsonpath_exec.c): the document
 * is seen as jsonb sees it (duplicate keys: the last one is operative; an
 * object's members in jsonb's key order, length then bytes), lax and strict
 * modes, the same errors with the same SQLSTATEs, and the same notion of the
 * errors that silent (and a filter) suppresses.
 *
 * An item of a path's result sequence (FjpItem) is a value of a tape (the
 * document, the vars, a literal turned into a tape once per query, or an
 * object .keyvalue() made), or a value computed on the way: a numeric
 * (arithmetic, numeric methods), a string not in any tape (a literal, a
 * method's result) or a datetime.
 */
#ifndef FASTJSON_PATH_H
#define FASTJSON_PATH_H

#include "fastjson_value.h"

#define FASTJSON_JSONPATH_COMPAT
#include "pg_compat.h"

/* ------------------------------------------------------------------ items */

typedef enum FjpKind
{
	FJP_TAPE,					/* u.v: a value of a tape (null and booleans too) */
	FJP_NUMERIC,				/* u.num */
	FJP_STRING,					/* u.str: UTF-8, not NUL-terminated */
	FJP_DATETIME				/* u.dt */
} FjpKind;

typedef struct FjpItem
{
	FjpKind		kind;
	union
	{
		const uint8_t *v;
		Numeric		num;
		struct
		{
			const char *s;
			int32		len;
		}			str;
		struct
		{
			Datum		value;
			Oid			typid;
			int32		typmod;
			int			tz;
		}			dt;
	}			u;
} FjpItem;

/* An item's type as jsonpath sees it (jsonb's, plus datetime). */
typedef enum FjpType
{
	FJPT_NULL,
	FJPT_STRING,
	FJPT_NUMBER,
	FJPT_BOOL,
	FJPT_DATETIME,
	FJPT_ARRAY,
	FJPT_OBJECT
} FjpType;

/* Tape values of the literals null, false and true (one tag byte each). */
extern const uint8_t fjp_tape_null[1];
extern const uint8_t fjp_tape_false[1];
extern const uint8_t fjp_tape_true[1];

FjpType		fjp_item_type(const FjpItem *it);
/* The string of a string item (tape or computed); false for other items. */
bool		fjp_item_string(const FjpItem *it, const char **s, int32 *len);
/* The numeric of a number item (tape numbers are read with numeric_in). */
Numeric		fjp_item_numeric(const FjpItem *it);
/* The text numeric_out gives a number item (what jsonb prints). */
char	   *fjp_item_number_out(const FjpItem *it);

static inline FjpItem
fjp_tape_item(const uint8_t *v)
{
	FjpItem		it;

	it.kind = FJP_TAPE;
	it.u.v = v;
	return it;
}

static inline FjpItem
fjp_numeric_item(Numeric n)
{
	FjpItem		it;

	it.kind = FJP_NUMERIC;
	it.u.num = n;
	return it;
}

static inline FjpItem
fjp_string_item(const char *s, int32 len)
{
	FjpItem		it;

	it.kind = FJP_STRING;
	it.u.str.s = s;
	it.u.str.len = len;
	return it;
}

static inline FjpItem
fjp_bool_item(bool b)
{
	return fjp_tape_item(b ? fjp_tape_true : fjp_tape_false);
}

/* An integer as a tape value in palloc'd memory. */
FjpItem		fjp_int_item(int64 v);

/* ---------------------------------------------------------- item sequences */

/*
 * A sequence of items: the first two in the struct itself (most sequences
 * are short), the rest in a palloc'd array that doubles.
 */
#define FJP_LIST_LOCAL 2

typedef struct FjpList
{
	FjpItem    *items;			/* local or palloc'd */
	int			n;
	int			cap;
	FjpItem		local[FJP_LIST_LOCAL];
} FjpList;

static inline void
fjp_list_init(FjpList *l)
{
	l->items = l->local;
	l->n = 0;
	l->cap = FJP_LIST_LOCAL;
}

void		fjp_list_append(FjpList *l, const FjpItem *it);

static inline void
fjp_list_free(FjpList *l)
{
	if (l->items != l->local)
		pfree(l->items);
	fjp_list_init(l);
}

/* ---------------------------------------------------------------- executor */

typedef enum FjpResult
{
	FJP_OK,						/* the sequence is not empty */
	FJP_NOT_FOUND,				/* it is empty */
	FJP_ERROR					/* a suppressed error happened */
} FjpResult;

/* jsonpath's tri-state predicate result */
typedef enum FjpBool
{
	FJPB_FALSE,
	FJPB_TRUE,
	FJPB_UNKNOWN
} FjpBool;

/*
 * The "base object" of .keyvalue()'s ids: the root of the tape the object
 * lives in (the document for $, the vars for a variable, an object that
 * .keyvalue() made), and its id (0, 1, then counted up).
 */
typedef struct FjpBase
{
	const uint8_t *root;
	int			id;
} FjpBase;

/* Per-query state kept between rows (fastjson_path_sql.c): tapes of number literals. */
typedef struct FjpLiteral
{
	int32		pos;			/* the item's offset in the path */
	uint8_t    *tape;			/* its value, as a tape value */
} FjpLiteral;

typedef struct FjpLiterals
{
	MemoryContext mcxt;			/* where the tapes live */
	FjpLiteral *items;
	int			n;
	int			cap;
} FjpLiterals;

/*
 * Where the keys every $ of a path starts with lead, found by the caller in
 * a prefix of the document (fastjson_path_sql.c): the executor then starts
 * each $ there instead of at the root, and needs no more of the document
 * than the value found. The path must not ask for .keyvalue() (whose ids
 * are offsets from the root).
 */
typedef enum FjpChainStatus
{
	FJP_CHAIN_FOUND,			/* value: the value at the end of the keys */
	FJP_CHAIN_MISSING,			/* the object at step at lacks its key */
	FJP_CHAIN_NOT_OBJECT,		/* the value at step at is a scalar (or, strict, an array) */
	FJP_CHAIN_ARRAY				/* the value at step at is an array (lax: it is unwrapped) */
} FjpChainStatus;

typedef struct FjpChain
{
	int			n;				/* keys */
	char	  **keys;
	int32	   *lens;
	FjpChainStatus status;
	int			at;
	const uint8_t *value;
} FjpChain;

/*
 * The keys that every $ of the path is followed by (the longest common
 * run), or 0 if some $ is followed by something else, or the path has
 * .keyvalue() or an item this does not know. *keys and *lens point into the
 * path.
 */
int			fjp_root_chain(JsonPath *path, char ***keys, int32 **lens);

typedef struct FjpExec
{
	JsonPath   *path;
	const uint8_t *vars;		/* root of the vars object (NULL: none) */
	FjpItem		root;			/* $ */
	const FjpItem *current;		/* @ */
	FjpBase		base;
	int			next_object_id; /* for .keyvalue() objects */
	int			innermost_array_size;	/* for last; -1 outside subscripts */
	bool		lax;
	bool		ignore_structural;	/* structural errors are ignored */
	bool		throw_errors;	/* false: suppressible errors are suppressed */
	bool		use_tz;			/* the _tz functions */
	FjpLiterals *literals;
	FjScratch	scratch;		/* object views (jsonb's key order) */
	struct FjpLayout *layouts;	/* jsonb offsets of base objects' containers (.keyvalue()) */
	const FjpChain *chain;		/* NULL, or where every $ leads */
} FjpExec;

/*
 * Raise a suppressible error, or return FJP_ERROR when errors are
 * suppressed (jsonpath_exec.c's RETURN_ERROR).
 */
#define FJP_RAISE(cx, report) \
	do { \
		if ((cx)->throw_errors) \
			report; \
		return FJP_ERROR; \
	} while (0)

/*
 * Run path on the document whose root value is root (and the vars object
 * vars, or NULL); the items go to result, or with result NULL only whether
 * there are any is found (an exists query). With a chain (fjp_root_chain),
 * root is not read: each $ starts where the chain's keys lead.
 */
FjpResult	fjp_execute(JsonPath *path, const uint8_t *root, const uint8_t *vars,
						bool throw_errors, bool use_tz, FjpLiterals *literals,
						const FjpChain *chain, FjpList *result);

/* For the item methods (fastjson_path_method.c). */
FjpResult	fjp_exec_next(FjpExec *cx, JsonPathItem *cur, JsonPathItem *next,
						  const FjpItem *it, FjpList *found);
FjpResult	fjp_exec_unwrap_array(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it,
								  FjpList *found, bool unwrap_elements);
/* Whether an item is an array to unwrap in lax mode. */
static inline bool
fjp_is_array(const FjpItem *it)
{
	return it->kind == FJP_TAPE && FJ_TYPE(it->u.v[0]) == FJ_ARRAY;
}

/* ------------------------------------------------ fastjson_path_method.c */

/* Whether the item type is an item method that fjp_exec_method runs. */
bool		fjp_is_method(int type);
FjpResult	fjp_exec_method(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it,
							FjpList *found, bool unwrap);
/*
 * Order of two datetimes, as jsonb compares them; *cast_error when they
 * cannot be compared (a date and a time). Comparing with and without time
 * zone needs the _tz functions: otherwise an error (always raised).
 */
int			fjp_compare_datetime(const FjpItem *a, const FjpItem *b, bool use_tz,
								 bool *cast_error);
/* The text of a datetime item as jsonb writes it (JsonEncodeDateTime). */
char	   *fjp_datetime_text(const FjpItem *it);

#endif							/* FASTJSON_PATH_H */
