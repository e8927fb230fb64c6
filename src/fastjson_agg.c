/*
 * fastjson_agg.c — the aggregates fastjson_agg (values to an array) and
 * fastjson_object_agg (key/value pairs to an object), twins of jsonb_agg and
 * jsonb_object_agg.
 *
 * The transition state collects the members' tape bytes, one after another,
 * in the aggregate's memory context: each input is converted on its own (in
 * the per-row context, so conversion garbage does not pile up) and its root
 * value appended. The final function wraps a copy of the members in a
 * container header (fj_close_container), so it can run more than once, as
 * window aggregation needs. fastjson_object_agg keeps every pair in input
 * order, duplicates included (json_object_agg does; jsonb_object_agg keeps the
 * last, which is the operative one here too).
 */
#include "fastjson.h"
#include "fastjson_funcs.h"
#include "tape_writer.h"

#include "utils/memutils.h"

typedef struct FjAggState
{
	MemoryContext cxt;			/* the aggregate's context: members live here */
	uint8_t    *members;		/* tape bytes of the members (objects: key, value, ...) */
	size_t		len;
	size_t		cap;
	uint32		count;			/* members (pairs, for objects) */
	FjTypeCategory key_cat;
	Oid			key_func;
	FjTypeCategory val_cat;
	Oid			val_func;
} FjAggState;

/* The most member bytes a state holds: the finished datum must stay below MaxAllocSize. */
#define AGG_MAX_MEMBERS (MaxAllocSize - VARHDRSZ - FJ_TAPE_HEADER - FJ_CONTAINER_HEADER_MAX - 64)

/* Start a state, categorising the argument types from argument first on. */
static FjAggState *
agg_state_new(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool object)
{
	FjAggState *st = MemoryContextAllocZero(aggcxt, sizeof(FjAggState));
	Oid			type;
	int			arg = 1;

	st->cxt = aggcxt;
	if (object)
	{
		type = get_fn_expr_argtype(fcinfo->flinfo, arg);
		if (type == InvalidOid)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("could not determine data type for argument %d", arg)));
		fastjson_categorize_type(type, &st->key_cat, &st->key_func);
		arg++;
	}
	type = get_fn_expr_argtype(fcinfo->flinfo, arg);
	if (type == InvalidOid && object)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine data type for argument %d", arg)));
	if (type == InvalidOid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine input data type")));
	fastjson_categorize_type(type, &st->val_cat, &st->val_func);
	return st;
}

/* Append n bytes of tape to the members. */
static void
agg_append(FjAggState *st, const uint8_t *p, size_t n)
{
	if (n > AGG_MAX_MEMBERS - st->len)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson document is too large"),
				 errdetail("The result would exceed the maximum of %zu bytes.", (size_t) MaxAllocSize)));
	if (st->len + n > st->cap)
	{
		size_t		cap = Max(st->cap * 2, st->len + n);

		cap = Max(cap, 256);
		st->members = st->members ? repalloc_huge(st->members, cap)
			: MemoryContextAllocExtended(st->cxt, cap, MCXT_ALLOC_HUGE);
		st->cap = cap;
	}
	memcpy(st->members + st->len, p, n);
	st->len += n;
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

/* The finished container (FJ_ARRAY or FJ_OBJECT) of a state's members. */
static Fastjson *
agg_finish(const FjAggState *st, int type)
{
	/* room for the key index (5 bytes a member at most) and 8 bytes of slack */
	size_t		room = VARHDRSZ + FJ_TAPE_HEADER + FJ_CONTAINER_HEADER_MAX + st->len +
		fj_key_index_size(st->count, 4) + 8;
	uint8_t    *d = MemoryContextAllocExtended(CurrentMemoryContext, room, MCXT_ALLOC_HUGE);
	uint8_t    *hdr = d + VARHDRSZ + FJ_TAPE_HEADER;
	uint8_t    *end;

	d[VARHDRSZ] = FJ_TAPE_VERSION;
	if (st->len)
		memcpy(hdr + FJ_CONTAINER_HEADER_MAX, st->members, st->len);
	end = fj_close_container(hdr, hdr + FJ_CONTAINER_HEADER_MAX + st->len, st->count, type, NULL);
	d[VARHDRSZ + 1] = fj_root_flags(hdr);
	if ((size_t) (end - d) > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson document is too large"),
				 errdetail("The result would exceed the maximum of %zu bytes.", (size_t) MaxAllocSize)));
	SET_VARSIZE(d, end - d);
	return (Fastjson *) d;
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

PG_FUNCTION_INFO_V1(fastjson_agg_transfn);

/* fastjson_agg: append one value (SQL NULL becomes JSON null). */
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
	if (st->count == PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson document is too large"),
				 errdetail("A fastjson array holds at most %u elements.", PG_UINT32_MAX)));
	agg_add(st, PG_ARGISNULL(1) ? (Datum) 0 : PG_GETARG_DATUM(1), PG_ARGISNULL(1), false);
	st->count++;
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(fastjson_agg_finalfn);

/* fastjson_agg: the array, or NULL when there were no rows. */
Datum
fastjson_agg_finalfn(PG_FUNCTION_ARGS)
{
	FjAggState *st;

	(void) agg_context(fcinfo, "fastjson_agg_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	st = (FjAggState *) PG_GETARG_POINTER(0);
	PG_RETURN_FASTJSON_P(agg_finish(st, FJ_ARRAY));
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_transfn);

/* fastjson_object_agg: append one pair; the key must not be NULL. */
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
	if (st->count == PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson document is too large"),
				 errdetail("A fastjson object holds at most %u members.", PG_UINT32_MAX)));
	agg_add(st, PG_GETARG_DATUM(1), false, true);
	agg_add(st, PG_ARGISNULL(2) ? (Datum) 0 : PG_GETARG_DATUM(2), PG_ARGISNULL(2), false);
	st->count++;
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_finalfn);

/* fastjson_object_agg: the object, or NULL when there were no rows. */
Datum
fastjson_object_agg_finalfn(PG_FUNCTION_ARGS)
{
	FjAggState *st;

	(void) agg_context(fcinfo, "fastjson_object_agg_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	st = (FjAggState *) PG_GETARG_POINTER(0);
	PG_RETURN_FASTJSON_P(agg_finish(st, FJ_OBJECT));
}
