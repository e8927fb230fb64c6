/*
 * fastjson_contain.c — containment (@>, <@) and existence (?, ?|, ?&) with
 * jsonb's semantics (JsonbDeepContains, jsonb_exists*).
 *
 * Containment, on the document with duplicate keys removed (last wins):
 *
 *   - an object contains an object when every distinct pair of the
 *     contained one has its key in the container, with an equal scalar of the
 *     same type (strings bytewise, numbers numerically) or, for a container
 *     value, a value of the same container type that contains it
 *   - an array contains an array when every scalar element of the contained
 *     one equals some scalar element of the container and every container
 *     element is contained in some container element
 *   - at the root a scalar is a one-element "raw scalar" array: an array or
 *     a raw scalar may contain a raw scalar, a raw scalar never contains an
 *     array, and an object root only contains (and is only contained in) an
 *     object root
 *
 * Existence looks at the top level only: an object's keys, an array's string
 * elements, or a string root itself.
 */
#include "fastjson_value.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"

/* Containers above this many members are searched through a sorted view. */
#define VIEW_LOOKUP_MIN 8

static bool deep_contains(FjScratch *s, const uint8_t *val, const uint8_t *cont);

/* Whether the value lv (found in the container) matches the contained value cv. */
static bool
value_contains(FjScratch *s, const uint8_t *lv, const uint8_t *cv)
{
	if (fj_jsonb_type(lv) != fj_jsonb_type(cv))
		return false;
	if (fj_is_container(cv))
		return deep_contains(s, lv, cv);
	return fj_scalar_equal(lv, cv);
}

/*
 * Object val contains object cont. distinct: val's keys all differ (a root
 * whose tape says so), so a key's first match is its value; otherwise the
 * last duplicate is.
 */
static bool
object_contains(FjScratch *s, const uint8_t *val, const uint8_t *cont, bool distinct)
{
	uint32		cstart,
				cn,
				vstart = 0,
				vn = 0,
				i;
	bool		viewed;
	bool		result = true;

	cstart = fj_object_view(s, cont, &cn);
	/* the container needs at least as many distinct keys */
	if (fj_container_count(val) < cn)
		result = false;
	/* many keys against a large object: binary search its sorted view */
	viewed = result && cn > VIEW_LOOKUP_MIN && fj_container_count(val) > VIEW_LOOKUP_MIN;
	if (viewed)
	{
		vstart = fj_object_view(s, val, &vn);
		if (vn < cn)
			result = false;
	}
	for (i = 0; result && i < cn; i++)
	{
		const FjMember *m = &s->members[cstart + i];
		const uint8_t *lv;

		if (viewed)
		{
			const FjMember *f = fj_view_find(s, vstart, vn, m->key, m->key_len);

			lv = f ? f->value : NULL;
		}
		else if (fj_object_get_window(val, NULL, (const char *) m->key, m->key_len, distinct, &lv) != FJ_FOUND)
			lv = NULL;
		/* m is read before value_contains, which may move the stack */
		result = lv != NULL && value_contains(s, lv, m->value);
		if ((i & 1023) == 1023)
			CHECK_FOR_INTERRUPTS();
	}
	s->top = cstart;
	return result;
}

/*
 * The elements [vp, vend) (of an array or a raw scalar) contain the elements
 * [cp, cend): each scalar equals some scalar, each container is contained in
 * some container. O(n * m), as jsonb.
 */
static bool
elements_contain(FjScratch *s, const uint8_t *vp, const uint8_t *vend,
				 const uint8_t *cp, const uint8_t *cend)
{
	uint32		n = 0;

	for (; cp < cend; cp += fj_value_size(cp))
	{
		FjJsonbType ct = fj_jsonb_type(cp);
		bool		scalar = !fj_is_container(cp);
		const uint8_t *p;
		bool		found = false;

		for (p = vp; p < vend && !found; p += fj_value_size(p))
		{
			if (scalar)
				found = fj_jsonb_type(p) == ct && fj_scalar_equal(p, cp);
			else
				found = fj_is_container(p) && deep_contains(s, p, cp);
			if ((++n & 4095) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		if (!found)
			return false;
	}
	return true;
}

/* Container val contains container cont (JsonbDeepContains below the root). */
static bool
deep_contains(FjScratch *s, const uint8_t *val, const uint8_t *cont)
{
	check_stack_depth();
	if (FJ_TYPE(val[0]) != FJ_TYPE(cont[0]))
		return false;
	if (FJ_TYPE(val[0]) == FJ_OBJECT)
		return object_contains(s, val, cont, false);
	return elements_contain(s, fj_container_members(val), fj_container_members_end(val),
							fj_container_members(cont), fj_container_members_end(cont));
}

/*
 * Document val contains document cont (jsonb_contains). distinct: val's root
 * is an object whose keys all differ (fastjson_distinct_root).
 */
static bool
root_contains(const uint8_t *val, const uint8_t *cont, bool distinct)
{
	bool		val_object = FJ_TYPE(val[0]) == FJ_OBJECT,
				val_raw = !fj_is_container(val),
				cont_raw = !fj_is_container(cont);
	FjScratch	s;
	FjMember	local[FJ_SCRATCH_LOCAL];
	bool		result;

	if (val_object != (FJ_TYPE(cont[0]) == FJ_OBJECT))
		return false;
	/* a raw scalar may contain a raw scalar, never an array */
	if (val_raw && !cont_raw)
		return false;
	fj_scratch_init(&s, local);
	if (val_object)
		result = object_contains(&s, val, cont, distinct);
	else
		result = elements_contain(&s,
								  val_raw ? val : fj_container_members(val),
								  val_raw ? val + fj_value_size(val) : fj_container_members_end(val),
								  cont_raw ? cont : fj_container_members(cont),
								  cont_raw ? cont + fj_value_size(cont) : fj_container_members_end(cont));
	fj_scratch_free(&s);
	return result;
}

/*
 * A large document, argument argno (compressed, out of line or in blocks),
 * contains the non-empty object cont when its root has each of cont's keys
 * with a value that contains cont's: each found as -> finds it, reading only
 * the blocks (or the prefix) it needs, never the whole document; several keys
 * share the blocks they read. (A root that is not an object has none of the
 * keys, and contains no object, as root_contains has it.)
 */
static bool
large_contains_object(FunctionCallInfo fcinfo, int argno, const uint8_t *cont)
{
	FjScratch	s;
	FjMember	local[FJ_SCRATCH_LOCAL];
	uint32		start,
				n,
				i;
	bool		result = true;
	FastjsonDoc *doc = NULL;

	fj_scratch_init(&s, local);
	start = fj_object_view(&s, cont, &n);
	/* one key: a lookup of its own; more: one reader, whose blocks serve them all */
	if (n > 1)
		doc = fastjson_doc_open(fcinfo, argno);
	for (i = 0; result && i < n; i++)
	{
		const FjMember *m = &s.members[start + i];
		const uint8_t *lv = doc ? fastjson_doc_member(doc, (const char *) m->key, (int) m->key_len, NULL) :
			fastjson_lookup_key(fcinfo, argno, (const char *) m->key, (int) m->key_len);

		result = lv != NULL && value_contains(&s, lv, m->value);
	}
	if (doc)
		fastjson_doc_close(doc);
	fj_scratch_free(&s);
	return result;
}

/* Objects of up to this many keys are looked for member by member in a large document. */
#define CONTAIN_BY_LOOKUP_MAX 16

/*
 * Whether the document argument doc_arg contains argument cont_arg: by
 * lookups when the document is large and cont a small object.
 */
static bool
arg_contains(FunctionCallInfo fcinfo, int doc_arg, int cont_arg)
{
	bool		kept;
	const uint8_t *cont = FJ_ROOT(fastjson_getarg_kept(fcinfo, cont_arg, &kept));
	Fastjson   *doc;

	/* a document that is kept (a constant) is decompressed once, not looked up in each call */
	if (FJ_TYPE(cont[0]) == FJ_OBJECT && fj_container_count(cont) > 0 &&
		fj_container_count(cont) <= CONTAIN_BY_LOOKUP_MAX && fastjson_arg_is_large(fcinfo, doc_arg) &&
		!fastjson_arg_keepable(fcinfo, doc_arg))
		return large_contains_object(fcinfo, doc_arg, cont);
	fastjson_prefetch_next_rows(PG_GETARG_DATUM(doc_arg));
	doc = fastjson_getarg_kept(fcinfo, doc_arg, &kept);
	fastjson_prefetch_tape(FJ_TAPE(doc), FJ_TAPE_LEN(doc));
	return root_contains(FJ_ROOT(doc), cont, fastjson_distinct_root(FJ_TAPE(doc)));
}

PG_FUNCTION_INFO_V1(fastjson_contains);

/* a @> b */
Datum
fastjson_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(arg_contains(fcinfo, 0, 1));
}

PG_FUNCTION_INFO_V1(fastjson_contained);

/* a <@ b: as b @> a */
Datum
fastjson_contained(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(arg_contains(fcinfo, 1, 0));
}

/* ------------------------------------------------------------ existence */

/* Whether key is a top-level key, string element or string root of the document. */
static bool
key_exists(const uint8_t *root, const char *key, uint32 len)
{
	const uint8_t *p,
			   *end,
			   *s;

	switch (FJ_TYPE(root[0]))
	{
		case FJ_OBJECT:
			/* any member with the key will do: its first match, duplicates or not */
			return fj_object_get_window(root, NULL, key, len, true, &s) == FJ_FOUND;
		case FJ_ARRAY:
			p = fj_container_members(root);
			end = fj_container_members_end(root);
			break;
		default:
			/* a raw scalar: a one-element array */
			p = root;
			end = root + fj_value_size(root);
	}
	for (; p < end; p += fj_value_size(p))
		if (FJ_TYPE(p[0]) == FJ_STRING && fj_text(p, &s) == len && memcmp(s, key, len) == 0)
			return true;
	return false;
}

/*
 * Whether key is a top-level key, string element or string root of the
 * document argument 0. A large value has the key looked up as -> finds it,
 * reading only the blocks (or the prefix) it needs, through doc when given
 * (the keys of ?| and ?& share what it reads); that decides for an object
 * root. Any other document is checked whole: *whole keeps it, detoasted
 * once, for the next keys.
 */
static bool
arg_key_exists(FunctionCallInfo fcinfo, FastjsonDoc *doc, Fastjson **whole, const char *key, int len)
{
	if (!*whole && fastjson_arg_is_large(fcinfo, 0))
	{
		FastjsonLookupStop stop = {.step = -1};
		bool		found = (doc ? fastjson_doc_member(doc, key, len, &stop) :
							 fastjson_lookup_member(fcinfo, 0, key, len, &stop)) != NULL;

		if (found || (stop.step == 0 && stop.type == FJ_OBJECT))
			return found;
		/* an array or a scalar root */
		*whole = doc ? fastjson_doc_whole(doc) : PG_GETARG_FASTJSON_P(0);
	}
	if (!*whole)
	{
		fastjson_prefetch_next_rows(PG_GETARG_DATUM(0));
		*whole = PG_GETARG_FASTJSON_P(0);
		fastjson_prefetch_tape(FJ_TAPE(*whole), FJ_TAPE_LEN(*whole));
	}
	return key_exists(FJ_ROOT(*whole), key, (uint32) len);
}

PG_FUNCTION_INFO_V1(fastjson_exists);

/* doc ? 'key' */
Datum
fastjson_exists(PG_FUNCTION_ARGS)
{
	text	   *key = PG_GETARG_TEXT_PP(1);
	Fastjson   *whole = NULL;

	PG_RETURN_BOOL(arg_key_exists(fcinfo, NULL, &whole, VARDATA_ANY(key), (int) VARSIZE_ANY_EXHDR(key)));
}

/*
 * ?| (any) or ?& (all) over a text[] whose NULL elements are skipped, each
 * key as ? has it; in a large document, several keys share one reader.
 */
static bool
keys_exist(FunctionCallInfo fcinfo, bool all)
{
	ArrayType  *keys = PG_GETARG_ARRAYTYPE_P(1);
	FastjsonDoc *doc = NULL;
	Fastjson   *whole = NULL;
	Datum	   *elems;
	bool	   *nulls;
	bool		result = all;
	int			n,
				given = 0,
				i;

	deconstruct_array(keys, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	for (i = 0; i < n; i++)
		given += !nulls[i];
	if (given > 1 && fastjson_arg_is_large(fcinfo, 0))
		doc = fastjson_doc_open(fcinfo, 0);
	for (i = 0; i < n && result == all; i++)
	{
		text	   *k;

		if (nulls[i])
			continue;
		k = DatumGetTextPP(elems[i]);
		result = arg_key_exists(fcinfo, doc, &whole, VARDATA_ANY(k), (int) VARSIZE_ANY_EXHDR(k));
	}
	if (doc)
		fastjson_doc_close(doc);
	return result;
}

PG_FUNCTION_INFO_V1(fastjson_exists_any);

/* doc ?| '{a,b}': any key exists (false for no keys) */
Datum
fastjson_exists_any(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(keys_exist(fcinfo, false));
}

PG_FUNCTION_INFO_V1(fastjson_exists_all);

/* doc ?& '{a,b}': every key exists (true for no keys) */
Datum
fastjson_exists_all(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(keys_exist(fcinfo, true));
}
