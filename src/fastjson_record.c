/*
 * fastjson_record.c — JSON objects as rows: fastjson_populate_record,
 * fastjson_populate_recordset, fastjson_to_record and fastjson_to_recordset,
 * twins of jsonb's.
 *
 * The rules are jsonb's (jsonfuncs.c, populate_record_field and what it
 * calls), value by value:
 *
 *   - a column is looked up in the object by its name (the last of duplicate
 *     keys, as in jsonb); the tape is read in place, and an object of more
 *     than 8 members is searched through its key index;
 *   - a missing key keeps the base record's value (populate_record with a
 *     non-null base), or is NULL, as is a JSON null; a domain's constraints
 *     are checked either way, so a NOT NULL domain refuses both;
 *   - an object fills a composite column, recursively (the base record's
 *     nested value is the base of the nested one); an array fills an array
 *     column of any number of dimensions, found from the first elements, with
 *     jsonb's errors for ragged or misshapen arrays;
 *   - a string fills an array or composite column through the column type's
 *     input function ('{1,2}', '(1,x)'), as jsonb's does;
 *   - a json, jsonb or fastjson column gets the member's JSON (a fastjson
 *     column the member itself, exactly as written; a json column its
 *     canonical text);
 *   - anything else goes through the column type's input function with the
 *     text jsonb would give it: a string unquoted, true/false, a number as
 *     numeric_out prints it (so 1e2 is "100" and -0 is "0", as for jsonb,
 *     although the document keeps their spelling), an array or object as
 *     jsonb prints it (keys in jsonb's order, duplicates dropped, ", " and
 *     ": " between items).
 *
 * The type information of the columns (input functions, tuple descriptors,
 * domain checks) is kept in fn_extra for the rest of the query, as jsonb
 * keeps it, and rebuilt when the row type changes.
 */
#define FASTJSON_RECORD_COMPAT
#include "fastjson.h"
#include "fastjson_funcs.h"
#include "fastjson_value.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"

/* fastjson_io.c: how a fastjson column is recognised. */
extern Datum fastjson_out(PG_FUNCTION_ARGS);

/* ---------------------------------------------------------- type cache */

/* What kind of type a column (or array element) has: jsonb's TYPECAT_*. */
typedef enum RecTypeCat
{
	REC_SCALAR = 1,				/* through the input function */
	REC_ARRAY,
	REC_COMPOSITE,
	REC_COMPOSITE_DOMAIN,
	REC_DOMAIN					/* a domain over a scalar or an array */
} RecTypeCat;

/* How a scalar column takes a JSON value. */
typedef enum RecScalarKind
{
	REC_INPUT,					/* the input function, given jsonb's text */
	REC_JSON,					/* json: the member's canonical text */
	REC_JSONB,					/* jsonb: the member converted */
	REC_FASTJSON				/* fastjson: the member itself */
} RecScalarKind;

typedef struct RecColumn RecColumn;
typedef struct RecRecord RecRecord;

/* A composite column: its tuple descriptor and its columns' caches. */
typedef struct RecComposite
{
	RecRecord  *record;			/* the columns, or NULL until first used */
	TupleDesc	tupdesc;		/* a copy, in the cache's memory */
	Oid			base_typid;		/* the row type (under a domain, if any) */
	int32		base_typmod;
	void	   *domain_info;	/* domain_check's cache (domains over composites) */
} RecComposite;

struct RecColumn
{
	Oid			typid;			/* the type this cache is for (InvalidOid: none yet) */
	int32		typmod;
	RecTypeCat	cat;
	RecScalarKind kind;
	FmgrInfo	input;			/* the type's input function, for every category */
	Oid			ioparam;
	union
	{
		struct
		{
			RecColumn  *element;
			Oid			type;
			int32		typmod;
		}			array;
		RecComposite composite;
		struct
		{
			RecColumn  *base;
			Oid			typid;
			int32		typmod;
			void	   *domain_info;
		}			domain;
	}			io;
};

/* The columns of a row type. */
struct RecRecord
{
	Oid			type;
	int32		typmod;
	int			ncolumns;
	RecColumn	columns[FLEXIBLE_ARRAY_MEMBER];
};

/* What a function keeps in fn_extra: its row type and how to fill it. */
typedef struct RecCache
{
	Oid			argtype;		/* declared type of the base record, or RECORD */
	RecColumn	c;				/* the row type (c.io.composite) */
	MemoryContext mcxt;
} RecCache;

/* Whether a type is fastjson: its output function is ours. */
static bool
is_fastjson_type(Oid typid)
{
	Oid			outfunc;
	bool		isvarlena;
	FmgrInfo	flinfo;

	if (typid < FirstNormalObjectId)
		return false;
	getTypeOutputInfo(typid, &outfunc, &isvarlena);
	fmgr_info(outfunc, &flinfo);
	return flinfo.fn_addr == fastjson_out;
}

/* Set up col for type typid/typmod (need_input: look up the input function too). */
static void
prepare_column(RecColumn *col, Oid typid, int32 typmod, MemoryContext mcxt, bool need_input)
{
	HeapTuple	tup;
	Form_pg_type type;

	col->typid = typid;
	col->typmod = typmod;
	col->kind = REC_INPUT;
	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type %u", typid);
	type = (Form_pg_type) GETSTRUCT(tup);

	if (type->typtype == TYPTYPE_DOMAIN)
	{
		/* straight to the bottom base type: domain_check checks every level */
		int32		base_typmod = typmod;
		Oid			base_typid = getBaseTypeAndTypmod(typid, &base_typmod);

		if (get_typtype(base_typid) == TYPTYPE_COMPOSITE)
		{
			col->cat = REC_COMPOSITE_DOMAIN;
			memset(&col->io.composite, 0, sizeof(col->io.composite));
			col->io.composite.base_typid = base_typid;
			col->io.composite.base_typmod = base_typmod;
		}
		else
		{
			col->cat = REC_DOMAIN;
			col->io.domain.base = MemoryContextAllocZero(mcxt, sizeof(RecColumn));
			col->io.domain.typid = base_typid;
			col->io.domain.typmod = base_typmod;
			col->io.domain.domain_info = NULL;
		}
	}
	else if (type->typtype == TYPTYPE_COMPOSITE || typid == RECORDOID)
	{
		col->cat = REC_COMPOSITE;
		memset(&col->io.composite, 0, sizeof(col->io.composite));
		col->io.composite.base_typid = typid;
		col->io.composite.base_typmod = typmod;
	}
	else if (IsTrueArrayType(type))
	{
		col->cat = REC_ARRAY;
		col->io.array.element = MemoryContextAllocZero(mcxt, sizeof(RecColumn));
		col->io.array.type = type->typelem;
		col->io.array.typmod = typmod;	/* an array column's typmod is its elements' */
	}
	else
	{
		col->cat = REC_SCALAR;
		need_input = true;
		if (typid == JSONOID)
			col->kind = REC_JSON;
		else if (typid == JSONBOID)
			col->kind = REC_JSONB;
		else if (is_fastjson_type(typid))
			col->kind = REC_FASTJSON;
	}
	/* every category may need it: a string goes to an array or row type's input */
	if (need_input)
	{
		Oid			infunc;

		getTypeInputInfo(typid, &infunc, &col->ioparam);
		fmgr_info_cxt(infunc, &col->input, mcxt);
	}
	ReleaseSysCache(tup);
}

/* The cached tuple descriptor of a composite, (re)read when its type changed. */
static void
update_tupdesc(RecComposite *io, MemoryContext mcxt)
{
	TupleDesc	tupdesc;
	MemoryContext old;

	if (io->tupdesc && io->tupdesc->tdtypeid == io->base_typid &&
		io->tupdesc->tdtypmod == io->base_typmod)
		return;
	tupdesc = lookup_rowtype_tupdesc(io->base_typid, io->base_typmod);
	if (io->tupdesc)
		FreeTupleDesc(io->tupdesc);
	old = MemoryContextSwitchTo(mcxt);
	io->tupdesc = CreateTupleDescCopy(tupdesc);
	MemoryContextSwitchTo(old);
	ReleaseTupleDesc(tupdesc);
}

/* ---------------------------------------------------- text jsonb would give */

static inline bool
is_json_null(const uint8_t *v)
{
	return v[0] == FJ_TAG(FJ_LITERAL, FJ_NULL);
}

/* Whether the number text s[0..len) (no sign, no exponent) is a zero: "0", "0.00". */
static bool
is_zero(const uint8_t *s, uint32 len)
{
	uint32		i;

	for (i = 0; i < len; i++)
		if (s[i] != '0' && s[i] != '.')
			return false;
	return true;
}

/*
 * Append the text numeric_out gives for the number at v: an integer's
 * decimal text; a number without exponent as written, but for the sign of a
 * zero ("-0.0" is "0.0": numeric has no negative zero); any other through
 * numeric ("1e2" is "100", "1.5E-3" is "0.0015").
 */
static void
append_number_text(StringInfo out, const uint8_t *v, Node *escontext)
{
	char		buf[FJ_NUMBER_TEXT_BUF] = {0};	/* (gcc cannot see fj_number_text fill it) */
	const uint8_t *t;
	uint32		len;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_UINT:
		case FJ_NINT:
			len = (uint32) (fj_put_int_text((uint8_t *) buf, v) - (uint8_t *) buf);
			appendBinaryStringInfo(out, buf, (int) len);
			return;
		case FJ_PACKED:
			len = fj_number_text(v, buf, &t);
			if (t[0] == '-' && is_zero(t + 1, len - 1))
			{
				t++;
				len--;
			}
			appendBinaryStringInfo(out, (const char *) t, (int) len);
			return;
		default:
			{
				char	   *s;
				Datum		num;

				len = fj_number_text(v, buf, &t);
				s = pnstrdup((const char *) t, len);
				/* a number past numeric's range (1e200000) */
				if (fjc_direct_input_call(numeric_in, s, -1, escontext, &num))
					appendStringInfoString(out, DatumGetCString(DirectFunctionCall1(numeric_out, num)));
				pfree(s);
				return;
			}
	}
}

/* Append s[0..len) as a JSON string, escaped as jsonb escapes it. */
static void
append_escaped(StringInfo out, const uint8_t *s, uint32 len, Node *escontext)
{
	static const char hex[] = "0123456789abcdef";
	uint32		i,
				run = 0;

	if (!fastjson_check_no_nul(s, len, escontext))
		return;
	appendStringInfoCharMacro(out, '"');
	for (i = 0; i < len; i++)
	{
		uint8_t		c = s[i];
		const char *esc;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		appendBinaryStringInfo(out, (const char *) s + run, (int) (i - run));
		run = i + 1;
		switch (c)
		{
			case '"':
				esc = "\\\"";
				break;
			case '\\':
				esc = "\\\\";
				break;
			case '\b':
				esc = "\\b";
				break;
			case '\f':
				esc = "\\f";
				break;
			case '\n':
				esc = "\\n";
				break;
			case '\r':
				esc = "\\r";
				break;
			case '\t':
				esc = "\\t";
				break;
			default:
				{
					char		u[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], '\0'};

					appendStringInfoString(out, u);
					continue;
				}
		}
		appendStringInfoString(out, esc);
	}
	appendBinaryStringInfo(out, (const char *) s + run, (int) (len - run));
	appendStringInfoCharMacro(out, '"');
}

/*
 * Append the value at v as jsonb's output prints it: objects with their
 * distinct keys in jsonb's order (length, then bytes; the last duplicate),
 * ", " between items and ": " after keys, numbers as numeric_out prints them.
 */
static void
append_jsonb_text(StringInfo out, const uint8_t *v, FjScratch *s, Node *escontext)
{
	const uint8_t *t;
	uint32		len;

	check_stack_depth();
	switch (fj_jsonb_type(v))
	{
		case FJB_NULL:
			appendStringInfoString(out, "null");
			break;
		case FJB_BOOL:
			appendStringInfoString(out, FJ_IMM(v[0]) == FJ_TRUE ? "true" : "false");
			break;
		case FJB_STRING:
			len = fj_text(v, &t);
			append_escaped(out, t, len, escontext);
			break;
		case FJB_NUMBER:
			append_number_text(out, v, escontext);
			break;
		case FJB_ARRAY:
			{
				const uint8_t *e = fj_container_members(v);
				const uint8_t *end = fj_container_members_end(v);

				appendStringInfoCharMacro(out, '[');
				for (; e < end; e += fj_value_size(e))
				{
					if (e != fj_container_members(v))
						appendBinaryStringInfo(out, ", ", 2);
					append_jsonb_text(out, e, s, escontext);
				}
				appendStringInfoCharMacro(out, ']');
				break;
			}
		case FJB_OBJECT:
			{
				uint32		n,
							i;
				uint32		start = fj_object_view(s, v, &n);

				appendStringInfoCharMacro(out, '{');
				for (i = 0; i < n; i++)
				{
					/* the stack may move while a value is written: index it afresh */
					const FjMember *m = &s->members[start + i];
					const uint8_t *value = m->value;

					if (i > 0)
						appendBinaryStringInfo(out, ", ", 2);
					append_escaped(out, m->key, m->key_len, escontext);
					appendBinaryStringInfo(out, ": ", 2);
					append_jsonb_text(out, value, s, escontext);
				}
				appendStringInfoCharMacro(out, '}');
				s->top = start;
				break;
			}
	}
}

/*
 * The text an input function gets for the (not null) value at v, as jsonb
 * gives it; NULL after a soft error in escontext (a string holding U+0000,
 * a number past numeric's range).
 */
static char *
input_text(const uint8_t *v, Node *escontext)
{
	StringInfoData out;
	const uint8_t *t;
	uint32		len;

	switch (fj_jsonb_type(v))
	{
		case FJB_STRING:
			/* unquoted */
			len = fj_text(v, &t);
			if (!fastjson_check_no_nul(t, len, escontext))
				return NULL;
			return pnstrdup((const char *) t, len);
		case FJB_BOOL:
			return pstrdup(FJ_IMM(v[0]) == FJ_TRUE ? "true" : "false");
		case FJB_NUMBER:
			initStringInfo(&out);
			append_number_text(&out, v, escontext);
			break;
		default:
			{
				FjMember	local[FJ_SCRATCH_LOCAL];
				FjScratch	s;

				fj_scratch_init(&s, local);
				initStringInfo(&out);
				append_jsonb_text(&out, v, &s, escontext);
				fj_scratch_free(&s);
				break;
			}
	}
	if (SOFT_ERROR_OCCURRED(escontext))
	{
		pfree(out.data);
		return NULL;
	}
	return out.data;
}

/* -------------------------------------------------------------- values */

static Datum populate_field(RecColumn *col, Oid typid, int32 typmod, const char *colname,
							MemoryContext mcxt, Datum defaultval, const uint8_t *v, bool *isnull,
							Node *escontext);

/* A scalar column's value (v not null); (Datum) 0 after a soft error. */
static Datum
populate_scalar(RecColumn *col, int32 typmod, const uint8_t *v, Node *escontext)
{
	char	   *str;
	size_t		len;
	Datum		res = (Datum) 0;

	switch (col->kind)
	{
		case REC_FASTJSON:
			return PointerGetDatum(fastjson_from_value(v));
		case REC_JSONB:
			/* jsonb refuses \u0000 and numbers past numeric's range */
			str = fastjson_value_to_cstring(v, &len);
			(void) fjc_direct_input_call(jsonb_in, str, -1, escontext, &res);
			pfree(str);
			return res;
		case REC_JSON:
			str = fastjson_value_to_cstring(v, &len);
			break;
		default:
			str = input_text(v, escontext);
			if (str == NULL)
				return (Datum) 0;
			break;
	}
	(void) fjc_input_call(&col->input, str, col->ioparam, typmod, escontext, &res);
	pfree(str);
	return res;
}

/* ------------------------------------------------------------- arrays */

/* Filling an array column: jsonb's PopulateArrayContext. */
typedef struct RecArray
{
	ArrayBuildState *astate;
	RecColumn  *col;			/* the array column (io.array: its elements) */
	MemoryContext acxt;			/* where the array is built */
	MemoryContext mcxt;			/* the cache's */
	const char *colname;		/* for errors */
	int		   *dims;			/* each dimension's length, -1 until known */
	int		   *sizes;			/* elements so far at each dimension */
	int			ndims;			/* 0 until known */
	Node	   *escontext;		/* where a soft error goes, or NULL */
} RecArray;

/*
 * jsonb's error for a value where an array was expected; ndim: at what depth.
 * Returns (false) only after a soft error.
 */
static bool
report_expected_array(RecArray *ctx, int ndim)
{
	StringInfoData indices;
	int			i;

	if (ndim <= 0)
	{
		if (ctx->colname)
			ereturn(ctx->escontext, false,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("expected JSON array"),
					 errhint("See the value of key \"%s\".", ctx->colname)));
		ereturn(ctx->escontext, false,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("expected JSON array")));
	}
	initStringInfo(&indices);
	for (i = 0; i < ndim; i++)
		appendStringInfo(&indices, "[%d]", ctx->sizes[i]);
	if (ctx->colname)
		ereturn(ctx->escontext, false,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("expected JSON array"),
				 errhint("See the array element %s of key \"%s\".", indices.data, ctx->colname)));
	ereturn(ctx->escontext, false,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("expected JSON array"),
			 errhint("See the array element %s.", indices.data)));
}

/* The number of dimensions, now known; false after a soft error. */
static bool
assign_ndims(RecArray *ctx, int ndims)
{
	int			i;

	if (ndims <= 0)
		return report_expected_array(ctx, ndims);
	ctx->ndims = ndims;
	ctx->dims = palloc(sizeof(int) * ndims);
	ctx->sizes = palloc0(sizeof(int) * ndims);
	for (i = 0; i < ndims; i++)
		ctx->dims[i] = -1;
	return true;
}

/*
 * A sub-array of dimension ndim (0-based) is done: its length must match its
 * siblings'; false after a soft error.
 */
static bool
check_dimension(RecArray *ctx, int ndim)
{
	int			len = ctx->sizes[ndim];

	if (ctx->dims[ndim] == -1)
		ctx->dims[ndim] = len;
	else if (ctx->dims[ndim] != len)
		ereturn(ctx->escontext, false,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("malformed JSON array"),
				 errdetail("Multidimensional arrays must have sub-arrays with matching dimensions.")));
	ctx->sizes[ndim] = 0;
	if (ndim > 0)
		ctx->sizes[ndim - 1]++;
	return true;
}

/* One element, at depth ndim (1-based); false after a soft error. */
static bool
add_element(RecArray *ctx, int ndim, const uint8_t *v)
{
	bool		isnull;
	Datum		d = populate_field(ctx->col->io.array.element, ctx->col->io.array.type,
								   ctx->col->io.array.typmod, NULL, ctx->mcxt, (Datum) 0, v, &isnull,
								   ctx->escontext);

	if (SOFT_ERROR_OCCURRED(ctx->escontext))
		return false;
	accumArrayResult(ctx->astate, d, isnull, ctx->col->io.array.type, ctx->acxt);
	ctx->sizes[ndim - 1]++;
	return true;
}

/*
 * The JSON array v at depth ndim (1-based): jsonb's populate_array_dim_jsonb.
 * The number of dimensions is fixed by the first path of first elements: it
 * is the depth of the first element that is not an array (or of the first
 * empty array); deeper values are elements, whatever they are. False after a
 * soft error.
 */
static bool
populate_array_dim(RecArray *ctx, const uint8_t *v, int ndim)
{
	const uint8_t *e,
			   *end;

	check_stack_depth();
	if (FJ_TYPE(v[0]) != FJ_ARRAY)
		return report_expected_array(ctx, ndim - 1);
	e = fj_container_members(v);
	end = fj_container_members_end(v);
	if (ctx->ndims <= 0 && (e == end || FJ_TYPE(e[0]) != FJ_ARRAY) && !assign_ndims(ctx, ndim))
		return false;
	for (; e < end; e += fj_value_size(e))
	{
		CHECK_FOR_INTERRUPTS();
		if (ctx->ndims > 0 && ndim >= ctx->ndims)
		{
			if (!add_element(ctx, ndim, e))
				return false;
		}
		else if (!populate_array_dim(ctx, e, ndim + 1) || !check_dimension(ctx, ndim))
			return false;
	}
	return true;
}

/* An array column's value from the JSON array v. */
static Datum
populate_array(RecColumn *col, const char *colname, MemoryContext mcxt, const uint8_t *v,
			   Node *escontext)
{
	RecArray	ctx;
	int		   *lbs;
	int			i;
	Datum		result;

	memset(&ctx, 0, sizeof(ctx));
	ctx.col = col;
	ctx.mcxt = mcxt;
	ctx.acxt = CurrentMemoryContext;
	ctx.astate = initArrayResult(col->io.array.type, ctx.acxt, true);
	ctx.colname = colname;
	ctx.escontext = escontext;
	if (!populate_array_dim(&ctx, v, 1))
		return (Datum) 0;
	ctx.dims[0] = ctx.sizes[0];
	lbs = palloc(sizeof(int) * ctx.ndims);
	for (i = 0; i < ctx.ndims; i++)
		lbs[i] = 1;
	result = makeMdArrayResult(ctx.astate, ctx.ndims, ctx.dims, lbs, ctx.acxt, true);
	pfree(ctx.dims);
	pfree(ctx.sizes);
	pfree(lbs);
	return result;
}

/* ---------------------------------------------------------- composites */

/* The columns' caches of a row type, (re)made for tupdesc. */
static RecRecord *
record_columns(RecRecord **record_p, TupleDesc tupdesc, MemoryContext mcxt)
{
	RecRecord  *record = *record_p;
	int			n = tupdesc->natts;

	if (record == NULL || record->ncolumns != n)
	{
		record = MemoryContextAllocZero(mcxt, offsetof(RecRecord, columns) + sizeof(RecColumn) * n);
		record->ncolumns = n;
		*record_p = record;
	}
	if (record->type != tupdesc->tdtypeid || record->typmod != tupdesc->tdtypmod)
	{
		memset(record, 0, offsetof(RecRecord, columns) + sizeof(RecColumn) * n);
		record->type = tupdesc->tdtypeid;
		record->typmod = tupdesc->tdtypmod;
		record->ncolumns = n;
	}
	return record;
}

/*
 * A row of type tupdesc from the object obj: each column from the member of
 * its name; defaultval (or NULL) gives the columns the object lacks. NULL
 * after a soft error in escontext.
 */
static HeapTupleHeader
populate_record(TupleDesc tupdesc, RecRecord **record_p, HeapTupleHeader defaultval,
				MemoryContext mcxt, const uint8_t *obj, Node *escontext)
{
	int			n = tupdesc->natts;
	RecRecord  *record;
	Datum	   *values;
	bool	   *nulls;
	HeapTuple	res;
	int			i;

	/* nothing to change; without a base, the domains must see their NULLs */
	if (defaultval && fj_container_count(obj) == 0)
		return defaultval;
	record = record_columns(record_p, tupdesc, mcxt);
	values = palloc(sizeof(Datum) * Max(n, 1));
	nulls = palloc(sizeof(bool) * Max(n, 1));
	if (defaultval)
	{
		HeapTupleData tuple;

		tuple.t_len = HeapTupleHeaderGetDatumLength(defaultval);
		ItemPointerSetInvalid(&tuple.t_self);
		tuple.t_tableOid = InvalidOid;
		tuple.t_data = defaultval;
		heap_deform_tuple(&tuple, tupdesc, values, nulls);
	}
	else
		for (i = 0; i < n; i++)
		{
			values[i] = (Datum) 0;
			nulls[i] = true;
		}
	for (i = 0; i < n; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		const char *colname = NameStr(att->attname);
		const uint8_t *v;

		if (att->attisdropped)
		{
			nulls[i] = true;
			continue;
		}
		v = fj_object_get(obj, colname, strlen(colname));
		/* a missing key keeps the base's value (assumed valid for its domain) */
		if (defaultval && v == NULL)
			continue;
		values[i] = populate_field(&record->columns[i], att->atttypid, att->atttypmod, colname,
								   mcxt, nulls[i] ? (Datum) 0 : values[i], v, &nulls[i], escontext);
		if (SOFT_ERROR_OCCURRED(escontext))
		{
			pfree(values);
			pfree(nulls);
			return NULL;
		}
	}
	res = heap_form_tuple(tupdesc, values, nulls);
	pfree(values);
	pfree(nulls);
	return res->t_data;
}

/*
 * A composite value (of type typid: a row type, a domain over one, or RECORD)
 * from v, which must be an object unless *isnull; (Datum) 0 after a soft
 * error in escontext.
 */
static Datum
populate_composite(RecComposite *io, Oid typid, MemoryContext mcxt, HeapTupleHeader defaultval,
				   const uint8_t *v, bool *isnull, Node *escontext)
{
	Datum		result = (Datum) 0;

	update_tupdesc(io, mcxt);
	if (!*isnull)
	{
		HeapTupleHeader row;

		if (FJ_TYPE(v[0]) != FJ_OBJECT)
			ereturn(escontext, (Datum) 0,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot call %s on %s", "populate_composite",
							FJ_TYPE(v[0]) == FJ_ARRAY ? "an array" : "a scalar")));
		row = populate_record(io->tupdesc, &io->record, defaultval, mcxt, v, escontext);
		if (row == NULL)
			return (Datum) 0;
		result = HeapTupleHeaderGetDatum(row);
	}
	if (typid != io->base_typid && typid != RECORDOID &&
		!fjc_domain_check(result, *isnull, typid, &io->domain_info, mcxt, escontext))
		return (Datum) 0;
	return result;
}

/*
 * The value of a column (or array element) of type typid/typmod from v (NULL:
 * the key is missing); jsonb's populate_record_field. After a soft error in
 * escontext the result means nothing.
 */
static Datum
populate_field(RecColumn *col, Oid typid, int32 typmod, const char *colname, MemoryContext mcxt,
			   Datum defaultval, const uint8_t *v, bool *isnull, Node *escontext)
{
	RecTypeCat	cat;

	check_stack_depth();
	if (col->typid != typid || col->typmod != typmod)
		prepare_column(col, typid, typmod, mcxt, true);
	*isnull = v == NULL || is_json_null(v);
	cat = col->cat;
	/* a string for an array or a row goes through the type's input function */
	if (v && FJ_TYPE(v[0]) == FJ_STRING &&
		(cat == REC_ARRAY || cat == REC_COMPOSITE || cat == REC_COMPOSITE_DOMAIN))
		cat = REC_SCALAR;
	/* NULL is NULL, unless a domain has a say */
	if (*isnull && cat != REC_DOMAIN && cat != REC_COMPOSITE_DOMAIN)
		return (Datum) 0;
	switch (cat)
	{
		case REC_SCALAR:
			return populate_scalar(col, typmod, v, escontext);
		case REC_ARRAY:
			return populate_array(col, colname, mcxt, v, escontext);
		case REC_COMPOSITE:
		case REC_COMPOSITE_DOMAIN:
			return populate_composite(&col->io.composite, typid, mcxt,
									  DatumGetPointer(defaultval) ? DatumGetHeapTupleHeader(defaultval) : NULL,
									  v, isnull, escontext);
		case REC_DOMAIN:
			{
				Datum		res = (Datum) 0;

				if (!*isnull)
				{
					res = populate_field(col->io.domain.base, col->io.domain.typid,
										 col->io.domain.typmod, colname, mcxt, (Datum) 0, v, isnull,
										 escontext);
					if (SOFT_ERROR_OCCURRED(escontext))
						return (Datum) 0;
				}
				(void) fjc_domain_check(res, *isnull, typid, &col->io.domain.domain_info, mcxt,
										escontext);
				return res;
			}
	}
	elog(ERROR, "unrecognized type category %d", (int) cat);
	return (Datum) 0;
}

/* ----------------------------------------------------- SQL functions */

/* The result's row type from the base record's declared type. */
static void
type_from_argument(FunctionCallInfo fcinfo, const char *fname, RecCache *cache)
{
	cache->argtype = get_fn_expr_argtype(fcinfo->flinfo, 0);
	prepare_column(&cache->c, cache->argtype, -1, cache->mcxt, false);
	if (cache->c.cat != REC_COMPOSITE && cache->c.cat != REC_COMPOSITE_DOMAIN)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("first argument of %s must be a row type", fname)));
}

/* The result's row type from the query (a column definition list, say). */
static void
type_from_query(FunctionCallInfo fcinfo, const char *fname, RecCache *cache)
{
	TupleDesc	tupdesc;
	MemoryContext old;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("could not determine row type for result of %s", fname),
				 errhint("Provide a non-null record argument, "
						 "or call the function in the FROM clause "
						 "using a column definition list.")));
	cache->argtype = tupdesc->tdtypeid;
	if (cache->c.io.composite.tupdesc)
		FreeTupleDesc(cache->c.io.composite.tupdesc);
	old = MemoryContextSwitchTo(cache->mcxt);
	cache->c.io.composite.tupdesc = CreateTupleDescCopy(tupdesc);
	MemoryContextSwitchTo(old);
	cache->c.io.composite.base_typid = tupdesc->tdtypeid;
	cache->c.io.composite.base_typmod = tupdesc->tdtypmod;
}

/*
 * The cache and the base record (NULL if none) of a call: the row type is
 * found on the first call, and for a base of type RECORD from each base.
 */
static RecCache *
record_setup(FunctionCallInfo fcinfo, const char *fname, bool have_base, HeapTupleHeader *base)
{
	RecCache   *cache = fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(RecCache));
		cache->mcxt = fcinfo->flinfo->fn_mcxt;
		fcinfo->flinfo->fn_extra = cache;
		if (have_base)
			type_from_argument(fcinfo, fname, cache);
		else
			type_from_query(fcinfo, fname, cache);
	}
	*base = NULL;
	if (!have_base)
		return cache;
	if (!PG_ARGISNULL(0))
	{
		*base = PG_GETARG_HEAPTUPLEHEADER(0);
		if (cache->argtype == RECORDOID)
		{
			cache->c.io.composite.base_typid = HeapTupleHeaderGetTypeId(*base);
			cache->c.io.composite.base_typmod = HeapTupleHeaderGetTypMod(*base);
		}
	}
	else if (cache->argtype == RECORDOID)
		type_from_query(fcinfo, fname, cache);
	return cache;
}

/*
 * fastjson_populate_record and fastjson_to_record; with escontext, whether
 * the row could be made (fastjson_populate_record_valid).
 */
static Datum
record_worker(FunctionCallInfo fcinfo, const char *fname, bool have_base, Node *escontext)
{
	int			json_arg = have_base ? 1 : 0;
	HeapTupleHeader base;
	RecCache   *cache = record_setup(fcinfo, fname, have_base, &base);
	Fastjson   *d;
	bool		isnull = false;
	Datum		result;

	if (PG_ARGISNULL(json_arg))
	{
		if (base)
			PG_RETURN_POINTER(base);
		PG_RETURN_NULL();
	}
	d = PG_GETARG_FASTJSON_P(json_arg);
	result = populate_composite(&cache->c.io.composite, cache->argtype, cache->mcxt, base,
								FJ_ROOT(d), &isnull, escontext);
	PG_RETURN_DATUM(result);
}

PG_FUNCTION_INFO_V1(fastjson_populate_record);

/* fastjson_populate_record(base, doc): jsonb_populate_record. */
Datum
fastjson_populate_record(PG_FUNCTION_ARGS)
{
	return record_worker(fcinfo, "fastjson_populate_record", true, NULL);
}

PG_FUNCTION_INFO_V1(fastjson_populate_record_valid);

/*
 * fastjson_populate_record_valid(base, doc): jsonb_populate_record_valid
 * (17), whether fastjson_populate_record would make a row. The errors of the
 * document's values (their types' input functions, domain checks, array
 * shapes, an object where a row is wanted) answer false; the others, such as
 * a base that is not a row, are raised. Before 17 a domain check cannot
 * report softly, so it is an error there.
 */
Datum
fastjson_populate_record_valid(PG_FUNCTION_ARGS)
{
#if FJC_SOFT_RECORDS
	ErrorSaveContext escontext = {.type = T_ErrorSaveContext};

	(void) record_worker(fcinfo, "fastjson_populate_record", true, (Node *) &escontext);
	PG_RETURN_BOOL(!escontext.error_occurred);
#else
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("fastjson_populate_record_valid requires PostgreSQL 17 or later")));
	PG_RETURN_NULL();
#endif
}

PG_FUNCTION_INFO_V1(fastjson_to_record);

/* fastjson_to_record(doc) AS t(...): jsonb_to_record. */
Datum
fastjson_to_record(PG_FUNCTION_ARGS)
{
	return record_worker(fcinfo, "fastjson_to_record", false, NULL);
}

/* fastjson_populate_recordset and fastjson_to_recordset: one row per object of an array. */
static Datum
recordset_worker(FunctionCallInfo fcinfo, const char *fname, bool have_base)
{
	int			json_arg = have_base ? 1 : 0;
	ReturnSetInfo *rsi = (ReturnSetInfo *) fcinfo->resultinfo;
	HeapTupleHeader base;
	RecCache   *cache;
	RecComposite *io;
	Tuplestorestate *store;
	MemoryContext old;
	Fastjson   *d;
	const uint8_t *root,
			   *e,
			   *end;

	if (!rsi || !IsA(rsi, ReturnSetInfo))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));
	if (!(rsi->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("materialize mode required, but it is not allowed in this context")));
	rsi->returnMode = SFRM_Materialize;

	cache = record_setup(fcinfo, fname, have_base, &base);
	io = &cache->c.io.composite;
	/* a NULL document: no rows */
	if (PG_ARGISNULL(json_arg))
		PG_RETURN_NULL();
	/* the row type even when there are no rows */
	update_tupdesc(io, cache->mcxt);

	old = MemoryContextSwitchTo(rsi->econtext->ecxt_per_query_memory);
	store = tuplestore_begin_heap(rsi->allowedModes & SFRM_Materialize_Random, false, work_mem);
	MemoryContextSwitchTo(old);

	d = PG_GETARG_FASTJSON_P(json_arg);
	root = FJ_ROOT(d);
	if (FJ_TYPE(root[0]) != FJ_ARRAY)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot call %s on a non-array", fname)));
	end = fj_container_members_end(root);
	for (e = fj_container_members(root); e < end; e += fj_value_size(e))
	{
		HeapTupleHeader row;
		HeapTupleData tuple;

		CHECK_FOR_INTERRUPTS();
		if (FJ_TYPE(e[0]) != FJ_OBJECT)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("argument of %s must be an array of objects", fname)));
		update_tupdesc(io, cache->mcxt);
		row = populate_record(io->tupdesc, &io->record, base, cache->mcxt, e, NULL);
		if (cache->c.cat == REC_COMPOSITE_DOMAIN)
			domain_check(HeapTupleHeaderGetDatum(row), false, cache->argtype, &io->domain_info,
						 cache->mcxt);
		tuple.t_len = HeapTupleHeaderGetDatumLength(row);
		ItemPointerSetInvalid(&tuple.t_self);
		tuple.t_tableOid = InvalidOid;
		tuple.t_data = row;
		tuplestore_puttuple(store, &tuple);
	}
	/* the executor frees setDesc; the cache keeps its own */
	rsi->setResult = store;
	rsi->setDesc = CreateTupleDescCopy(io->tupdesc);
	PG_RETURN_NULL();
}

PG_FUNCTION_INFO_V1(fastjson_populate_recordset);

/* fastjson_populate_recordset(base, doc): jsonb_populate_recordset. */
Datum
fastjson_populate_recordset(PG_FUNCTION_ARGS)
{
	return recordset_worker(fcinfo, "fastjson_populate_recordset", true);
}

PG_FUNCTION_INFO_V1(fastjson_to_recordset);

/* fastjson_to_recordset(doc) AS t(...): jsonb_to_recordset. */
Datum
fastjson_to_recordset(PG_FUNCTION_ARGS)
{
	return recordset_worker(fcinfo, "fastjson_to_recordset", false);
}
