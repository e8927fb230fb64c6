/*
 * fastjson_extract.c — reading into a document without re-parsing it:
 * -> and ->> (by key and by index), #> and #>> (by path), fastjson_typeof
 * and fastjson_array_length. Lookups follow json/jsonb: the last of duplicate
 * keys wins; a missing key, a wrong shape or an index out of range is NULL;
 * negative indexes count from the end.
 */
#include "fastjson.h"
#include "fastjson_funcs.h"

#include <limits.h>

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"

/* Parse a path element as an array index, jsonb-style; false if it is not one. */
static bool
path_index(const char *s, int64 *out)
{
	char	   *end;
	long long	v;

	if (*s == '\0')
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno != 0 || v > INT_MAX || v < INT_MIN)
		return false;
	*out = v;
	return true;
}

/*
 * A text[] path, parsed once per query: queries pass the same constant path
 * for every row, so the parsed form is kept in fn_extra and reused while the
 * array's bytes are the same.
 */
typedef struct parsed_path
{
	int			n;				/* elements */
	bool		has_null;		/* some element is NULL: every lookup is NULL */
	char	  **keys;			/* element text (NUL-terminated) */
	int		   *lens;
	bool	   *is_index;		/* the text is an array index ... */
	int64	   *index;			/* ... with this value */
	Size		raw_len;		/* a copy of the array, to recognise it */
	char	   *raw;
} parsed_path;

static parsed_path *
get_path(FunctionCallInfo fcinfo, ArrayType *path)
{
	parsed_path *pp = (parsed_path *) fcinfo->flinfo->fn_extra;
	Size		raw_len = VARSIZE(path);
	MemoryContext old;
	Datum	   *elems;
	bool	   *nulls;
	int			i;

	if (pp && pp->raw_len == raw_len && memcmp(pp->raw, path, raw_len) == 0)
		return pp;
	if (pp)
	{
		/* a different path (not a constant): free the old one, keep memory flat */
		for (i = 0; i < pp->n; i++)
			if (pp->keys[i])
				pfree(pp->keys[i]);
		pfree(pp->keys);
		pfree(pp->lens);
		pfree(pp->is_index);
		pfree(pp->index);
		pfree(pp->raw);
		pfree(pp);
		fcinfo->flinfo->fn_extra = NULL;
	}
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	pp = palloc0(sizeof(parsed_path));
	deconstruct_array(path, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &pp->n);
	pp->keys = palloc0(sizeof(char *) * Max(pp->n, 1));
	pp->lens = palloc(sizeof(int) * Max(pp->n, 1));
	pp->is_index = palloc(sizeof(bool) * Max(pp->n, 1));
	pp->index = palloc(sizeof(int64) * Max(pp->n, 1));
	for (i = 0; i < pp->n; i++)
	{
		if (nulls[i])
		{
			pp->has_null = true;
			continue;
		}
		pp->keys[i] = TextDatumGetCString(elems[i]);
		pp->lens[i] = (int) strlen(pp->keys[i]);
		pp->is_index[i] = path_index(pp->keys[i], &pp->index[i]);
	}
	pfree(elems);
	pfree(nulls);
	pp->raw_len = raw_len;
	pp->raw = palloc(raw_len);
	memcpy(pp->raw, path, raw_len);
	fcinfo->flinfo->fn_extra = pp;
	MemoryContextSwitchTo(old);
	return pp;
}

/* Follow a text[] path from root; NULL if any step is missing or the path has a NULL. */
static const uint8_t *
follow_path(FunctionCallInfo fcinfo, const uint8_t *root, ArrayType *path)
{
	parsed_path *pp = get_path(fcinfo, path);
	const uint8_t *v = root;
	int			i;

	if (pp->has_null)
		return NULL;
	for (i = 0; i < pp->n && v; i++)
	{
		if (FJ_TYPE(v[0]) == FJ_OBJECT)
			v = fj_object_get(v, pp->keys[i], pp->lens[i]);
		else if (FJ_TYPE(v[0]) == FJ_ARRAY)
			v = pp->is_index[i] ? fj_array_get(v, pp->index[i]) : NULL;
		else
			return NULL;
	}
	return v;
}

PG_FUNCTION_INFO_V1(fastjson_object_field);

/* doc -> 'key' */
Datum
fastjson_object_field(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	text	   *key = PG_GETARG_TEXT_PP(1);
	const uint8_t *v = fj_object_get(FJ_ROOT(d), VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key));

	if (!v)
		PG_RETURN_NULL();
	PG_RETURN_FASTJSON_P(fastjson_from_value(v));
}

PG_FUNCTION_INFO_V1(fastjson_object_field_text);

/* doc ->> 'key' */
Datum
fastjson_object_field_text(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	text	   *key = PG_GETARG_TEXT_PP(1);
	const uint8_t *v = fj_object_get(FJ_ROOT(d), VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key));
	text	   *t;

	if (!v || !(t = fastjson_value_as_text(v)))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(t);
}

PG_FUNCTION_INFO_V1(fastjson_array_element);

/*
 * Element i of the root array. As jsonb does, a scalar root counts as a
 * one-element array here (jsonb stores it so): index 0 or -1 gives it.
 */
static const uint8_t *
root_element(const uint8_t *root, int32 i)
{
	if (FJ_TYPE(root[0]) != FJ_ARRAY && FJ_TYPE(root[0]) != FJ_OBJECT)
		return i == 0 || i == -1 ? root : NULL;
	return fj_array_get(root, i);
}

/* doc -> n */
Datum
fastjson_array_element(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int32		i = PG_GETARG_INT32(1);
	const uint8_t *v = root_element(FJ_ROOT(d), i);

	if (!v)
		PG_RETURN_NULL();
	PG_RETURN_FASTJSON_P(fastjson_from_value(v));
}

PG_FUNCTION_INFO_V1(fastjson_array_element_text);

/* doc ->> n */
Datum
fastjson_array_element_text(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int32		i = PG_GETARG_INT32(1);
	const uint8_t *v = root_element(FJ_ROOT(d), i);
	text	   *t;

	if (!v || !(t = fastjson_value_as_text(v)))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(t);
}

PG_FUNCTION_INFO_V1(fastjson_extract_path_op);

/* doc #> '{a,b}' */
Datum
fastjson_extract_path_op(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	ArrayType  *path = PG_GETARG_ARRAYTYPE_P(1);
	const uint8_t *v = follow_path(fcinfo, FJ_ROOT(d), path);

	if (!v)
		PG_RETURN_NULL();
	PG_RETURN_FASTJSON_P(fastjson_from_value(v));
}

PG_FUNCTION_INFO_V1(fastjson_extract_path_text_op);

/* doc #>> '{a,b}' */
Datum
fastjson_extract_path_text_op(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	ArrayType  *path = PG_GETARG_ARRAYTYPE_P(1);
	const uint8_t *v = follow_path(fcinfo, FJ_ROOT(d), path);
	text	   *t;

	if (!v || !(t = fastjson_value_as_text(v)))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(t);
}

PG_FUNCTION_INFO_V1(fastjson_typeof);

/* "object", "array", "string", "number", "boolean" or "null", as jsonb_typeof. */
Datum
fastjson_typeof(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	const uint8_t *v = FJ_ROOT(d);
	const char *name;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_LITERAL:
			name = FJ_IMM(v[0]) == FJ_NULL ? "null" : "boolean";
			break;
		case FJ_STRING:
			name = "string";
			break;
		case FJ_ARRAY:
			name = "array";
			break;
		case FJ_OBJECT:
			name = "object";
			break;
		default:
			name = "number";
	}
	PG_RETURN_TEXT_P(cstring_to_text(name));
}

PG_FUNCTION_INFO_V1(fastjson_array_length);

/* Number of elements of an array; an error for anything else, as jsonb. */
Datum
fastjson_array_length(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	const uint8_t *v = FJ_ROOT(d);

	if (FJ_TYPE(v[0]) != FJ_ARRAY)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg(FJ_TYPE(v[0]) == FJ_OBJECT ? "cannot get array length of a non-array"
						: "cannot get array length of a scalar")));
	PG_RETURN_INT32((int32) fj_container_count(v));
}
