/*
 * fastjson_ndjson.c — fastjson_ndjson(text | bytea): newline-delimited JSON
 * to rows of fastjson, one document a line. Blank lines are skipped; an error
 * names its line number. Rows are produced one at a time (value-per-call),
 * so a large input is never held twice.
 */
#include "fastjson.h"

#include "funcapi.h"
#include "mb/pg_wchar.h"

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

PG_FUNCTION_INFO_V1(fastjson_ndjson);

Datum
fastjson_ndjson(PG_FUNCTION_ARGS)
{
	FuncCallContext *fc;
	ndjson_state *st;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		struct varlena *in;

		fc = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fc->multi_call_memory_ctx);
		in = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));
		st = palloc(sizeof(ndjson_state));
		st->data = VARDATA_ANY(in);
		st->len = VARSIZE_ANY_EXHDR(in);
		st->pos = 0;
		st->line = 1;
		fc->user_fctx = st;
		MemoryContextSwitchTo(old);
		fastjson_check_encoding();
	}
	fc = SRF_PERCALL_SETUP();
	st = (ndjson_state *) fc->user_fctx;

	while (st->pos < st->len)
	{
		const char *line = st->data + st->pos;
		const char *nl = memchr(line, '\n', st->len - st->pos);
		size_t		n = nl ? (size_t) (nl - line) : st->len - st->pos;
		Fastjson   *doc = NULL;

		if (!blank(line, n))
		{
			ErrorContextCallback cb;

			cb.callback = ndjson_error_context;
			cb.arg = st;
			cb.previous = error_context_stack;
			error_context_stack = &cb;
			doc = fastjson_parse_text(line, n);
			error_context_stack = cb.previous;
		}
		st->pos += n + (nl ? 1 : 0);
		st->line++;
		if (doc)
			SRF_RETURN_NEXT(fc, PointerGetDatum(doc));
	}
	SRF_RETURN_DONE(fc);
}
