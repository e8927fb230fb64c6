/*
 * fastjson_gin.c — GIN operator classes, built from the tape directly:
 *
 *   fastjson_ops (default): jsonb_ops semantics. One text entry per key and
 *     per scalar value at any depth, each prefixed with a flag byte saying
 *     what it is; string array elements (and a string root) count as keys,
 *     as jsonb's do, so ? finds them. Supports @>, ?, ?| and ?&.
 *   fastjson_path_ops: jsonb_path_ops semantics. One int4 entry per scalar
 *     value: a hash of the object keys on its path and of the value.
 *     Supports @>; smaller and faster for it.
 *
 * Both also answer @? and @@ (fastjson, jsonpath) as jsonb's classes do
 * (jsonb_gin.c): the path expression is read for statements an index can
 * check, "accessor chain == literal" and, through filters, their AND and OR
 * combinations, and turned into a tree of entries that the consistent
 * functions evaluate; an expression with nothing to check scans the whole
 * index. fastjson_ops checks the keys of the chain and the literal (a string
 * as a value or as an array element, as the path allows); fastjson_path_ops
 * the hash of the chain's keys and the literal. Every match is rechecked.
 *
 * Numbers are entered in a normal form (see number_normal), so 1, 1.0, 1e0
 * and 10e-1 meet; strings longer than JGIN_MAXLENGTH are hashed, as jsonb
 * does. Only the operative (last) member of a duplicated key is entered, in
 * documents and in queries alike (a query's inoperative duplicate must not
 * be required). Every match is rechecked with the operator itself.
 */
#include "fastjson.h"

#include "access/gin.h"
#include "access/hash.h"
#include "access/stratnum.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "port/pg_bitutils.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonpath.h"

#include "tape_writer.h"

/* The strategy numbers jsonb's operator classes use. */
#define STRATEGY_CONTAINS 7
#define STRATEGY_EXISTS 9
#define STRATEGY_EXISTS_ANY 10
#define STRATEGY_EXISTS_ALL 11
#define STRATEGY_JSONPATH_EXISTS 15
#define STRATEGY_JSONPATH_MATCH 16

/* Entry flag bytes (as jsonb's JGINFLAG_*). */
#define GIN_KEY 0x01
#define GIN_NULL 0x02
#define GIN_BOOL 0x03
#define GIN_NUM 0x04
#define GIN_STR 0x05
#define GIN_HASHED 0x10
#define GIN_MAXLENGTH 125

typedef struct entries
{
	fj_buf		buf;			/* the entries' Datums */
	int			n;				/* how many */
} entries;

#define ENTRIES(e) ((Datum *) (e).buf.data)

static void
entries_add(entries *e, Datum d)
{
	*(Datum *) fastjson_buf_push(&e->buf, sizeof(Datum)) = d;
	e->n++;
}

/*
 * The normal form of a number: "0"; or an optional "-" and the significant
 * digits without leading or trailing zeros, then either the zeros that make
 * an integer below 10^20 (so 100 and 1e2 give "100"), or "e" and the decimal
 * exponent of the point placed after the first digit (1.5 gives "15e0").
 * Numerically equal numbers have the same normal form. An exponent beyond int64 saturates (such numbers are
 * rechecked anyway).
 */
static char *
number_normal(const uint8_t *v, size_t *len)
{
	char		ibuf[FJ_NUMBER_TEXT_BUF];
	const char *s,
			   *end;
	const char *p;
	bool		neg = false;
	StringInfoData out;
	int64		point = 0;		/* digits before the decimal point, counting leading zeros */
	int64		lead = 0;		/* leading zeros among all digits */
	int64		exp10 = 0;
	bool		seen_nonzero = false;
	int			ndig = 0;
	char	   *digits;

	if (!fj_is_text_number(v))
	{
		s = ibuf;
		end = (const char *) fj_put_int_text((uint8_t *) ibuf, v);
	}
	else
	{
		const uint8_t *t;
		uint32_t	n = fj_number_text(v, ibuf, &t);

		s = (const char *) t;
		end = s + n;
	}
	digits = palloc(end - s + 1);
	p = s;
	if (*p == '-')
	{
		neg = true;
		p++;
	}
	for (; p < end && *p >= '0' && *p <= '9'; p++)
	{
		point++;
		if (*p == '0' && !seen_nonzero)
			lead++;
		else
		{
			seen_nonzero = true;
			digits[ndig++] = *p;
		}
	}
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
		{
			if (*p == '0' && !seen_nonzero)
				lead++;
			else
			{
				seen_nonzero = true;
				digits[ndig++] = *p;
			}
		}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		eneg = false;

		p++;
		if (*p == '+' || *p == '-')
			eneg = *p++ == '-';
		for (; p < end; p++)
		{
			if (exp10 < PG_INT64_MAX / 20)
				exp10 = exp10 * 10 + (*p - '0');
		}
		if (eneg)
			exp10 = -exp10;
	}
	while (ndig > 0 && digits[ndig - 1] == '0')
		ndig--;
	initStringInfo(&out);
	if (ndig == 0)
		appendStringInfoChar(&out, '0');
	else
	{
		int64		e = point - lead - 1 + exp10;

		if (neg)
			appendStringInfoChar(&out, '-');
		appendBinaryStringInfo(&out, digits, ndig);
		/* integers below 10^20 as plain digits (no 'e'), everything else with its exponent */
		if (e >= ndig - 1 && e < 20)
			appendBinaryStringInfo(&out, "00000000000000000000", (int) (e - (ndig - 1)));
		else
			appendStringInfo(&out, "e" INT64_FORMAT, e);
	}
	pfree(digits);
	*len = out.len;
	return out.data;
}

/* A text entry: flag byte then the bytes (hashed when long, as jsonb does). */
static Datum
text_entry(uint8 flag, const char *s, size_t len)
{
	text	   *t;
	char		hashbuf[10];

	if (len > GIN_MAXLENGTH)
	{
		uint32		h = DatumGetUInt32(hash_any((const unsigned char *) s, (int) len));

		snprintf(hashbuf, sizeof(hashbuf), "%08x", h);
		s = hashbuf;
		len = 8;
		flag |= GIN_HASHED;
	}
	t = palloc(VARHDRSZ + 1 + len);
	SET_VARSIZE(t, VARHDRSZ + 1 + len);
	*VARDATA(t) = (char) flag;
	memcpy(VARDATA(t) + 1, s, len);
	return PointerGetDatum(t);
}

/* The entry of a scalar value (string array elements count as keys). */
static Datum
scalar_entry(const uint8_t *v, bool string_is_key)
{
	const uint8_t *s;
	uint32_t	n;
	size_t		nlen;
	char	   *num;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_LITERAL:
			if (FJ_IMM(v[0]) == FJ_NULL)
				return text_entry(GIN_NULL, "", 0);
			return text_entry(GIN_BOOL, FJ_IMM(v[0]) == FJ_TRUE ? "t" : "f", 1);
		case FJ_STRING:
			n = fj_text(v, &s);
			return text_entry(string_is_key ? GIN_KEY : GIN_STR, (const char *) s, n);
		default:
			{
				Datum		entry;

				/* number_normal's buffer is a kilobyte at least: one per number would add up */
				num = number_normal(v, &nlen);
				entry = text_entry(GIN_NUM, num, nlen);
				pfree(num);
				return entry;
			}
	}
}

/*
 * Whether an object may have a duplicated key: two members share a key
 * fingerprint (the stored ones when the object has a key index). Most
 * objects have none, and then every member is operative without a lookup.
 */
static bool
may_have_duplicates(const uint8_t *obj)
{
	uint64_t	seen[4] = {0, 0, 0, 0};
	uint32_t	count = fj_container_count(obj);
	const uint8_t *p = fj_container_members(obj);
	const uint8_t *end = fj_container_members_end(obj);
	const uint8_t *fps = (FJ_IMM(obj[0]) & FJ_CONTAINER_INDEXED) ? fj_key_index(obj) : NULL;
	uint32_t	i;

	if (count < 2)
		return false;
	for (i = 0; i < count && p < end; i++)
	{
		const uint8_t *k;
		uint32_t	klen = fj_text(p, &k);
		uint8_t		fp = fps ? fps[i] : fj_key_fingerprint(k, klen);

		if (seen[fp >> 6] & (1ULL << (fp & 63)))
			return true;
		seen[fp >> 6] |= 1ULL << (fp & 63);
		p = k + klen;
		p += fj_value_size(p);
	}
	return false;
}

/* jsonb_ops entries of v and everything in it. */
static void
extract_ops(const uint8_t *v, bool in_array, entries *e)
{
	const uint8_t *p,
			   *end;
	bool		dups;

	check_stack_depth();
	if (!fj_is_container(v))
	{
		entries_add(e, scalar_entry(v, in_array));
		return;
	}
	dups = FJ_TYPE(v[0]) == FJ_OBJECT && may_have_duplicates(v);
	p = fj_container_members(v);
	end = fj_container_members_end(v);
	while (p < end)
	{
		if (FJ_TYPE(v[0]) == FJ_OBJECT)
		{
			const uint8_t *k;
			uint32_t	klen = fj_text(p, &k);

			p = k + klen;
			/* only the operative (last) member of a duplicated key counts */
			if (dups && fj_object_get(v, (const char *) k, klen) != p)
			{
				p += fj_value_size(p);
				continue;
			}
			entries_add(e, text_entry(GIN_KEY, (const char *) k, klen));
		}
		extract_ops(p, FJ_TYPE(v[0]) == FJ_ARRAY, e);
		p += fj_value_size(p);
	}
}

/* Mix a scalar into a path hash (numbers by their normal form). */
static uint32
hash_scalar(const uint8_t *v, uint32 h)
{
	uint32		vh;
	const uint8_t *s;
	uint32_t	n;
	size_t		nlen;
	char	   *num;

	switch (FJ_TYPE(v[0]))
	{
		case FJ_LITERAL:
			vh = FJ_IMM(v[0]) == FJ_NULL ? 0x01 : FJ_IMM(v[0]) == FJ_TRUE ? 0x02 : 0x04;
			break;
		case FJ_STRING:
			n = fj_text(v, &s);
			vh = DatumGetUInt32(hash_any(s, (int) n));
			break;
		default:
			num = number_normal(v, &nlen);
			vh = DatumGetUInt32(hash_any((const unsigned char *) num, (int) nlen)) ^ 0x9e3779b9;
			pfree(num);
	}
	/* as jsonb: rotate the running hash, xor the new one */
	h = pg_rotate_left32(h, 1);
	return h ^ vh;
}

/* jsonb_path_ops entries: one hash per scalar of (keys on the path, value). */
static void
extract_path_ops(const uint8_t *v, uint32 path_hash, entries *e)
{
	const uint8_t *p,
			   *end;
	bool		dups;

	check_stack_depth();
	if (!fj_is_container(v))
	{
		entries_add(e, UInt32GetDatum(hash_scalar(v, path_hash)));
		return;
	}
	dups = FJ_TYPE(v[0]) == FJ_OBJECT && may_have_duplicates(v);
	p = fj_container_members(v);
	end = fj_container_members_end(v);
	while (p < end)
	{
		uint32		h = path_hash;

		if (FJ_TYPE(v[0]) == FJ_OBJECT)
		{
			const uint8_t *k;
			uint32_t	klen = fj_text(p, &k);

			p = k + klen;
			if (dups && fj_object_get(v, (const char *) k, klen) != p)
			{
				p += fj_value_size(p);
				continue;
			}
			h = pg_rotate_left32(h, 1) ^ DatumGetUInt32(hash_any(k, (int) klen));
		}
		extract_path_ops(p, h, e);
		p += fj_value_size(p);
	}
}

/* ------------------------------------------------------- jsonpath queries */

/*
 * What an index can check of a path expression: a tree whose leaves are
 * entries and whose inner nodes AND and OR them. A document can match only
 * if the tree is not false for its entries.
 */
typedef enum JpNodeType
{
	JP_OR,
	JP_AND,
	JP_ENTRY
} JpNodeType;

typedef struct JpNode
{
	JpNodeType	type;
	int			nargs;			/* JP_OR, JP_AND */
	int			index;			/* JP_ENTRY, once emitted: the entry's number */
	Datum		entry;			/* JP_ENTRY */
	struct JpNode *args[FLEXIBLE_ARRAY_MEMBER];
} JpNode;

/* fastjson_ops: the accessors of a chain, last first (a persistent list). */
typedef struct JpStep
{
	const struct JpStep *parent;
	int			type;			/* jpiKey, jpiAny, jpiAnyKey, jpiAnyArray, jpiIndexArray */
	const char *key;			/* jpiKey */
	int32		keylen;
} JpStep;

/* The chain from $ (or from the item a filter looks at) to a point of the path. */
typedef struct JpPath
{
	const JpStep *steps;		/* fastjson_ops */
	uint32		hash;			/* fastjson_path_ops: the keys' hash */
} JpPath;

typedef struct JpContext
{
	bool		path_ops;
	bool		lax;
} JpContext;

static JpNode *jp_bool(const JpContext *cx, JpPath path, JsonPathItem *jsp, bool not);

static JpNode *
jp_entry(Datum entry)
{
	JpNode	   *n = palloc(offsetof(JpNode, args));

	n->type = JP_ENTRY;
	n->nargs = 0;
	n->entry = entry;
	return n;
}

static JpNode *
jp_expr(JpNodeType type, int nargs)
{
	JpNode	   *n = palloc(offsetof(JpNode, args) + sizeof(JpNode *) * nargs);

	n->type = type;
	n->nargs = nargs;
	return n;
}

static JpNode *
jp_binary(JpNodeType type, JpNode *a, JpNode *b)
{
	JpNode	   *n = jp_expr(type, 2);

	n->args[0] = a;
	n->args[1] = b;
	return n;
}

/* Extend the chain by an accessor; false for items an index cannot follow. */
static bool
jp_add_step(const JpContext *cx, JpPath *path, JsonPathItem *jsp)
{
	int32		len;
	char	   *key;
	JpStep	   *st;

	if (jsp->type == jpiRoot)
	{
		path->steps = NULL;
		path->hash = 0;
		return true;
	}
	if (cx->path_ops)
	{
		switch ((int) jsp->type)
		{
			case jpiKey:
				key = jspGetString(jsp, &len);
				path->hash = pg_rotate_left32(path->hash, 1) ^
					DatumGetUInt32(hash_any((const unsigned char *) key, len));
				return true;
			case jpiIndexArray:
			case jpiAnyArray:
				return true;	/* arrays are not in the hash */
			default:
				return false;	/* wildcards and methods: the keys are not known */
		}
	}
	switch ((int) jsp->type)
	{
		case jpiKey:
		case jpiAny:
		case jpiAnyKey:
		case jpiAnyArray:
		case jpiIndexArray:
			st = palloc(sizeof(JpStep));
			st->parent = path->steps;
			st->type = jsp->type;
			st->key = jsp->type == jpiKey ? jspGetString(jsp, &st->keylen) : NULL;
			path->steps = st;
			return true;
		default:
			return false;
	}
}

/* The tape value of a literal of the path (buf: room for a number or a string's header). */
static const uint8_t *
jp_literal(JsonPathItem *jsp)
{
	static const uint8_t null_tag = FJ_TAG(FJ_LITERAL, FJ_NULL);
	static const uint8_t false_tag = FJ_TAG(FJ_LITERAL, FJ_FALSE);
	static const uint8_t true_tag = FJ_TAG(FJ_LITERAL, FJ_TRUE);
	uint8_t    *t;
	char	   *s;
	int32		len;

	switch ((int) jsp->type)
	{
		case jpiNull:
			return &null_tag;
		case jpiBool:
			return jspGetBool(jsp) ? &true_tag : &false_tag;
		case jpiNumeric:
			s = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(jspGetNumeric(jsp))));
			len = (int32) strlen(s);
			t = palloc(len + 9);
			fj_put_number(t, (const uint8_t *) s, len);
			return t;
		case jpiString:
			s = jspGetString(jsp, &len);
			t = palloc(len + 5);
			memcpy(fj_put_text_header(t, FJ_STRING, len), s, len);
			return t;
	}
	elog(ERROR, "invalid scalar jsonpath item type: %d", jsp->type);
	return NULL;
}

/*
 * The nodes that check "chain == scalar" (scalar NULL: EXISTS(chain), which
 * no entry checks; only the chain's filters give nodes then).
 */
static List *
jp_chain_nodes(const JpContext *cx, JpPath path, const uint8_t *scalar, List *nodes)
{
	const JpStep *st;
	bool		as_key,
				as_value;

	if (!scalar)
		return nodes;
	if (cx->path_ops)
		return lappend(nodes, jp_entry(UInt32GetDatum(hash_scalar(scalar, path.hash))));
	for (st = path.steps; st; st = st->parent)
		if (st->type == jpiKey)
			nodes = lappend(nodes, jp_entry(text_entry(GIN_KEY, st->key, st->keylen)));
	if (FJ_TYPE(scalar[0]) != FJ_STRING)
		return lappend(nodes, jp_entry(scalar_entry(scalar, false)));
	/*
	 * A string array element (and a string root) is entered as a key. Lax
	 * mode unwraps arrays, .** reaches both: either entry. In strict mode
	 * an element accessor gives elements, a chain with none the root (a
	 * string root is the only scalar $ can be), and a key a member value.
	 */
	if (cx->lax || (path.steps && path.steps->type == jpiAny))
		as_key = as_value = true;
	else if (!path.steps || path.steps->type == jpiAnyArray || path.steps->type == jpiIndexArray)
		as_key = true, as_value = false;
	else
		as_key = false, as_value = true;
	if (as_key && as_value)
		return lappend(nodes, jp_binary(JP_OR, jp_entry(scalar_entry(scalar, true)),
										jp_entry(scalar_entry(scalar, false))));
	return lappend(nodes, jp_entry(scalar_entry(scalar, as_key)));
}

/* The nodes of a chain (from path, its filters included) compared with scalar. */
static JpNode *
jp_chain(const JpContext *cx, JpPath path, JsonPathItem *jsp, const uint8_t *scalar)
{
	JsonPathItem next;
	List	   *nodes = NIL;
	bool		whole = true;
	JpNode	   *n;
	ListCell   *lc;
	int			i = 0;

	for (;;)
	{
		if (jsp->type == jpiFilter)
		{
			JsonPathItem arg;
			JpNode	   *f;

			jspGetArg(jsp, &arg);
			f = jp_bool(cx, path, &arg, false);
			if (f)
				nodes = lappend(nodes, f);
		}
		else if (jsp->type != jpiCurrent && !jp_add_step(cx, &path, jsp))
		{
			/* an item the index cannot follow: only the filters so far count */
			whole = false;
			break;
		}
		if (!jspGetNext(jsp, &next))
			break;
		jsp = &next;
	}
	if (whole)
		nodes = jp_chain_nodes(cx, path, scalar, nodes);
	if (nodes == NIL)
		return NULL;
	if (list_length(nodes) == 1)
		return linitial(nodes);
	n = jp_expr(JP_AND, list_length(nodes));
	foreach(lc, nodes)
		n->args[i++] = lfirst(lc);
	return n;
}

/* The nodes of a predicate (not: under a negation), or NULL when nothing can be checked. */
static JpNode *
jp_bool(const JpContext *cx, JpPath path, JsonPathItem *jsp, bool not)
{
	JsonPathItem l,
				r;

	check_stack_depth();
	switch ((int) jsp->type)
	{
		case jpiAnd:
		case jpiOr:
			{
				JpNode	   *a,
						   *b;

				jspGetLeftArg(jsp, &l);
				a = jp_bool(cx, path, &l, not);
				jspGetRightArg(jsp, &r);
				b = jp_bool(cx, path, &r, not);
				if (!a || !b)
				{
					/* of an AND either side narrows; of an OR both must */
					if (jsp->type == jpiOr ? !not : not)
						return NULL;
					return a ? a : b;
				}
				return jp_binary((jsp->type == jpiAnd) != not ? JP_AND : JP_OR, a, b);
			}
		case jpiNot:
			jspGetArg(jsp, &l);
			return jp_bool(cx, path, &l, !not);
		case jpiExists:
			if (not)
				return NULL;
			jspGetArg(jsp, &l);
			return jp_chain(cx, path, &l, NULL);
		case jpiEqual:
			if (not)
				return NULL;
			jspGetLeftArg(jsp, &l);
			jspGetRightArg(jsp, &r);
			if (jspIsScalar(l.type))
				return jp_chain(cx, path, &r, jp_literal(&l));
			if (jspIsScalar(r.type))
				return jp_chain(cx, path, &l, jp_literal(&r));
			return NULL;
		default:
			/* != (a negated == is not "!="), <, starts with, ...: nothing to check */
			return NULL;
	}
}

static void
jp_emit(JpNode *n, entries *e)
{
	int			i;

	check_stack_depth();
	if (n->type == JP_ENTRY)
	{
		n->index = e->n;
		entries_add(e, n->entry);
		return;
	}
	for (i = 0; i < n->nargs; i++)
		jp_emit(n->args[i], e);
}

/* The tree's value for the entries present (check: bool[] or GinTernaryValue[]). */
static GinTernaryValue
jp_eval(const JpNode *n, const void *check, bool ternary)
{
	GinTernaryValue res,
				v;
	int			i;

	check_stack_depth();
	switch (n->type)
	{
		case JP_ENTRY:
			if (ternary)
				return ((const GinTernaryValue *) check)[n->index];
			return ((const bool *) check)[n->index] ? GIN_TRUE : GIN_FALSE;
		case JP_AND:
			res = GIN_TRUE;
			for (i = 0; i < n->nargs; i++)
			{
				v = jp_eval(n->args[i], check, ternary);
				if (v == GIN_FALSE)
					return GIN_FALSE;
				if (v == GIN_MAYBE)
					res = GIN_MAYBE;
			}
			return res;
		case JP_OR:
			res = GIN_FALSE;
			for (i = 0; i < n->nargs; i++)
			{
				v = jp_eval(n->args[i], check, ternary);
				if (v == GIN_TRUE)
					return GIN_TRUE;
				if (v == GIN_MAYBE)
					res = GIN_MAYBE;
			}
			return res;
	}
	return GIN_MAYBE;
}

/*
 * The entries of a jsonpath query (@? or @@) into e; the tree goes to
 * extra_data[0]. No entries: the whole index is scanned.
 */
static void
jp_extract_query(JsonPath *jp, StrategyNumber strategy, bool path_ops, entries *e,
				 int32 *search_mode, Pointer **extra_data)
{
	JpContext	cx = {path_ops, (jp->header & JSONPATH_LAX) != 0};
	JpPath		path = {NULL, 0};
	JsonPathItem root;
	JpNode	   *n;

	jspInit(&root, jp);
	/* jb @? path is jb @@ exists(path) */
	n = strategy == STRATEGY_JSONPATH_EXISTS ? jp_chain(&cx, path, &root, NULL)
		: jp_bool(&cx, path, &root, false);
	if (n)
		jp_emit(n, e);
	if (e->n == 0)
	{
		*search_mode = GIN_SEARCH_MODE_ALL;
		return;
	}
	*extra_data = palloc0(sizeof(Pointer) * e->n);
	(*extra_data)[0] = (Pointer) n;
}

/* consistent for @? and @@: the tree, never certain (recheck). */
static GinTernaryValue
jp_consistent(const void *check, int32 nkeys, Pointer *extra_data, bool ternary)
{
	GinTernaryValue v;

	if (nkeys == 0)
		return GIN_MAYBE;
	v = jp_eval((const JpNode *) extra_data[0], check, ternary);
	return v == GIN_TRUE ? GIN_MAYBE : v;
}

/* ------------------------------------------------------------ fastjson_ops */

PG_FUNCTION_INFO_V1(fastjson_gin_compare);

/* Entries compare as bytes (flag byte first). */
Datum
fastjson_gin_compare(PG_FUNCTION_ARGS)
{
	text	   *a = PG_GETARG_TEXT_PP(0);
	text	   *b = PG_GETARG_TEXT_PP(1);
	int			la = VARSIZE_ANY_EXHDR(a),
				lb = VARSIZE_ANY_EXHDR(b);
	int			c = memcmp(VARDATA_ANY(a), VARDATA_ANY(b), Min(la, lb));

	if (c == 0)
		c = la < lb ? -1 : la > lb ? 1 : 0;
	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	PG_RETURN_INT32(c);
}

PG_FUNCTION_INFO_V1(fastjson_gin_extract);

Datum
fastjson_gin_extract(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	entries		e = {0};

	extract_ops(FJ_ROOT(d), !fj_is_container(FJ_ROOT(d)), &e);
	*nentries = e.n;
	PG_RETURN_POINTER(ENTRIES(e));
}

PG_FUNCTION_INFO_V1(fastjson_gin_extract_query);

Datum
fastjson_gin_extract_query(PG_FUNCTION_ARGS)
{
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	int32	   *search_mode = (int32 *) PG_GETARG_POINTER(6);
	entries		e = {0};

	if (strategy == STRATEGY_CONTAINS)
	{
		Fastjson   *q = PG_GETARG_FASTJSON_P(0);

		extract_ops(FJ_ROOT(q), !fj_is_container(FJ_ROOT(q)), &e);
		if (e.n == 0)
			*search_mode = GIN_SEARCH_MODE_ALL;
	}
	else if (strategy == STRATEGY_EXISTS)
	{
		text	   *key = PG_GETARG_TEXT_PP(0);

		entries_add(&e, text_entry(GIN_KEY, VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)));
	}
	else if (strategy == STRATEGY_EXISTS_ANY || strategy == STRATEGY_EXISTS_ALL)
	{
		ArrayType  *keys = PG_GETARG_ARRAYTYPE_P(0);
		Datum	   *elems;
		bool	   *nulls;
		int			n,
					i;

		deconstruct_array(keys, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
		for (i = 0; i < n; i++)
			if (!nulls[i])
				entries_add(&e, text_entry(GIN_KEY, VARDATA_ANY(DatumGetTextPP(elems[i])),
										   VARSIZE_ANY_EXHDR(DatumGetTextPP(elems[i]))));
		/* ?& with no keys matches everything; ?| with none matches nothing */
		if (e.n == 0 && strategy == STRATEGY_EXISTS_ALL)
			*search_mode = GIN_SEARCH_MODE_ALL;
	}
	else if (strategy == STRATEGY_JSONPATH_EXISTS || strategy == STRATEGY_JSONPATH_MATCH)
		jp_extract_query(PG_GETARG_JSONPATH_P(0), strategy, false, &e, search_mode,
						 (Pointer **) PG_GETARG_POINTER(4));
	else
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	*nentries = e.n;
	PG_RETURN_POINTER(ENTRIES(e));
}

PG_FUNCTION_INFO_V1(fastjson_gin_consistent);

Datum
fastjson_gin_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	StrategyNumber strategy = PG_GETARG_UINT16(1);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);
	int32		i;

	*recheck = true;
	if (strategy == STRATEGY_JSONPATH_EXISTS || strategy == STRATEGY_JSONPATH_MATCH)
		PG_RETURN_BOOL(jp_consistent(check, nkeys, extra_data, false) != GIN_FALSE);
	if (strategy == STRATEGY_EXISTS_ANY)
	{
		for (i = 0; i < nkeys; i++)
			if (check[i])
				PG_RETURN_BOOL(true);
		PG_RETURN_BOOL(false);
	}
	/* @>, ? and ?&: every entry must be there */
	for (i = 0; i < nkeys; i++)
		if (!check[i])
			PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(true);
}

PG_FUNCTION_INFO_V1(fastjson_gin_triconsistent);

Datum
fastjson_gin_triconsistent(PG_FUNCTION_ARGS)
{
	GinTernaryValue *check = (GinTernaryValue *) PG_GETARG_POINTER(0);
	StrategyNumber strategy = PG_GETARG_UINT16(1);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	GinTernaryValue res = strategy == STRATEGY_EXISTS_ANY ? GIN_FALSE : GIN_MAYBE;
	int32		i;

	if (strategy == STRATEGY_JSONPATH_EXISTS || strategy == STRATEGY_JSONPATH_MATCH)
		PG_RETURN_GIN_TERNARY_VALUE(jp_consistent(check, nkeys, extra_data, true));
	for (i = 0; i < nkeys; i++)
	{
		if (strategy == STRATEGY_EXISTS_ANY)
		{
			if (check[i] != GIN_FALSE)
				res = GIN_MAYBE;
		}
		else if (check[i] == GIN_FALSE)
			PG_RETURN_GIN_TERNARY_VALUE(GIN_FALSE);
	}
	/* never GIN_TRUE: every match is rechecked */
	PG_RETURN_GIN_TERNARY_VALUE(res);
}

/* ------------------------------------------------------- fastjson_path_ops */

PG_FUNCTION_INFO_V1(fastjson_gin_extract_path);

Datum
fastjson_gin_extract_path(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	entries		e = {0};

	extract_path_ops(FJ_ROOT(d), 0, &e);
	*nentries = e.n;
	PG_RETURN_POINTER(ENTRIES(e));
}

PG_FUNCTION_INFO_V1(fastjson_gin_extract_path_query);

Datum
fastjson_gin_extract_path_query(PG_FUNCTION_ARGS)
{
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	int32	   *search_mode = (int32 *) PG_GETARG_POINTER(6);
	entries		e = {0};

	if (strategy == STRATEGY_CONTAINS)
	{
		Fastjson   *q = PG_GETARG_FASTJSON_P(0);

		extract_path_ops(FJ_ROOT(q), 0, &e);
		if (e.n == 0)
			*search_mode = GIN_SEARCH_MODE_ALL;
	}
	else if (strategy == STRATEGY_JSONPATH_EXISTS || strategy == STRATEGY_JSONPATH_MATCH)
		jp_extract_query(PG_GETARG_JSONPATH_P(0), strategy, true, &e, search_mode,
						 (Pointer **) PG_GETARG_POINTER(4));
	else
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	*nentries = e.n;
	PG_RETURN_POINTER(ENTRIES(e));
}

PG_FUNCTION_INFO_V1(fastjson_gin_consistent_path);

Datum
fastjson_gin_consistent_path(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	StrategyNumber strategy = PG_GETARG_UINT16(1);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);
	int32		i;

	*recheck = true;
	if (strategy == STRATEGY_JSONPATH_EXISTS || strategy == STRATEGY_JSONPATH_MATCH)
		PG_RETURN_BOOL(jp_consistent(check, nkeys, extra_data, false) != GIN_FALSE);
	for (i = 0; i < nkeys; i++)
		if (!check[i])
			PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(true);
}

PG_FUNCTION_INFO_V1(fastjson_gin_triconsistent_path);

Datum
fastjson_gin_triconsistent_path(PG_FUNCTION_ARGS)
{
	GinTernaryValue *check = (GinTernaryValue *) PG_GETARG_POINTER(0);
	StrategyNumber strategy = PG_GETARG_UINT16(1);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	int32		i;

	if (strategy == STRATEGY_JSONPATH_EXISTS || strategy == STRATEGY_JSONPATH_MATCH)
		PG_RETURN_GIN_TERNARY_VALUE(jp_consistent(check, nkeys, extra_data, true));
	for (i = 0; i < nkeys; i++)
		if (check[i] == GIN_FALSE)
			PG_RETURN_GIN_TERNARY_VALUE(GIN_FALSE);
	PG_RETURN_GIN_TERNARY_VALUE(GIN_MAYBE);
}
