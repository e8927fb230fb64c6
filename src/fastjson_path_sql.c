/*
 * fastjson_path_sql.c — the SQL/JSON path functions and operators on
 * fastjson: @? and @@ (fastjson, jsonpath), fastjson_path_exists,
 * fastjson_path_match, fastjson_path_query, fastjson_path_query_array and
 * fastjson_path_query_first, each with (vars fastjson, silent boolean) and a
 * _tz variant, as jsonb's twins (jsonpath_exec.c's jsonb_path_*).
 *
 * Each call runs in a memory context of its own that is reset for the next
 * row; the number literals of the path, turned into tape values, are kept
 * for the rest of the query (fn_extra) while the path stays the same.
 * Results are fastjson values: values of the document are copied as they
 * are (numbers keep their spelling), computed numbers are written as
 * numeric_out writes them (as jsonb would print them), datetimes as jsonb
 * writes them (strings).
 *
 * A path whose every $ starts with the same keys ($.user.name == "x",
 * $.tags[*] ? (@ == "a")) does not need the whole document: a value that
 * is large is read only as far as those keys lead (the blocks, or the
 * prefix, they reach, as #> reads them), and the executor starts
 * there (FjpChain). When a key leads into an array that lax mode would
 * unwrap, the whole value is read and the path runs from the root.
 */
#include "fastjson_path.h"
#include "fastjson_funcs.h"

#include "funcapi.h"
#include "utils/memutils.h"

/* What a path function keeps for the rest of the query. */
typedef struct PathCache
{
	MemoryContext row_cxt;		/* reset for every call */
	FjpLiterals literals;		/* in their own context, reset when the path changes */
	Size		path_len;		/* the path they were made for */
	char	   *path;
	FjpChain	chain;			/* its keys after every $ (n = 0: none) */
	FastjsonSlices slices;		/* how reading values by prefix has fared */
} PathCache;

static PathCache *
get_cache(FunctionCallInfo fcinfo, JsonPath *jp)
{
	PathCache  *c = fcinfo->flinfo->fn_extra;
	Size		len = VARSIZE(jp);

	if (!c)
	{
		c = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(PathCache));
		c->row_cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "fastjson jsonpath row",
										   ALLOCSET_DEFAULT_SIZES);
		c->literals.mcxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "fastjson jsonpath literals",
												 ALLOCSET_SMALL_SIZES);
		fcinfo->flinfo->fn_extra = c;
	}
	if (!c->path || c->path_len != len || memcmp(c->path, jp, len) != 0)
	{
		/* another path (not a constant): the literals are remade for it */
		MemoryContextReset(c->literals.mcxt);
		c->literals.items = NULL;
		c->literals.n = c->literals.cap = 0;
		c->path = MemoryContextAlloc(c->literals.mcxt, len);
		memcpy(c->path, jp, len);
		c->path_len = len;
		c->chain.n = 0;
		{
			MemoryContext old = MemoryContextSwitchTo(c->literals.mcxt);

			/* the keys point into the copy of the path, which lives as long */
			c->chain.n = fjp_root_chain((JsonPath *) c->path, &c->chain.keys, &c->chain.lens);
			MemoryContextSwitchTo(old);
		}
	}
	MemoryContextReset(c->row_cxt);
	return c;
}

/* The vars argument must be an object (jsonb's error). */
static const uint8_t *
vars_root(Fastjson *vars)
{
	const uint8_t *root;

	if (!vars)
		return NULL;
	root = FJ_ROOT(vars);
	if (FJ_TYPE(root[0]) != FJ_OBJECT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"vars\" argument is not an object"),
				 errdetail("Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.")));
	return root;
}

/* Arguments shared by every path function. */
typedef struct PathArgs
{
	Datum		doc;			/* not detoasted: prepare_doc reads it */
	JsonPath   *path;
	Fastjson   *vars;			/* NULL for the operators */
	bool		silent;
	const uint8_t *root;		/* prepare_doc: the document's root */
	const FjpChain *chain;		/* prepare_doc: or where every $ leads */
} PathArgs;

static void
get_args(FunctionCallInfo fcinfo, PathArgs *a)
{
	a->doc = PG_GETARG_DATUM(0);
	a->root = NULL;
	a->chain = NULL;
	a->path = PG_GETARG_JSONPATH_P(1);
	a->vars = NULL;
	a->silent = true;
	if (PG_NARGS() == 4)
	{
		a->vars = PG_GETARG_FASTJSON_P(2);
		a->silent = PG_GETARG_BOOL(3);
	}
}

/* ------------------------------------------------------------ the document */

/*
 * The document of a call, as far as the path needs it: the whole value
 * (a->root), or, for a path with a chain, where the chain leads
 * (a->chain), found as #> finds it: of a large value only the blocks, or
 * the prefix, the keys lead through are read. When lax mode must unwrap an
 * array on the chain, the whole value after all.
 */
static void
prepare_doc(PathCache *c, PathArgs *a, bool lax)
{
	FjpChain   *ch = &c->chain;
	Fastjson   *d;

	if (ch->n > 0)
	{
		FastjsonLookupStop stop = {.step = 0, .type = FJ_OBJECT};

		ch->value = fastjson_follow_keys(a->doc, ch->n, ch->keys, ch->lens, &c->slices, &stop);
		if (ch->value)
		{
			ch->status = FJP_CHAIN_FOUND;
			ch->at = ch->n - 1;
		}
		else
		{
			ch->at = stop.step;
			ch->status = stop.type == FJ_OBJECT ? FJP_CHAIN_MISSING :
				stop.type == FJ_ARRAY ? FJP_CHAIN_ARRAY : FJP_CHAIN_NOT_OBJECT;
		}
		if (!(lax && ch->status == FJP_CHAIN_ARRAY))
		{
			a->chain = ch;
			a->root = ch->value;	/* not read with a chain */
			return;
		}
	}
	fastjson_prefetch_next_rows(a->doc);
	d = DatumGetFastjsonP(a->doc);
	a->root = FJ_ROOT(d);
}

/* ---------------------------------------------------------------- results */

/* Add an item to a builder. */
static void
build_item(fj_builder *b, const FjpItem *it)
{
	switch (it->kind)
	{
		case FJP_TAPE:
			fj_builder_value(b, it->u.v);
			break;
		case FJP_NUMERIC:
			{
				char	   *s = fjp_item_number_out(it);

				if (!fj_builder_number(b, s, strlen(s)))
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("cannot convert jsonpath number %s to fastjson", s)));
				break;
			}
		case FJP_STRING:
			/* a path's string literal, or a string method's result, is text from SQL */
			fastjson_check_utf8(it->u.str.s, it->u.str.len);
			fj_builder_string(b, it->u.str.s, it->u.str.len);
			break;
		case FJP_DATETIME:
			{
				char	   *s = fjp_datetime_text(it);

				fastjson_check_utf8(s, strlen(s));
				fj_builder_string(b, s, strlen(s));
				break;
			}
	}
}

/* An item as a new fastjson datum. */
static Fastjson *
item_datum(const FjpItem *it)
{
	fj_builder	b;

	if (it->kind == FJP_TAPE)
		return fastjson_from_value(it->u.v);
	fastjson_builder_init(&b);
	build_item(&b, it);
	return fastjson_builder_finish(&b);
}

/* -------------------------------------------------------------- functions */

/*
 * @? and fastjson_path_exists: whether the path gives any item; NULL after a
 * suppressed error. As jsonb's, the operator suppresses errors (silent).
 */
static Datum
path_exists(FunctionCallInfo fcinfo, bool tz)
{
	PathArgs	a;
	PathCache  *c;
	MemoryContext old;
	FjpResult	res;

	get_args(fcinfo, &a);
	c = get_cache(fcinfo, a.path);
	old = MemoryContextSwitchTo(c->row_cxt);
	prepare_doc(c, &a, (a.path->header & JSONPATH_LAX) != 0);
	res = fjp_execute(a.path, a.root, vars_root(a.vars), !a.silent, tz, &c->literals, a.chain, NULL);
	MemoryContextSwitchTo(old);
	MemoryContextReset(c->row_cxt);
	if (res == FJP_ERROR)
		PG_RETURN_NULL();
	PG_RETURN_BOOL(res == FJP_OK);
}

/*
 * @@ and fastjson_path_match: the path's single boolean result; NULL for a
 * null result, and (when not silent) an error for anything else.
 */
static Datum
path_match(FunctionCallInfo fcinfo, bool tz)
{
	PathArgs	a;
	PathCache  *c;
	MemoryContext old;
	FjpList		found;
	int			result = -1;	/* -1: no single boolean, 0 / 1, 2: null */

	get_args(fcinfo, &a);
	c = get_cache(fcinfo, a.path);
	old = MemoryContextSwitchTo(c->row_cxt);
	fjp_list_init(&found);
	prepare_doc(c, &a, (a.path->header & JSONPATH_LAX) != 0);
	(void) fjp_execute(a.path, a.root, vars_root(a.vars), !a.silent, tz, &c->literals, a.chain, &found);
	if (found.n == 1 && found.items[0].kind == FJP_TAPE && FJ_TYPE(found.items[0].u.v[0]) == FJ_LITERAL)
		result = FJ_IMM(found.items[0].u.v[0]) == FJ_NULL ? 2 : FJ_IMM(found.items[0].u.v[0]) == FJ_TRUE;
	MemoryContextSwitchTo(old);
	MemoryContextReset(c->row_cxt);
	if (result == 0 || result == 1)
		PG_RETURN_BOOL(result == 1);
	if (result < 0 && !a.silent)
		ereport(ERROR,
				(errcode(ERRCODE_SINGLETON_SQL_JSON_ITEM_REQUIRED),
				 errmsg("single boolean result is expected")));
	PG_RETURN_NULL();
}

/* fastjson_path_query_array: every item, in an array. */
static Datum
path_query_array(FunctionCallInfo fcinfo, bool tz)
{
	PathArgs	a;
	PathCache  *c;
	MemoryContext old;
	FjpList		found;
	fj_builder	b;
	Fastjson   *result;
	int			i;

	get_args(fcinfo, &a);
	c = get_cache(fcinfo, a.path);
	old = MemoryContextSwitchTo(c->row_cxt);
	fjp_list_init(&found);
	prepare_doc(c, &a, (a.path->header & JSONPATH_LAX) != 0);
	(void) fjp_execute(a.path, a.root, vars_root(a.vars), !a.silent, tz, &c->literals, a.chain, &found);
	MemoryContextSwitchTo(old);
	fastjson_builder_init(&b);
	fj_builder_begin_array(&b);
	for (i = 0; i < found.n; i++)
		build_item(&b, &found.items[i]);
	fj_builder_end(&b);
	result = fastjson_builder_finish(&b);
	MemoryContextReset(c->row_cxt);
	PG_RETURN_FASTJSON_P(result);
}

/* fastjson_path_query_first: the first item, or NULL. */
static Datum
path_query_first(FunctionCallInfo fcinfo, bool tz)
{
	PathArgs	a;
	PathCache  *c;
	MemoryContext old;
	FjpList		found;
	Fastjson   *result = NULL;

	get_args(fcinfo, &a);
	c = get_cache(fcinfo, a.path);
	old = MemoryContextSwitchTo(c->row_cxt);
	fjp_list_init(&found);
	prepare_doc(c, &a, (a.path->header & JSONPATH_LAX) != 0);
	(void) fjp_execute(a.path, a.root, vars_root(a.vars), !a.silent, tz, &c->literals, a.chain, &found);
	MemoryContextSwitchTo(old);
	if (found.n > 0)
		result = item_datum(&found.items[0]);
	MemoryContextReset(c->row_cxt);
	if (!result)
		PG_RETURN_NULL();
	PG_RETURN_FASTJSON_P(result);
}

/* The rows fastjson_path_query returns, made on the first call. */
typedef struct QueryRows
{
	Datum	   *rows;
	int			n;
	int			next;
} QueryRows;

/*
 * fastjson_path_query: one row per item. The whole sequence is found on the
 * first call (as jsonb's does) in a context of its own, and the items become
 * datums in the SRF's memory; the executor's memory is then freed.
 */
static Datum
path_query(FunctionCallInfo fcinfo, bool tz)
{
	FuncCallContext *funcctx;
	QueryRows  *q;

	if (SRF_IS_FIRSTCALL())
	{
		PathArgs	a;
		MemoryContext old,
					work;
		FjpLiterals literals = {0};
		FjpList		found;
		int			i;

		funcctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		get_args(fcinfo, &a);
		work = AllocSetContextCreate(funcctx->multi_call_memory_ctx, "fastjson jsonpath query",
									 ALLOCSET_DEFAULT_SIZES);
		literals.mcxt = work;
		MemoryContextSwitchTo(work);
		fjp_list_init(&found);
		a.root = FJ_ROOT(DatumGetFastjsonP(a.doc));
		(void) fjp_execute(a.path, a.root, vars_root(a.vars), !a.silent, tz, &literals, NULL, &found);
		MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		q = palloc(sizeof(QueryRows));
		q->rows = palloc(sizeof(Datum) * Max(found.n, 1));
		q->n = found.n;
		q->next = 0;
		for (i = 0; i < found.n; i++)
			q->rows[i] = PointerGetDatum(item_datum(&found.items[i]));
		MemoryContextDelete(work);
		funcctx->user_fctx = q;
		MemoryContextSwitchTo(old);
	}
	funcctx = SRF_PERCALL_SETUP();
	q = funcctx->user_fctx;
	if (q->next < q->n)
		SRF_RETURN_NEXT(funcctx, q->rows[q->next++]);
	SRF_RETURN_DONE(funcctx);
}

#define PATH_FUNCTION(name, impl, tz) \
	PG_FUNCTION_INFO_V1(name); \
	Datum \
	name(PG_FUNCTION_ARGS) \
	{ \
		return impl(fcinfo, tz); \
	}

/* fastjson @? jsonpath, fastjson_path_exists(doc, path, vars, silent) and _tz */
PATH_FUNCTION(fastjson_path_exists_opr, path_exists, false)
PATH_FUNCTION(fastjson_path_exists, path_exists, false)
PATH_FUNCTION(fastjson_path_exists_tz, path_exists, true)
/* fastjson @@ jsonpath, fastjson_path_match(doc, path, vars, silent) and _tz */
PATH_FUNCTION(fastjson_path_match_opr, path_match, false)
PATH_FUNCTION(fastjson_path_match, path_match, false)
PATH_FUNCTION(fastjson_path_match_tz, path_match, true)
/* fastjson_path_query(doc, path, vars, silent) and _tz */
PATH_FUNCTION(fastjson_path_query, path_query, false)
PATH_FUNCTION(fastjson_path_query_tz, path_query, true)
/* fastjson_path_query_array(doc, path, vars, silent) and _tz */
PATH_FUNCTION(fastjson_path_query_array, path_query_array, false)
PATH_FUNCTION(fastjson_path_query_array_tz, path_query_array, true)
/* fastjson_path_query_first(doc, path, vars, silent) and _tz */
PATH_FUNCTION(fastjson_path_query_first, path_query_first, false)
PATH_FUNCTION(fastjson_path_query_first_tz, path_query_first, true)
