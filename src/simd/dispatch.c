/*
 * dispatch.c — the choice of kernel. The best one is chosen once, on first
 * use, from what the CPU reports (each kernel's supported(): cpuid and
 * xgetbv on x86-64, HWCAP on ARM64); callers may force any kernel through
 * fj_parse_options.kernel.
 */
#include "kernel.h"

#include <string.h>

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

fj_code
fj_kernel_parse(const fj_kernel *k, const uint8_t *json, size_t len, const fj_parse_options *opt,
				fj_buf *out, fj_error *err)
{
	return k->parse(json, len, opt, out, err);
}

fj_code
fj_write_json(const uint8_t *v, const fj_allocator *a, fj_buf *out)
{
	return fj_kernel_best()->write_json(v, a, out);
}

fj_code
fj_kernel_write_json(const fj_kernel *k, const uint8_t *v, const fj_allocator *a, fj_buf *out)
{
	return k->write_json(v, a, out);
}

fj_utf8_validator
fj_kernel_utf8_validator(const fj_kernel *k)
{
	return k->utf8_valid;
}
