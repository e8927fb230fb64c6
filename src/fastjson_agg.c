/*
 * fastjson_agg.c — the aggregates, twins of jsonb's:
 *   fastjson_agg (values to an array), fastjson_agg_strict (NULLs skipped),
 *   fastjson_object_agg (key/value pairs to an object), and its _strict
 *   (pairs whose value is null left out), _unique (a repeated key is an
 *   error, 22030) and _unique_strict variants.
 *
 * The transition state collects the members' tape bytes, one after another,
 * in the aggregate's memory context: each input is converted on its own (in
 * the per-row context, so conversion garbage does not pile up) and its root
 * value appended. The final function wraps a copy of the members in a
 * container header (fj_close_container), so it can run more than once, as
 * window aggregation needs. fastjson_object_agg keeps every pair in input
 * order, duplicates included (json_object_agg does; jsonb_object_agg keeps the
 * last, which is the operative one here too).
 *
 * The states combine, so parallel query and Citus run these aggregates in
 * parts (Partial and Finalize Aggregate): the combine function appends one
 * state's members to another's. A state is serialized as a fastjson tape, the
 * array or object of its members so far, and a serialized state is validated
 * byte by byte before it is used (it may come from another node). Without
 * ORDER BY the order of the members is the order the rows arrive in, which
 * in a parallel or distributed plan is the order the parts arrive in: use
 * ORDER BY inside the aggregate for a defined order.
 */
#include "fastjson.h"
#include "fastjson_funcs.h"
#include "tape_writer.h"

#include "utils/memutils.h"

typedef struct FjAggState
{
	MemoryContext cxt;			/* the aggregate's context: members live here */
	fj_buf		members;		/* tape bytes of the members (objects: key, value, ...) */
	uint32		count;			/* members (pairs, for objects) */
	FjTypeCategory key_cat;		/* how keys and values convert (unset in a */
	Oid			key_func;		/* state that was deserialized: only the */
	FjTypeCategory val_cat;		/* transition function converts) */
	Oid			val_func;
} FjAggState;

/* What an object aggregate does with NULL values and repeated keys. */
typedef enum agg_object_mode
{
	AGG_KEEP_ALL,				/* fastjson_object_agg */
	AGG_SKIP_NULLS,				/* _strict */
	AGG_UNIQUE,					/* _unique */
	AGG_UNIQUE_SKIP_NULLS		/* _unique_strict: every key counts, then nulls go */
} agg_object_mode;

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

/* Start a state, categorising the argument types from argument first on. */
static FjAggState *
agg_state_new(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool object)
{
	FjAggState *st = agg_state_alloc(aggcxt);
	Oid			type;
	int			arg = 1;

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

/* ------------------------------------------------------------ arrays */

/* fastjson_agg and fastjson_agg_strict: append one value (SQL NULL becomes JSON null, or nothing). */
static Datum
agg_transfn(FunctionCallInfo fcinfo, bool skip_nulls)
{
	MemoryContext aggcxt = agg_context(fcinfo, "fastjson_agg_transfn");
	FjAggState *st = PG_ARGISNULL(0) ? NULL : (FjAggState *) PG_GETARG_POINTER(0);

	if (st == NULL)
	{
		fastjson_check_encoding();
		st = agg_state_new(fcinfo, aggcxt, false);
	}
	if (skip_nulls && PG_ARGISNULL(1))
		PG_RETURN_POINTER(st);
	agg_count(st, 1, false);
	agg_add(st, PG_ARGISNULL(1) ? (Datum) 0 : PG_GETARG_DATUM(1), PG_ARGISNULL(1), false);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(fastjson_agg_transfn);

Datum
fastjson_agg_transfn(PG_FUNCTION_ARGS)
{
	return agg_transfn(fcinfo, false);
}

PG_FUNCTION_INFO_V1(fastjson_agg_strict_transfn);

Datum
fastjson_agg_strict_transfn(PG_FUNCTION_ARGS)
{
	return agg_transfn(fcinfo, true);
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

/* ----------------------------------------------------------- objects */

/* fastjson_object_agg and its variants: append one pair; the key must not be NULL. */
static Datum
object_agg_transfn(FunctionCallInfo fcinfo, agg_object_mode mode)
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
	/* _unique_strict keeps the pair until the end: its key must be unique too */
	if (mode == AGG_SKIP_NULLS && PG_ARGISNULL(2))
		PG_RETURN_POINTER(st);
	agg_count(st, 1, true);
	agg_add(st, PG_GETARG_DATUM(1), false, true);
	agg_add(st, PG_ARGISNULL(2) ? (Datum) 0 : PG_GETARG_DATUM(2), PG_ARGISNULL(2), false);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_transfn);

Datum
fastjson_object_agg_transfn(PG_FUNCTION_ARGS)
{
	return object_agg_transfn(fcinfo, AGG_KEEP_ALL);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_strict_transfn);

Datum
fastjson_object_agg_strict_transfn(PG_FUNCTION_ARGS)
{
	return object_agg_transfn(fcinfo, AGG_SKIP_NULLS);
}

/* A member key: where its text is, for sorting. */
typedef struct agg_key
{
	const uint8_t *text;
	uint32		len;
	const uint8_t *pair;		/* the key's tag */
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
 * The object of a state's pairs, as jsonb's object aggregates give it: with
 * unique, a repeated key is an error (22030); with skip_nulls (the _strict
 * variants) every pair whose value is null is left out, a JSON null as well
 * as an SQL NULL, so the operative value of a key is its last non-null one.
 * The keys of the pairs left out still count for unique, as in jsonb.
 */
static Fastjson *
object_agg_result(const FjAggState *st, bool unique, bool skip_nulls)
{
	const uint8_t *p,
			   *end = st->members.data + st->members.len;
	fj_buf		kept = {0};
	uint32		n = 0;

	if (unique && st->count > 1)
	{
		agg_key    *keys = palloc(sizeof(agg_key) * st->count);
		uint32		i;

		for (i = 0, p = st->members.data; i < st->count; i++)
		{
			const uint8_t *val;

			keys[i].pair = p;
			keys[i].len = fj_text(p, &keys[i].text);
			val = keys[i].text + keys[i].len;
			p = val + fj_value_size(val);
		}
		qsort(keys, st->count, sizeof(agg_key), agg_key_cmp);
		for (i = 1; i < st->count; i++)
			if (agg_key_cmp(&keys[i - 1], &keys[i]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_JSON_OBJECT_KEY_VALUE),
						 errmsg("duplicate JSON object key value")));
		pfree(keys);
	}
	if (!skip_nulls)
		return agg_finish(st, FJ_OBJECT);
	for (p = st->members.data; p < end;)
	{
		const uint8_t *key = p,
				   *text,
				   *val;
		uint32		len = fj_text(key, &text);

		val = text + len;
		p = val + fj_value_size(val);
		if (val[0] == FJ_TAG(FJ_LITERAL, FJ_NULL))
			continue;
		memcpy(fastjson_buf_push(&kept, (size_t) (p - key)), key, (size_t) (p - key));
		n++;
	}
	return agg_container(kept.data, kept.len, n, FJ_OBJECT);
}

/* The final function of an object aggregate: the object, or NULL when there were no rows. */
static Datum
object_agg_final(FunctionCallInfo fcinfo, bool unique, bool skip_nulls)
{
	(void) agg_context(fcinfo, "fastjson_object_agg_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_FASTJSON_P(object_agg_result((FjAggState *) PG_GETARG_POINTER(0), unique, skip_nulls));
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_finalfn);

Datum
fastjson_object_agg_finalfn(PG_FUNCTION_ARGS)
{
	return object_agg_final(fcinfo, false, false);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_strict_finalfn);

Datum
fastjson_object_agg_strict_finalfn(PG_FUNCTION_ARGS)
{
	return object_agg_final(fcinfo, false, true);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_unique_finalfn);

Datum
fastjson_object_agg_unique_finalfn(PG_FUNCTION_ARGS)
{
	return object_agg_final(fcinfo, true, false);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_unique_strict_finalfn);

Datum
fastjson_object_agg_unique_strict_finalfn(PG_FUNCTION_ARGS)
{
	return object_agg_final(fcinfo, true, true);
}

/* ------------------------------------------- combine and serialization */

PG_FUNCTION_INFO_V1(fastjson_agg_combinefn);

/*
 * Both kinds: state2's members after state1's. Not strict: a NULL state1
 * takes a copy of state2 in the aggregate's context (state2 may live in a
 * shorter-lived one, as a deserialized state does).
 */
Datum
fastjson_agg_combinefn(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = agg_context(fcinfo, "fastjson_agg_combinefn");
	FjAggState *st1 = PG_ARGISNULL(0) ? NULL : (FjAggState *) PG_GETARG_POINTER(0);
	FjAggState *st2 = PG_ARGISNULL(1) ? NULL : (FjAggState *) PG_GETARG_POINTER(1);

	if (st2 == NULL)
	{
		if (st1 == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(st1);
	}
	if (st1 == NULL)
	{
		st1 = agg_state_alloc(aggcxt);
		st1->key_cat = st2->key_cat;
		st1->key_func = st2->key_func;
		st1->val_cat = st2->val_cat;
		st1->val_func = st2->val_func;
	}
	/* pairs or elements: the limit is the same */
	agg_count(st1, st2->count, false);
	if (st2->members.len)
		agg_append(st1, st2->members.data, st2->members.len);
	PG_RETURN_POINTER(st1);
}

/* A state as bytea: the tape of the container of its members so far. */
static Datum
agg_serialize(FunctionCallInfo fcinfo, int type)
{
	FjAggState *st;

	(void) agg_context(fcinfo, "fastjson_agg_serializefn");
	st = (FjAggState *) PG_GETARG_POINTER(0);
	PG_RETURN_BYTEA_P((bytea *) agg_finish(st, type));
}

PG_FUNCTION_INFO_V1(fastjson_agg_serializefn);

Datum
fastjson_agg_serializefn(PG_FUNCTION_ARGS)
{
	return agg_serialize(fcinfo, FJ_ARRAY);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_serializefn);

Datum
fastjson_object_agg_serializefn(PG_FUNCTION_ARGS)
{
	return agg_serialize(fcinfo, FJ_OBJECT);
}

/*
 * A state from its bytea, in the current context: every byte is validated
 * (a serialized state may have crossed the network from another node), and
 * the root must be an array (or an object) as the aggregate writes it.
 */
static Datum
agg_deserialize(FunctionCallInfo fcinfo, int type)
{
	bytea	   *b;
	const uint8_t *tape,
			   *root;
	size_t		len;
	fj_error	err;
	FjAggState *st;

	(void) agg_context(fcinfo, "fastjson_agg_deserializefn");
	b = PG_GETARG_BYTEA_PP(0);
	tape = (const uint8_t *) VARDATA_ANY(b);
	len = VARSIZE_ANY_EXHDR(b);
	if (fj_validate_tape(tape, len, (uint32_t) fastjson_max_depth + 1, &fastjson_palloc_allocator, &err) != FJ_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid serialized fastjson aggregate state"),
				 errdetail("%s (at byte %zu of %zu)", err.message, err.offset, len)));
	root = tape + FJ_TAPE_HEADER;
	if (FJ_TYPE(root[0]) != type)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid serialized fastjson aggregate state"),
				 errdetail("The state is not an %s.", type == FJ_ARRAY ? "array" : "object")));
	st = agg_state_alloc(CurrentMemoryContext);
	st->count = fj_container_count(root);
	if (st->count)
		agg_append(st, fj_container_members(root),
				   (size_t) (fj_container_members_end(root) - fj_container_members(root)));
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(fastjson_agg_deserializefn);

Datum
fastjson_agg_deserializefn(PG_FUNCTION_ARGS)
{
	return agg_deserialize(fcinfo, FJ_ARRAY);
}

PG_FUNCTION_INFO_V1(fastjson_object_agg_deserializefn);

Datum
fastjson_object_agg_deserializefn(PG_FUNCTION_ARGS)
{
	return agg_deserialize(fcinfo, FJ_OBJECT);
}
