/*
 * fastjson_agg.c — the aggregates, twins of jsonb's:
 *   fastjson_agg (values to an array), fastjson_agg_strict (NULLs skipped),
 *   fastjson_object_agg (key/value pairs to an object), and its _strict
 *   (pairs whose value is null left out), _unique (a repeated key is an
 *   error, 22030) and _unique_strict variants.
 *
 * The transition state is a fastjson value: the array (or object) of the
 * members so far. While an aggregate runs, it is held as an expanded object
 * (utils/expandeddatum.h) in the aggregate's memory context: the members'
 * tape bytes one after another, to which each input is appended after being
 * converted on its own (in the per-row context, so conversion garbage does
 * not pile up). Flattened, it is an ordinary fastjson tape, with its key
 * index: that is how a state crosses from a parallel worker to the leader,
 * or from a Citus worker to the coordinator, and why Citus can run these
 * aggregates on its workers (it needs a state of a real type). The combine
 * function appends one state's members to another's. The final functions
 * leave the state as it is, so they can run more than once, as window
 * aggregation needs.
 *
 * fastjson_object_agg keeps every pair in input order, duplicates included
 * (json_object_agg does; jsonb_object_agg keeps the last, which is the
 * operative one here too). Without ORDER BY the order of the members is the
 * order the rows arrive in, which in a parallel or distributed plan is the
 * order the parts arrive in: use ORDER BY inside the aggregate for a defined
 * order (the plan then runs it in one piece).
 *
 * Version 0.1 declared the state as internal; its SQL objects call the
 * functions under "0.1's interface" at the end, kept for databases that have
 * not run ALTER EXTENSION fastjson UPDATE.
 */
#include "fastjson.h"
#include "fastjson_funcs.h"
#include "tape_writer.h"

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

typedef struct FjAggState
{
	MemoryContext cxt;			/* the aggregate's context: members live here */
	fj_buf		members;		/* tape bytes of the members (objects: key, value, ...) */
	uint32		count;			/* members (pairs, for objects) */
	bool		typed;			/* the argument types are categorised: */
	FjTypeCategory key_cat;		/* how keys and values convert (a state */
	Oid			key_func;		/* read from its flat form learns it at */
	FjTypeCategory val_cat;		/* its first row) */
	Oid			val_func;
} FjAggState;

/* The most member bytes a state holds: the finished datum must stay below MaxAllocSize. */
#define AGG_MAX_MEMBERS (MaxAllocSize - VARHDRSZ - FJ_TAPE_HEADER - FJ_CONTAINER_HEADER_MAX - 64)

/* An empty state in the aggregate's context. */
static FjAggState *
agg_state_alloc(MemoryContext aggcxt)
{
	FjAggState *st = MemoryContextAllocZero(aggcxt, sizeof(FjAggState));

	st->cxt = aggcxt;
	return st;
}

/*
 * The type of argument arg: from the call's expression, or where the caller
 * passed none (Citus's worker_partial_agg calls the function itself), from
 * the function's declaration when that names a type rather than a
 * polymorphic one; InvalidOid if neither tells.
 */
static Oid
agg_arg_type(FunctionCallInfo fcinfo, int arg)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, arg);
	HeapTuple	tup;

	if (OidIsValid(type))
		return type;
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
	if (HeapTupleIsValid(tup))
	{
		Form_pg_proc proc = (Form_pg_proc) GETSTRUCT(tup);

		if (arg < proc->pronargs && !IsPolymorphicType(proc->proargtypes.values[arg]) &&
			proc->proargtypes.values[arg] != ANYOID)
			type = proc->proargtypes.values[arg];
		ReleaseSysCache(tup);
	}
	return type;
}

/* Start a state, categorising the argument types from argument first on. */
static FjAggState *
agg_state_new(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool object)
{
	FjAggState *st = agg_state_alloc(aggcxt);
	Oid			type;
	int			arg = 1;

	if (object)
	{
		type = agg_arg_type(fcinfo, arg);
		if (type == InvalidOid)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("could not determine data type for argument %d", arg)));
		fastjson_categorize_type(type, &st->key_cat, &st->key_func);
		arg++;
	}
	type = agg_arg_type(fcinfo, arg);
	if (type == InvalidOid && object)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine data type for argument %d", arg)));
	if (type == InvalidOid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine input data type")));
	fastjson_categorize_type(type, &st->val_cat, &st->val_func);
	st->typed = true;
	return st;
}

/* The error for a result past what one datum holds. */
static void
agg_too_large(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("fastjson document is too large"),
			 errdetail("The result would exceed the maximum of %zu bytes.", (size_t) MaxAllocSize)));
}

/* Append n bytes of tape to the members, in the aggregate's context. */
static void
agg_append(FjAggState *st, const uint8_t *p, size_t n)
{
	MemoryContext old;

	if (n > AGG_MAX_MEMBERS - st->members.len)
		agg_too_large();
	old = MemoryContextSwitchTo(st->cxt);
	memcpy(fastjson_buf_push(&st->members, n), p, n);
	MemoryContextSwitchTo(old);
}

/* Count one more member, within what a container holds. */
static void
agg_count(FjAggState *st, uint32 more, bool object)
{
	if (st->count > PG_UINT32_MAX - more)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson document is too large"),
				 errdetail(object ? "A fastjson object holds at most %u members." :
						   "A fastjson array holds at most %u elements.", PG_UINT32_MAX)));
	st->count += more;
}

/* Convert one SQL value (as a key, or a value) and append it. */
static void
agg_add(FjAggState *st, Datum val, bool isnull, bool key)
{
	fj_builder	b;
	Fastjson   *d;

	fastjson_builder_init(&b);
	if (isnull)
		fj_builder_null(&b);
	else if (key)
	{
		/* a key is stored as a string value is: build {"key":null}, take the key */
		fj_builder_begin_object(&b);
		fastjson_add_datum(&b, val, false, st->key_cat, st->key_func, true);
		fj_builder_null(&b);
		fj_builder_end(&b);
	}
	else
		fastjson_add_datum(&b, val, false, st->val_cat, st->val_func, false);
	d = fastjson_builder_finish(&b);
	if (key)
	{
		const uint8_t *k = fj_container_members(FJ_ROOT(d));

		agg_append(st, k, fj_value_size(k));
	}
	else
		agg_append(st, FJ_ROOT(d), fj_value_size(FJ_ROOT(d)));
	pfree(d);
}

/* The finished container (FJ_ARRAY or FJ_OBJECT) of count members at members[0..len). */
static Fastjson *
agg_container(const uint8_t *members, size_t len, uint32 count, int type)
{
	/* room for the key index (5 bytes a member at most) and 8 bytes of slack */
	size_t		room = VARHDRSZ + FJ_TAPE_HEADER + FJ_CONTAINER_HEADER_MAX + len +
		fj_key_index_size(count, 4) + 8;
	uint8_t    *d = MemoryContextAllocExtended(CurrentMemoryContext, room, MCXT_ALLOC_HUGE);
	uint8_t    *hdr = d + VARHDRSZ + FJ_TAPE_HEADER;
	uint8_t    *end;

	d[VARHDRSZ] = FJ_TAPE_VERSION;
	if (len)
		memcpy(hdr + FJ_CONTAINER_HEADER_MAX, members, len);
	end = fj_close_container(hdr, hdr + FJ_CONTAINER_HEADER_MAX + len, count, type, NULL);
	d[VARHDRSZ + 1] = fj_root_flags(hdr);
	if ((size_t) (end - d) > MaxAllocSize)
		agg_too_large();
	SET_VARSIZE(d, end - d);
	return (Fastjson *) d;
}

static Fastjson *
agg_finish(const FjAggState *st, int type)
{
	return agg_container(st->members.data, st->members.len, st->count, type);
}

/* The aggregate context, or an error naming the function called outside one. */
static MemoryContext
agg_context(FunctionCallInfo fcinfo, const char *name)
{
	MemoryContext aggcxt;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "%s called in non-aggregate context", name);
	return aggcxt;
}

/* A member key: where its text is, for sorting. */
typedef struct agg_key
{
	const uint8_t *text;
	uint32		len;
} agg_key;

static int
agg_key_cmp(const void *pa, const void *pb)
{
	const agg_key *a = pa,
			   *b = pb;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->text, b->text, a->len);
}

/*
 * The object of count pairs at members[0..len), as jsonb's object aggregates
 * give it: with unique, a repeated key is an error (22030); with skip_nulls
 * (the _strict variants) every pair whose value is null is left out, a JSON
 * null as well as an SQL NULL, so the operative value of a key is its last
 * non-null one. The keys of the pairs left out still count for unique, as
 * in jsonb.
 */
static Fastjson *
object_result(const uint8_t *members, size_t len, uint32 count, bool unique, bool skip_nulls)
{
	const uint8_t *p,
			   *end = members + len;
	fj_buf		kept = {0};
	uint32		n = 0;

	if (unique && count > 1)
	{
		agg_key    *keys = palloc(sizeof(agg_key) * count);
		uint32		i;

		for (i = 0, p = members; i < count; i++)
		{
			const uint8_t *val;

			keys[i].len = fj_text(p, &keys[i].text);
			val = keys[i].text + keys[i].len;
			p = val + fj_value_size(val);
		}
		qsort(keys, count, sizeof(agg_key), agg_key_cmp);
		for (i = 1; i < count; i++)
			if (agg_key_cmp(&keys[i - 1], &keys[i]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_JSON_OBJECT_KEY_VALUE),
						 errmsg("duplicate JSON object key value")));
		pfree(keys);
	}
	if (!skip_nulls)
		return agg_container(members, len, count, FJ_OBJECT);
	for (p = members; p < end;)
	{
		const uint8_t *key = p,
				   *text,
				   *val;
		uint32		klen = fj_text(key, &text);

		val = text + klen;
		p = val + fj_value_size(val);
		if (val[0] == FJ_TAG(FJ_LITERAL, FJ_NULL))
			continue;
		memcpy(fastjson_buf_push(&kept, (size_t) (p - key)), key, (size_t) (p - key));
		n++;
	}
	return agg_container(kept.data, kept.len, n, FJ_OBJECT);
}

/* ------------------------------------------------- the state: expanded */

/*
 * A state while the aggregate runs: an expanded fastjson value. Its flat
 * form (the container of the members) is built when PostgreSQL asks for it
 * and kept until the next member changes it.
 */
typedef struct FjAggExpanded
{
	FastjsonExpanded base;		/* base.flat: NULL when out of date */
	FjAggState	st;
	int			type;			/* FJ_ARRAY or FJ_OBJECT */
} FjAggExpanded;

/* The flat form: the container of the members. */
static Fastjson *
agg_flat(FastjsonExpanded *base)
{
	FjAggExpanded *e = (FjAggExpanded *) base;

	return agg_finish(&e->st, e->type);
}

static Size
agg_flat_size(ExpandedObjectHeader *eohptr)
{
	return fastjson_expanded_flat_size((FastjsonExpanded *) eohptr, agg_flat);
}

static const ExpandedObjectMethods agg_methods = {agg_flat_size, fastjson_expanded_flatten};

/* The error for a state that is not the container an aggregate keeps. */
static void
agg_wrong_state(int type)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("fastjson aggregate state must be an %s", type == FJ_ARRAY ? "array" : "object")));
}

/* A new, empty state of its own context under the aggregate's. */
static FjAggExpanded *
agg_expanded_new(MemoryContext aggcxt, int type)
{
	MemoryContext cxt = AllocSetContextCreate(aggcxt, "fastjson aggregate state", ALLOCSET_START_SMALL_SIZES);
	FjAggExpanded *e = MemoryContextAllocZero(cxt, sizeof(FjAggExpanded));

	EOH_init_header(&e->base.hdr, &agg_methods, cxt);
	e->st.cxt = cxt;
	e->type = type;
	return e;
}

/*
 * The state in argument argno, to be changed in place: the expanded state
 * itself when the argument is one of ours, read-write; else a new one, empty
 * (NULL) or holding the members of the fastjson container given (a state
 * flattened by a parallel worker or a Citus node), which must be of type.
 */
static FjAggExpanded *
agg_state_arg(FunctionCallInfo fcinfo, int argno, MemoryContext aggcxt, int type)
{
	FjAggExpanded *e;
	Fastjson   *d;
	const uint8_t *root;

	if (!PG_ARGISNULL(argno))
	{
		Datum		arg = PG_GETARG_DATUM(argno);

		if (VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(arg)) &&
			DatumGetEOHP(arg)->eoh_methods == &agg_methods)
			return (FjAggExpanded *) DatumGetEOHP(arg);
	}
	e = agg_expanded_new(aggcxt, type);
	if (PG_ARGISNULL(argno))
		return e;
	d = PG_GETARG_FASTJSON_P(argno);
	root = FJ_ROOT(d);
	if (FJ_TYPE(root[0]) != type)
		agg_wrong_state(type);
	e->st.count = fj_container_count(root);
	if (e->st.count)
		agg_append(&e->st, fj_container_members(root),
				   (size_t) (fj_container_members_end(root) - fj_container_members(root)));
	return e;
}

/* The members of a state argument (a container of type), for a final function: read in place. */
static void
agg_members_arg(FunctionCallInfo fcinfo, int type, const uint8_t **members, size_t *len, uint32 *count)
{
	Datum		arg = PG_GETARG_DATUM(0);
	const uint8_t *root;

	if (VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(arg)) && DatumGetEOHP(arg)->eoh_methods == &agg_methods)
	{
		FjAggExpanded *e = (FjAggExpanded *) DatumGetEOHP(arg);

		*members = e->st.members.data;
		*len = e->st.members.len;
		*count = e->st.count;
		return;
	}
	root = FJ_ROOT(PG_GETARG_FASTJSON_P(0));
	if (FJ_TYPE(root[0]) != type)
		agg_wrong_state(type);
	*count = fj_container_count(root);
	*members = *count ? fj_container_members(root) : NULL;
	*len = *count ? (size_t) (fj_container_members_end(root) - *members) : 0;
}

#define PG_RETURN_AGG_STATE(e) PG_RETURN_DATUM(EOHPGetRWDatum(&(e)->base.hdr))

/* ------------------------------------------------------------ arrays */

/* fastjson_agg and fastjson_agg_strict: append one value (SQL NULL becomes JSON null, or nothing). */
static Datum
agg_accum(FunctionCallInfo fcinfo, bool skip_nulls)
{
	MemoryContext aggcxt = agg_context(fcinfo, "fastjson_agg_accum");
	FjAggExpanded *e = agg_state_arg(fcinfo, 0, aggcxt, FJ_ARRAY);

	if (!e->st.typed)
	{
		FjAggState *fresh;

		fastjson_check_encoding();
		fresh = agg_state_new(fcinfo, CurrentMemoryContext, false);
		e->st.val_cat = fresh->val_cat;
		e->st.val_func = fresh->val_func;
		e->st.typed = true;
		pfree(fresh);
	}
	if (skip_nulls && PG_ARGISNULL(1))
		PG_RETURN_AGG_STATE(e);
	agg_count(&e->st, 1, false);
	agg_add(&e->st, PG_ARGISNULL(1) ? (Datum) 0 : PG_GETARG_DATUM(1), PG_ARGISNULL(1), false);
	e->base.flat = NULL;
	PG_RETURN_AGG_STATE(e);
}

PG_FUNCTION_INFO_V1(fastjson_agg_accum);

Datum
fastjson_agg_accum(PG_FUNCTION_ARGS)
{
	return agg_accum(fcinfo, false);
}

PG_FUNCTION_INFO_V1(fastjson_agg_strict_accum);

Datum
fastjson_agg_strict_accum(PG_FUNCTION_ARGS)
{
	return agg_accum(fcinfo, true);
}

/*
 * The final functions return the plain tape, not a value not yet stored
 * (fastjson_made) as the editors do: a scalar subquery copies its result, so
 * every nested aggregate sent to a client would be compressed and then
 * decompressed (1.8x the time, measured on PostgreSQL 16; doc/format.md,
 * section 7), and PostgreSQL 15 and windows copy every result.
 */
PG_FUNCTION_INFO_V1(fastjson_agg_result);

/* fastjson_agg: the array (a copy: the state stays for the next call of a window). */
Datum
fastjson_agg_result(PG_FUNCTION_ARGS)
{
	const uint8_t *members;
	size_t		len;
	uint32		count;

	(void) agg_context(fcinfo, "fastjson_agg_result");
	agg_members_arg(fcinfo, FJ_ARRAY, &members, &len, &count);
	PG_RETURN_FASTJSON_P(agg_container(members, len, count, FJ_ARRAY));
}

/* ----------------------------------------------------------- objects */

/* fastjson_object_agg and its variants: append one pair; the key must not be NULL. */
static Datum
object_agg_accum(FunctionCallInfo fcinfo, bool skip_sql_nulls)
{
	MemoryContext aggcxt = agg_context(fcinfo, "fastjson_object_agg_accum");
	FjAggExpanded *e = agg_state_arg(fcinfo, 0, aggcxt, FJ_OBJECT);

	if (!e->st.typed)
	{
		FjAggState *fresh;

		fastjson_check_encoding();
		fresh = agg_state_new(fcinfo, CurrentMemoryContext, true);
		e->st.key_cat = fresh->key_cat;
		e->st.key_func = fresh->key_func;
		e->st.val_cat = fresh->val_cat;
		e->st.val_func = fresh->val_func;
		e->st.typed = true;
		pfree(fresh);
	}
	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("field name must not be null")));
	/* _unique_strict keeps the pair until the end: its key must be unique too */
	if (skip_sql_nulls && PG_ARGISNULL(2))
		PG_RETURN_AGG_STATE(e);
	agg_count(&e->st, 1, true);
	agg_add(&e->st, PG_GETARG_DATUM(1), false, true);
	agg_add(&e->st, PG_ARGISNULL(2) ? (Datum) 0 : PG_GETARG_DATUM(2), PG_ARGISNULL(2), false);
	e->base.flat = NULL;
	PG_RETURN_AGG_STATE(e);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_accum);

Datum
fastjson_object_agg_accum(PG_FUNCTION_ARGS)
{
	return object_agg_accum(fcinfo, false);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_strict_accum);

Datum
fastjson_object_agg_strict_accum(PG_FUNCTION_ARGS)
{
	return object_agg_accum(fcinfo, true);
}

/* The final function of an object aggregate. */
static Datum
object_agg_result(FunctionCallInfo fcinfo, bool unique, bool skip_nulls)
{
	const uint8_t *members;
	size_t		len;
	uint32		count;

	(void) agg_context(fcinfo, "fastjson_object_agg_result");
	agg_members_arg(fcinfo, FJ_OBJECT, &members, &len, &count);
	PG_RETURN_FASTJSON_P(object_result(members, len, count, unique, skip_nulls));
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_result);

Datum
fastjson_object_agg_result(PG_FUNCTION_ARGS)
{
	return object_agg_result(fcinfo, false, false);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_strict_result);

Datum
fastjson_object_agg_strict_result(PG_FUNCTION_ARGS)
{
	return object_agg_result(fcinfo, false, true);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_unique_result);

Datum
fastjson_object_agg_unique_result(PG_FUNCTION_ARGS)
{
	return object_agg_result(fcinfo, true, false);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_unique_strict_result);

Datum
fastjson_object_agg_unique_strict_result(PG_FUNCTION_ARGS)
{
	return object_agg_result(fcinfo, true, true);
}

/* ----------------------------------------------------------- combine */

/* Both kinds: state 2's members after state 1's (both not NULL: the function is strict). */
static Datum
agg_combine(FunctionCallInfo fcinfo, int type)
{
	MemoryContext aggcxt = agg_context(fcinfo, "fastjson_agg_combine");
	FjAggExpanded *e = agg_state_arg(fcinfo, 0, aggcxt, type);
	Fastjson   *d2 = PG_GETARG_FASTJSON_P(1);
	const uint8_t *root = FJ_ROOT(d2);

	if (FJ_TYPE(root[0]) != type)
		agg_wrong_state(type);
	if (fj_container_count(root))
	{
		agg_count(&e->st, fj_container_count(root), type == FJ_OBJECT);
		agg_append(&e->st, fj_container_members(root),
				   (size_t) (fj_container_members_end(root) - fj_container_members(root)));
		e->base.flat = NULL;
	}
	PG_RETURN_AGG_STATE(e);
}

PG_FUNCTION_INFO_V1(fastjson_agg_combine);

Datum
fastjson_agg_combine(PG_FUNCTION_ARGS)
{
	return agg_combine(fcinfo, FJ_ARRAY);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_combine);

Datum
fastjson_object_agg_combine(PG_FUNCTION_ARGS)
{
	return agg_combine(fcinfo, FJ_OBJECT);
}

/* ------------------------------------------------- 0.1's interface */

/*
 * Version 0.1's aggregates kept their state as internal, without combine
 * functions: these serve them until ALTER EXTENSION fastjson UPDATE moves
 * them to the functions above.
 */

PG_FUNCTION_INFO_V1(fastjson_agg_transfn);

Datum
fastjson_agg_transfn(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = agg_context(fcinfo, "fastjson_agg_transfn");
	FjAggState *st = PG_ARGISNULL(0) ? NULL : (FjAggState *) PG_GETARG_POINTER(0);

	if (st == NULL)
	{
		fastjson_check_encoding();
		st = agg_state_new(fcinfo, aggcxt, false);
	}
	agg_count(st, 1, false);
	agg_add(st, PG_ARGISNULL(1) ? (Datum) 0 : PG_GETARG_DATUM(1), PG_ARGISNULL(1), false);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(fastjson_agg_finalfn);

Datum
fastjson_agg_finalfn(PG_FUNCTION_ARGS)
{
	(void) agg_context(fcinfo, "fastjson_agg_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_FASTJSON_P(agg_finish((FjAggState *) PG_GETARG_POINTER(0), FJ_ARRAY));
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_transfn);

Datum
fastjson_object_agg_transfn(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = agg_context(fcinfo, "fastjson_object_agg_transfn");
	FjAggState *st = PG_ARGISNULL(0) ? NULL : (FjAggState *) PG_GETARG_POINTER(0);

	if (st == NULL)
	{
		fastjson_check_encoding();
		st = agg_state_new(fcinfo, aggcxt, true);
	}
	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("field name must not be null")));
	agg_count(st, 1, true);
	agg_add(st, PG_GETARG_DATUM(1), false, true);
	agg_add(st, PG_ARGISNULL(2) ? (Datum) 0 : PG_GETARG_DATUM(2), PG_ARGISNULL(2), false);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_finalfn);

Datum
fastjson_object_agg_finalfn(PG_FUNCTION_ARGS)
{
	(void) agg_context(fcinfo, "fastjson_object_agg_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_FASTJSON_P(agg_finish((FjAggState *) PG_GETARG_POINTER(0), FJ_OBJECT));
}
