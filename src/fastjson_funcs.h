/*
 * fastjson_funcs.h — what the function files share: a tape value as SQL
 * text (->>, #>>, the *_text functions) and SQL values to JSON
 * (to_fastjson, fastjson_build_*, the aggregates), following to_jsonb.
 */
#ifndef FASTJSON_FUNCS_H
#define FASTJSON_FUNCS_H

#include "fastjson.h"

#include "utils/builtins.h"

/*
 * A string with U+0000 cannot be text: json's error, as for ->> (22P05).
 * Returns (false) only after a soft error in escontext.
 */
static inline bool
fastjson_check_no_nul(const uint8_t *s, uint32_t len, Node *escontext)
{
	if (memchr(s, '\0', len) != NULL)
		ereturn(escontext, false,
				(errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
				 errmsg("unsupported Unicode escape sequence"),
				 errdetail("\\u0000 cannot be converted to text.")));
	return true;
}

/*
 * Text of a value, as ->> gives it: a string unescaped, a number as written,
 * true/false, a container as its canonical text; NULL for JSON null. A string
 * holding U+0000 cannot be text: the error json gives (22P05).
 */
static inline text *
fastjson_value_as_text(const uint8_t *v)
{
	const uint8_t *s;
	uint32_t	len;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_LITERAL:
			if (FJ_IMM(v[0]) == FJ_NULL)
				return NULL;
			return cstring_to_text(FJ_IMM(v[0]) == FJ_TRUE ? "true" : "false");
		case FJ_STRING:
			len = fj_text(v, &s);
			(void) fastjson_check_no_nul(s, len, NULL);
			return cstring_to_text_with_len((const char *) s, (int) len);
		case FJ_UINT:
		case FJ_NINT:
			{
				uint8_t		buf[24];

				len = (uint32_t) (fj_put_int_text(buf, v) - buf);
				return cstring_to_text_with_len((const char *) buf, (int) len);
			}
		case FJ_NUMBER:
		case FJ_PACKED:
			{
				char		buf[FJ_NUMBER_TEXT_BUF];

				len = fj_number_text(v, buf, &s);
				return cstring_to_text_with_len((const char *) s, (int) len);
			}
		default:
			return fastjson_value_to_text(v);
	}
}

/* ------------------------------------------------ object members (fastjson_funcs.c) */

/* One member of an object, and the member whose value is operative for its key. */
typedef struct FjDocMember
{
	const uint8_t *key;			/* the key's STRING value */
	const uint8_t *text;		/* the key's bytes */
	uint32		len;
	uint32		last;			/* index of the last member with this key */
	const uint8_t *value;
} FjDocMember;

/*
 * The members of the object at obj in document order (palloc'd, *count of
 * them): an object as jsonb sees it is those whose last is their own index.
 */
FjDocMember *fastjson_object_members(const uint8_t *obj, uint32 *count);

/* ------------------------------------------------ SQL values to JSON (fastjson_build.c) */

/* How a SQL type becomes JSON: to_jsonb's categories, plus fastjson itself. */
typedef enum FjTypeCategory
{
	FJ_CAT_NULL,				/* SQL NULL */
	FJ_CAT_BOOL,				/* true/false */
	FJ_CAT_NUMERIC,				/* int2/4/8, float4/8, numeric: a number (NaN, Infinity: a string) */
	FJ_CAT_DATE,				/* ISO 8601 strings, whatever DateStyle says */
	FJ_CAT_TIMESTAMP,
	FJ_CAT_TIMESTAMPTZ,
	FJ_CAT_JSON,				/* parsed */
	FJ_CAT_JSONB,				/* converted */
	FJ_CAT_FASTJSON,			/* copied */
	FJ_CAT_ARRAY,				/* a JSON array per dimension */
	FJ_CAT_COMPOSITE,			/* an object of the columns */
	FJ_CAT_JSONCAST,			/* a non-built-in type with a cast to json */
	FJ_CAT_OTHER				/* its output text as a string */
} FjTypeCategory;

/* Text bound for a fastjson string or key: outside a UTF8 database, it must be UTF-8 (22021). */
void		fastjson_check_utf8(const char *s, size_t len);

/* The category of a type (domains as their base type); *func: output or cast function. */
void		fastjson_categorize_type(Oid typoid, FjTypeCategory *cat, Oid *func);

/*
 * Add a SQL value to a builder: as a value, or (key) as the key of the next
 * object member, which must be a scalar (to_jsonb's errors otherwise).
 */
void		fastjson_add_datum(fj_builder *b, Datum val, bool isnull,
							   FjTypeCategory cat, Oid func, bool key);

#endif							/* FASTJSON_FUNCS_H */
