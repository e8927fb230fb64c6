/*
 * fastjson_tsearch.c — full text search on documents, twins of jsonb's:
 * to_tsvector and fastjson_to_tsvector (the lexemes of a document's string
 * values, or of the kinds of values a filter names), and ts_headline (the
 * document with each string value replaced by its headline).
 *
 * A document is read as the other enumerations read it (fastjson_funcs.c):
 * an object's distinct keys once each, with their operative (last) values,
 * in the document order of those; arrays in order. Values take positions in
 * that order, one position apart so that a phrase never spans two of them,
 * as jsonb's do in its own key order. A number is its text as written, as
 * json's to_tsvector reads it. ts_headline rewrites every string value of
 * the document and keeps the rest as it is, duplicate keys included.
 */
#include "fastjson.h"
#include "fastjson_funcs.h"

#include "commands/defrem.h"
#include "miscadmin.h"
#include "tsearch/ts_cache.h"
#include "tsearch/ts_type.h"
#include "tsearch/ts_utils.h"
#include "utils/builtins.h"

/* The kinds of values a filter names (jsonb_to_tsvector's flags). */
#define TS_STRING	0x01
#define TS_NUMERIC	0x02
#define TS_BOOLEAN	0x04
#define TS_KEY		0x08
#define TS_ALL		(TS_STRING | TS_NUMERIC | TS_BOOLEAN | TS_KEY)

#define TS_FLAG_HINT "Possible values are: \"string\", \"numeric\", \"boolean\", \"key\", and \"all\"."

/* The bytes of a string at s, refusing U+0000, which no text holds (as ->> does). */
static const char *
string_bytes(const uint8_t *s, uint32 *len)
{
	const uint8_t *t;

	*len = fj_text(s, &t);
	(void) fastjson_check_no_nul(t, *len, NULL);
	return (const char *) t;
}

/* The flags of a filter: an array of those names, or one name; errors as jsonb's. */
static uint32
filter_flags(const Fastjson *filter)
{
	const uint8_t *root = FJ_ROOT(filter);
	const uint8_t *e,
			   *end;
	uint32		flags = 0;

	if (FJ_TYPE(root[0]) == FJ_OBJECT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("wrong flag type, only arrays and scalars are allowed")));
	if (FJ_TYPE(root[0]) == FJ_ARRAY)
	{
		e = fj_container_members(root);
		end = fj_container_members_end(root);
	}
	else
	{
		e = root;
		end = root + fj_value_size(root);
	}
	for (; e < end; e += fj_value_size(e))
	{
		const uint8_t *t;
		uint32		len;

		if (FJ_TYPE(e[0]) != FJ_STRING)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("flag array element is not a string"),
					 errhint(TS_FLAG_HINT)));
		len = fj_text(e, &t);
		if (len == 3 && pg_strncasecmp((const char *) t, "all", 3) == 0)
			flags |= TS_ALL;
		else if (len == 3 && pg_strncasecmp((const char *) t, "key", 3) == 0)
			flags |= TS_KEY;
		else if (len == 6 && pg_strncasecmp((const char *) t, "string", 6) == 0)
			flags |= TS_STRING;
		else if (len == 7 && pg_strncasecmp((const char *) t, "numeric", 7) == 0)
			flags |= TS_NUMERIC;
		else if (len == 7 && pg_strncasecmp((const char *) t, "boolean", 7) == 0)
			flags |= TS_BOOLEAN;
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("wrong flag in flag array: \"%s\"", pnstrdup((const char *) t, len)),
					 errhint(TS_FLAG_HINT)));
	}
	return flags;
}

/* ------------------------------------------------------------ to_tsvector */

/* Parse one value's text into prs; the next value starts a position further on. */
static void
add_text(Oid cfg, ParsedText *prs, const char *s, uint32 len)
{
	int32		before = prs->curwords;

	parsetext(cfg, prs, (char *) s, (int32) len);
	if (prs->curwords > before)
		prs->pos++;
}

/* Add the scalar at v to prs when flags name its kind. */
static void
add_scalar(Oid cfg, ParsedText *prs, const uint8_t *v, uint32 flags)
{
	uint32		len;
	const char *s;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_STRING:
			if (flags & TS_STRING)
			{
				s = string_bytes(v, &len);
				add_text(cfg, prs, s, len);
			}
			break;
		case FJ_UINT:
		case FJ_NINT:
		case FJ_NUMBER:
		case FJ_PACKED:
			if (flags & TS_NUMERIC)
			{
				text	   *t = fastjson_value_as_text(v);

				add_text(cfg, prs, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
				pfree(t);
			}
			break;
		case FJ_LITERAL:
			if ((flags & TS_BOOLEAN) && FJ_IMM(v[0]) != FJ_NULL)
			{
				bool		t = FJ_IMM(v[0]) == FJ_TRUE;

				add_text(cfg, prs, t ? "true" : "false", t ? 4 : 5);
			}
			break;
	}
}

/* A container being read: its members (objects) or its next element (arrays). */
typedef struct TsFrame
{
	FjDocMember *members;		/* objects */
	uint32		i;
	uint32		n;
	const uint8_t *next;		/* arrays */
	const uint8_t *end;
} TsFrame;

/* The tsvector of the values of the document d that flags name. */
static TSVector
document_tsvector(Oid cfg, const Fastjson *d, uint32 flags)
{
	ParsedText	prs;
	fj_buf		frames = {0};
	uint32		depth = 0;
	const uint8_t *v = FJ_ROOT(d);

	prs.lenwords = 16;
	prs.words = palloc(sizeof(ParsedWord) * prs.lenwords);
	prs.curwords = 0;
	prs.pos = 0;
	for (;;)
	{
		int			type = FJ_TYPE(v[0]);

		if (type == FJ_OBJECT || type == FJ_ARRAY)
		{
			TsFrame    *f;

			CHECK_FOR_INTERRUPTS();
			frames.len = depth * sizeof(TsFrame);
			f = fastjson_buf_push(&frames, sizeof(TsFrame));
			depth++;
			memset(f, 0, sizeof(*f));
			if (type == FJ_OBJECT)
				f->members = fastjson_object_members(v, &f->n);
			else
			{
				f->next = fj_container_members(v);
				f->end = fj_container_members_end(v);
			}
		}
		else
			add_scalar(cfg, &prs, v, flags);

		/* the next value, past the containers that are done */
		v = NULL;
		while (depth > 0 && v == NULL)
		{
			TsFrame    *f = &((TsFrame *) frames.data)[depth - 1];

			if (f->members)
			{
				while (f->i < f->n && v == NULL)
				{
					const FjDocMember *m = &f->members[f->i];

					if (m->last == f->i++)
					{
						if (flags & TS_KEY)
						{
							uint32		len;
							const char *s = string_bytes(m->key, &len);

							add_text(cfg, &prs, s, len);
						}
						v = m->value;
					}
				}
				if (v == NULL)
				{
					pfree(f->members);
					depth--;
				}
			}
			else if (f->next < f->end)
			{
				v = f->next;
				f->next += fj_value_size(v);
			}
			else
				depth--;
		}
		if (v == NULL)
			break;
	}
	fj_buf_release(&fastjson_palloc_allocator, &frames);
	return make_tsvector(&prs);
}

PG_FUNCTION_INFO_V1(fastjson_to_tsvector_strings);

/* to_tsvector([regconfig,] fastjson): the lexemes of the string values. */
Datum
fastjson_to_tsvector_strings(PG_FUNCTION_ARGS)
{
	bool		byid = PG_NARGS() == 2;
	Oid			cfg = byid ? PG_GETARG_OID(0) : getTSCurrentConfig(true);
	Fastjson   *d = PG_GETARG_FASTJSON_P(byid ? 1 : 0);

	PG_RETURN_TSVECTOR(document_tsvector(cfg, d, TS_STRING));
}

PG_FUNCTION_INFO_V1(fastjson_to_tsvector);

/* fastjson_to_tsvector([regconfig,] fastjson, filter): the values the filter names. */
Datum
fastjson_to_tsvector(PG_FUNCTION_ARGS)
{
	bool		byid = PG_NARGS() == 3;
	Oid			cfg = byid ? PG_GETARG_OID(0) : getTSCurrentConfig(true);
	Fastjson   *d = PG_GETARG_FASTJSON_P(byid ? 1 : 0);
	uint32		flags = filter_flags(PG_GETARG_FASTJSON_P(byid ? 2 : 1));

	PG_RETURN_TSVECTOR(document_tsvector(cfg, d, flags));
}

/* ------------------------------------------------------------ ts_headline */

/* What makes a string's headline: the configuration, its parser, the query, the options. */
typedef struct Headline
{
	HeadlineParsedText prs;
	TSConfigCacheEntry *cfg;
	TSParserCacheEntry *parser;
	TSQuery		query;
	List	   *options;
} Headline;

/* Add the headline of the string at v to b. */
static void
add_headline(fj_builder *b, Headline *h, const uint8_t *v)
{
	uint32		len;
	const char *s = string_bytes(v, &len);
	text	   *out;

	h->prs.curwords = 0;
	hlparsetext(h->cfg->cfgId, &h->prs, h->query, (char *) s, (int32) len);
	FunctionCall3(&h->parser->prsheadline, PointerGetDatum(&h->prs),
				  PointerGetDatum(h->options), PointerGetDatum(h->query));
	out = generateHeadline(&h->prs);
	/* the string was UTF-8, but outside a UTF8 database the options' markers may not be */
	fastjson_check_utf8(VARDATA_ANY(out), VARSIZE_ANY_EXHDR(out));
	fj_builder_string(b, VARDATA_ANY(out), VARSIZE_ANY_EXHDR(out));
	pfree(out);
}

/* A container being copied: the position of its next member and where they end. */
typedef struct HlFrame
{
	const uint8_t *next;
	const uint8_t *end;
	bool		object;
} HlFrame;

/* Copy the document at v into b, each string value replaced by its headline. */
static void
copy_headlines(fj_builder *b, Headline *h, const uint8_t *v)
{
	fj_buf		frames = {0};
	uint32		depth = 0;

	for (;;)
	{
		int			type = FJ_TYPE(v[0]);

		if (type == FJ_OBJECT || type == FJ_ARRAY)
		{
			HlFrame    *f;

			CHECK_FOR_INTERRUPTS();
			frames.len = depth * sizeof(HlFrame);
			f = fastjson_buf_push(&frames, sizeof(HlFrame));
			depth++;
			f->next = fj_container_members(v);
			f->end = fj_container_members_end(v);
			f->object = type == FJ_OBJECT;
			if (f->object)
				fj_builder_begin_object(b);
			else
				fj_builder_begin_array(b);
		}
		else if (type == FJ_STRING)
			add_headline(b, h, v);
		else
			fj_builder_value(b, v);

		/* the next value, closing the containers that are done */
		v = NULL;
		while (depth > 0 && v == NULL)
		{
			HlFrame    *f = &((HlFrame *) frames.data)[depth - 1];

			if (f->next < f->end)
			{
				if (f->object)
				{
					const uint8_t *key;
					uint32		len = fj_text(f->next, &key);

					fj_builder_key(b, (const char *) key, len);
					f->next = key + len;
				}
				v = f->next;
				f->next += fj_value_size(v);
			}
			else
			{
				fj_builder_end(b);
				depth--;
			}
		}
		if (v == NULL)
			break;
	}
	fj_buf_release(&fastjson_palloc_allocator, &frames);
}

/* The headlined document for ts_headline's arguments from the first: [regconfig,] fastjson, tsquery[, text]. */
static Datum
headline_document(Oid cfg, Fastjson *d, TSQuery query, text *options)
{
	Headline	h;
	fj_builder	b;

	memset(&h, 0, sizeof(h));
	h.prs.lenwords = 32;
	h.prs.words = palloc(sizeof(HeadlineWordEntry) * h.prs.lenwords);
	h.cfg = lookup_ts_config_cache(cfg);
	h.parser = lookup_ts_parser_cache(h.cfg->prsId);
	h.query = query;
	h.options = options ? deserialize_deflist(PointerGetDatum(options)) : NIL;
	if (!OidIsValid(h.parser->headlineOid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("text search parser does not support headline creation")));
	fastjson_builder_init(&b);
	copy_headlines(&b, &h, FJ_ROOT(d));
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

PG_FUNCTION_INFO_V1(fastjson_ts_headline_byid);

/* ts_headline(regconfig, fastjson, tsquery[, text]) */
Datum
fastjson_ts_headline_byid(PG_FUNCTION_ARGS)
{
	return headline_document(PG_GETARG_OID(0), PG_GETARG_FASTJSON_P(1), PG_GETARG_TSQUERY(2),
							 PG_NARGS() > 3 ? PG_GETARG_TEXT_PP(3) : NULL);
}

PG_FUNCTION_INFO_V1(fastjson_ts_headline);

/* ts_headline(fastjson, tsquery[, text]), in the current text search configuration */
Datum
fastjson_ts_headline(PG_FUNCTION_ARGS)
{
	return headline_document(getTSCurrentConfig(true), PG_GETARG_FASTJSON_P(0), PG_GETARG_TSQUERY(1),
							 PG_NARGS() > 2 ? PG_GETARG_TEXT_PP(2) : NULL);
}
