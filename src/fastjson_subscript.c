/*
 * fastjson_subscript.c — subscripts: doc['a'][0] reads like #>, and
 * UPDATE ... SET doc['a']['b'] = ... writes like jsonb's subscript
 * assignment (creating missing containers, filling gaps with nulls).
 */
#include "fastjson.h"
#include "fastjson_edit.h"

#include "catalog/pg_type.h"
#include "executor/execExpr.h"
#include "nodes/nodeFuncs.h"
#include "nodes/subscripting.h"
#include "parser/parse_coerce.h"
#include "parser/parse_expr.h"
#include "utils/builtins.h"

typedef struct subs_workspace
{
	bool		expect_array;	/* the first subscript is an integer */
	Oid		   *index_oid;		/* INT4OID or TEXTOID per subscript */
	Datum	   *index;			/* subscripts as text */
} subs_workspace;

/* Parse analysis: each subscript becomes integer or text (jsonb's rules). */
static void
subs_transform(SubscriptingRef *sbsref, List *indirection, ParseState *pstate,
			   bool isSlice, bool isAssignment)
{
	List	   *upper = NIL;
	ListCell   *lc;

	(void) isAssignment;
	foreach(lc, indirection)
	{
		A_Indices  *ai;
		Node	   *sub;
		Oid			subtype,
					target = UNKNOWNOID;

		if (!IsA(lfirst(lc), A_Indices))
			break;
		ai = lfirst_node(A_Indices, lc);
		if (isSlice || !ai->uidx)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("fastjson subscript does not support slices"),
					 parser_errposition(pstate, exprLocation(ai->uidx ? ai->uidx : ai->lidx))));
		sub = transformExpr(pstate, ai->uidx, pstate->p_expr_kind);
		subtype = exprType(sub);
		if (subtype != UNKNOWNOID)
		{
			Oid			targets[2] = {INT4OID, TEXTOID};
			int			i;

			for (i = 0; i < 2; i++)
				if (can_coerce_type(1, &subtype, &targets[i], COERCION_IMPLICIT))
				{
					if (target != UNKNOWNOID)
						ereport(ERROR,
								(errcode(ERRCODE_DATATYPE_MISMATCH),
								 errmsg("subscript type %s is not supported", format_type_be(subtype)),
								 errhint("fastjson subscript must be coercible to only one type, integer or text."),
								 parser_errposition(pstate, exprLocation(sub))));
					target = targets[i];
				}
			if (target == UNKNOWNOID)
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("subscript type %s is not supported", format_type_be(subtype)),
						 errhint("fastjson subscript must be coercible to either integer or text."),
						 parser_errposition(pstate, exprLocation(sub))));
		}
		else
			target = TEXTOID;
		sub = coerce_type(pstate, sub, subtype, target, -1, COERCION_IMPLICIT, COERCE_IMPLICIT_CAST, -1);
		upper = lappend(upper, sub);
	}
	sbsref->refupperindexpr = upper;
	sbsref->reflowerindexpr = NIL;
	sbsref->refrestype = sbsref->refcontainertype;
	sbsref->reftypmod = -1;
}

/* Subscripts to text; NULL subscripts give NULL (fetch) or an error (assignment). */
static bool
subs_check(ExprState *state, ExprEvalStep *op, ExprContext *econtext)
{
	SubscriptingRefState *s = op->d.sbsref_subscript.state;
	subs_workspace *w = (subs_workspace *) s->workspace;
	int			i;

	(void) state;
	(void) econtext;
	if (s->numupper > 0 && s->upperprovided[0] && !s->upperindexnull[0] && w->index_oid[0] == INT4OID)
		w->expect_array = true;
	for (i = 0; i < s->numupper; i++)
	{
		if (!s->upperprovided[i])
			continue;
		if (s->upperindexnull[i])
		{
			if (s->isassignment)
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("fastjson subscript in assignment must not be null")));
			*op->resnull = true;
			return false;
		}
		if (w->index_oid[i] == INT4OID)
			w->index[i] = CStringGetTextDatum(DatumGetCString(DirectFunctionCall1(int4out, s->upperindex[i])));
		else
			w->index[i] = s->upperindex[i];
	}
	return true;
}

/* The value at a text path (as #>), or NULL. */
static const uint8_t *
subs_get(const uint8_t *v, Datum *path, int n)
{
	int			i;

	for (i = 0; i < n && v; i++)
	{
		text	   *t = DatumGetTextPP(path[i]);

		if (FJ_TYPE(v[0]) == FJ_OBJECT)
			v = fj_object_get(v, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
		else if (FJ_TYPE(v[0]) == FJ_ARRAY)
		{
			int			idx;

			if (!fastjson_path_index(text_to_cstring(t), &idx))
				return NULL;
			v = fj_array_get(v, idx);
		}
		else
			return NULL;
	}
	return v;
}

static void
subs_fetch(ExprState *state, ExprEvalStep *op, ExprContext *econtext)
{
	SubscriptingRefState *s = op->d.sbsref.state;
	subs_workspace *w = (subs_workspace *) s->workspace;
	Fastjson   *d = DatumGetFastjsonP(*op->resvalue);
	const uint8_t *v = subs_get(FJ_ROOT(d), w->index, s->numupper);

	(void) state;
	(void) econtext;
	if (!v)
	{
		*op->resnull = true;
		*op->resvalue = (Datum) 0;
		return;
	}
	*op->resvalue = PointerGetDatum(fastjson_from_value(v));
}

static void
subs_fetch_old(ExprState *state, ExprEvalStep *op, ExprContext *econtext)
{
	SubscriptingRefState *s = op->d.sbsref.state;
	subs_workspace *w = (subs_workspace *) s->workspace;
	const uint8_t *v = NULL;

	(void) state;
	(void) econtext;
	if (!*op->resnull)
		v = subs_get(FJ_ROOT(DatumGetFastjsonP(*op->resvalue)), w->index, s->numupper);
	s->prevnull = v == NULL;
	s->prevvalue = v ? PointerGetDatum(fastjson_from_value(v)) : (Datum) 0;
}

/* doc[...] = value: jsonb_set_element, which creates missing containers and fills gaps with nulls. */
static void
subs_assign(ExprState *state, ExprEvalStep *op, ExprContext *econtext)
{
	SubscriptingRefState *s = op->d.sbsref.state;
	subs_workspace *w = (subs_workspace *) s->workspace;
	static const uint8_t empty_array[] = {FJ_TAPE_VERSION, 0, FJ_TAG(FJ_ARRAY, 0)};
	static const uint8_t empty_object[] = {FJ_TAPE_VERSION, 0, FJ_TAG(FJ_OBJECT, 0)};
	const uint8_t *root;
	const uint8_t *newval = s->replacenull ? NULL : FJ_ROOT(DatumGetFastjsonP(s->replacevalue));
	edit_path	p;
	fj_builder	b;
	bool		nulls_local[64];

	(void) state;
	(void) econtext;
	if (*op->resnull)
		root = (w->expect_array ? empty_array : empty_object) + FJ_TAPE_HEADER;
	else
		root = FJ_ROOT(DatumGetFastjsonP(*op->resvalue));
	p.elems = w->index;
	p.len = s->numupper;
	p.nulls = p.len <= 64 ? nulls_local : palloc(p.len * sizeof(bool));
	memset(p.nulls, 0, p.len * sizeof(bool));
	p.newval = newval;
	p.op = PATH_CREATE | PATH_FILL_GAPS | PATH_CONSISTENT_POSITION;
	fastjson_builder_init(&b);
	fastjson_set_path(&b, root, &p, 0);
	*op->resvalue = fastjson_made(fastjson_builder_finish(&b));
	*op->resnull = false;
}

static void
subs_exec_setup(const SubscriptingRef *sbsref, SubscriptingRefState *s, SubscriptExecSteps *methods)
{
	int			n = list_length(sbsref->refupperindexpr);
	subs_workspace *w = palloc0(MAXALIGN(sizeof(subs_workspace)) + n * (sizeof(Datum) + sizeof(Oid)));
	char	   *ptr = (char *) w + MAXALIGN(sizeof(subs_workspace));
	ListCell   *lc;

	w->index = (Datum *) ptr;
	w->index_oid = (Oid *) (ptr + n * sizeof(Datum));
	foreach(lc, sbsref->refupperindexpr)
		w->index_oid[foreach_current_index(lc)] = exprType(lfirst(lc));
	s->workspace = w;
	methods->sbs_check_subscripts = subs_check;
	methods->sbs_fetch = subs_fetch;
	methods->sbs_assign = subs_assign;
	methods->sbs_fetch_old = subs_fetch_old;
}

PG_FUNCTION_INFO_V1(fastjson_subscript_handler);

/* doc['a'][0] reads like #>; UPDATE ... SET doc['a']['b'] = ... writes like jsonb. */
Datum
fastjson_subscript_handler(PG_FUNCTION_ARGS)
{
	static const SubscriptRoutines routines = {
		.transform = subs_transform,
		.exec_setup = subs_exec_setup,
		.fetch_strict = true,
		.fetch_leakproof = true,
		.store_leakproof = false
	};

	(void) fcinfo;
	PG_RETURN_POINTER(&routines);
}
