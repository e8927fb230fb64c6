/*
 * fastjson_simplify.c — the planner support function of -> and ->>: a chain
 * of arrows with constant keys and indexes, doc -> 'a' -> 0 ->> 'c', becomes
 * one lookup, fastjson_arrow_chain_text(doc, '{a,NULL,c}', '{0,0,0}'),
 * instead of one lookup per arrow with a copy of each intermediate value.
 * Each step of the folded call does what its arrow does (a key looks only in
 * objects, an index only in arrays, and a scalar is its own element 0 and
 * -1), so it gives what the chain gives on every document.
 *
 * The planner simplifies arguments before the call that holds them, so the
 * innermost pair folds first and each arrow after it finds the folded call
 * as its argument and extends its steps.
 */
#include "fastjson.h"

#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "parser/parse_func.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

extern PGDLLEXPORT Datum fastjson_object_field(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum fastjson_array_element(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum fastjson_arrow_chain(PG_FUNCTION_ARGS);

/* The steps of a chain: keys[i] a text Datum's pointer, or NULL for the index step indexes[i]. */
typedef struct chain_steps
{
	List	   *keys;
	List	   *indexes;
} chain_steps;

/* Whether function oid runs the C function fn of this library. */
static bool
runs(Oid oid, PGFunction fn)
{
	FmgrInfo	f;

	if (!OidIsValid(oid))
		return false;
	fmgr_info(oid, &f);
	return f.fn_addr == fn;
}

/* A non-null constant of type t, or NULL. */
static Const *
constant_of(Node *n, Oid t)
{
	if (n && IsA(n, Const) && ((Const *) n)->consttype == t && !((Const *) n)->constisnull)
		return (Const *) n;
	return NULL;
}

/* The function and arguments of a call, operator or function; false for anything else. */
static bool
call_of(Node *e, Oid *fn, List **args)
{
	if (IsA(e, OpExpr))
		*fn = ((OpExpr *) e)->opfuncid, *args = ((OpExpr *) e)->args;
	else if (IsA(e, FuncExpr))
		*fn = ((FuncExpr *) e)->funcid, *args = ((FuncExpr *) e)->args;
	else
		return false;
	return list_length(*args) >= 2;
}

/* Append to steps the step of an arrow's constant argument: a text key or an integer index. */
static bool
arrow_step(Node *arg, chain_steps *steps)
{
	Const	   *c;

	if ((c = constant_of(arg, TEXTOID)))
	{
		steps->keys = lappend(steps->keys, DatumGetPointer(c->constvalue));
		steps->indexes = lappend_int(steps->indexes, 0);
		return true;
	}
	if ((c = constant_of(arg, INT4OID)))
	{
		steps->keys = lappend(steps->keys, NULL);
		steps->indexes = lappend_int(steps->indexes, DatumGetInt32(c->constvalue));
		return true;
	}
	return false;
}

/*
 * The document and the steps of an inner arrow chain e: doc -> 'k' or
 * doc -> n (a call of fastjson_object_field or fastjson_array_element,
 * operator or function) or an already folded fastjson_arrow_chain, with
 * constant arguments. Returns false for anything else.
 */
static bool
inner_chain(Node *e, Node **doc, chain_steps *steps)
{
	Oid			fn;
	List	   *args;
	Const	   *keys_const,
			   *indexes_const;
	ArrayType  *keys,
			   *indexes;
	Datum	   *key_elems,
			   *index_elems;
	bool	   *key_nulls,
			   *index_nulls;
	int			n,
				n_indexes,
				i;

	if (!call_of(e, &fn, &args))
		return false;
	*doc = linitial(args);
	steps->keys = steps->indexes = NIL;
	if (list_length(args) == 2 && (runs(fn, fastjson_object_field) || runs(fn, fastjson_array_element)))
		return arrow_step(lsecond(args), steps);
	if (list_length(args) != 3 || !(keys_const = constant_of(lsecond(args), TEXTARRAYOID)) ||
		!(indexes_const = constant_of(lthird(args), INT4ARRAYOID)) || !runs(fn, fastjson_arrow_chain))
		return false;
	keys = DatumGetArrayTypeP(keys_const->constvalue);
	indexes = DatumGetArrayTypeP(indexes_const->constvalue);
	if (ARR_NDIM(keys) > 1 || ARR_NDIM(indexes) > 1)
		return false;
	deconstruct_array(keys, TEXTOID, -1, false, TYPALIGN_INT, &key_elems, &key_nulls, &n);
	deconstruct_array(indexes, INT4OID, sizeof(int32), true, TYPALIGN_INT, &index_elems, &index_nulls, &n_indexes);
	if (n != n_indexes)
		return false;
	for (i = 0; i < n; i++)
	{
		/* a step with neither a key nor an index is not one an arrow makes */
		if (key_nulls[i] && index_nulls[i])
			return false;
		steps->keys = lappend(steps->keys, key_nulls[i] ? NULL : DatumGetPointer(key_elems[i]));
		steps->indexes = lappend_int(steps->indexes, index_nulls[i] ? 0 : DatumGetInt32(index_elems[i]));
	}
	return true;
}

PG_FUNCTION_INFO_V1(fastjson_object_field_support);

/* The support function of ->, ->> with a text key and with an integer index. */
Datum
fastjson_object_field_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestSimplify *req;
	FuncExpr   *call;
	Node	   *doc;
	chain_steps steps;
	Oid			argtypes[3];
	Oid			folded;
	Datum	   *key_elems,
			   *index_elems;
	bool	   *key_nulls;
	int			n,
				i,
				dims[1],
				lbs[1] = {1};
	bool		as_text;

	if (!IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(NULL);
	req = (SupportRequestSimplify *) rawreq;
	call = req->fcall;
	if (list_length(call->args) != 2 || !inner_chain(linitial(call->args), &doc, &steps) ||
		!arrow_step(lsecond(call->args), &steps))
		PG_RETURN_POINTER(NULL);
	/* -> or ->> on the outside: the folded call returns what it returns */
	as_text = call->funcresulttype == TEXTOID;

	argtypes[0] = exprType(doc);
	argtypes[1] = TEXTARRAYOID;
	argtypes[2] = INT4ARRAYOID;
	folded = LookupFuncName(list_make2(makeString(get_namespace_name(get_func_namespace(call->funcid))),
									   makeString(as_text ? "fastjson_arrow_chain_text" : "fastjson_arrow_chain")),
							3, argtypes, true);
	if (!OidIsValid(folded))
		PG_RETURN_POINTER(NULL);	/* an older install without it: leave the chain as it is */

	n = list_length(steps.keys);
	key_elems = palloc(sizeof(Datum) * n);
	key_nulls = palloc(sizeof(bool) * n);
	index_elems = palloc(sizeof(Datum) * n);
	for (i = 0; i < n; i++)
	{
		void	   *key = list_nth(steps.keys, i);

		key_elems[i] = PointerGetDatum(key);
		key_nulls[i] = key == NULL;
		index_elems[i] = Int32GetDatum(list_nth_int(steps.indexes, i));
	}
	dims[0] = n;
	PG_RETURN_POINTER(makeFuncExpr(folded, call->funcresulttype,
								   list_make3(doc,
											  makeConst(TEXTARRAYOID, -1, DEFAULT_COLLATION_OID, -1,
														PointerGetDatum(construct_md_array(key_elems, key_nulls, 1, dims, lbs,
																						   TEXTOID, -1, false, TYPALIGN_INT)),
														false, false),
											  makeConst(INT4ARRAYOID, -1, InvalidOid, -1,
														PointerGetDatum(construct_array(index_elems, n, INT4OID, sizeof(int32),
																						true, TYPALIGN_INT)),
														false, false)),
								   InvalidOid, call->inputcollid, COERCE_EXPLICIT_CALL));
}
