/*
 * fastjson_build.c — SQL values to JSON: to_fastjson, fastjson_build_object,
 * fastjson_build_array and fastjson_object (text arrays of pairs), and the
 * converter the aggregates share.
 *
 * The conversion follows to_jsonb (jsonb.c, datum_to_jsonb) category by
 * category, so to_fastjson(x)::jsonb = to_jsonb(x) for every x. Where jsonb
 * would normalise, fastjson keeps what it is given: json input keeps its
 * duplicate keys and number spellings, and a number keeps the spelling its
 * output function gives (1e+300, not 1000...000).
 */
#include "fastjson.h"
#include "fastjson_funcs.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "parser/parse_coerce.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include "utf8.h"

/* fastjson_io.c: how fastjson_categorize_type recognises the fastjson type. */
extern Datum fastjson_out(PG_FUNCTION_ARGS);

/* ------------------------------------------------------------ categories */

/* Whether a type is fastjson: its output function is ours. */
static bool
is_fastjson_type(Oid typoid)
{
	Oid			outfunc;
	bool		isvarlena;
	FmgrInfo	flinfo;

	getTypeOutputInfo(typoid, &outfunc, &isvarlena);
	fmgr_info(outfunc, &flinfo);
	return flinfo.fn_addr == fastjson_out;
}

void
fastjson_categorize_type(Oid typoid, FjTypeCategory *cat, Oid *func)
{
	bool		isvarlena;

	typoid = getBaseType(typoid);
	*func = InvalidOid;
	switch (typoid)
	{
		case BOOLOID:
			*cat = FJ_CAT_BOOL;
			return;
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case FLOAT4OID:
		case FLOAT8OID:
		case NUMERICOID:
			getTypeOutputInfo(typoid, func, &isvarlena);
			*cat = FJ_CAT_NUMERIC;
			return;
		case DATEOID:
			*cat = FJ_CAT_DATE;
			return;
		case TIMESTAMPOID:
			*cat = FJ_CAT_TIMESTAMP;
			return;
		case TIMESTAMPTZOID:
			*cat = FJ_CAT_TIMESTAMPTZ;
			return;
		case JSONBOID:
			*cat = FJ_CAT_JSONB;
			return;
		case JSONOID:
			*cat = FJ_CAT_JSON;
			return;
		default:
			break;
	}
	if (OidIsValid(get_element_type(typoid)) || typoid == ANYARRAYOID ||
		typoid == ANYCOMPATIBLEARRAYOID || typoid == RECORDARRAYOID)
	{
		*cat = FJ_CAT_ARRAY;
		return;
	}
	if (type_is_rowtype(typoid))
	{
		*cat = FJ_CAT_COMPOSITE;
		return;
	}
	*cat = FJ_CAT_OTHER;
	/* as to_jsonb: a non-built-in type with a cast to json goes through it */
	if (typoid >= FirstNormalObjectId)
	{
		Oid			castfunc;

		if (is_fastjson_type(typoid))
		{
			*cat = FJ_CAT_FASTJSON;
			return;
		}
		if (find_coercion_pathway(JSONOID, typoid, COERCION_EXPLICIT, &castfunc) == COERCION_PATH_FUNC &&
			OidIsValid(castfunc))
		{
			*cat = FJ_CAT_JSONCAST;
			*func = castfunc;
			return;
		}
	}
	getTypeOutputInfo(typoid, func, &isvarlena);
}

/* ------------------------------------------------------------- converter */

static void add_array(fj_builder *b, Datum array);
static void add_composite(fj_builder *b, Datum composite);

void
fastjson_check_utf8(const char *s, size_t len)
{
	if (GetDatabaseEncoding() != PG_UTF8 && !fj_utf8_valid((const uint8_t *) s, len))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("invalid byte sequence for encoding \"UTF8\""),
				 errdetail("fastjson strings must be valid UTF-8.")));
}

/* A string value or key; text from outside a UTF8 database is checked first. */
static void
add_string(fj_builder *b, const char *s, size_t len, bool key)
{
	fastjson_check_utf8(s, len);
	if (key)
		fj_builder_key(b, s, len);
	else
		fj_builder_string(b, s, len);
}

/* A number from an output function: kept as written when it is JSON, else as numeric prints it. */
static void
add_number(fj_builder *b, const char *s)
{
	char	   *canonical;

	if (fj_builder_number(b, s, strlen(s)))
		return;
	canonical = DatumGetCString(DirectFunctionCall1(numeric_out,
													DirectFunctionCall3(numeric_in, CStringGetDatum(s),
																		ObjectIdGetDatum(InvalidOid),
																		Int32GetDatum(-1))));
	if (!fj_builder_number(b, canonical, strlen(canonical)))
		elog(ERROR, "numeric output \"%s\" is not a JSON number", canonical);
}

/* The tape root of json text, parsed (duplicate keys and spellings kept). */
static void
add_json_text(fj_builder *b, text *t)
{
	Fastjson   *d = fastjson_parse_text(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));

	fj_builder_value(b, FJ_ROOT(d));
	pfree(d);
}

/* One jsonb scalar. */
static void
add_jsonb_scalar(fj_builder *b, const JsonbValue *jv, bool key)
{
	switch (jv->type)
	{
		case jbvNull:
			fj_builder_null(b);
			break;
		case jbvBool:
			fj_builder_bool(b, jv->val.boolean);
			break;
		case jbvString:
			add_string(b, jv->val.string.val, (size_t) jv->val.string.len, key);
			break;
		case jbvNumeric:
			add_number(b, DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(jv->val.numeric))));
			break;
		default:
			elog(ERROR, "unexpected jsonb value type %d", (int) jv->type);
	}
}

/* A jsonb value, walked with jsonb's iterator. */
static void
add_jsonb(fj_builder *b, Jsonb *jb)
{
	JsonbIterator *it = JsonbIteratorInit(&jb->root);
	JsonbValue	jv;
	JsonbIteratorToken tok;
	bool		raw_scalar = false;

	while ((tok = JsonbIteratorNext(&it, &jv, false)) != WJB_DONE)
	{
		switch (tok)
		{
			case WJB_BEGIN_ARRAY:
				if (jv.val.array.rawScalar)
					raw_scalar = true;
				else
					fj_builder_begin_array(b);
				break;
			case WJB_BEGIN_OBJECT:
				fj_builder_begin_object(b);
				break;
			case WJB_END_ARRAY:
				if (!raw_scalar)
					fj_builder_end(b);
				break;
			case WJB_END_OBJECT:
				fj_builder_end(b);
				break;
			case WJB_KEY:
				add_jsonb_scalar(b, &jv, true);
				break;
			case WJB_VALUE:
			case WJB_ELEM:
				add_jsonb_scalar(b, &jv, false);
				break;
			default:
				elog(ERROR, "unexpected jsonb iterator token %d", (int) tok);
		}
	}
}

void
fastjson_add_datum(fj_builder *b, Datum val, bool isnull, FjTypeCategory cat, Oid func, bool key)
{
	char	   *s;

	check_stack_depth();
	if (isnull)
	{
		Assert(!key);
		fj_builder_null(b);
		return;
	}
	if (key && (cat == FJ_CAT_ARRAY || cat == FJ_CAT_COMPOSITE || cat == FJ_CAT_JSON ||
				cat == FJ_CAT_JSONB || cat == FJ_CAT_FASTJSON || cat == FJ_CAT_JSONCAST))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("key value must be scalar, not array, composite, or json")));
	switch (cat)
	{
		case FJ_CAT_NULL:
			fj_builder_null(b);
			break;
		case FJ_CAT_BOOL:
			if (key)
				add_string(b, DatumGetBool(val) ? "true" : "false", DatumGetBool(val) ? 4 : 5, true);
			else
				fj_builder_bool(b, DatumGetBool(val));
			break;
		case FJ_CAT_NUMERIC:
			s = OidOutputFunctionCall(func, val);
			/* as to_jsonb: NaN and the infinities (the only outputs with an N) are strings */
			if (key || strchr(s, 'N') || strchr(s, 'n'))
				add_string(b, s, strlen(s), key);
			else
				add_number(b, s);
			break;
		case FJ_CAT_DATE:
			s = JsonEncodeDateTime(NULL, val, DATEOID, NULL);
			add_string(b, s, strlen(s), key);
			break;
		case FJ_CAT_TIMESTAMP:
			s = JsonEncodeDateTime(NULL, val, TIMESTAMPOID, NULL);
			add_string(b, s, strlen(s), key);
			break;
		case FJ_CAT_TIMESTAMPTZ:
			s = JsonEncodeDateTime(NULL, val, TIMESTAMPTZOID, NULL);
			add_string(b, s, strlen(s), key);
			break;
		case FJ_CAT_JSON:
			add_json_text(b, DatumGetTextPP(val));
			break;
		case FJ_CAT_JSONCAST:
			add_json_text(b, DatumGetTextPP(OidFunctionCall1(func, val)));
			break;
		case FJ_CAT_JSONB:
			add_jsonb(b, DatumGetJsonbP(val));
			break;
		case FJ_CAT_FASTJSON:
			fj_builder_value(b, FJ_ROOT(DatumGetFastjsonP(val)));
			break;
		case FJ_CAT_ARRAY:
			add_array(b, val);
			break;
		case FJ_CAT_COMPOSITE:
			add_composite(b, val);
			break;
		case FJ_CAT_OTHER:
			s = OidOutputFunctionCall(func, val);
			add_string(b, s, strlen(s), key);
			break;
	}
}

/* One dimension of an array: nested JSON arrays down to the elements. */
static void
add_array_dim(fj_builder *b, int dim, int ndims, const int *dims, const Datum *vals,
			  const bool *nulls, int *next, FjTypeCategory cat, Oid func)
{
	int			i;

	fj_builder_begin_array(b);
	for (i = 0; i < dims[dim]; i++)
	{
		if (dim + 1 == ndims)
		{
			fastjson_add_datum(b, vals[*next], nulls[*next], cat, func, false);
			(*next)++;
		}
		else
			add_array_dim(b, dim + 1, ndims, dims, vals, nulls, next, cat, func);
	}
	fj_builder_end(b);
}

static void
add_array(fj_builder *b, Datum array)
{
	ArrayType  *arr = DatumGetArrayTypeP(array);
	Oid			elemtype = ARR_ELEMTYPE(arr);
	int			ndims = ARR_NDIM(arr);
	int		   *dims = ARR_DIMS(arr);
	int			nitems = ArrayGetNItems(ndims, dims);
	int			next = 0;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *vals;
	bool	   *nulls;
	FjTypeCategory cat;
	Oid			func;

	if (nitems <= 0)
	{
		fj_builder_begin_array(b);
		fj_builder_end(b);
		return;
	}
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	fastjson_categorize_type(elemtype, &cat, &func);
	deconstruct_array(arr, elemtype, typlen, typbyval, typalign, &vals, &nulls, &nitems);
	add_array_dim(b, 0, ndims, dims, vals, nulls, &next, cat, func);
	pfree(vals);
	pfree(nulls);
}

/* A row: an object of its (not dropped) columns, in column order. */
static void
add_composite(fj_builder *b, Datum composite)
{
	HeapTupleHeader td = DatumGetHeapTupleHeader(composite);
	TupleDesc	tupdesc = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(td),
												 HeapTupleHeaderGetTypMod(td));
	HeapTupleData tuple;
	int			i;

	tuple.t_len = HeapTupleHeaderGetDatumLength(td);
	tuple.t_data = td;
	fj_builder_begin_object(b);
	for (i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		const char *name;
		bool		isnull;
		Datum		val;
		FjTypeCategory cat = FJ_CAT_NULL;
		Oid			func = InvalidOid;

		if (att->attisdropped)
			continue;
		name = NameStr(att->attname);
		add_string(b, name, strlen(name), true);
		val = heap_getattr(&tuple, i + 1, tupdesc, &isnull);
		if (!isnull)
			fastjson_categorize_type(att->atttypid, &cat, &func);
		fastjson_add_datum(b, val, isnull, cat, func, false);
	}
	fj_builder_end(b);
	ReleaseTupleDesc(tupdesc);
}

/* Add argument i of a variadic call (type unknown: to_jsonb's error). */
static void
add_arg(fj_builder *b, Datum val, bool isnull, Oid type, bool key)
{
	FjTypeCategory cat = FJ_CAT_NULL;
	Oid			func = InvalidOid;

	if (type == InvalidOid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine input data type")));
	if (!isnull)
		fastjson_categorize_type(type, &cat, &func);
	fastjson_add_datum(b, val, isnull, cat, func, key);
}

/* ------------------------------------------------------- SQL functions */

/* The category of to_fastjson's argument type, kept across calls. */
typedef struct ToFastjsonCache
{
	Oid			type;
	FjTypeCategory cat;
	Oid			func;
} ToFastjsonCache;

PG_FUNCTION_INFO_V1(to_fastjson);

/* to_fastjson(anyelement): any SQL value as JSON, as to_jsonb converts it. */
Datum
to_fastjson(PG_FUNCTION_ARGS)
{
	Datum		val = PG_GETARG_DATUM(0);
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, 0);
	ToFastjsonCache *cache = (ToFastjsonCache *) fcinfo->flinfo->fn_extra;
	fj_builder	b;

	if (type == InvalidOid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine input data type")));
	fastjson_check_encoding();
	if (cache == NULL || cache->type != type)
	{
		if (cache == NULL)
			cache = fcinfo->flinfo->fn_extra = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(ToFastjsonCache));
		cache->type = InvalidOid;
		fastjson_categorize_type(type, &cache->cat, &cache->func);
		cache->type = type;
	}
	/* fastjson to fastjson: the same document, the same datum */
	if (cache->cat == FJ_CAT_FASTJSON)
		PG_RETURN_DATUM(val);
	fastjson_builder_init(&b);
	fastjson_add_datum(&b, val, false, cache->cat, cache->func, false);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

PG_FUNCTION_INFO_V1(fastjson_build_object);

/* fastjson_build_object(key, value, ...): keys and values in the order given, duplicates kept. */
Datum
fastjson_build_object(PG_FUNCTION_ARGS)
{
	Datum	   *args;
	bool	   *nulls;
	Oid		   *types;
	int			nargs = extract_variadic_args(fcinfo, 0, true, &args, &types, &nulls);
	int			i;
	fj_builder	b;

	if (nargs < 0)
		PG_RETURN_NULL();
	if (nargs % 2 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument list must have even number of elements"),
				 errhint("The arguments of %s must consist of alternating keys and values.",
						 "fastjson_build_object()")));
	fastjson_check_encoding();
	fastjson_builder_init(&b);
	fj_builder_begin_object(&b);
	for (i = 0; i < nargs; i += 2)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("argument %d: key must not be null", i + 1)));
		add_arg(&b, args[i], false, types[i], true);
		add_arg(&b, args[i + 1], nulls[i + 1], types[i + 1], false);
	}
	fj_builder_end(&b);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

PG_FUNCTION_INFO_V1(fastjson_build_object_noargs);

/* fastjson_build_object(): {} */
Datum
fastjson_build_object_noargs(PG_FUNCTION_ARGS)
{
	fj_builder	b;

	(void) fcinfo;
	fastjson_builder_init(&b);
	fj_builder_begin_object(&b);
	fj_builder_end(&b);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

PG_FUNCTION_INFO_V1(fastjson_build_array);

/* fastjson_build_array(value, ...) */
Datum
fastjson_build_array(PG_FUNCTION_ARGS)
{
	Datum	   *args;
	bool	   *nulls;
	Oid		   *types;
	int			nargs = extract_variadic_args(fcinfo, 0, true, &args, &types, &nulls);
	int			i;
	fj_builder	b;

	if (nargs < 0)
		PG_RETURN_NULL();
	fastjson_check_encoding();
	fastjson_builder_init(&b);
	fj_builder_begin_array(&b);
	for (i = 0; i < nargs; i++)
		add_arg(&b, args[i], nulls[i], types[i], false);
	fj_builder_end(&b);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

PG_FUNCTION_INFO_V1(fastjson_build_array_noargs);

/* fastjson_build_array(): [] */
Datum
fastjson_build_array_noargs(PG_FUNCTION_ARGS)
{
	fj_builder	b;

	(void) fcinfo;
	fastjson_builder_init(&b);
	fj_builder_begin_array(&b);
	fj_builder_end(&b);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

/* ---------------------------------------------------- fastjson_object */

/* The pair key: value of an object from text[] (a NULL value is JSON null). */
static void
add_text_pair(fj_builder *b, Datum key, bool key_null, Datum val, bool val_null)
{
	text	   *t;

	if (key_null)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("null value not allowed for object key")));
	t = DatumGetTextPP(key);
	add_string(b, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), true);
	if (val_null)
		fj_builder_null(b);
	else
	{
		t = DatumGetTextPP(val);
		add_string(b, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), false);
	}
}

PG_FUNCTION_INFO_V1(fastjson_object);

/*
 * fastjson_object(text[]): jsonb_object. A one-dimensional array of keys and
 * values in turn, or a two-dimensional one of [key, value] rows; values are
 * strings (NULL: JSON null). Pairs are kept in order, duplicate keys too: the
 * last is operative, so the result equals jsonb_object's as jsonb.
 */
Datum
fastjson_object(PG_FUNCTION_ARGS)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	int			ndims = ARR_NDIM(arr);
	Datum	   *elems;
	bool	   *nulls;
	int			n,
				i;
	fj_builder	b;

	switch (ndims)
	{
		case 0:
			break;
		case 1:
			if (ARR_DIMS(arr)[0] % 2 != 0)
				ereport(ERROR,
						(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
						 errmsg("array must have even number of elements")));
			break;
		case 2:
			if (ARR_DIMS(arr)[1] != 2)
				ereport(ERROR,
						(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
						 errmsg("array must have two columns")));
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
					 errmsg("wrong number of array subscripts")));
	}
	fastjson_check_encoding();
	fastjson_builder_init(&b);
	fj_builder_begin_object(&b);
	if (ndims > 0)
	{
		deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
		for (i = 0; i + 1 < n; i += 2)
			add_text_pair(&b, elems[i], nulls[i], elems[i + 1], nulls[i + 1]);
	}
	fj_builder_end(&b);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

PG_FUNCTION_INFO_V1(fastjson_object_two_arg);

/* fastjson_object(keys text[], values text[]): jsonb_object's two-array form. */
Datum
fastjson_object_two_arg(PG_FUNCTION_ARGS)
{
	ArrayType  *karr = PG_GETARG_ARRAYTYPE_P(0);
	ArrayType  *varr = PG_GETARG_ARRAYTYPE_P(1);
	int			ndims = ARR_NDIM(karr);
	Datum	   *keys,
			   *vals;
	bool	   *knulls,
			   *vnulls;
	int			nk,
				nv,
				i;
	fj_builder	b;

	if (ndims > 1 || ndims != ARR_NDIM(varr))
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("wrong number of array subscripts")));
	fastjson_check_encoding();
	fastjson_builder_init(&b);
	fj_builder_begin_object(&b);
	if (ndims > 0)
	{
		deconstruct_array(karr, TEXTOID, -1, false, TYPALIGN_INT, &keys, &knulls, &nk);
		deconstruct_array(varr, TEXTOID, -1, false, TYPALIGN_INT, &vals, &vnulls, &nv);
		if (nk != nv)
			ereport(ERROR,
					(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
					 errmsg("mismatched array dimensions")));
		for (i = 0; i < nk; i++)
			add_text_pair(&b, keys[i], knulls[i], vals[i], vnulls[i]);
	}
	fj_builder_end(&b);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}
