/*
 * fastjson_simplify.c — the planner support function of -> and ->> with a
 * text key: a chain of constant keys, doc -> 'a' -> 'b' ->> 'c', becomes one
 * lookup, fastjson_object_keys_field_text(doc, '{a,b,c}'), instead of one
 * lookup per arrow with a copy of each intermediate value. The folded call
 * follows object keys only, as the arrows do (an array's element is not
 * reached by a key that spells a number), so it gives what the chain gives
 * on every document.
 *
 * The planner simplifies arguments before the call that holds them, so the
 * innermost pair folds first and each arrow after it finds the folded call
 * as its argument and extends its key array.
 */
#include "fastjson.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "parser/parse_func.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

extern PGDLLEXPORT Datum fastjson_object_field(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum fastjson_object_keys_field(PG_FUNCTION_ARGS);

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

/*
 * The document and the keys of an inner arrow chain e: doc -> 'k' (a call of
 * fastjson_object_field, operator or function) or an already folded
 * fastjson_object_keys_field(doc, '{...}'), with constant keys. Returns false
 * for anything else.
 */
static bool
inner_chain(Node *e, Node **doc, List **keys)
{
	Oid			fn;
	List	   *args;
	Const	   *c;

	if (IsA(e, OpExpr))
		fn = ((OpExpr *) e)->opfuncid, args = ((OpExpr *) e)->args;
	else if (IsA(e, FuncExpr))
		fn = ((FuncExpr *) e)->funcid, args = ((FuncExpr *) e)->args;
	else
		return false;
	if (list_length(args) != 2)
		return false;
	if ((c = constant_of(lsecond(args), TEXTOID)) && runs(fn, fastjson_object_field))
	{
		*doc = linitial(args);
		*keys = list_make1(DatumGetPointer(c->constvalue));
		return true;
	}
	if ((c = constant_of(lsecond(args), TEXTARRAYOID)) && runs(fn, fastjson_object_keys_field))
	{
		ArrayType  *a = DatumGetArrayTypeP(c->constvalue);
		Datum	   *elems;
		bool	   *nulls;
		int			n,
					i;

		if (ARR_NDIM(a) != 1)
			return false;
		deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
		*keys = NIL;
		for (i = 0; i < n; i++)
		{
			if (nulls[i])
				return false;
			*keys = lappend(*keys, DatumGetPointer(elems[i]));
		}
		*doc = linitial(args);
		return true;
	}
	return false;
}

PG_FUNCTION_INFO_V1(fastjson_object_field_support);

Datum
fastjson_object_field_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestSimplify *req;
	FuncExpr   *call;
	Node	   *doc;
	List	   *keys;
	Const	   *key;
	Oid			argtypes[2];
	Oid			folded;
	Datum	   *elems;
	ArrayType  *array;
	ListCell   *lc;
	int			i;
	bool		as_text;

	if (!IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(NULL);
	req = (SupportRequestSimplify *) rawreq;
	call = req->fcall;
	if (list_length(call->args) != 2 || !(key = constant_of(lsecond(call->args), TEXTOID)) ||
		!inner_chain(linitial(call->args), &doc, &keys))
		PG_RETURN_POINTER(NULL);
	/* -> or ->> on the outside: the folded call returns what it returns */
	as_text = call->funcresulttype == TEXTOID;
	keys = lappend(keys, DatumGetPointer(key->constvalue));

	argtypes[0] = exprType(doc);
	argtypes[1] = TEXTARRAYOID;
	folded = LookupFuncName(list_make2(makeString(get_namespace_name(get_func_namespace(call->funcid))),
									   makeString(as_text ? "fastjson_object_keys_field_text"
												  : "fastjson_object_keys_field")),
							2, argtypes, true);
	if (!OidIsValid(folded))
		PG_RETURN_POINTER(NULL);	/* an older install without it: leave the chain as it is */

	elems = palloc(sizeof(Datum) * list_length(keys));
	i = 0;
	foreach(lc, keys)
		elems[i++] = PointerGetDatum(lfirst(lc));
	array = construct_array(elems, i, TEXTOID, -1, false, TYPALIGN_INT);
	PG_RETURN_POINTER(makeFuncExpr(folded, call->funcresulttype,
								   list_make2(doc, makeConst(TEXTARRAYOID, -1, key->constcollid, -1,
															 PointerGetDatum(array), false, false)),
								   InvalidOid, call->inputcollid, COERCE_EXPLICIT_CALL));
}
