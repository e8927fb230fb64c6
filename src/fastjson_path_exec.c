/*
 * fastjson_path_exec.c — the SQL/JSON path executor on the tape: accessors,
 * filters, predicates, comparisons and arithmetic (item methods are in
 * fastjson_path_method.c, the SQL functions in fastjson_path_sql.c).
 *
 * The executor follows the structure of the path, as jsonb's does: each item
 * takes one input item and passes each of its output items to the next item
 * of the path (fjp_exec_next), which at the end of the path appends it to
 * the result sequence. With no sequence (found == NULL) only existence is
 * asked, and evaluation stops at the first item. Lax mode unwraps arrays
 * before accessors that do not apply to them and lets structural errors
 * (a missing key, a wrong type for an accessor, a subscript out of range)
 * go silently; strict mode raises them. Predicates are three-valued: an
 * error in a predicate's operands makes it unknown, and filters suppress
 * errors (throw_errors is off while their operands are evaluated).
 *
 * Documents are seen as jsonb sees them: of duplicate keys the last is
 * operative, and an object's members are visited (.*, .**) in jsonb's key
 * order (length, then bytes), through the object views of
 * fastjson_value.h. Numbers compare exactly (fj_number_cmp between tape
 * numbers, numeric_cmp once a computed numeric is involved); strings compare
 * bytewise (code point order in UTF-8, as jsonpath does).
 */
#include "fastjson_path.h"

#include "catalog/pg_collation.h"
#include "miscadmin.h"
#include "regex/regex.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "tape_writer.h"

const uint8_t fjp_tape_null[1] = {FJ_TAG(FJ_LITERAL, FJ_NULL)};
const uint8_t fjp_tape_false[1] = {FJ_TAG(FJ_LITERAL, FJ_FALSE)};
const uint8_t fjp_tape_true[1] = {FJ_TAG(FJ_LITERAL, FJ_TRUE)};

static FjpResult exec_item(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found);
static FjpResult exec_item_opt_unwrap(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it,
									  FjpList *found, bool unwrap);
static FjpBool exec_bool(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, bool can_have_next);
static FjpResult exec_root_chain(FjpExec *cx, JsonPathItem *jsp, FjpList *found);

/* ------------------------------------------------------------------ items */

FjpType
fjp_item_type(const FjpItem *it)
{
	switch (it->kind)
	{
		case FJP_TAPE:
			switch (fj_jsonb_type(it->u.v))
			{
				case FJB_NULL:
					return FJPT_NULL;
				case FJB_STRING:
					return FJPT_STRING;
				case FJB_NUMBER:
					return FJPT_NUMBER;
				case FJB_BOOL:
					return FJPT_BOOL;
				case FJB_ARRAY:
					return FJPT_ARRAY;
				case FJB_OBJECT:
					return FJPT_OBJECT;
			}
			break;
		case FJP_NUMERIC:
			return FJPT_NUMBER;
		case FJP_STRING:
			return FJPT_STRING;
		case FJP_DATETIME:
			return FJPT_DATETIME;
	}
	elog(ERROR, "fastjson: invalid jsonpath item");
	return FJPT_NULL;
}

bool
fjp_item_string(const FjpItem *it, const char **s, int32 *len)
{
	if (it->kind == FJP_STRING)
	{
		*s = it->u.str.s;
		*len = it->u.str.len;
		return true;
	}
	if (it->kind == FJP_TAPE && FJ_TYPE(it->u.v[0]) == FJ_STRING)
	{
		const uint8_t *t;

		*len = (int32) fj_text(it->u.v, &t);
		*s = (const char *) t;
		return true;
	}
	return false;
}

/* A tape number (UINT, NINT, NUMBER, PACKED) as a numeric. */
static Numeric
tape_numeric(const uint8_t *v)
{
	char		buf[FJ_NUMBER_TEXT_BUF];
	const uint8_t *t;
	uint32		len;
	char	   *s;
	Numeric		n;

	if (FJ_TYPE(v[0]) == FJ_UINT || FJ_TYPE(v[0]) == FJ_NINT)
		return int64_to_numeric(fj_int_value(v));
	len = fj_number_text(v, buf, &t);
	s = pnstrdup((const char *) t, len);
	n = DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum(s),
											ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
	pfree(s);
	return n;
}

Numeric
fjp_item_numeric(const FjpItem *it)
{
	if (it->kind == FJP_NUMERIC)
		return it->u.num;
	Assert(it->kind == FJP_TAPE);
	return tape_numeric(it->u.v);
}

char *
fjp_item_number_out(const FjpItem *it)
{
	if (it->kind == FJP_TAPE && (FJ_TYPE(it->u.v[0]) == FJ_UINT || FJ_TYPE(it->u.v[0]) == FJ_NINT))
	{
		char	   *s = palloc(24);

		*fj_put_int_text((uint8_t *) s, it->u.v) = '\0';
		return s;
	}
	return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(fjp_item_numeric(it))));
}

FjpItem
fjp_int_item(int64 v)
{
	uint8_t    *t = palloc(9);

	if (v >= 0)
		fj_put_int(t, FJ_UINT, (uint64) v);
	else
		fj_put_int(t, FJ_NINT, (uint64) (-1 - v));
	return fjp_tape_item(t);
}

/* Whether an item is an integer of the tape (its value in *v). */
static inline bool
item_int(const FjpItem *it, int64 *v)
{
	if (it->kind == FJP_TAPE && (FJ_TYPE(it->u.v[0]) == FJ_UINT || FJ_TYPE(it->u.v[0]) == FJ_NINT))
	{
		*v = fj_int_value(it->u.v);
		return true;
	}
	return false;
}

/* ---------------------------------------------------------- sequences */

void
fjp_list_append(FjpList *l, const FjpItem *it)
{
	if (l->n == l->cap)
	{
		int			cap = l->cap * 2;
		FjpItem    *items;

		if ((Size) l->cap > MaxAllocSize / (2 * sizeof(FjpItem)))
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("jsonpath result has too many items")));
		if (l->items == l->local)
		{
			items = palloc(cap * sizeof(FjpItem));
			memcpy(items, l->local, l->n * sizeof(FjpItem));
		}
		else
			items = repalloc(l->items, cap * sizeof(FjpItem));
		l->items = items;
		l->cap = cap;
	}
	l->items[l->n++] = *it;
}

/* ----------------------------------------------------------- literals */

/*
 * A number literal of the path as a tape value, made once per query: numbers
 * of the document then compare with it tape to tape (fj_number_cmp), exact
 * and without a numeric per row.
 */
static const uint8_t *
literal_number(FjpExec *cx, JsonPathItem *jsp)
{
	FjpLiterals *lits = cx->literals;
	int32		pos = (int32) (jsp->base - cx->path->data);
	char	   *s;
	size_t		len;
	uint8_t    *t;
	MemoryContext old;
	int			i;

	for (i = 0; i < lits->n; i++)
		if (lits->items[i].pos == pos)
			return lits->items[i].tape;
	old = MemoryContextSwitchTo(lits->mcxt);
	s = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(jspGetNumeric(jsp))));
	len = strlen(s);
	t = palloc(len + 9);
	fj_put_number(t, (const uint8_t *) s, len);
	pfree(s);
	if (lits->n == lits->cap)
	{
		lits->cap = lits->cap ? lits->cap * 2 : 8;
		lits->items = lits->items ? repalloc(lits->items, lits->cap * sizeof(FjpLiteral))
			: palloc(lits->cap * sizeof(FjpLiteral));
	}
	lits->items[lits->n].pos = pos;
	lits->items[lits->n].tape = t;
	lits->n++;
	MemoryContextSwitchTo(old);
	return t;
}

/* The value of a variable: its member of the vars object (the last of duplicates). */
static void
get_variable(FjpExec *cx, JsonPathItem *jsp, FjpItem *out)
{
	int32		len;
	char	   *name = jspGetString(jsp, &len);
	const uint8_t *v;

	if (!cx->vars && FJC_NO_VARS_GIVES_NULL)
	{
		*out = fjp_tape_item(fjp_tape_null);
		return;
	}
	v = cx->vars ? fj_object_get(cx->vars, name, (size_t) len) : NULL;
	if (!v)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("could not find jsonpath variable \"%s\"", pnstrdup(name, len))));
	*out = fjp_tape_item(v);
	/* the vars object is the base object of what is found in it, id 1 */
	cx->base.root = cx->vars;
	cx->base.id = 1;
}

/* A literal or a variable as an item. */
static void
get_path_item(FjpExec *cx, JsonPathItem *jsp, FjpItem *out)
{
	switch ((int) jsp->type)
	{
		case jpiNull:
			*out = fjp_tape_item(fjp_tape_null);
			break;
		case jpiBool:
			*out = fjp_bool_item(jspGetBool(jsp));
			break;
		case jpiNumeric:
			*out = fjp_tape_item(literal_number(cx, jsp));
			break;
		case jpiString:
			{
				int32		len;
				char	   *s = jspGetString(jsp, &len);

				*out = fjp_string_item(s, len);
				break;
			}
		case jpiVariable:
			get_variable(cx, jsp, out);
			break;
		default:
			elog(ERROR, "unexpected jsonpath item type");
	}
}

/* ------------------------------------------------------------ comparison */

/* Order of two number items. */
static int
number_cmp(const FjpItem *a, const FjpItem *b)
{
	if (a->kind == FJP_TAPE && b->kind == FJP_TAPE)
		return fj_number_cmp(a->u.v, b->u.v);
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp, NumericGetDatum(fjp_item_numeric(a)),
											 NumericGetDatum(fjp_item_numeric(b))));
}

/* Bytewise order, shorter first on a tie: code point order for UTF-8. */
static int
bytes_cmp(const char *a, int32 alen, const char *b, int32 blen)
{
	int			c = memcmp(a, b, Min(alen, blen));

	if (c)
		return c;
	return alen == blen ? 0 : alen < blen ? -1 : 1;
}

/*
 * Compare two items with operator op (jsonb's compareItems). Items of
 * different types do not compare (unknown), except that null equals only
 * null (== and ordering false, != true); arrays and objects never compare.
 */
static FjpBool
compare_items(int op, const FjpItem *a, const FjpItem *b, bool use_tz)
{
	FjpType		ta = fjp_item_type(a),
				tb = fjp_item_type(b);
	bool		ca = ta == FJPT_ARRAY || ta == FJPT_OBJECT,
				cb = tb == FJPT_ARRAY || tb == FJPT_OBJECT;
	int			cmp = 0;
	bool		res;

	if (ta != tb && !(ca && cb))
	{
		if (ta == FJPT_NULL || tb == FJPT_NULL)
			return op == jpiNotEqual ? FJPB_TRUE : FJPB_FALSE;
		return FJPB_UNKNOWN;
	}
	switch (ta)
	{
		case FJPT_NULL:
			cmp = 0;
			break;
		case FJPT_BOOL:
			cmp = a->u.v[0] == b->u.v[0] ? 0 : FJ_IMM(a->u.v[0]) == FJ_TRUE ? 1 : -1;
			break;
		case FJPT_NUMBER:
			cmp = number_cmp(a, b);
			break;
		case FJPT_STRING:
			{
				const char *sa,
						   *sb;
				int32		la,
							lb;

				fjp_item_string(a, &sa, &la);
				fjp_item_string(b, &sb, &lb);
				if (op == jpiEqual)
					return la == lb && memcmp(sa, sb, la) == 0 ? FJPB_TRUE : FJPB_FALSE;
				cmp = bytes_cmp(sa, la, sb, lb);
				break;
			}
		case FJPT_DATETIME:
			{
				bool		cast_error;

				cmp = fjp_compare_datetime(a, b, use_tz, &cast_error);
				if (cast_error)
					return FJPB_UNKNOWN;
				break;
			}
		case FJPT_ARRAY:
		case FJPT_OBJECT:
			return FJPB_UNKNOWN;
	}
	switch (op)
	{
		case jpiEqual:
			res = cmp == 0;
			break;
		case jpiNotEqual:
			res = cmp != 0;
			break;
		case jpiLess:
			res = cmp < 0;
			break;
		case jpiGreater:
			res = cmp > 0;
			break;
		case jpiLessOrEqual:
			res = cmp <= 0;
			break;
		case jpiGreaterOrEqual:
			res = cmp >= 0;
			break;
		default:
			elog(ERROR, "unrecognized jsonpath operation: %d", op);
			return FJPB_UNKNOWN;
	}
	return res ? FJPB_TRUE : FJPB_FALSE;
}

/* ------------------------------------------------------------ navigation */

FjpResult
fjp_exec_next(FjpExec *cx, JsonPathItem *cur, JsonPathItem *next, const FjpItem *it,
			  FjpList *found)
{
	JsonPathItem elem;
	bool		has_next;

	if (!cur)
		has_next = next != NULL;
	else if (next)
		has_next = jspHasNext(cur);
	else
	{
		next = &elem;
		has_next = jspGetNext(cur, next);
	}
	if (has_next)
		return exec_item(cx, next, it, found);
	if (found)
		fjp_list_append(found, it);
	return FJP_OK;
}

/*
 * Apply jsp (NULL: none, collect the items) to the values of a container at
 * depths first to last below it (.**, .*, [*] and lax unwrapping; jsonb's
 * executeAnyItem): each value at a depth in range, then the values inside it
 * (pre-order). Object values come in jsonb's key order, operative members
 * only. first = last = UINT32_MAX asks for the leaves only (.**{last}).
 */
static FjpResult
exec_any(FjpExec *cx, JsonPathItem *jsp, const uint8_t *container, FjpList *found,
		 uint32 level, uint32 first, uint32 last, bool ignore_structural, bool unwrap_next)
{
	FjpResult	res = FJP_NOT_FOUND;
	bool		object = FJ_TYPE(container[0]) == FJ_OBJECT;
	uint32		start = 0,
				n,
				i;
	const uint8_t *p = NULL;

	check_stack_depth();
	if (level > last)
		return res;
	if (object)
		start = fj_object_view(&cx->scratch, container, &n);
	else
	{
		n = fj_container_count(container);
		p = fj_container_members(container);
	}
	for (i = 0; i < n; i++)
	{
		const uint8_t *v;
		FjpItem		it;

		if (object)
			v = cx->scratch.members[start + i].value;	/* the stack may have moved */
		else
		{
			v = p;
			p += fj_value_size(p);
		}
		if ((i & 1023) == 1023)
			CHECK_FOR_INTERRUPTS();
		it = fjp_tape_item(v);
		if (level >= first ||
			(first == PG_UINT32_MAX && last == PG_UINT32_MAX && !fj_is_container(v)))
		{
			if (jsp)
			{
				if (ignore_structural)
				{
					bool		saved = cx->ignore_structural;

					cx->ignore_structural = true;
					res = exec_item_opt_unwrap(cx, jsp, &it, found, unwrap_next);
					cx->ignore_structural = saved;
				}
				else
					res = exec_item_opt_unwrap(cx, jsp, &it, found, unwrap_next);
				if (res == FJP_ERROR || (res == FJP_OK && !found))
					break;
			}
			else if (found)
				fjp_list_append(found, &it);
			else
			{
				res = FJP_OK;
				break;
			}
		}
		if (level < last && fj_is_container(v))
		{
			res = exec_any(cx, jsp, v, found, level + 1, first, last, ignore_structural, unwrap_next);
			if (res == FJP_ERROR || (res == FJP_OK && !found))
				break;
		}
	}
	if (object)
		cx->scratch.top = start;
	return res;
}

FjpResult
fjp_exec_unwrap_array(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found,
					  bool unwrap_elements)
{
	Assert(fjp_is_array(it));
	return exec_any(cx, jsp, it->u.v, found, 1, 1, 1, false, unwrap_elements);
}

/*
 * Evaluate jsp into found; in lax mode with unwrap, arrays among the results
 * are replaced by their elements (jsonb's executeItemOptUnwrapResult).
 */
static FjpResult
exec_unwrap_result(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, bool unwrap, FjpList *found)
{
	FjpList		seq;
	FjpResult	res;
	int			i;

	if (!(unwrap && cx->lax))
		return exec_item(cx, jsp, it, found);
	fjp_list_init(&seq);
	res = exec_item(cx, jsp, it, &seq);
	if (res == FJP_ERROR)
	{
		fjp_list_free(&seq);
		return res;
	}
	for (i = 0; i < seq.n; i++)
	{
		if (fjp_is_array(&seq.items[i]))
			(void) fjp_exec_unwrap_array(cx, NULL, &seq.items[i], found, false);
		else
			fjp_list_append(found, &seq.items[i]);
	}
	fjp_list_free(&seq);
	return FJP_OK;
}

/* The same with suppressible errors suppressed (operands of predicates). */
static FjpResult
exec_unwrap_result_quiet(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, bool unwrap,
						 FjpList *found)
{
	bool		saved = cx->throw_errors;
	FjpResult	res;

	cx->throw_errors = false;
	res = exec_unwrap_result(cx, jsp, it, unwrap, found);
	cx->throw_errors = saved;
	return res;
}

/*
 * A subscript's value as an array index: a single number, truncated, within
 * int (jsonb's getArrayIndex).
 */
static FjpResult
get_array_index(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, int32 *index)
{
	FjpList		found;
	FjpResult	res;
	int64		iv;
	bool		error = false;

	fjp_list_init(&found);
	res = exec_item(cx, jsp, it, &found);
	if (res == FJP_ERROR)
	{
		fjp_list_free(&found);
		return res;
	}
	if (found.n != 1 || fjp_item_type(&found.items[0]) != FJPT_NUMBER)
	{
		fjp_list_free(&found);
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_INVALID_SQL_JSON_SUBSCRIPT),
							   errmsg("jsonpath array subscript is not a single numeric value"))));
	}
	if (item_int(&found.items[0], &iv))
	{
		error = iv < PG_INT32_MIN || iv > PG_INT32_MAX;
		*index = (int32) iv;
	}
	else
	{
		Datum		t = DirectFunctionCall2(numeric_trunc,
										NumericGetDatum(fjp_item_numeric(&found.items[0])),
										Int32GetDatum(0));

		*index = fjc_numeric_int4(DatumGetNumeric(t), &error);
	}
	fjp_list_free(&found);
	if (error)
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_INVALID_SQL_JSON_SUBSCRIPT),
							   errmsg("jsonpath array subscript is out of integer range"))));
	return FJP_OK;
}

/* [subscript, ...]: elements by index and range; in lax mode a non-array is a one-element array. */
static FjpResult
exec_index_array(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	JsonPathItem elem;
	FjpResult	res = FJP_NOT_FOUND;
	int			saved_size = cx->innermost_array_size;
	bool		singleton = !fjp_is_array(it);
	int			size = singleton ? 1 : (int) fj_container_count(it->u.v);
	bool		has_next = jspGetNext(jsp, &elem);
	int			i;

	cx->innermost_array_size = size;	/* for last */
	for (i = 0; i < jsp->content.array.nelems; i++)
	{
		JsonPathItem from,
					to;
		int32		index_from,
					index_to,
					index;
		bool		range = jspGetArraySubscript(jsp, &from, &to, i);
		const uint8_t *p = NULL;

		res = get_array_index(cx, &from, it, &index_from);
		if (res == FJP_ERROR)
			break;
		if (range)
		{
			res = get_array_index(cx, &to, it, &index_to);
			if (res == FJP_ERROR)
				break;
		}
		else
			index_to = index_from;

		if (!cx->ignore_structural &&
			(index_from < 0 || index_from > index_to || index_to >= size))
			FJP_RAISE(cx, ereport(ERROR,
								  (errcode(ERRCODE_INVALID_SQL_JSON_SUBSCRIPT),
								   errmsg("jsonpath array subscript is out of bounds"))));
		if (index_from < 0)
			index_from = 0;
		if (index_to >= size)
			index_to = size - 1;

		res = FJP_NOT_FOUND;
		for (index = index_from; index <= index_to; index++)
		{
			FjpItem		v;

			if (singleton)
				v = *it;
			else
			{
				/* the first element by index, the rest of a range by walking on */
				p = p ? p + fj_value_size(p) : fj_array_get(it->u.v, index);
				v = fjp_tape_item(p);
			}
			if (!has_next && !found)
				return FJP_OK;
			res = fjp_exec_next(cx, jsp, &elem, &v, found);
			if (res == FJP_ERROR || (res == FJP_OK && !found))
				break;
			if (((index - index_from) & 1023) == 1023)
				CHECK_FOR_INTERRUPTS();
		}
		if (res == FJP_ERROR || (res == FJP_OK && !found))
			break;
	}
	cx->innermost_array_size = saved_size;
	return res;
}

/* ---------------------------------------------------------- arithmetic */

typedef Numeric (*BinaryNumericOp) (Numeric a, Numeric b, bool *error);

/* a op b on integers of the tape, when it fits int64 (add, sub, mul); false otherwise. */
static bool
int_arith(int type, const FjpItem *a, const FjpItem *b, FjpItem *out)
{
	int64		x,
				y,
				r;

	if (!item_int(a, &x) || !item_int(b, &y))
		return false;
	switch (type)
	{
		case jpiAdd:
			if (__builtin_add_overflow(x, y, &r))
				return false;
			break;
		case jpiSub:
			if (__builtin_sub_overflow(x, y, &r))
				return false;
			break;
		case jpiMul:
			if (__builtin_mul_overflow(x, y, &r))
				return false;
			break;
		default:
			return false;
	}
	*out = fjp_int_item(r);
	return true;
}

/*
 * A binary operator on single numeric operands (arrays unwrapped in lax
 * mode); numeric arithmetic, with its errors (division by zero) raised or
 * suppressed.
 */
static FjpResult
exec_binary_arith(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	JsonPathItem elem;
	FjpList		lseq,
				rseq;
	FjpResult	res;
	FjpItem		out;
	BinaryNumericOp op;

	switch ((int) jsp->type)
	{
		case jpiAdd:
			op = fjc_numeric_add;
			break;
		case jpiSub:
			op = fjc_numeric_sub;
			break;
		case jpiMul:
			op = fjc_numeric_mul;
			break;
		case jpiDiv:
			op = fjc_numeric_div;
			break;
		default:
			op = fjc_numeric_mod;
			break;
	}
	fjp_list_init(&lseq);
	fjp_list_init(&rseq);
	jspGetLeftArg(jsp, &elem);
	res = exec_unwrap_result(cx, &elem, it, true, &lseq);
	if (res == FJP_ERROR)
		goto done;
	jspGetRightArg(jsp, &elem);
	res = exec_unwrap_result(cx, &elem, it, true, &rseq);
	if (res == FJP_ERROR)
		goto done;

	if (lseq.n != 1 || fjp_item_type(&lseq.items[0]) != FJPT_NUMBER)
	{
		fjp_list_free(&lseq);
		fjp_list_free(&rseq);
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_SINGLETON_SQL_JSON_ITEM_REQUIRED),
							   errmsg("left operand of jsonpath operator %s is not a single numeric value",
									  jspOperationName(jsp->type)))));
	}
	if (rseq.n != 1 || fjp_item_type(&rseq.items[0]) != FJPT_NUMBER)
	{
		fjp_list_free(&lseq);
		fjp_list_free(&rseq);
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_SINGLETON_SQL_JSON_ITEM_REQUIRED),
							   errmsg("right operand of jsonpath operator %s is not a single numeric value",
									  jspOperationName(jsp->type)))));
	}
	if (!int_arith(jsp->type, &lseq.items[0], &rseq.items[0], &out))
	{
		bool		error = false;
		Numeric		n = op(fjp_item_numeric(&lseq.items[0]), fjp_item_numeric(&rseq.items[0]),
						   cx->throw_errors ? NULL : &error);

		if (error)
		{
			res = FJP_ERROR;
			goto done;
		}
		out = fjp_numeric_item(n);
	}
	fjp_list_free(&lseq);
	fjp_list_free(&rseq);
	if (!jspGetNext(jsp, &elem) && !found)
		return FJP_OK;
	return fjp_exec_next(cx, jsp, &elem, &out, found);

done:
	fjp_list_free(&lseq);
	fjp_list_free(&rseq);
	return res;
}

/* Unary + and - on each numeric item of the operand (arrays unwrapped in lax mode). */
static FjpResult
exec_unary_arith(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	JsonPathItem elem;
	FjpList		seq;
	FjpResult	res;
	bool		has_next;
	bool		minus = jsp->type == jpiMinus;
	int			i;

	fjp_list_init(&seq);
	jspGetArg(jsp, &elem);
	res = exec_unwrap_result(cx, &elem, it, true, &seq);
	if (res == FJP_ERROR)
		goto done;
	res = FJP_NOT_FOUND;
	has_next = jspGetNext(jsp, &elem);
	for (i = 0; i < seq.n; i++)
	{
		FjpItem		v = seq.items[i];
		FjpResult	r;
		int64		iv;

		if (fjp_item_type(&v) == FJPT_NUMBER)
		{
			if (!found && !has_next)
			{
				res = FJP_OK;
				goto done;
			}
		}
		else
		{
			if (!found && !has_next)
				continue;		/* non-numbers are not looked at */
			fjp_list_free(&seq);
			FJP_RAISE(cx, ereport(ERROR,
								  (errcode(ERRCODE_SQL_JSON_NUMBER_NOT_FOUND),
								   errmsg("operand of unary jsonpath operator %s is not a numeric value",
										  jspOperationName(jsp->type)))));
		}
		if (minus)
		{
			if (item_int(&v, &iv) && iv != PG_INT64_MIN)
				v = fjp_int_item(-iv);
			else
				v = fjp_numeric_item(DatumGetNumeric(DirectFunctionCall1(numeric_uminus,
																		 NumericGetDatum(fjp_item_numeric(&v)))));
		}
		r = fjp_exec_next(cx, jsp, &elem, &v, found);
		if (r == FJP_ERROR)
		{
			res = r;
			goto done;
		}
		if (r == FJP_OK)
		{
			res = FJP_OK;
			if (!found)
				goto done;
		}
	}
done:
	fjp_list_free(&seq);
	return res;
}

/* ---------------------------------------------------------- predicates */

typedef FjpBool (*PredicateFunc) (FjpExec *cx, JsonPathItem *pred, const FjpItem *l,
								  const FjpItem *r, void *param);

/*
 * A predicate over the operands' sequences: true if some pair satisfies it
 * (lax: the first such pair decides; strict: every pair is looked at, and
 * any unknown makes the whole unknown), unknown on an error in an operand.
 */
static FjpBool
exec_predicate(FjpExec *cx, JsonPathItem *pred, JsonPathItem *larg, JsonPathItem *rarg,
			   const FjpItem *it, bool unwrap_right, PredicateFunc fn, void *param)
{
	FjpList		lseq,
				rseq;
	bool		error = false,
				ok = false;
	int			i,
				j;

	fjp_list_init(&lseq);
	fjp_list_init(&rseq);
	if (exec_unwrap_result_quiet(cx, larg, it, true, &lseq) == FJP_ERROR)
	{
		error = true;
		goto done;
	}
	if (rarg && exec_unwrap_result_quiet(cx, rarg, it, unwrap_right, &rseq) == FJP_ERROR)
	{
		error = true;
		goto done;
	}
	for (i = 0; i < lseq.n; i++)
	{
		for (j = 0; rarg ? j < rseq.n : j < 1; j++)
		{
			FjpBool		r = fn(cx, pred, &lseq.items[i], rarg ? &rseq.items[j] : NULL, param);

			if (r == FJPB_UNKNOWN)
			{
				error = true;
				if (!cx->lax)
				{
					ok = false;
					goto done;
				}
			}
			else if (r == FJPB_TRUE)
			{
				ok = true;
				if (cx->lax)
					goto done;
			}
		}
		if ((i & 1023) == 1023)
			CHECK_FOR_INTERRUPTS();
	}
done:
	fjp_list_free(&lseq);
	fjp_list_free(&rseq);
	if (ok)
		return FJPB_TRUE;
	if (error)
		return FJPB_UNKNOWN;
	return FJPB_FALSE;
}

static FjpBool
pred_compare(FjpExec *cx, JsonPathItem *pred, const FjpItem *l, const FjpItem *r, void *param)
{
	(void) param;
	return compare_items(pred->type, l, r, cx->use_tz);
}

/* whole starts with initial: both strings, bytewise. */
static FjpBool
pred_starts_with(FjpExec *cx, JsonPathItem *pred, const FjpItem *whole, const FjpItem *initial,
				 void *param)
{
	const char *w,
			   *s;
	int32		wl,
				sl;

	(void) cx;
	(void) pred;
	(void) param;
	if (!fjp_item_string(whole, &w, &wl) || !fjp_item_string(initial, &s, &sl))
		return FJPB_UNKNOWN;
	return wl >= sl && memcmp(w, s, sl) == 0 ? FJPB_TRUE : FJPB_FALSE;
}

typedef struct LikeRegex
{
	text	   *regex;			/* the pattern, made on first use */
	int			cflags;
} LikeRegex;

/* like_regex: PostgreSQL's regular expressions with the item's flags (as jsonb). */
static FjpBool
pred_like_regex(FjpExec *cx, JsonPathItem *pred, const FjpItem *str, const FjpItem *unused,
				void *param)
{
	LikeRegex  *lr = param;
	const char *s;
	int32		len;

	(void) cx;
	(void) unused;
	/* not a string, or one holding U+0000, which PostgreSQL's regular expressions stop at: an error */
	if (!fjp_item_string(str, &s, &len) || memchr(s, '\0', len))
		return FJPB_UNKNOWN;
	if (!lr->regex)
	{
		lr->regex = cstring_to_text_with_len(pred->content.like_regex.pattern,
											 pred->content.like_regex.patternlen);
		lr->cflags = fjc_regex_flags(pred->content.like_regex.flags);
	}
	return RE_compile_and_execute(lr->regex, unconstify(char *, s), len, lr->cflags,
								  DEFAULT_COLLATION_OID, 0, NULL) ? FJPB_TRUE : FJPB_FALSE;
}

/* A boolean expression (jsonb's executeBoolItem). */
static FjpBool
exec_bool(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, bool can_have_next)
{
	JsonPathItem larg,
				rarg;
	FjpBool		res,
				res2;

	check_stack_depth();
	if (!can_have_next && jspHasNext(jsp))
		elog(ERROR, "boolean jsonpath item cannot have next item");

	switch ((int) jsp->type)
	{
		case jpiAnd:
			jspGetLeftArg(jsp, &larg);
			res = exec_bool(cx, &larg, it, false);
			if (res == FJPB_FALSE)
				return FJPB_FALSE;
			/* unknown on the left: the right still decides false */
			jspGetRightArg(jsp, &rarg);
			res2 = exec_bool(cx, &rarg, it, false);
			return res2 == FJPB_TRUE ? res : res2;

		case jpiOr:
			jspGetLeftArg(jsp, &larg);
			res = exec_bool(cx, &larg, it, false);
			if (res == FJPB_TRUE)
				return FJPB_TRUE;
			jspGetRightArg(jsp, &rarg);
			res2 = exec_bool(cx, &rarg, it, false);
			return res2 == FJPB_FALSE ? res : res2;

		case jpiNot:
			jspGetArg(jsp, &larg);
			res = exec_bool(cx, &larg, it, false);
			if (res == FJPB_UNKNOWN)
				return FJPB_UNKNOWN;
			return res == FJPB_TRUE ? FJPB_FALSE : FJPB_TRUE;

		case jpiIsUnknown:
			jspGetArg(jsp, &larg);
			res = exec_bool(cx, &larg, it, false);
			return res == FJPB_UNKNOWN ? FJPB_TRUE : FJPB_FALSE;

		case jpiEqual:
		case jpiNotEqual:
		case jpiLess:
		case jpiGreater:
		case jpiLessOrEqual:
		case jpiGreaterOrEqual:
			jspGetLeftArg(jsp, &larg);
			jspGetRightArg(jsp, &rarg);
			return exec_predicate(cx, jsp, &larg, &rarg, it, true, pred_compare, NULL);

		case jpiStartsWith:
			jspGetLeftArg(jsp, &larg);
			jspGetRightArg(jsp, &rarg);
			return exec_predicate(cx, jsp, &larg, &rarg, it, false, pred_starts_with, NULL);

		case jpiLikeRegex:
			{
				LikeRegex	lr = {0};

				jspInitByBuffer(&larg, jsp->base, jsp->content.like_regex.expr);
				return exec_predicate(cx, jsp, &larg, NULL, it, false, pred_like_regex, &lr);
			}

		case jpiExists:
			jspGetArg(jsp, &larg);
			if (!cx->lax)
			{
				/* strict: every item, to know there is no error */
				FjpList		vals;
				FjpResult	r;
				bool		empty;

				fjp_list_init(&vals);
				r = exec_unwrap_result_quiet(cx, &larg, it, false, &vals);
				empty = vals.n == 0;
				fjp_list_free(&vals);
				if (r == FJP_ERROR)
					return FJPB_UNKNOWN;
				return empty ? FJPB_FALSE : FJPB_TRUE;
			}
			else
			{
				FjpResult	r = exec_unwrap_result_quiet(cx, &larg, it, false, NULL);

				if (r == FJP_ERROR)
					return FJPB_UNKNOWN;
				return r == FJP_OK ? FJPB_TRUE : FJPB_FALSE;
			}

		default:
			elog(ERROR, "invalid boolean jsonpath item type: %d", jsp->type);
			return FJPB_UNKNOWN;
	}
}

/* A filter's predicate, with @ the item filtered. */
static FjpBool
exec_nested_bool(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it)
{
	const FjpItem *prev = cx->current;
	FjpBool		res;

	cx->current = it;
	res = exec_bool(cx, jsp, it, false);
	cx->current = prev;
	return res;
}

/* A predicate's truth as a JSON item (unknown is null) for the rest of the path. */
static FjpResult
append_bool_result(FjpExec *cx, JsonPathItem *jsp, FjpList *found, FjpBool res)
{
	JsonPathItem next;
	FjpItem		v;

	if (!jspGetNext(jsp, &next) && !found)
		return FJP_OK;
	v = res == FJPB_UNKNOWN ? fjp_tape_item(fjp_tape_null) : fjp_bool_item(res == FJPB_TRUE);
	return fjp_exec_next(cx, jsp, &next, &v, found);
}

/* -------------------------------------------------------------- the items */

static FjpResult
exec_item(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	return exec_item_opt_unwrap(cx, jsp, it, found, cx->lax);
}

/*
 * One item of the path applied to the item it (jsonb's
 * executeItemOptUnwrapTarget); unwrap: an array input is unwrapped for items
 * that do not apply to arrays (lax mode, not twice).
 */
static FjpResult
exec_item_opt_unwrap(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found,
					 bool unwrap)
{
	JsonPathItem elem;
	FjpResult	res = FJP_NOT_FOUND;
	FjpBase		saved_base;
	FjpType		type;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();

	switch ((int) jsp->type)
	{
		case jpiNull:
		case jpiBool:
		case jpiNumeric:
		case jpiString:
		case jpiVariable:
			{
				FjpItem		v;
				bool		has_next = jspGetNext(jsp, &elem);

				/* a literal need not be made to exist; a variable must be looked up */
				if (!has_next && !found && jsp->type != jpiVariable)
				{
					res = FJP_OK;
					break;
				}
				saved_base = cx->base;
				get_path_item(cx, jsp, &v);
				res = fjp_exec_next(cx, jsp, &elem, &v, found);
				cx->base = saved_base;
				break;
			}

		case jpiAnd:
		case jpiOr:
		case jpiNot:
		case jpiIsUnknown:
		case jpiEqual:
		case jpiNotEqual:
		case jpiLess:
		case jpiGreater:
		case jpiLessOrEqual:
		case jpiGreaterOrEqual:
		case jpiExists:
		case jpiStartsWith:
		case jpiLikeRegex:
			res = append_bool_result(cx, jsp, found, exec_bool(cx, jsp, it, true));
			break;

		case jpiAdd:
		case jpiSub:
		case jpiMul:
		case jpiDiv:
		case jpiMod:
			return exec_binary_arith(cx, jsp, it, found);

		case jpiPlus:
		case jpiMinus:
			return exec_unary_arith(cx, jsp, it, found);

		case jpiAnyArray:
			if (fjp_is_array(it))
			{
				bool		has_next = jspGetNext(jsp, &elem);

				res = fjp_exec_unwrap_array(cx, has_next ? &elem : NULL, it, found, cx->lax);
			}
			else if (cx->lax)
				res = fjp_exec_next(cx, jsp, NULL, it, found);
			else if (!cx->ignore_structural)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_SQL_JSON_ARRAY_NOT_FOUND),
									   errmsg("jsonpath wildcard array accessor can only be applied to an array"))));
			break;

		case jpiAnyKey:
			type = fjp_item_type(it);
			if (type == FJPT_OBJECT)
			{
				bool		has_next = jspGetNext(jsp, &elem);

				return exec_any(cx, has_next ? &elem : NULL, it->u.v, found, 1, 1, 1, false, cx->lax);
			}
			else if (unwrap && type == FJPT_ARRAY)
				return fjp_exec_unwrap_array(cx, jsp, it, found, false);
			else if (!cx->ignore_structural)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_SQL_JSON_OBJECT_NOT_FOUND),
									   errmsg("jsonpath wildcard member accessor can only be applied to an object"))));
			break;

		case jpiIndexArray:
			if (fjp_is_array(it) || cx->lax)
				res = exec_index_array(cx, jsp, it, found);
			else if (!cx->ignore_structural)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_SQL_JSON_ARRAY_NOT_FOUND),
									   errmsg("jsonpath array accessor can only be applied to an array"))));
			break;

		case jpiAny:
			{
				bool		has_next = jspGetNext(jsp, &elem);
				uint32		first = jsp->content.anybounds.first,
							last = jsp->content.anybounds.last;

				/* level 0: the item itself */
				if (first == 0)
				{
					bool		saved = cx->ignore_structural;

					cx->ignore_structural = true;
					res = fjp_exec_next(cx, jsp, &elem, it, found);
					cx->ignore_structural = saved;
					if (res == FJP_OK && !found)
						break;
				}
				if (it->kind == FJP_TAPE && fj_is_container(it->u.v))
					res = exec_any(cx, has_next ? &elem : NULL, it->u.v, found, 1, first, last,
								   true, cx->lax);
				break;
			}

		case jpiKey:
			type = fjp_item_type(it);
			if (type == FJPT_OBJECT)
			{
				int32		len;
				char	   *key = jspGetString(jsp, &len);
				const uint8_t *v = fj_object_get(it->u.v, key, (size_t) len);

				if (v)
				{
					FjpItem		vi = fjp_tape_item(v);

					res = fjp_exec_next(cx, jsp, NULL, &vi, found);
				}
				else if (!cx->ignore_structural)
				{
					if (!cx->throw_errors)
						return FJP_ERROR;
					ereport(ERROR,
							(errcode(ERRCODE_SQL_JSON_MEMBER_NOT_FOUND),
							 errmsg("JSON object does not contain key \"%s\"", pnstrdup(key, len))));
				}
			}
			else if (unwrap && type == FJPT_ARRAY)
				return fjp_exec_unwrap_array(cx, jsp, it, found, false);
			else if (!cx->ignore_structural)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_SQL_JSON_MEMBER_NOT_FOUND),
									   errmsg("jsonpath member accessor can only be applied to an object"))));
			break;

		case jpiCurrent:
			res = fjp_exec_next(cx, jsp, NULL, cx->current, found);
			break;

		case jpiRoot:
			if (cx->chain)
				return exec_root_chain(cx, jsp, found);
			saved_base = cx->base;
			cx->base.root = fj_is_container(cx->root.u.v) ? cx->root.u.v : NULL;
			cx->base.id = 0;
			res = fjp_exec_next(cx, jsp, NULL, &cx->root, found);
			cx->base = saved_base;
			break;

		case jpiFilter:
			if (unwrap && fjp_is_array(it))
				return fjp_exec_unwrap_array(cx, jsp, it, found, false);
			jspGetArg(jsp, &elem);
			if (exec_nested_bool(cx, &elem, it) != FJPB_TRUE)
				res = FJP_NOT_FOUND;
			else
				res = fjp_exec_next(cx, jsp, NULL, it, found);
			break;

		case jpiLast:
			{
				bool		has_next = jspGetNext(jsp, &elem);
				FjpItem		v;

				if (cx->innermost_array_size < 0)
					elog(ERROR, "evaluating jsonpath LAST outside of array subscript");
				if (!has_next && !found)
				{
					res = FJP_OK;
					break;
				}
				v = fjp_int_item(cx->innermost_array_size - 1);
				res = fjp_exec_next(cx, jsp, &elem, &v, found);
				break;
			}

		default:
			if (fjp_is_method(jsp->type))
				return fjp_exec_method(cx, jsp, it, found, unwrap);
			elog(ERROR, "unrecognized jsonpath item type: %d", jsp->type);
	}
	return res;
}

/*
 * $ followed by the chain's keys, when the caller has followed them
 * (FjpChain): what those key accessors would give, from where they lead.
 */
static FjpResult
exec_root_chain(FjpExec *cx, JsonPathItem *jsp, FjpList *found)
{
	const FjpChain *ch = cx->chain;
	JsonPathItem items[2];
	JsonPathItem *last = jsp;
	int			i;

	switch (ch->status)
	{
		case FJP_CHAIN_FOUND:
			{
				FjpItem		v = fjp_tape_item(ch->value);

				/* the item after the last key, if any, takes the value */
				for (i = 0; i < ch->n; i++)
				{
					(void) jspGetNext(last, &items[i & 1]);
					last = &items[i & 1];
				}
				return fjp_exec_next(cx, last, NULL, &v, found);
			}
		case FJP_CHAIN_MISSING:
			/* a key accessor on an object without the key */
			if (!cx->ignore_structural)
			{
				if (!cx->throw_errors)
					return FJP_ERROR;
				ereport(ERROR,
						(errcode(ERRCODE_SQL_JSON_MEMBER_NOT_FOUND),
						 errmsg("JSON object does not contain key \"%s\"",
								pnstrdup(ch->keys[ch->at], ch->lens[ch->at]))));
			}
			return FJP_NOT_FOUND;
		default:
			/* a key accessor on a scalar (or, not unwrapped, an array) */
			if (!cx->ignore_structural)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_SQL_JSON_MEMBER_NOT_FOUND),
									   errmsg("jsonpath member accessor can only be applied to an object"))));
			return FJP_NOT_FOUND;
	}
}

/* ------------------------------------------------------------ root chains */

typedef struct ChainScan
{
	char	  **keys;			/* the common chain so far */
	int32	   *lens;
	int			n;				/* -1: no $ seen yet */
	bool		ok;
} ChainScan;

/* Visit every item of the path below jsp (its arguments and the items after it). */
static void
chain_visit(ChainScan *cs, JsonPathItem *jsp)
{
	JsonPathItem a,
				b,
				here;
	int			type,
				i;

	check_stack_depth();
	for (;;)
	{
		if (!cs->ok)
			return;
		type = jsp->type;
		switch (type)
		{
			case jpiRoot:
				{
					/* the keys after this $, against the chain so far */
					JsonPathItem k[2];
					JsonPathItem *cur = jsp;
					int			n = 0;

					while (jspGetNext(cur, &k[n & 1]) && k[n & 1].type == jpiKey &&
						   (cs->n < 0 || n < cs->n))
					{
						int32		len;
						char	   *key = jspGetString(&k[n & 1], &len);

						cur = &k[n & 1];
						if (cs->n < 0)
						{
							cs->keys = repalloc(cs->keys, sizeof(char *) * (n + 1));
							cs->lens = repalloc(cs->lens, sizeof(int32) * (n + 1));
							cs->keys[n] = key;
							cs->lens[n] = len;
						}
						else if (cs->lens[n] != len || memcmp(cs->keys[n], key, len) != 0)
							break;
						n++;
					}
					cs->n = n;
					if (n == 0)
						cs->ok = false;
					break;
				}
			case jpiKeyValue:
				/* its ids are offsets from the root */
				cs->ok = false;
				return;
			case jpiAnd:
			case jpiOr:
			case jpiEqual:
			case jpiNotEqual:
			case jpiLess:
			case jpiGreater:
			case jpiLessOrEqual:
			case jpiGreaterOrEqual:
			case jpiAdd:
			case jpiSub:
			case jpiMul:
			case jpiDiv:
			case jpiMod:
			case jpiStartsWith:
			case FJPI_DECIMAL:
			case FJPI_STR_REPLACE:
			case FJPI_STR_SPLIT_PART:
				if (jsp->content.args.left)
				{
					jspGetLeftArg(jsp, &a);
					chain_visit(cs, &a);
				}
				if (jsp->content.args.right)
				{
					jspGetRightArg(jsp, &a);
					chain_visit(cs, &a);
				}
				break;
			case jpiNot:
			case jpiIsUnknown:
			case jpiExists:
			case jpiPlus:
			case jpiMinus:
			case jpiFilter:
			case jpiDatetime:
			case FJPI_TIME:
			case FJPI_TIME_TZ:
			case FJPI_TIMESTAMP:
			case FJPI_TIMESTAMP_TZ:
			case FJPI_STR_LTRIM:
			case FJPI_STR_RTRIM:
			case FJPI_STR_BTRIM:
				if (jsp->content.arg)
				{
					jspGetArg(jsp, &a);
					chain_visit(cs, &a);
				}
				break;
			case jpiIndexArray:
				for (i = 0; i < jsp->content.array.nelems; i++)
				{
					bool		range = jspGetArraySubscript(jsp, &a, &b, i);

					chain_visit(cs, &a);
					if (range)
						chain_visit(cs, &b);
				}
				break;
			case jpiLikeRegex:
				jspInitByBuffer(&a, jsp->base, jsp->content.like_regex.expr);
				chain_visit(cs, &a);
				break;
			case jpiNull:
			case jpiString:
			case jpiNumeric:
			case jpiBool:
			case jpiAnyArray:
			case jpiAnyKey:
			case jpiAny:
			case jpiKey:
			case jpiCurrent:
			case jpiVariable:
			case jpiType:
			case jpiSize:
			case jpiAbs:
			case jpiFloor:
			case jpiCeiling:
			case jpiDouble:
			case jpiLast:
			case FJPI_BIGINT:
			case FJPI_BOOLEAN:
			case FJPI_DATE:
			case FJPI_INTEGER:
			case FJPI_NUMBER:
			case FJPI_STRING_FUNC:
			case FJPI_STR_LOWER:
			case FJPI_STR_UPPER:
			case FJPI_STR_INITCAP:
				break;
			default:
				cs->ok = false;
				return;
		}
		/* the arguments' items (a, b) are done with: on to the next item */
		if (!jspGetNext(jsp, &a))
			return;
		here = a;
		jsp = &here;
	}
}

int
fjp_root_chain(JsonPath *path, char ***keys, int32 **lens)
{
	ChainScan	cs;
	JsonPathItem root;

	cs.keys = palloc(sizeof(char *));
	cs.lens = palloc(sizeof(int32));
	cs.n = -1;
	cs.ok = true;
	jspInit(&root, path);
	chain_visit(&cs, &root);
	if (!cs.ok || cs.n <= 0)
		return 0;
	*keys = cs.keys;
	*lens = cs.lens;
	return cs.n;
}

/* ------------------------------------------------------------ entry point */

FjpResult
fjp_execute(JsonPath *path, const uint8_t *root, const uint8_t *vars, bool throw_errors,
			bool use_tz, FjpLiterals *literals, const FjpChain *chain, FjpList *result)
{
	FjpExec		cx;
	JsonPathItem jsp;
	FjMember	local[FJ_SCRATCH_LOCAL];
	FjpResult	res;

	jspInit(&jsp, path);
	cx.path = path;
	cx.vars = vars;
	cx.root = fjp_tape_item(root);
	cx.current = &cx.root;
	cx.base.root = NULL;
	cx.base.id = 0;
	/* ids of generated objects follow those of the base objects ($, the vars) */
	cx.next_object_id = vars ? 2 : 1;
	cx.innermost_array_size = -1;
	cx.lax = (path->header & JSONPATH_LAX) != 0;
	cx.ignore_structural = cx.lax;
	cx.throw_errors = throw_errors;
	cx.use_tz = use_tz;
	cx.literals = literals;
	cx.layouts = NULL;
	cx.chain = chain;
	fj_scratch_init(&cx.scratch, local);

	if (!cx.lax && !result)
	{
		/* strict: the whole sequence, to know there is no error */
		FjpList		vals;
		bool		empty;

		fjp_list_init(&vals);
		res = exec_item(&cx, &jsp, &cx.root, &vals);
		empty = vals.n == 0;
		fjp_list_free(&vals);
		if (res != FJP_ERROR)
			res = empty ? FJP_NOT_FOUND : FJP_OK;
	}
	else
		res = exec_item(&cx, &jsp, &cx.root, result);
	fj_scratch_free(&cx.scratch);
	return res;
}
