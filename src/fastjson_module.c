/*
 * fastjson_module.c — the extension's module: load-time setup, settings
 * (fastjson.simd, fastjson.max_depth), the palloc allocator for the core and
 * the functions that show the SIMD kernels.
 */
#include "fastjson.h"
#include "tape_store.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

FASTJSON_MODULE_MAGIC;

int			fastjson_max_depth = FJ_DEFAULT_MAX_DEPTH;
int			fastjson_compression_level = FASTJSON_COMPRESSION_LEVEL_DEFAULT;
const fj_kernel *fastjson_kernel;
static char *fastjson_simd_setting;

/* ------------------------------------------------------ palloc allocator */

static void *
fj_palloc(void *ctx, size_t size)
{
	(void) ctx;
	return MemoryContextAllocExtended(CurrentMemoryContext, size, MCXT_ALLOC_HUGE);
}

static void *
fj_repalloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	(void) ctx;
	(void) old_size;
	return repalloc_huge(ptr, new_size);
}

static void
fj_pfree(void *ctx, void *ptr)
{
	(void) ctx;
	pfree(ptr);
}

const fj_allocator fastjson_palloc_allocator = {fj_palloc, fj_repalloc, fj_pfree, NULL};

void
fastjson_buf_reserve(fj_buf *buf, size_t need)
{
	/* palloc reports its own failures; what is left is a size past size_t */
	if (!fj_buf_reserve(&fastjson_palloc_allocator, buf, need))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson value is too large")));
}

void *
fastjson_buf_push(fj_buf *buf, size_t size)
{
	void	   *p;

	fastjson_buf_reserve(buf, size);
	p = buf->data + buf->len;
	buf->len += size;
	return p;
}

/* Polled by the parser once per window: honours cancel and statement_timeout. */
static int
fastjson_interrupted(void *ctx)
{
	(void) ctx;
	CHECK_FOR_INTERRUPTS();
	return 0;
}

void
fastjson_parse_options(fj_parse_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->alloc = &fastjson_palloc_allocator;
	opt->kernel = fastjson_kernel;
	opt->max_depth = (uint32_t) fastjson_max_depth;
	opt->prefix = VARHDRSZ;
	opt->max_size = MaxAllocSize;
	opt->interrupted = fastjson_interrupted;
}

/* ------------------------------------------------------------- settings */

static bool
check_simd(char **newval, void **extra, GucSource source)
{
	const fj_kernel *k;

	(void) extra;
	(void) source;
	if (strcmp(*newval, "auto") == 0)
		return true;
	k = fj_kernel_by_name(*newval);
	if (!k)
	{
		GUC_check_errdetail("Valid values are \"auto\", \"avx512\", \"avx2\", \"neon\" and \"scalar\", where built.");
		return false;
	}
	if (!fj_kernel_supported(k))
	{
		GUC_check_errdetail("This CPU does not support the \"%s\" kernel.", *newval);
		return false;
	}
	return true;
}

static void
assign_simd(const char *newval, void *extra)
{
	(void) extra;
	fastjson_kernel = strcmp(newval, "auto") == 0 ? fj_kernel_best() : fj_kernel_by_name(newval);
}

void		_PG_init(void);

void
_PG_init(void)
{
	fastjson_kernel = fj_kernel_best();
	DefineCustomStringVariable("fastjson.simd",
							   "Forces a SIMD kernel for parsing fastjson input and writing its text.",
							   "\"auto\" (the default) picks the best kernel this CPU supports; "
							   "\"avx512\", \"avx2\", \"neon\" or \"scalar\" force one, for tests.",
							   &fastjson_simd_setting,
							   "auto",
							   PGC_USERSET,
							   0,
							   check_simd, assign_simd, NULL);
	DefineCustomIntVariable("fastjson.max_depth",
							"Maximum nesting depth of fastjson documents.",
							"Deeper input is rejected with SQLSTATE 54001.",
							&fastjson_max_depth,
							FJ_DEFAULT_MAX_DEPTH,
							1, 10000000,
							PGC_USERSET,
							0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("fastjson.compression_level",
							"Compression level of large fastjson values as they are stored.",
							"1 (the default) is LZ4's fast mode; 2 to 12 are LZ4 HC's levels, which "
							"store values smaller and take longer to. Every level is read the same way.",
							&fastjson_compression_level,
							FASTJSON_COMPRESSION_LEVEL_DEFAULT,
							FJ_STORE_LEVEL_FAST, FJ_STORE_LEVEL_MAX,
							PGC_USERSET,
							0,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("fastjson");
}

/* -------------------------------------------------------------- kernels */

PG_FUNCTION_INFO_V1(fastjson_simd_kernel);

/* The kernel that parses fastjson input in this session. */
Datum
fastjson_simd_kernel(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	PG_RETURN_TEXT_P(cstring_to_text(fj_kernel_name(fastjson_kernel)));
}

PG_FUNCTION_INFO_V1(fastjson_simd_kernels);

/* Every kernel built in: name, whether this CPU supports it, whether it is in use. */
Datum
fastjson_simd_kernels(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const fj_kernel *k[8];
	size_t		n = fj_kernel_list(k, 8),
				i;

	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i < n && i < 8; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = CStringGetTextDatum(fj_kernel_name(k[i]));
		values[1] = BoolGetDatum(fj_kernel_supported(k[i]));
		values[2] = BoolGetDatum(k[i] == fastjson_kernel);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
