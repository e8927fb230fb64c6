/*
 * kernel.h — what every per-CPU kernel shares: the kernel descriptor and
 * the size of stage 1's window. Only src/simd/ includes it.
 *
 * A kernel is the whole parser (stage 1 and stage 2) and the text writer
 * compiled for one instruction set: each src/simd/<isa>.c defines its
 * primitives and then includes the generic stage1.h, stage2.h and
 * text_writer.h, as simdjson does.
 */
#ifndef FJ_KERNEL_H
#define FJ_KERNEL_H

#include "../fj_core.h"
#include "../utf8.h"

struct fj_kernel
{
	const char *name;
	bool		(*supported) (void);
	fj_code		(*parse) (const uint8_t *json, size_t len, const fj_parse_options *opt,
						  fj_buf *out, fj_error *err);
	/* the text writer (text_writer.h), with this kernel's copy of plain string bytes */
	fj_code		(*write_json) (const uint8_t *v, const fj_allocator *a, fj_buf *out);
	/* whether a buffer is valid UTF-8, with stage 1's validator (utf8_valid.h) */
	bool		(*utf8_valid) (const uint8_t *s, size_t n);
};

extern const fj_kernel fj_kernel_scalar;
#if defined(__x86_64__)
extern const fj_kernel fj_kernel_avx2;
extern const fj_kernel fj_kernel_avx512;
#endif
#if defined(__aarch64__)
extern const fj_kernel fj_kernel_neon;
#endif

/*
 * Stage 1 scans the input in windows of FJ_WINDOW bytes (fj_core.h) into a
 * reused index buffer; stage 2 asks for the next window when it has used the
 * last one.
 */
#define FJ_INDEX_SLACK 64		/* flatten may write this many entries past the end */

#endif							/* FJ_KERNEL_H */
