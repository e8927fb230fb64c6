/*
 * fastjson_ndjson.c — newline-delimited JSON to rows, one document a line.
 * Blank lines are skipped. Rows are produced one at a time (value-per-call),
 * so a large input is never held twice.
 *
 *   fastjson_ndjson(text | bytea)        a fastjson row per line; the first
 *                                        bad line is an error naming it
 *   fastjson_ndjson_lines(text | bytea)  a row per line: its number, and its
 *                                        document or its error (SQLSTATE,
 *                                        message, detail), so that a load
 *                                        keeps the good lines and shows the
 *                                        bad ones, on every version
 */
#include "fastjson.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

typedef struct ndjson_state
{
	const char *data;
	size_t		len;
	size_t		pos;
	int64		line;			/* number of the line at pos, from 1 */
} ndjson_state;

static void
ndjson_error_context(void *arg)
{
	ndjson_state *st = (ndjson_state *) arg;

	errcontext("NDJSON line " INT64_FORMAT, st->line);
}

/* Whether p[0..n) is only JSON whitespace. */
static bool
blank(const char *p, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
			return false;
	return true;
}

/* The first call of either function: the input, kept for the calls to come. */
static FuncCallContext *
ndjson_first_call(FunctionCallInfo fcinfo, bool lines)
{
	FuncCallContext *fc = SRF_FIRSTCALL_INIT();
	MemoryContext old = MemoryContextSwitchTo(fc->multi_call_memory_ctx);
	struct varlena *in = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));
	ndjson_state *st = palloc(sizeof(ndjson_state));

	st->data = VARDATA_ANY(in);
	st->len = VARSIZE_ANY_EXHDR(in);
	st->pos = 0;
	st->line = 1;
	fc->user_fctx = st;
	if (lines)
	{
		TupleDesc	desc;

		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "fastjson_ndjson_lines must return a record");
		fc->tuple_desc = BlessTupleDesc(desc);
	}
	MemoryContextSwitchTo(old);
	fastjson_check_encoding();
	return fc;
}

/* The next line that is not blank: false at the end; *number is its line number. */
static bool
next_line(ndjson_state *st, const char **line, size_t *n, int64 *number)
{
	while (st->pos < st->len)
	{
		const char *p = st->data + st->pos;
		const char *nl = memchr(p, '\n', st->len - st->pos);
		size_t		len = nl ? (size_t) (nl - p) : st->len - st->pos;

		*number = st->line;
		st->pos += len + (nl ? 1 : 0);
		st->line++;
		if (!blank(p, len))
		{
			*line = p;
			*n = len;
			return true;
		}
	}
	return false;
}

PG_FUNCTION_INFO_V1(fastjson_ndjson);

Datum
fastjson_ndjson(PG_FUNCTION_ARGS)
{
	FuncCallContext *fc;
	ndjson_state *st;
	const char *line;
	size_t		n;
	int64		number;

	if (SRF_IS_FIRSTCALL())
		ndjson_first_call(fcinfo, false);
	fc = SRF_PERCALL_SETUP();
	st = (ndjson_state *) fc->user_fctx;
	if (next_line(st, &line, &n, &number))
	{
		ErrorContextCallback cb;
		Datum		doc;

		st->line = number;		/* for the error context */
		cb.callback = ndjson_error_context;
		cb.arg = st;
		cb.previous = error_context_stack;
		error_context_stack = &cb;
		doc = fastjson_parse_text_new(line, n, NULL);
		error_context_stack = cb.previous;
		st->line = number + 1;
		SRF_RETURN_NEXT(fc, doc);
	}
	SRF_RETURN_DONE(fc);
}

PG_FUNCTION_INFO_V1(fastjson_ndjson_lines);

/* (line, doc, sqlstate, error, detail): the document, or NULL and why. */
Datum
fastjson_ndjson_lines(PG_FUNCTION_ARGS)
{
	FuncCallContext *fc;
	ndjson_state *st;
	const char *line;
	size_t		n;
	int64		number;

	if (SRF_IS_FIRSTCALL())
		ndjson_first_call(fcinfo, true);
	fc = SRF_PERCALL_SETUP();
	st = (ndjson_state *) fc->user_fctx;
	if (next_line(st, &line, &n, &number))
	{
		Datum		values[5];
		bool		nulls[5] = {false, false, false, false, false};
		fj_parse_options opt;
		fj_buf		tape;
		fj_error	err;

		values[0] = Int64GetDatum(number);
		fastjson_parse_options(&opt);
		if (fj_parse(line, n, &opt, &tape, &err) == FJ_OK)
		{
			SET_VARSIZE(tape.data, tape.len);
			values[1] = PointerGetDatum(fastjson_store((Fastjson *) tape.data));
			nulls[2] = nulls[3] = nulls[4] = true;
		}
		else
		{
			FastjsonInputError e;

			fastjson_describe_parse_error(&err, line, n, &e);
			nulls[1] = true;
			values[2] = CStringGetTextDatum(unpack_sql_state(e.sqlerrcode));
			values[3] = CStringGetTextDatum(e.message);
			if (e.detail)
				values[4] = CStringGetTextDatum(e.detail);
			else
				nulls[4] = true;
		}
		SRF_RETURN_NEXT(fc, HeapTupleGetDatum(heap_form_tuple(fc->tuple_desc, values, nulls)));
	}
	SRF_RETURN_DONE(fc);
}
