/*
 * fastjson_funcs.c — processing functions, twins of jsonb's:
 * fastjson_object_keys, fastjson_each, fastjson_each_text,
 * fastjson_array_elements, fastjson_array_elements_text, fastjson_strip_nulls
 * and fastjson_pretty. (fastjson_extract_path and fastjson_extract_path_text
 * are #> and #>> under another name: fastjson_extract.c.)
 *
 * Enumerations see an object as jsonb does (doc/design.md, section 2): each distinct key
 * once, with its operative (last) value, in the document order of those
 * last occurrences. Arrays come in order. Text results are those of ->>.
 */
#include "fastjson.h"
#include "fastjson_funcs.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

/* ------------------------------------------------------ object members */

/* Order members by key, then by position (qsort). */
static int
member_cmp(const void *a, const void *b)
{
	const FjDocMember *x = *(FjDocMember * const *) a;
	const FjDocMember *y = *(FjDocMember * const *) b;
	int			c = fj_key_cmp(x->text, x->len, y->text, y->len);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

/*
 * The members of object obj in document order, each with the index of the
 * last member of its key (itself when it is the operative one). Small objects
 * compare keys pairwise; larger ones sort the members by key: O(n log n).
 */
FjDocMember *
fastjson_object_members(const uint8_t *obj, uint32 *count)
{
	uint32		n = fj_container_count(obj);
	FjDocMember *m = palloc_extended(sizeof(FjDocMember) * Max(n, 1), MCXT_ALLOC_HUGE);
	const uint8_t *p = fj_container_members(obj);
	uint32		i;

	for (i = 0; i < n; i++)
	{
		m[i].key = p;
		m[i].len = fj_text(p, &m[i].text);
		m[i].value = m[i].text + m[i].len;
		m[i].last = i;
		p = m[i].value + fj_value_size(m[i].value);
	}
	if (n <= 16)
	{
		for (i = 0; i < n; i++)
		{
			uint32		j;

			for (j = n; j-- > i + 1;)
				if (m[j].len == m[i].len && memcmp(m[j].text, m[i].text, m[i].len) == 0)
				{
					m[i].last = j;
					break;
				}
		}
	}
	else
	{
		FjDocMember **sorted = palloc_extended(sizeof(FjDocMember *) * n, MCXT_ALLOC_HUGE);
		uint32		run;

		for (i = 0; i < n; i++)
			sorted[i] = &m[i];
		qsort(sorted, n, sizeof(FjDocMember *), member_cmp);
		/* each run of equal keys ends with the last (operative) member */
		for (run = 0; run < n; run = i)
		{
			uint32		last,
						j;

			for (i = run + 1; i < n && fj_key_cmp(sorted[i]->text, sorted[i]->len,
												  sorted[run]->text, sorted[run]->len) == 0; i++)
				;
			last = (uint32) (sorted[i - 1] - m);
			for (j = run; j < i; j++)
				sorted[j]->last = last;
		}
		pfree(sorted);
	}
	*count = n;
	return m;
}

/* Whether the value at v is JSON null. */
static inline bool
is_null(const uint8_t *v)
{
	return v[0] == FJ_TAG(FJ_LITERAL, FJ_NULL);
}

/* ------------------------------------------------------- enumerations */

/* What an enumeration walks: the operative members of an object, or an array's elements. */
typedef struct EnumState
{
	FjDocMember *members;		/* objects */
	uint32		n;
	uint32		i;
	const uint8_t *next;		/* arrays: the next element */
} EnumState;

/* The first call of an enumeration over the root's object members. */
static FuncCallContext *
object_enum_start(FunctionCallInfo fcinfo, const char *fname, bool keys_only)
{
	FuncCallContext *fctx = SRF_FIRSTCALL_INIT();
	MemoryContext old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	const uint8_t *root = FJ_ROOT(d);
	EnumState  *st;

	if (FJ_TYPE(root[0]) != FJ_OBJECT)
	{
		if (keys_only)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot call %s on %s", fname,
							FJ_TYPE(root[0]) == FJ_ARRAY ? "an array" : "a scalar")));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot call %s on a non-object", fname)));
	}
	st = palloc0(sizeof(EnumState));
	st->members = fastjson_object_members(root, &st->n);
	if (!keys_only)
	{
		TupleDesc	tupdesc;

		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("function returning record called in context that cannot accept type record")));
		fctx->tuple_desc = BlessTupleDesc(tupdesc);
	}
	fctx->user_fctx = st;
	MemoryContextSwitchTo(old);
	return fctx;
}

/* The next operative member, or NULL at the end. */
static const FjDocMember *
object_enum_next(EnumState *st)
{
	while (st->i < st->n)
	{
		const FjDocMember *m = &st->members[st->i++];

		if (m->last == st->i - 1)
			return m;
	}
	return NULL;
}

PG_FUNCTION_INFO_V1(fastjson_object_keys);

/* The keys of the root object: each distinct key once. */
Datum
fastjson_object_keys(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	const FjDocMember *m;

	if (SRF_IS_FIRSTCALL())
		object_enum_start(fcinfo, "fastjson_object_keys", true);
	fctx = SRF_PERCALL_SETUP();
	m = object_enum_next(fctx->user_fctx);
	if (!m)
		SRF_RETURN_DONE(fctx);
	SRF_RETURN_NEXT(fctx, PointerGetDatum(fastjson_value_as_text(m->key)));
}

/* fastjson_each and fastjson_each_text: (key, value) rows. */
static Datum
each_worker(FunctionCallInfo fcinfo, const char *fname, bool as_text)
{
	FuncCallContext *fctx;
	const FjDocMember *m;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (SRF_IS_FIRSTCALL())
		object_enum_start(fcinfo, fname, false);
	fctx = SRF_PERCALL_SETUP();
	m = object_enum_next(fctx->user_fctx);
	if (!m)
		SRF_RETURN_DONE(fctx);
	values[0] = PointerGetDatum(fastjson_value_as_text(m->key));
	if (as_text)
	{
		text	   *t = fastjson_value_as_text(m->value);

		nulls[1] = t == NULL;
		values[1] = PointerGetDatum(t);
	}
	else
		values[1] = PointerGetDatum(fastjson_from_value(m->value));
	SRF_RETURN_NEXT(fctx, HeapTupleGetDatum(heap_form_tuple(fctx->tuple_desc, values, nulls)));
}

PG_FUNCTION_INFO_V1(fastjson_each);

Datum
fastjson_each(PG_FUNCTION_ARGS)
{
	return each_worker(fcinfo, "fastjson_each", false);
}

PG_FUNCTION_INFO_V1(fastjson_each_text);

Datum
fastjson_each_text(PG_FUNCTION_ARGS)
{
	return each_worker(fcinfo, "fastjson_each_text", true);
}

/* fastjson_array_elements and fastjson_array_elements_text: one row per element. */
static Datum
elements_worker(FunctionCallInfo fcinfo, bool as_text)
{
	FuncCallContext *fctx;
	EnumState  *st;
	const uint8_t *v;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		Fastjson   *d;
		const uint8_t *root;

		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		d = PG_GETARG_FASTJSON_P(0);
		root = FJ_ROOT(d);
		if (FJ_TYPE(root[0]) != FJ_ARRAY)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot extract elements from %s",
							FJ_TYPE(root[0]) == FJ_OBJECT ? "an object" : "a scalar")));
		st = palloc0(sizeof(EnumState));
		st->n = fj_container_count(root);
		st->next = fj_container_members(root);
		fctx->user_fctx = st;
		MemoryContextSwitchTo(old);
	}
	fctx = SRF_PERCALL_SETUP();
	st = fctx->user_fctx;
	if (st->i == st->n)
		SRF_RETURN_DONE(fctx);
	v = st->next;
	st->next += fj_value_size(v);
	st->i++;
	if (as_text)
	{
		text	   *t = fastjson_value_as_text(v);

		if (!t)
			SRF_RETURN_NEXT_NULL(fctx);
		SRF_RETURN_NEXT(fctx, PointerGetDatum(t));
	}
	SRF_RETURN_NEXT(fctx, PointerGetDatum(fastjson_from_value(v)));
}

PG_FUNCTION_INFO_V1(fastjson_array_elements);

Datum
fastjson_array_elements(PG_FUNCTION_ARGS)
{
	return elements_worker(fcinfo, false);
}

PG_FUNCTION_INFO_V1(fastjson_array_elements_text);

Datum
fastjson_array_elements_text(PG_FUNCTION_ARGS)
{
	return elements_worker(fcinfo, true);
}

/* --------------------------------------------------------- strip nulls */

/* A container being copied by strip_nulls. */
typedef struct StripFrame
{
	const uint8_t *next;		/* arrays: the next element */
	const uint8_t *members_end;
	FjDocMember *members;		/* objects */
	uint32		i;
	uint32		n;
	bool		object;
	bool		drops;			/* objects: some member has a null value */
} StripFrame;

/*
 * Copy the value at v, dropping object members whose value is null, at any
 * depth, and array elements that are null when in_arrays. A member goes too
 * when the operative value of its key is null: {"a":1,"a":null} is {} as
 * jsonb sees it, so it strips to {}. Other members keep their order and
 * duplicates. Iterative: frames on the heap.
 */
static void
strip_nulls(fj_builder *b, const uint8_t *v, bool in_arrays)
{
	fj_buf		frames = {0};	/* StripFrame: the containers being copied */
	StripFrame *stack = NULL;
	uint32		depth = 0;

	for (;;)
	{
		int			type = FJ_TYPE(v[0]);

		/* copy the value at v: scalars and empty containers whole, others opened */
		if ((type == FJ_ARRAY || type == FJ_OBJECT) && fj_container_count(v) > 0)
		{
			StripFrame *f;

			CHECK_FOR_INTERRUPTS();
			frames.len = depth * sizeof(StripFrame);
			f = fastjson_buf_push(&frames, sizeof(StripFrame));
			stack = (StripFrame *) frames.data;
			depth++;
			memset(f, 0, sizeof(*f));
			f->object = type == FJ_OBJECT;
			if (f->object)
			{
				uint32		i;

				f->members = fastjson_object_members(v, &f->n);
				for (i = 0; i < f->n && !f->drops; i++)
					f->drops = is_null(f->members[i].value);
				fj_builder_begin_object(b);
			}
			else
			{
				f->next = fj_container_members(v);
				f->members_end = fj_container_members_end(v);
				fj_builder_begin_array(b);
			}
		}
		else
			fj_builder_value(b, v);

		/* the next value to copy, closing the containers that are done */
		v = NULL;
		while (depth > 0 && v == NULL)
		{
			StripFrame *f = &stack[depth - 1];

			if (f->object)
			{
				while (f->i < f->n && v == NULL)
				{
					const FjDocMember *m = &f->members[f->i++];

					if (f->drops && (is_null(m->value) || is_null(f->members[m->last].value)))
						continue;
					fj_builder_key(b, (const char *) m->text, m->len);
					v = m->value;
				}
				if (v == NULL)
				{
					pfree(f->members);
					fj_builder_end(b);
					depth--;
				}
			}
			else
			{
				while (f->next < f->members_end && v == NULL)
				{
					v = f->next;
					f->next += fj_value_size(v);
					if (in_arrays && is_null(v))
						v = NULL;
				}
				if (v == NULL)
				{
					fj_builder_end(b);
					depth--;
				}
			}
		}
		if (v == NULL)
			break;
	}
	fj_buf_release(&fastjson_palloc_allocator, &frames);
}

PG_FUNCTION_INFO_V1(fastjson_strip_nulls);

/*
 * The document without object members whose value is null, and, when the
 * second argument is true, without null array elements (jsonb_strip_nulls's
 * strip_in_arrays of PostgreSQL 18, here on every version). A null root stays.
 */
Datum
fastjson_strip_nulls(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	bool		in_arrays = PG_NARGS() > 1 && PG_GETARG_BOOL(1);
	fj_builder	b;

	fastjson_builder_init(&b);
	strip_nulls(&b, FJ_ROOT(d), in_arrays);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

/* -------------------------------------------------------------- pretty */

PG_FUNCTION_INFO_V1(fastjson_pretty);

/* The document as indented text, in jsonb_pretty's layout. */
Datum
fastjson_pretty(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	size_t		hint = FJ_TAPE_LEN(d) * 2 + 64;
	fj_buf		out;
	fj_code		rc;

	out.cap = VARHDRSZ + Min(hint, MaxAllocSize / 2);
	out.data = MemoryContextAllocExtended(CurrentMemoryContext, out.cap, MCXT_ALLOC_HUGE);
	out.len = VARHDRSZ;
	rc = fj_write_json_pretty(fastjson_kernel, FJ_ROOT(d), &fastjson_palloc_allocator, &out, MaxAllocSize);
	if (rc == FJ_ERR_TOO_BIG)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson text output is too large"),
				 errdetail("The text would exceed the maximum of %zu bytes.", (size_t) MaxAllocSize)));
	if (rc != FJ_OK)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	SET_VARSIZE(out.data, out.len);
	PG_RETURN_TEXT_P((text *) out.data);
}
