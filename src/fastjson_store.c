/*
 * fastjson_store.c — large values in their stored form (src/tape_store.h):
 * compressed in blocks when a value made by an input function (text,
 * binary, CBOR, the casts) is written into a row, decompressed whole for
 * the functions that read all of a document, and block by block for
 * lookups (fastjson_extract.c).
 *
 * A value stored this way does not compress again, so PostgreSQL keeps it
 * in its row when it fits and moves it out of line, uncompressed, when it
 * does not: either way a lookup reads only the blocks it needs.
 */
#include "fastjson.h"
#include "tape_store.h"

#include "access/heaptoast.h"
#include "access/xact.h"
#include "access/htup_details.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

/*
 * The most bytes a value may take and stay in a row of its own: PostgreSQL
 * moves a value out of line when its row passes TOAST_TUPLE_THRESHOLD.
 */
#define ROW_VALUE_MAX (TOAST_TUPLE_THRESHOLD - MAXALIGN(SizeofHeapTupleHeader))

/* d's stored form at level (new, in CurrentMemoryContext), or NULL when d stays as it is. */
static Fastjson *
stored_at(const Fastjson *d, int level)
{
	fj_buf		out;

	if (FJ_TAPE_LEN(d) < FJ_STORE_MIN ||
		!fj_store_encode(FJ_TAPE(d), FJ_TAPE_LEN(d), level, &fastjson_palloc_allocator, VARHDRSZ, &out))
		return NULL;
	SET_VARSIZE(out.data, out.len);
	return (Fastjson *) out.data;
}

/*
 * The stored form of d, or NULL when d stays as it is. The LZ4 HC levels
 * make values smaller without moving them into their row: a value that the
 * fast level leaves too large for a row of one column, and that a HC level
 * would bring under that, keeps the fast level's form. So HC shrinks the
 * values in rows and those out of line, and does not make the table's heap,
 * which every scan reads, larger. (With more columns the limit is lower,
 * and a COMPRESSION lz4 column compresses a value over it again and may
 * keep it in its row: neither can be seen from here.)
 */
static Fastjson *
stored_form(const Fastjson *d)
{
	Fastjson   *stored = stored_at(d, fastjson_compression_level);
	Fastjson   *fast;

	if (fastjson_compression_level == FJ_STORE_LEVEL_FAST || VARSIZE_ANY(d) <= ROW_VALUE_MAX ||
		VARSIZE_ANY(stored ? stored : d) > ROW_VALUE_MAX)
		return stored;
	fast = stored_at(d, FJ_STORE_LEVEL_FAST);
	if (VARSIZE_ANY(fast ? fast : d) <= ROW_VALUE_MAX)
	{
		if (fast)
			pfree(fast);
		return stored;
	}
	if (stored)
		pfree(stored);
	return fast;
}

Fastjson *
fastjson_store(Fastjson *d)
{
	Fastjson   *stored = stored_form(d);

	if (!stored)
		return d;
	pfree(d);
	return stored;
}

/* ------------------------------------------------ fastjson's expanded objects */

Size
fastjson_expanded_flat_size(FastjsonExpanded *e, Fastjson *(*make) (FastjsonExpanded *e))
{
	if (!e->flat)
	{
		MemoryContext old = MemoryContextSwitchTo(e->hdr.eoh_context);

		e->flat = make(e);
		MemoryContextSwitchTo(old);
	}
	return VARSIZE(e->flat);
}

void
fastjson_expanded_flatten(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	FastjsonExpanded *e = (FastjsonExpanded *) eohptr;

	Assert(e->flat && allocated_size == VARSIZE(e->flat));
	memcpy(result, e->flat, allocated_size);
}

/* ------------------------------------------------ values not yet stored */

/*
 * A value made by an input function or a cast, whose tape is long enough
 * to be stored in blocks, is returned as an expanded object
 * (utils/expandeddatum.h) that holds its plain tape. PostgreSQL asks for
 * its flat form only when it writes the value into a row, copies it out of
 * the expression's memory (a constant of a plan, a sort, an aggregate's
 * state) or measures it (pg_column_size). That flat form is the stored
 * form, made then and once. A value that is only read (a cast in a query,
 * `'...'::fastjson -> 'k'`, a value sent to the client) is never
 * compressed: readers take its plain tape (fastjson_pending_tape). An input
 * function thus does what jsonb_in does, and the compression is paid where
 * PostgreSQL pays its own, when the value is stored.
 */
typedef struct FastjsonPending
{
	FastjsonExpanded base;		/* base.flat: the stored form, or tape */
	Fastjson   *tape;			/* the plain tape, in the object's context */
} FastjsonPending;

/* The flat form: the stored form, or the tape when it stays as it is. */
static Fastjson *
pending_flat(FastjsonExpanded *e)
{
	FastjsonPending *p = (FastjsonPending *) e;
	Fastjson   *stored = stored_form(p->tape);

	return stored ? stored : p->tape;
}

static Size
pending_flat_size(ExpandedObjectHeader *eohptr)
{
	return fastjson_expanded_flat_size((FastjsonExpanded *) eohptr, pending_flat);
}

const ExpandedObjectMethods fastjson_pending_methods = {pending_flat_size, fastjson_expanded_flatten};

Fastjson *
fastjson_pending_tape(Datum datum)
{
	return ((FastjsonPending *) DatumGetEOHP(datum))->tape;
}

/* A memory context for one value that may be stored in blocks, under the current one. */
static MemoryContext
pending_context(void)
{
	return AllocSetContextCreate(CurrentMemoryContext, "fastjson value", ALLOCSET_SMALL_SIZES);
}

void
fastjson_new_begin(FastjsonNew *nv, size_t hint)
{
	nv->old = CurrentMemoryContext;
	nv->cxt = NULL;
	/*
	 * A shorter input makes a tape under FJ_STORE_SMALL bytes (but for deep
	 * nesting), which needs an object of its own only when the probe lets it
	 * through: it is moved into one then, in fastjson_new_end.
	 */
	if (hint >= FJ_STORE_SMALL)
	{
		nv->cxt = pending_context();
		MemoryContextSwitchTo(nv->cxt);
	}
}

/* d, a tape in cxt (a context of its own), as a value not yet stored. */
static Datum
pending_datum(MemoryContext cxt, Fastjson *d)
{
	FastjsonPending *p = MemoryContextAllocZero(cxt, sizeof(FastjsonPending));

	EOH_init_header(&p->base.hdr, &fastjson_pending_methods, cxt);
	p->tape = d;

	/*
	 * Read-only: PostgreSQL passes an input function's result on as it is
	 * (a bound parameter, a set-returning function's row), and a read-write
	 * object may be taken over and freed by its first consumer (PL/pgSQL 18
	 * does, for an assignment that reads it once) while another still reads
	 * it.
	 */
	return EOHPGetRODatum(&p->base.hdr);
}

/* d, palloc'd in the current context, moved into a context of its own as a value not yet stored. */
static Datum
pending_moved(Fastjson *d)
{
	MemoryContext cxt = pending_context();
	Fastjson   *moved = MemoryContextAllocExtended(cxt, VARSIZE(d), MCXT_ALLOC_HUGE);

	memcpy(moved, d, VARSIZE(d));
	pfree(d);
	return pending_datum(cxt, moved);
}

Datum
fastjson_new_end(FastjsonNew *nv, Fastjson *d)
{
	MemoryContext cxt = nv->cxt;

	MemoryContextSwitchTo(nv->old);

	/*
	 * Only a tape that may be stored in blocks needs the object: one that
	 * fj_store_encode would not even try (a small document whose first bytes
	 * do not compress, such as most rows of a generated log) is returned as
	 * it is, without a memory context of its own.
	 */
	if (d && fj_store_worth_trying(FJ_TAPE(d), FJ_TAPE_LEN(d)))
	{
		/* an input under FJ_STORE_SMALL bytes was parsed in the caller's memory: moved into a context of its own */
		if (!cxt)
			return pending_moved(d);
		return pending_datum(cxt, d);
	}
	if (cxt)
	{
		/* a short tape (or none: a soft error) is kept as it is, in the caller's context */
		if (d)
		{
			Fastjson   *copy = palloc(VARSIZE(d));

			memcpy(copy, d, VARSIZE(d));
			d = copy;
		}
		MemoryContextDelete(cxt);
	}
	return PointerGetDatum(d);
}

/*
 * A document a function built or edited, d (palloc'd in the current
 * context): as an input function's value, a value not yet stored when its
 * tape may be stored in blocks. Written into a row, it takes the stored form,
 * as a parsed document does, instead of PostgreSQL's compression of the
 * whole tape, which a lookup would have to undo from the start.
 */
Datum
fastjson_made(Fastjson *d)
{
	if (!fj_store_worth_trying(FJ_TAPE(d), FJ_TAPE_LEN(d)))
		return PointerGetDatum(d);
	return pending_moved(d);
}

/* The error for a stored value that does not decompress (a damaged page, say). */
static void
report_damaged(const fj_error *err)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("stored fastjson value is corrupt"),
			 errdetail("%s (at byte %zu)", err->message, err->offset)));
}

Fastjson *
fastjson_unstore(const Fastjson *d)
{
	fj_stored	s;
	fj_error	err;
	Fastjson   *plain;

	if (fj_store_open(FJ_TAPE(d), FJ_TAPE_LEN(d), &s, &err) != FJ_OK)
	{
		if (err.reason == FJ_R_TAPE_VERSION)
			fastjson_report_tape_version_byte(FJ_TAPE(d)[0] & 0x7f);
		report_damaged(&err);
	}
	/* 8 bytes of slack, as for a value read block by block (fastjson_extract.c) */
	plain = MemoryContextAllocExtended(CurrentMemoryContext, VARHDRSZ + (size_t) s.tape_len + 8, MCXT_ALLOC_HUGE);
	SET_VARSIZE(plain, VARHDRSZ + s.tape_len);
	if (fj_store_decode(&s, (uint8_t *) VARDATA(plain), &err) != FJ_OK)
		report_damaged(&err);
	return plain;
}

/*
 * Arguments that are the same for every call of an expression (a constant,
 * an external parameter) are decompressed once. A document that a query
 * spells out, `doc @> '{...}'` say, is a constant, which PostgreSQL makes by
 * flattening the input function's value: the stored form when the tape is
 * stored in blocks. Each call would decompress it again, for more than the
 * rest of a comparison costs. So its tape is kept, in one of KEPT_SLOTS
 * slots (KEPT_BYTES_MAX in all), until the transaction ends, and found
 * again by its stored bytes: any other value with the same stored bytes has
 * the same tape. Only functions that return no document take kept tapes, so
 * none outlives its slot.
 */
#define KEPT_SLOTS 16
#define KEPT_TAPE_MAX ((Size) 8 << 20)	/* larger tapes are decompressed each call */
#define KEPT_BYTES_MAX ((Size) 32 << 20)	/* all the slots' bytes */

typedef struct KeptTape
{
	Size		stored_len;		/* 0: the slot is free */
	char	   *stored;			/* a copy of the stored bytes, header included */
	Fastjson   *plain;
	Size		bytes;			/* what the slot holds: both, with their slack */
	uint64		used;			/* when last asked for: the least recent goes first */
} KeptTape;

static KeptTape kept[KEPT_SLOTS];
static MemoryContext kept_context;
static uint64 kept_clock;
static Size kept_bytes;

/* At the end of a transaction (any way it ends), every slot is emptied. */
static void
kept_forget(XactEvent event, void *arg pg_attribute_unused())
{
	if (event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT && event != XACT_EVENT_PREPARE &&
		event != XACT_EVENT_PARALLEL_COMMIT && event != XACT_EVENT_PARALLEL_ABORT)
		return;
	if (kept_context && kept_clock > 0)
	{
		MemoryContextReset(kept_context);
		memset(kept, 0, sizeof(kept));
		kept_clock = 0;
		kept_bytes = 0;
	}
}

static void
kept_free(KeptTape *slot)
{
	pfree(slot->stored);
	pfree(slot->plain);
	kept_bytes -= slot->bytes;
	slot->stored_len = 0;
	slot->bytes = 0;
	slot->used = 0;
}

bool
fastjson_arg_keepable(FunctionCallInfo fcinfo, int argno)
{
	struct varlena *attr;

	/*
	 * = ANY (array) passes a different element to each call, though
	 * get_fn_expr_arg_stable calls the array constant stable
	 */
	if (!fcinfo->flinfo || !fcinfo->flinfo->fn_expr || IsA(fcinfo->flinfo->fn_expr, ScalarArrayOpExpr) ||
		!get_fn_expr_arg_stable(fcinfo->flinfo, argno))
		return false;
	attr = (struct varlena *) DatumGetPointer(fastjson_unpend(PG_GETARG_DATUM(argno)));
	/* in memory as it is (a constant is), in the stored form; bytes 2 to 5 are its tape's length */
	return !VARATT_IS_EXTENDED(attr) && VARSIZE(attr) >= VARHDRSZ + FJ_STORE_HEADER &&
		fj_is_stored(((const uint8_t *) VARDATA(attr))[0]) &&
		fj_load32((const uint8_t *) VARDATA(attr) + 2) <= KEPT_TAPE_MAX;
}

Fastjson *
fastjson_getarg_kept(FunctionCallInfo fcinfo, int argno, bool *is_kept)
{
	struct varlena *raw;
	Size		len,
				need;
	KeptTape   *slot = NULL;
	MemoryContext old;
	int			i;

	*is_kept = false;
	if (!fastjson_arg_keepable(fcinfo, argno))
		return DatumGetFastjsonP(PG_GETARG_DATUM(argno));
	raw = (struct varlena *) DatumGetPointer(fastjson_unpend(PG_GETARG_DATUM(argno)));
	len = VARSIZE(raw);
	for (i = 0; i < KEPT_SLOTS; i++)
		if (kept[i].stored_len == len && memcmp(kept[i].stored, raw, len) == 0)
		{
			kept[i].used = ++kept_clock;
			*is_kept = true;
			return kept[i].plain;
		}
	if (!kept_context)
	{
		RegisterXactCallback(kept_forget, NULL);
		kept_context = AllocSetContextCreate(TopMemoryContext, "fastjson kept arguments",
											 ALLOCSET_DEFAULT_SIZES);
	}

	/*
	 * Room: the least recently used slots go until one is free and the bytes
	 * fit, but never the one asked for last, which the call's other argument
	 * may be using.
	 */
	need = len + VARHDRSZ + fj_load32((const uint8_t *) VARDATA(raw) + 2) + 8;
	for (;;)
	{
		KeptTape   *lru = NULL;

		slot = NULL;
		for (i = 0; i < KEPT_SLOTS; i++)
		{
			if (kept[i].stored_len == 0)
				slot = slot ? slot : &kept[i];
			else if (kept[i].used != kept_clock && (!lru || kept[i].used < lru->used))
				lru = &kept[i];
		}
		if (slot && kept_bytes + need <= KEPT_BYTES_MAX)
			break;
		if (!lru)
			return DatumGetFastjsonP(PG_GETARG_DATUM(argno));
		kept_free(lru);
	}
	/* decompressed into the slot's memory, with fastjson_unstore's slack */
	old = MemoryContextSwitchTo(kept_context);
	slot->plain = fastjson_unstore((Fastjson *) raw);
	slot->stored = palloc(len);
	MemoryContextSwitchTo(old);
	memcpy(slot->stored, raw, len);
	slot->stored_len = len;
	slot->bytes = need;
	kept_bytes += need;
	slot->used = ++kept_clock;
	*is_kept = true;
	return slot->plain;
}

PG_FUNCTION_INFO_V1(fastjson_storage_form);

/*
 * How a value is held: 'blocks' (the stored form, compressed in blocks) or
 * 'tape' (as it is; PostgreSQL may still compress it as a whole). A value
 * made by an input function and not yet stored is held as its tape.
 */
Datum
fastjson_storage_form(PG_FUNCTION_ARGS)
{
	/* a value not yet stored is held as its tape: it is not compressed to be asked */
	struct varlena *d = PG_DETOAST_DATUM_PACKED(fastjson_unpend(PG_GETARG_DATUM(0)));

	PG_RETURN_TEXT_P(cstring_to_text(VARSIZE_ANY_EXHDR(d) > 0 && fj_is_stored(((const uint8_t *) VARDATA_ANY(d))[0])
									 ? "blocks" : "tape"));
}
