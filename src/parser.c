/*
 * parser.c — the parser's public entry points: defaults for the options,
 * the input size limit, then the kernel (src/simd/dispatch.c) does the work.
 */
#include "fj_core.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- parse */

fj_code
fj_parse(const char *json, size_t len, const fj_parse_options *opt,
		 fj_buf *out, fj_error *err)
{
	fj_parse_options o;

	memset(&o, 0, sizeof(o));
	if (opt)
		o = *opt;
	if (!o.alloc)
		o.alloc = &fj_malloc_allocator;
	if (!o.kernel)
		o.kernel = fj_kernel_best();
	memset(out, 0, sizeof(*out));
	fj_error_clear(err);
	if (len > FJ_MAX_INPUT)
		return fj_fail(err, FJ_R_TOO_BIG, 0);
	return fj_kernel_parse(o.kernel, (const uint8_t *) json, len, &o, out, err);
}

bool
fj_valid(const char *json, size_t len, const fj_parse_options *opt, fj_error *err)
{
	fj_buf		tape;
	const fj_allocator *a = opt && opt->alloc ? opt->alloc : &fj_malloc_allocator;

	if (fj_parse(json, len, opt, &tape, err) != FJ_OK)
		return false;
	fj_buf_release(a, &tape);
	return true;
}
