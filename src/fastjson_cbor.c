/*
 * fastjson_cbor.c — the SQL surface of the CBOR mapping (src/cbor.h,
 * doc/cbor.md): fastjson_to_cbor, fastjson_from_cbor, and the explicit casts
 * fastjson::bytea and bytea::fastjson (the same functions with their
 * defaults). Reads the arguments, calls the core, reports its errors.
 */
#include "fastjson.h"

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "cbor.h"

/* The JSON text of a tape value for a message, clipped to about 60 bytes. */
static char *
value_for_message(const uint8_t *v)
{
	size_t		len;
	char	   *s = fastjson_value_to_cstring(v, &len);

	if (len > 64)
	{
		int			n = pg_mbcliplen(s, (int) len, 60);

		strcpy(s + n, "...");
	}
	return s;
}

/* The bytes at offset, as "0x62 0xc3 0x28" (at most 8), for a CONTEXT line. */
static char *
bytes_for_message(const uint8_t *p, size_t len, size_t offset)
{
	StringInfoData s;
	size_t		i;

	initStringInfo(&s);
	if (offset >= len)
		appendStringInfoString(&s, "end of input");
	for (i = offset; i < len && i < offset + 8; i++)
		appendStringInfo(&s, i > offset ? " 0x%02x" : "0x%02x", p[i]);
	if (offset < len && len - offset > 8)
		appendStringInfoString(&s, " ...");
	return s.data;
}

/* ------------------------------------------------------ fastjson to CBOR */

pg_noreturn static void
report_encode_error(const fj_error *err, const uint8_t *root);

static void
report_encode_error(const fj_error *err, const uint8_t *root)
{
	switch (err->code)
	{
		case FJ_ERR_DUPLICATE_KEY:
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_JSON_OBJECT_KEY_VALUE),
					 errmsg("duplicate JSON object key value"),
					 errdetail("Key %s appears more than once in an object.",
							   value_for_message(root + err->offset)),
					 errhint("Deterministic CBOR requires unique keys; without deterministic, every member is kept.")));
			break;
		case FJ_ERR_TOO_BIG:
			if (err->reason == FJ_R_CBOR_EXPONENT)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("fastjson number cannot be converted to CBOR"),
						 errdetail("The exponent of %s does not fit in 64 bits.",
								   value_for_message(root + err->offset))));
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("CBOR output is too large"),
					 errdetail("%s The limit is %zu bytes.", err->message, (size_t) MaxAllocSize)));
			break;
		case FJ_ERR_NOMEM:
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
			break;
		default:
			CHECK_FOR_INTERRUPTS();
			elog(ERROR, "fastjson CBOR conversion failed: %s", err->message);
	}
	pg_unreachable();
}

PG_FUNCTION_INFO_V1(fastjson_to_cbor);

/* fastjson_to_cbor(doc, deterministic DEFAULT false), and the cast to bytea. */
Datum
fastjson_to_cbor(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_WHOLE(0);
	bool		deterministic = PG_NARGS() > 1 ? PG_GETARG_BOOL(1) : false;
	fj_parse_options server;
	fj_cbor_encode_options opt;
	fj_buf		out;
	fj_error	err;

	fastjson_parse_options(&server);
	memset(&opt, 0, sizeof(opt));
	opt.alloc = server.alloc;
	opt.deterministic = deterministic;
	opt.prefix = VARHDRSZ;
	opt.max_size = MaxAllocSize;
	opt.interrupted = server.interrupted;
	opt.interrupt_ctx = server.interrupt_ctx;
	if (fj_cbor_encode(FJ_ROOT(d), &opt, &out, &err) != FJ_OK)
		report_encode_error(&err, FJ_ROOT(d));
	SET_VARSIZE(out.data, out.len);
	PG_RETURN_BYTEA_P((bytea *) out.data);
}

/* ------------------------------------------------------ CBOR to fastjson */

/* Report a decoding error: raised, or saved in escontext (a soft error). */
static void
report_decode_error(const fj_error *err, const uint8_t *cbor, size_t len, bool substitute,
					Node *escontext)
{
	bool		no_json_form;

	if (err->code != FJ_ERR_CBOR)
	{
		/* depth, size, memory, cancel: as for text input */
		fastjson_report_parse_error(err, "", 0, escontext);
		return;
	}
	no_json_form = err->reason == FJ_R_CBOR_NONFINITE || err->reason == FJ_R_CBOR_UNDEFINED ||
		err->reason == FJ_R_CBOR_SIMPLE;
	errsave(escontext,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg(no_json_form || err->reason == FJ_R_CBOR_KEY
					? "CBOR value cannot be converted to fastjson"
					: "invalid CBOR data"),
			 errdetail("%s", err->message),
			 (no_json_form && !substitute)
			 ? errhint("Pass substitute_null => true to get null for NaN, infinities, undefined and simple values.")
			 : 0,
			 errcontext("CBOR data, byte %zu of %zu: %s", err->offset, len,
						bytes_for_message(cbor, len, err->offset))));
}

PG_FUNCTION_INFO_V1(fastjson_from_cbor);

/* fastjson_from_cbor(data, substitute_null DEFAULT false), and the cast from bytea. */
Datum
fastjson_from_cbor(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	bool		substitute = PG_NARGS() > 1 ? PG_GETARG_BOOL(1) : false;
	const uint8_t *cbor = (const uint8_t *) VARDATA_ANY(b);
	size_t		len = VARSIZE_ANY_EXHDR(b);
	fj_parse_options server;
	fj_cbor_decode_options opt;
	fj_buf		tape;
	fj_error	err;
	FastjsonNew nv;

	/* the tape holds UTF-8, as fastjson_in requires */
	fastjson_check_encoding();
	fastjson_parse_options(&server);
	memset(&opt, 0, sizeof(opt));
	opt.alloc = server.alloc;
	opt.max_depth = server.max_depth;
	opt.substitute_null = substitute;
	opt.prefix = VARHDRSZ;
	opt.max_size = MaxAllocSize;
	opt.interrupted = server.interrupted;
	opt.interrupt_ctx = server.interrupt_ctx;
	opt.kernel = server.kernel;
	fastjson_new_begin(&nv, len);
	if (fj_cbor_decode(cbor, len, &opt, &tape, &err) != FJ_OK)
	{
		fastjson_new_end(&nv, NULL);
		report_decode_error(&err, cbor, len, substitute, fcinfo->context);
		PG_RETURN_NULL();
	}
	SET_VARSIZE(tape.data, tape.len);
	PG_RETURN_DATUM(fastjson_new_end(&nv, (Fastjson *) tape.data));
}
