/*
 * parser.c — the parser's public entry points and the choice of kernel.
 *
 * The kernel is chosen once, on first use, from what the CPU reports
 * (cpuid and xgetbv on x86-64, HWCAP on ARM64); callers may force any
 * kernel through fj_parse_options.kernel.
 */
#include "fj_core.h"
#include "simd/kernel.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ allocator */

static void *
malloc_alloc(void *ctx, size_t size)
{
	(void) ctx;
	return malloc(size);
}

static void *
malloc_grow(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	(void) ctx;
	(void) old_size;
	return realloc(ptr, new_size);
}

static void
malloc_release(void *ctx, void *ptr)
{
	(void) ctx;
	free(ptr);
}

const fj_allocator fj_malloc_allocator = {malloc_alloc, malloc_grow, malloc_release, NULL};

void
fj_buf_release(const fj_allocator *a, fj_buf *buf)
{
	if (buf->data)
		a->release(a->ctx, buf->data);
	buf->data = NULL;
	buf->len = buf->cap = 0;
}

/* -------------------------------------------------------------- kernels */

/* Every kernel compiled in, best first; scalar is always last. */
static const fj_kernel *const all_kernels[] = {
#if defined(__x86_64__)
	&fj_kernel_avx512,
	&fj_kernel_avx2,
#endif
#if defined(__aarch64__)
	&fj_kernel_neon,
#endif
	&fj_kernel_scalar,
};

#define N_KERNELS (sizeof(all_kernels) / sizeof(all_kernels[0]))

const fj_kernel *
fj_kernel_best(void)
{
	static const fj_kernel *best;
	size_t		i;

	if (best)
		return best;
	for (i = 0; i < N_KERNELS; i++)
		if (all_kernels[i]->supported())
			return best = all_kernels[i];
	return best = &fj_kernel_scalar;
}

const fj_kernel *
fj_kernel_by_name(const char *name)
{
	size_t		i;

	for (i = 0; i < N_KERNELS; i++)
		if (strcmp(all_kernels[i]->name, name) == 0)
			return all_kernels[i];
	return NULL;
}

bool
fj_kernel_supported(const fj_kernel *k)
{
	return k->supported();
}

const char *
fj_kernel_name(const fj_kernel *k)
{
	return k->name;
}

size_t
fj_kernel_list(const fj_kernel **out, size_t max)
{
	size_t		i;

	for (i = 0; i < N_KERNELS && i < max; i++)
		out[i] = all_kernels[i];
	return N_KERNELS;
}

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
	out->data = NULL;
	out->len = out->cap = 0;
	err->code = FJ_OK;
	err->message = NULL;
	err->offset = 0;
	if (len > FJ_MAX_INPUT)
		return fj_fail(err, FJ_ERR_TOO_BIG, FJ_MSG_TOO_BIG, 0);
	return o.kernel->parse((const uint8_t *) json, len, &o, out, err);
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
