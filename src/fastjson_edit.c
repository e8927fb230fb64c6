/*
 * fastjson_edit.c — functions that make an edited copy of a document:
 * || (concatenation), - (delete a key, keys or an index), #- (delete a
 * path), fastjson_set, fastjson_set_lax, fastjson_insert and subscript
 * assignment. Each gives the same answer as its jsonb twin, compared as
 * jsonb; members that are not touched keep their order, spelling and
 * duplicates, and the new document is written with the tape builder, copying
 * untouched subtrees whole.
 *
 * Where an object has duplicate keys only the last is operative (as in
 * jsonb, which keeps the last); an edit of a key therefore drops the earlier,
 * inoperative duplicates of that key, so that none of them can resurface.
 */
#include "fastjson.h"
#include "fastjson_edit.h"
#include "fastjson_funcs.h"

#include <limits.h>

#include "catalog/pg_type.h"
#include "common/string.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"


/* Members of an object in order: key, value. */
#define FOREACH_MEMBER(obj, key, klen, val) \
	for (const uint8_t *p_ = fj_container_members(obj), *e_ = fj_container_members_end(obj); \
		 p_ < e_ && ((klen = fj_text(p_, &key)), (val = key + klen), true); \
		 p_ = val + fj_value_size(val))

static inline bool
key_is(const uint8_t *k, uint32_t klen, const char *s, size_t len)
{
	return klen == len && memcmp(k, s, len) == 0;
}

static void
put_newval(fj_builder *b, const uint8_t *v)
{
	if (v)
		fj_builder_value(b, v);
	else
		fj_builder_null(b);
}

/* Path element i as a C string (palloc'd). */
static char *
path_cstring(edit_path *p, int i)
{
	return TextDatumGetCString(p->elems[i]);
}

/*
 * A key the path creates: text from outside a UTF8 database (SQL_ASCII) is
 * checked first, as the builders check theirs.
 */
static void
put_path_key(fj_builder *b, const char *s, size_t len)
{
	fastjson_check_utf8(s, len);
	fj_builder_key(b, s, len);
}

static void
push_nulls(fj_builder *b, int n)
{
	while (n-- > 0)
		fj_builder_null(b);
}

/*
 * Create the containers the rest of the path names (levels level+1 ..), put
 * the new value at its end and close all but the container at level, as
 * jsonb's push_path does for subscript assignment into missing paths.
 */
static void
push_path(fj_builder *b, edit_path *p, int level)
{
	char	   *types = palloc0(p->len - level);
	int			i;

	for (i = level + 1; i < p->len; i++)
	{
		char	   *c;
		int			idx;

		if (p->nulls[i])
			break;
		c = path_cstring(p, i);
		if (!fastjson_path_index(c, &idx))
		{
			fj_builder_begin_object(b);
			put_path_key(b, c, strlen(c));
			types[i - level] = 'o';
		}
		else
		{
			fj_builder_begin_array(b);
			push_nulls(b, idx);
			types[i - level] = 'a';
		}
	}
	put_newval(b, p->newval);
	for (i = p->len - 1; i > level; i--)
	{
		if (p->nulls[i])
			break;
		fj_builder_end(b);
	}
	pfree(types);
}

/* The object at level: jsonb's setPathObject. */
static void
set_path_object(fj_builder *b, const uint8_t *obj, edit_path *p, int level)
{
	text	   *pathelem = NULL;
	const char *want = NULL;
	size_t		wantlen = 0;
	const uint8_t *target = NULL;
	bool		done = false;
	const uint8_t *k,
			   *val;
	uint32_t	klen;

	if (level >= p->len || p->nulls[level])
		done = true;
	else
	{
		pathelem = DatumGetTextPP(p->elems[level]);
		want = VARDATA_ANY(pathelem);
		wantlen = VARSIZE_ANY_EXHDR(pathelem);
		/* the operative (last) member with the path's key */
		FOREACH_MEMBER(obj, k, klen, val)
			if (key_is(k, klen, want, wantlen))
			target = k;
	}

	fj_builder_begin_object(b);
	FOREACH_MEMBER(obj, k, klen, val)
	{
		if (!done && key_is(k, klen, want, wantlen))
		{
			if (k != target)
				continue;		/* an inoperative duplicate of the edited key */
			done = true;
			if (level == p->len - 1)
			{
				if (p->op & (PATH_INSERT_BEFORE | PATH_INSERT_AFTER))
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("cannot replace existing key"),
							 errhint("Try using the function fastjson_set to replace key value.")));
				if (!(p->op & PATH_DELETE))
				{
					fj_builder_key(b, (const char *) k, klen);
					put_newval(b, p->newval);
				}
			}
			else
			{
				fj_builder_key(b, (const char *) k, klen);
				fastjson_set_path(b, val, p, level + 1);
			}
			continue;
		}
		fj_builder_key(b, (const char *) k, klen);
		fj_builder_value(b, val);
	}
	if (!done && (p->op & PATH_CREATE_OR_INSERT) && level == p->len - 1)
	{
		/* not found: add it (jsonb's order of keys is its own; ours keeps the document's) */
		put_path_key(b, want, wantlen);
		put_newval(b, p->newval);
		done = true;
	}
	if (!done && (p->op & PATH_FILL_GAPS) && level < p->len - 1)
	{
		put_path_key(b, want, wantlen);
		push_path(b, p, level);
	}
	fj_builder_end(b);
}

/* The array at level: jsonb's setPathArray. */
static void
set_path_array(fj_builder *b, const uint8_t *arr, edit_path *p, int level)
{
	int			nelems = (int) fj_container_count(arr);
	int			idx,
				i;
	bool		done = false;
	const uint8_t *e = fj_container_members(arr);

	if (level < p->len && !p->nulls[level])
	{
		char	   *c = path_cstring(p, level);

		if (!fastjson_path_index(c, &idx))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("path element at position %d is not an integer: \"%s\"", level + 1, c)));
	}
	else
		idx = nelems;

	if (idx < 0)
	{
		/* not -idx > nelems: -INT_MIN overflows */
		if (idx < -nelems)
		{
			if (p->op & PATH_CONSISTENT_POSITION)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("path element at position %d is out of range: %d", level + 1, idx)));
			idx = INT_MIN;
		}
		else
			idx = nelems + idx;
	}
	if (!(p->op & PATH_FILL_GAPS) && idx > 0 && idx > nelems)
		idx = nelems;

	fj_builder_begin_array(b);
	if ((idx == INT_MIN || nelems == 0) && level == p->len - 1 && (p->op & PATH_CREATE_OR_INSERT))
	{
		if ((p->op & PATH_FILL_GAPS) && nelems == 0 && idx > 0)
			push_nulls(b, idx);
		put_newval(b, p->newval);
		done = true;
	}
	for (i = 0; i < nelems; i++, e += fj_value_size(e))
	{
		if (i == idx && level < p->len)
		{
			done = true;
			if (level == p->len - 1)
			{
				if (p->op & (PATH_INSERT_BEFORE | PATH_CREATE))
					put_newval(b, p->newval);
				if (p->op & (PATH_INSERT_AFTER | PATH_INSERT_BEFORE))
					fj_builder_value(b, e);
				if (p->op & (PATH_INSERT_AFTER | PATH_REPLACE))
					put_newval(b, p->newval);
			}
			else
				fastjson_set_path(b, e, p, level + 1);
		}
		else
			fj_builder_value(b, e);
	}
	if ((p->op & PATH_CREATE_OR_INSERT) && !done && level == p->len - 1)
	{
		if ((p->op & PATH_FILL_GAPS) && idx > nelems)
			push_nulls(b, idx - nelems);
		put_newval(b, p->newval);
		done = true;
	}
	if (!done && (p->op & PATH_FILL_GAPS) && level < p->len - 1)
	{
		if (idx > 0)
			push_nulls(b, idx - nelems);
		push_path(b, p, level);
	}
	fj_builder_end(b);
}

/* jsonb's setPath: write v with the path edit applied from level on. */
void
fastjson_set_path(fj_builder *b, const uint8_t *v, edit_path *p, int level)
{
	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (p->nulls[level])
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("path element at position %d is null", level + 1)));
	if (FJ_TYPE(v[0]) == FJ_ARRAY)
		set_path_array(b, v, p, level);
	else if (FJ_TYPE(v[0]) == FJ_OBJECT)
		set_path_object(b, v, p, level);
	else
	{
		if ((p->op & PATH_FILL_GAPS) && level <= p->len - 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot replace existing key"),
					 errdetail("The path assumes key is a composite object, but it is a scalar value.")));
		fj_builder_value(b, v);
	}
}

/* Apply a path edit to the root of d; a new datum. */
static Fastjson *
edit_root(Fastjson *d, ArrayType *path, const uint8_t *newval, int op)
{
	edit_path	p;
	fj_builder	b;

	deconstruct_array(path, TEXTOID, -1, false, TYPALIGN_INT, &p.elems, &p.nulls, &p.len);
	p.newval = newval;
	p.op = op;
	fastjson_builder_init(&b);
	fastjson_set_path(&b, FJ_ROOT(d), &p, 0);
	return fastjson_builder_finish(&b);
}

/* jsonb's error for a path array of more than one dimension. */
static void
check_path_dims(ArrayType *path)
{
	if (ARR_NDIM(path) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("wrong number of array subscripts")));
}

/*
 * What the editors below return for a document they leave as it is: the
 * SQL function then returns its first argument's datum itself (in its
 * stored form if it was stored: an UPDATE that changes nothing writes the
 * same bytes).
 */
#define UNCHANGED NULL

/*
 * Return an editor's result: a new document (a value not yet stored, when
 * it may be stored in blocks), or the first argument when it is UNCHANGED.
 */
#define PG_RETURN_EDITED(result) \
	do { \
		Fastjson   *r_ = (result); \
		\
		if (r_ == UNCHANGED) \
			PG_RETURN_DATUM(PG_GETARG_DATUM(0)); \
		PG_RETURN_FASTJSON_MADE(r_); \
	} while (0)

/* ------------------------------------------------------------- SQL functions */

/* fastjson_set_lax hands a delete_key over to #- (below) */
extern Datum fastjson_delete_path(PG_FUNCTION_ARGS);

PG_FUNCTION_INFO_V1(fastjson_set);

/* jsonb_set: newval at path in d (NULL: a JSON null). */
static Fastjson *
set_worker(Fastjson *d, ArrayType *path, const uint8_t *newval, bool create)
{
	const uint8_t *root = FJ_ROOT(d);

	check_path_dims(path);

	if (!fj_is_container(root))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot set path in scalar")));
	if ((fj_container_count(root) == 0 && !create) || ARR_NDIM(path) == 0 ||
		ArrayGetNItems(ARR_NDIM(path), ARR_DIMS(path)) == 0)
		return UNCHANGED;
	return edit_root(d, path, newval, create ? PATH_CREATE : PATH_REPLACE);
}

/* fastjson_set(doc, path, new_value, create_if_missing): jsonb_set. */
Datum
fastjson_set(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	ArrayType  *path = PG_GETARG_ARRAYTYPE_P(1);
	Fastjson   *newval = PG_GETARG_FASTJSON_P(2);

	PG_RETURN_EDITED(set_worker(d, path, FJ_ROOT(newval), PG_GETARG_BOOL(3)));
}

/* jsonb_set_lax's error for a treatment it does not know (or NULL). */
static void
report_null_value_treatment(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("null_value_treatment must be \"delete_key\", \"return_target\", \"use_json_null\", or \"raise_exception\"")));
}

PG_FUNCTION_INFO_V1(fastjson_set_lax);

/*
 * fastjson_set_lax(target, path, new_value, create_if_missing,
 * null_value_treatment): jsonb_set_lax. Not strict: a new value that is SQL
 * NULL is treated as null_value_treatment says (a JSON null, deleting the
 * path, the target unchanged, or an error); any other is fastjson_set's.
 */
Datum
fastjson_set_lax(PG_FUNCTION_ARGS)
{
	char	   *treatment;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(3))
		PG_RETURN_NULL();
	/* checked whatever the new value, as jsonb does */
	if (PG_ARGISNULL(4))
		report_null_value_treatment();
	if (!PG_ARGISNULL(2))
		return fastjson_set(fcinfo);

	treatment = text_to_cstring(PG_GETARG_TEXT_PP(4));
	if (strcmp(treatment, "raise_exception") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("JSON value must not be null"),
				 errdetail("Exception was raised because null_value_treatment is \"raise_exception\"."),
				 errhint("To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed.")));
	if (strcmp(treatment, "use_json_null") == 0)
		PG_RETURN_EDITED(set_worker(PG_GETARG_FASTJSON_P(0), PG_GETARG_ARRAYTYPE_P(1), NULL,
									PG_GETARG_BOOL(3)));
	if (strcmp(treatment, "delete_key") == 0)
		return fastjson_delete_path(fcinfo);
	if (strcmp(treatment, "return_target") == 0)
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	report_null_value_treatment();
	PG_RETURN_NULL();			/* not reached */
}

PG_FUNCTION_INFO_V1(fastjson_insert);

/* fastjson_insert(doc, path, new_value, insert_after): jsonb_insert. */
Datum
fastjson_insert(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	ArrayType  *path = PG_GETARG_ARRAYTYPE_P(1);
	Fastjson   *newval = PG_GETARG_FASTJSON_P(2);
	bool		after = PG_GETARG_BOOL(3);

	check_path_dims(path);

	if (!fj_is_container(FJ_ROOT(d)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot set path in scalar")));
	if (ARR_NDIM(path) == 0 || ArrayGetNItems(ARR_NDIM(path), ARR_DIMS(path)) == 0)
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	PG_RETURN_EDITED(edit_root(d, path, FJ_ROOT(newval),
							   after ? PATH_INSERT_AFTER : PATH_INSERT_BEFORE));
}

PG_FUNCTION_INFO_V1(fastjson_delete_path);

/* doc #- path: jsonb_delete_path. */
Datum
fastjson_delete_path(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	ArrayType  *path = PG_GETARG_ARRAYTYPE_P(1);
	const uint8_t *root = FJ_ROOT(d);

	check_path_dims(path);

	if (!fj_is_container(root))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot delete path in scalar")));
	if (fj_container_count(root) == 0 || ARR_NDIM(path) == 0 ||
		ArrayGetNItems(ARR_NDIM(path), ARR_DIMS(path)) == 0)
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	PG_RETURN_EDITED(edit_root(d, path, NULL, PATH_DELETE));
}

/* Whether key[0..klen) is one of the non-null texts in keys[0..n). */
static bool
in_keys(const uint8_t *key, uint32_t klen, Datum *keys, bool *nulls, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		text	   *t;

		if (nulls[i])
			continue;
		t = DatumGetTextPP(keys[i]);
		if (key_is(key, klen, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)))
			return true;
	}
	return false;
}

/*
 * Remove the given keys from an object, or string elements from an array;
 * UNCHANGED when none is there.
 */
static Fastjson *
delete_keys(Fastjson *d, Datum *keys, bool *nulls, int n)
{
	const uint8_t *root = FJ_ROOT(d);
	fj_builder	b;
	bool		removed = false;
	Fastjson   *result;

	if (!fj_is_container(root))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot delete from scalar")));
	if (fj_container_count(root) == 0 || n == 0)
		return UNCHANGED;
	fastjson_builder_init(&b);
	if (FJ_TYPE(root[0]) == FJ_OBJECT)
	{
		const uint8_t *k,
				   *val;
		uint32_t	klen;

		fj_builder_begin_object(&b);
		FOREACH_MEMBER(root, k, klen, val)
		{
			if (in_keys(k, klen, keys, nulls, n))
			{
				removed = true;
				continue;
			}
			fj_builder_key(&b, (const char *) k, klen);
			fj_builder_value(&b, val);
		}
	}
	else
	{
		const uint8_t *e = fj_container_members(root);
		const uint8_t *end = fj_container_members_end(root);

		fj_builder_begin_array(&b);
		for (; e < end; e += fj_value_size(e))
		{
			const uint8_t *s;

			if (FJ_TYPE(e[0]) == FJ_STRING)
			{
				uint32_t	slen = fj_text(e, &s);

				if (in_keys(s, slen, keys, nulls, n))
				{
					removed = true;
					continue;
				}
			}
			fj_builder_value(&b, e);
		}
	}
	fj_builder_end(&b);
	result = fastjson_builder_finish(&b);
	if (!removed)
	{
		pfree(result);
		return UNCHANGED;
	}
	return result;
}

PG_FUNCTION_INFO_V1(fastjson_delete);

/* doc - 'key': jsonb_delete. */
Datum
fastjson_delete(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	Datum		key = PG_GETARG_DATUM(1);
	bool		isnull = false;

	PG_RETURN_EDITED(delete_keys(d, &key, &isnull, 1));
}

PG_FUNCTION_INFO_V1(fastjson_delete_array);

/* doc - '{k1,k2}'::text[]: jsonb_delete_array. */
Datum
fastjson_delete_array(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	ArrayType  *keys = PG_GETARG_ARRAYTYPE_P(1);
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	if (ARR_NDIM(keys) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("wrong number of array subscripts")));
	deconstruct_array(keys, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	PG_RETURN_EDITED(delete_keys(d, elems, nulls, n));
}

PG_FUNCTION_INFO_V1(fastjson_delete_idx);

/* doc - n: jsonb_delete_idx. */
Datum
fastjson_delete_idx(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int			idx = PG_GETARG_INT32(1);
	const uint8_t *root = FJ_ROOT(d);
	int			n,
				i;
	const uint8_t *e;
	fj_builder	b;

	if (!fj_is_container(root))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot delete from scalar")));
	if (FJ_TYPE(root[0]) == FJ_OBJECT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot delete from object using integer index")));
	n = (int) fj_container_count(root);
	if (n == 0)
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	if (idx < 0)
		idx = idx < -n ? n : n + idx;	/* not -idx > n: -INT_MIN overflows */
	if (idx >= n)
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	fastjson_builder_init(&b);
	fj_builder_begin_array(&b);
	for (i = 0, e = fj_container_members(root); i < n; i++, e += fj_value_size(e))
		if (i != idx)
			fj_builder_value(&b, e);
	fj_builder_end(&b);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}

/* Add v's elements to the open array: an array's elements, or v itself. */
static void
add_elements(fj_builder *b, const uint8_t *v)
{
	if (FJ_TYPE(v[0]) == FJ_ARRAY)
	{
		const uint8_t *e = fj_container_members(v);
		const uint8_t *end = fj_container_members_end(v);

		for (; e < end; e += fj_value_size(e))
			fj_builder_value(b, e);
	}
	else
		fj_builder_value(b, v);
}

PG_FUNCTION_INFO_V1(fastjson_concat);

/*
 * a || b: jsonb_concat. Two objects merge (b's keys replace a's); anything
 * else makes an array of a's elements then b's, where a non-array counts as
 * one element.
 */
Datum
fastjson_concat(PG_FUNCTION_ARGS)
{
	Fastjson   *da = PG_GETARG_FASTJSON_P(0);
	Fastjson   *db = PG_GETARG_FASTJSON_P(1);
	const uint8_t *a = FJ_ROOT(da);
	const uint8_t *bv = FJ_ROOT(db);
	fj_builder	b;

	fastjson_builder_init(&b);
	if (FJ_TYPE(a[0]) == FJ_OBJECT && FJ_TYPE(bv[0]) == FJ_OBJECT)
	{
		const uint8_t *k,
				   *val;
		uint32_t	klen;

		fj_builder_begin_object(&b);
		FOREACH_MEMBER(a, k, klen, val)
		{
			if (fj_object_get(bv, (const char *) k, klen))
				continue;
			fj_builder_key(&b, (const char *) k, klen);
			fj_builder_value(&b, val);
		}
		FOREACH_MEMBER(bv, k, klen, val)
		{
			fj_builder_key(&b, (const char *) k, klen);
			fj_builder_value(&b, val);
		}
	}
	else
	{
		fj_builder_begin_array(&b);
		add_elements(&b, a);
		add_elements(&b, bv);
	}
	fj_builder_end(&b);
	PG_RETURN_FASTJSON_MADE(fastjson_builder_finish(&b));
}
