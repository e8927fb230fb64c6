/*
 * fastjson_cast.c — casts from a fastjson scalar to boolean, numeric, int2,
 * int4, int8, float4 and float8, twins of jsonb's (explicit casts, the same
 * answers and errors).
 *
 * Numbers stay exact: a number kept as text goes through numeric_in, so
 * '1e400'::fastjson::numeric works; int casts round as numeric_int4 does
 * ('1.5' gives 2), as jsonb's do. Float casts read the text with float8in or
 * float4in, which round it exactly as they round jsonb's numeric_out text of
 * the same value (so out of range is 22003, naming the number as written);
 * -0 gives 0, as it does through numeric.
 */
#include "fastjson.h"

#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/numeric.h"

/* jsonb's "cannot cast" error for a value that is not the scalar wanted. */
static void
cannot_cast(const uint8_t *v, const char *sqltype)
{
	const char *what;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_LITERAL:
			what = FJ_IMM(v[0]) == FJ_NULL ? "null" : "boolean";
			break;
		case FJ_STRING:
			what = "string";
			break;
		case FJ_ARRAY:
			what = "array";
			break;
		case FJ_OBJECT:
			what = "object";
			break;
		default:
			what = "numeric";
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("cannot cast fastjson %s to type %s", what, sqltype)));
}

/*
 * A JSON null cast to an SQL scalar type: SQL NULL where the server's jsonb
 * gives that (18 and later), else jsonb's error.
 */
#define RETURN_NULL_IF_JSON_NULL(d) \
	do { \
		if (FASTJSON_NULL_CASTS_TO_SQL_NULL && FJ_ROOT(d)[0] == FJ_TAG(FJ_LITERAL, FJ_NULL)) \
			PG_RETURN_NULL(); \
	} while (0)

/* The number at the root, or the cast error; true (and *i set) for a UINT/NINT. */
static bool
root_number(Fastjson *d, const char *sqltype, int64 *i, char **text)
{
	const uint8_t *v = FJ_ROOT(d);
	const uint8_t *s;
	uint32		len;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_UINT:
		case FJ_NINT:
			*i = fj_int_value(v);
			return true;
		case FJ_NUMBER:
		case FJ_PACKED:
			{
				char		buf[FJ_NUMBER_TEXT_BUF];

				len = fj_number_text(v, buf, &s);
				*text = pnstrdup((const char *) s, len);
				return false;
			}
		default:
			cannot_cast(v, sqltype);
			pg_unreachable();
	}
}

/* A number's text as numeric (exact). */
static Datum
text_numeric(char *s)
{
	return DirectFunctionCall3(numeric_in, CStringGetDatum(s), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

PG_FUNCTION_INFO_V1(fastjson_to_bool);

Datum
fastjson_to_bool(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	const uint8_t *v = FJ_ROOT(d);

	RETURN_NULL_IF_JSON_NULL(d);

	if (FJ_TYPE(v[0]) != FJ_LITERAL || FJ_IMM(v[0]) == FJ_NULL)
		cannot_cast(v, "boolean");
	PG_RETURN_BOOL(FJ_IMM(v[0]) == FJ_TRUE);
}

PG_FUNCTION_INFO_V1(fastjson_to_numeric);

Datum
fastjson_to_numeric(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int64		i;
	char	   *s;

	RETURN_NULL_IF_JSON_NULL(d);

	if (root_number(d, "numeric", &i, &s))
		PG_RETURN_NUMERIC(int64_to_numeric(i));
	PG_RETURN_DATUM(text_numeric(s));
}

PG_FUNCTION_INFO_V1(fastjson_to_int2);

Datum
fastjson_to_int2(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int64		i;
	char	   *s;

	RETURN_NULL_IF_JSON_NULL(d);

	if (!root_number(d, "smallint", &i, &s))
		PG_RETURN_DATUM(DirectFunctionCall1(numeric_int2, text_numeric(s)));
	if (i < PG_INT16_MIN || i > PG_INT16_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("smallint out of range")));
	PG_RETURN_INT16((int16) i);
}

PG_FUNCTION_INFO_V1(fastjson_to_int4);

Datum
fastjson_to_int4(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int64		i;
	char	   *s;

	RETURN_NULL_IF_JSON_NULL(d);

	if (!root_number(d, "integer", &i, &s))
		PG_RETURN_DATUM(DirectFunctionCall1(numeric_int4, text_numeric(s)));
	if (i < PG_INT32_MIN || i > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("integer out of range")));
	PG_RETURN_INT32((int32) i);
}

PG_FUNCTION_INFO_V1(fastjson_to_int8);

Datum
fastjson_to_int8(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int64		i;
	char	   *s;

	RETURN_NULL_IF_JSON_NULL(d);

	if (!root_number(d, "bigint", &i, &s))
		PG_RETURN_DATUM(DirectFunctionCall1(numeric_int8, text_numeric(s)));
	PG_RETURN_INT64(i);
}

PG_FUNCTION_INFO_V1(fastjson_to_float4);

Datum
fastjson_to_float4(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int64		i;
	char	   *s;
	float4		f;

	RETURN_NULL_IF_JSON_NULL(d);

	if (root_number(d, "real", &i, &s))
		PG_RETURN_FLOAT4((float4) i);
	f = DatumGetFloat4(DirectFunctionCall1(float4in, CStringGetDatum(s)));
	PG_RETURN_FLOAT4(f == 0 ? 0.0f : f);
}

PG_FUNCTION_INFO_V1(fastjson_to_float8);

Datum
fastjson_to_float8(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int64		i;
	char	   *s;
	float8		f;

	RETURN_NULL_IF_JSON_NULL(d);

	if (root_number(d, "double precision", &i, &s))
		PG_RETURN_FLOAT8((float8) i);
	f = DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(s)));
	PG_RETURN_FLOAT8(f == 0 ? 0.0 : f);
}
