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

/* Follow a text[] path from root; NULL if any step is missing or the path has a NULL. */
static const uint8_t *
follow_path(const uint8_t *root, ArrayType *path)
{
	Datum	   *elems;
	bool	   *nulls;
	int			n,
				i;
	const uint8_t *v = root;

	deconstruct_array(path, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	for (i = 0; i < n && v; i++)
	{
		if (nulls[i])
			return NULL;
		if (FJ_TYPE(v[0]) == FJ_OBJECT)
		{
			text	   *k = DatumGetTextPP(elems[i]);

			v = fj_object_get(v, VARDATA_ANY(k), VARSIZE_ANY_EXHDR(k));
		}
		else if (FJ_TYPE(v[0]) == FJ_ARRAY)
		{
			int64		idx;
			char	   *s = TextDatumGetCString(elems[i]);

			v = path_index(s, &idx) ? fj_array_get(v, idx) : NULL;
		}
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
	const uint8_t *v = follow_path(FJ_ROOT(d), path);

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
	const uint8_t *v = follow_path(FJ_ROOT(d), path);
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
