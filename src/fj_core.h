/*
 * fj_core.h — the fastjson core: JSON text to tape, tape to JSON text, tape
 * validation, tape lookup.
 *
 * Plain C with no PostgreSQL headers. Memory comes from a caller-supplied
 * allocator; failures come back as an fj_error (code, reason, message, byte
 * offset: src/error.h).
 * The SQL layer (fastjson_*.c) is the only code that calls palloc/ereport.
 */
#ifndef FJ_CORE_H
#define FJ_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "error.h"

/* ------------------------------------------------------------- allocator */

typedef struct fj_allocator
{
	void	   *(*alloc) (void *ctx, size_t size);
	/* grow a block to new_size, keeping its first old_size bytes */
	void	   *(*grow) (void *ctx, void *ptr, size_t old_size, size_t new_size);
	void		(*release) (void *ctx, void *ptr);
	void	   *ctx;
} fj_allocator;

/* malloc/realloc/free */
extern const fj_allocator fj_malloc_allocator;

/*
 * A growable byte buffer owned by an allocator (src/buffer.c): a tape, a
 * text, or an array of fixed-size elements (a stack). All zero is empty.
 */
typedef struct fj_buf
{
	uint8_t    *data;
	size_t		len;			/* bytes in use */
	size_t		cap;			/* bytes allocated */
	bool		borrowed;		/* data is the caller's storage (fj_buf_borrow) */
} fj_buf;

/*
 * Start an empty buffer in the caller's storage (a stack array, say): it
 * moves to the allocator's memory only if it outgrows size bytes, and
 * fj_buf_release leaves the storage alone.
 */
static inline void
fj_buf_borrow(fj_buf *buf, void *storage, size_t size)
{
	buf->data = (uint8_t *) storage;
	buf->len = 0;
	buf->cap = size;
	buf->borrowed = true;
}

/*
 * The slow path of fj_buf_reserve: grow to hold need more bytes, by at least
 * half but to no more than max bytes (0: no limit) unless need is more.
 */
bool		fj_buf_grow(const fj_allocator *a, fj_buf *buf, size_t need, size_t max);

/*
 * Make room for need more bytes after buf->len, keeping the first len;
 * false if the size overflows or the allocator fails (buf is unchanged).
 */
static inline bool
fj_buf_reserve(const fj_allocator *a, fj_buf *buf, size_t need)
{
	if (__builtin_expect(buf->cap - buf->len >= need, 1))
		return true;
	return fj_buf_grow(a, buf, need, 0);
}

/*
 * The same for a buffer that may never pass max bytes (its writer checks
 * that len + need stays within max): growth stops at max.
 */
static inline bool
fj_buf_reserve_within(const fj_allocator *a, fj_buf *buf, size_t need, size_t max)
{
	if (__builtin_expect(buf->cap - buf->len >= need, 1))
		return true;
	return fj_buf_grow(a, buf, need, max);
}

/* Append size uninitialised bytes (an element, say): their address, or NULL. */
void	   *fj_buf_push(const fj_allocator *a, fj_buf *buf, size_t size);

void		fj_buf_release(const fj_allocator *a, fj_buf *buf);

/* --------------------------------------------------------------- kernels */

/* A stage 1 + stage 2 implementation compiled for one instruction set. */
typedef struct fj_kernel fj_kernel;

/* The best kernel this CPU supports (chosen once, thread-safe after first call). */
const fj_kernel *fj_kernel_best(void);
/* A kernel by name ("avx512", "avx2", "neon", "scalar"), or NULL if unknown. */
const fj_kernel *fj_kernel_by_name(const char *name);
/* Whether this CPU can run the kernel. */
bool		fj_kernel_supported(const fj_kernel *k);
const char *fj_kernel_name(const fj_kernel *k);
/* All kernels compiled into this build, best first; returns how many. */
size_t		fj_kernel_list(const fj_kernel **out, size_t max);

/* ---------------------------------------------------------------- parser */

#define FJ_DEFAULT_MAX_DEPTH 10000
/*
 * The parser reads its input in windows of this many bytes (stage 1 finds
 * the structure of one window, stage 2 writes its tape), and polls
 * fj_parse_options.interrupted once before each window: a parse stops within
 * FJ_WINDOW bytes of being asked to.
 */
#define FJ_WINDOW (32 * 1024)
#define FJ_MAX_INPUT ((size_t) 0x7fffffff)

typedef struct fj_parse_options
{
	const fj_allocator *alloc;	/* NULL: fj_malloc_allocator */
	const fj_kernel *kernel;	/* NULL: fj_kernel_best() */
	uint32_t	max_depth;		/* 0: FJ_DEFAULT_MAX_DEPTH */
	size_t		prefix;			/* bytes reserved before the tape (a varlena header) */
	size_t		max_size;		/* limit on prefix + tape; 0: none */
	/* polled once per FJ_WINDOW bytes of input; nonzero stops the parse */
	int			(*interrupted) (void *ctx);
	void	   *interrupt_ctx;
} fj_parse_options;

/*
 * Parse len bytes of JSON text (no terminator needed) into a tape.
 * On success out->data holds prefix bytes (uninitialised) then the tape, and
 * out->len is prefix + tape length. On failure out is released.
 */
fj_code		fj_parse(const char *json, size_t len, const fj_parse_options *opt,
					 fj_buf *out, fj_error *err);

/* Run kernel k as fj_parse does, once the options are complete (src/simd/dispatch.c). */
fj_code		fj_kernel_parse(const fj_kernel *k, const uint8_t *json, size_t len,
							const fj_parse_options *opt, fj_buf *out, fj_error *err);

/* Whether len bytes are one valid JSON document (no tape is kept). */
bool		fj_valid(const char *json, size_t len, const fj_parse_options *opt,
					 fj_error *err);

/* ------------------------------------------------------------ text writer */

/*
 * Append the canonical minified JSON text of the tape value at v to out
 * (growing it with a), with the best kernel's writer (src/simd/text_writer.h).
 * The tape must be valid.
 */
fj_code		fj_write_json(const uint8_t *v, const fj_allocator *a, fj_buf *out);

/* The same with kernel k's writer, which must be supported (for tests and benchmarks). */
fj_code		fj_kernel_write_json(const fj_kernel *k, const uint8_t *v, const fj_allocator *a,
								 fj_buf *out);

/* Whether s[0..n) is valid UTF-8: kernel k's stage 1 validator, which k must support. */
typedef bool (*fj_utf8_validator) (const uint8_t *s, size_t n);
fj_utf8_validator fj_kernel_utf8_validator(const fj_kernel *k);

/*
 * The same in jsonb_pretty's indented layout (src/text_pretty.c), with kernel
 * k's writer for strings and numbers (NULL: the best kernel's). Stops with
 * FJ_ERR_TOO_BIG once out would pass max_len bytes (0: no limit).
 */
fj_code		fj_write_json_pretty(const fj_kernel *k, const uint8_t *v, const fj_allocator *a, fj_buf *out,
								 size_t max_len);

/* ---------------------------------------------------------- tape validator */

/*
 * Check that len bytes are a well-formed, canonical tape (header included):
 * every offset, size, count, key index, UTF-8 sequence and number text.
 * Never reads outside [tape, tape + len).
 */
fj_code		fj_validate_tape(const uint8_t *tape, size_t len, uint32_t max_depth,
							 const fj_allocator *a, fj_error *err);

#endif							/* FJ_CORE_H */
