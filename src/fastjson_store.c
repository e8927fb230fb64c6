/*
 * fastjson_store.c — large values in their stored form (src/tape_store.h):
 * compressed in blocks when they are made by an input function (text,
 * binary, CBOR, the casts), decompressed whole for the functions that read
 * all of a document, and block by block for lookups (fastjson_extract.c).
 *
 * A value stored this way does not compress again, so PostgreSQL keeps it
 * in its row when it fits and moves it out of line, uncompressed, when it
 * does not: either way a lookup reads only the blocks it needs.
 */
#include "fastjson.h"
#include "tape_store.h"

#include "utils/builtins.h"
#include "utils/memutils.h"

Fastjson *
fastjson_store(Fastjson *d)
{
	fj_buf		out;

	if (FJ_TAPE_LEN(d) < FJ_STORE_MIN ||
		!fj_store_encode(FJ_TAPE(d), FJ_TAPE_LEN(d), &fastjson_palloc_allocator, VARHDRSZ, &out))
		return d;
	SET_VARSIZE(out.data, out.len);
	pfree(d);
	return (Fastjson *) out.data;
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

PG_FUNCTION_INFO_V1(fastjson_storage_form);

/*
 * How a value is held: 'blocks' (the stored form, compressed in blocks) or
 * 'tape' (as it is; PostgreSQL may still compress it as a whole).
 */
Datum
fastjson_storage_form(PG_FUNCTION_ARGS)
{
	struct varlena *d = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));

	PG_RETURN_TEXT_P(cstring_to_text(VARSIZE_ANY_EXHDR(d) > 0 && fj_is_stored(((const uint8_t *) VARDATA_ANY(d))[0])
									 ? "blocks" : "tape"));
}
