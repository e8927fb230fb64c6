/*
 * fj_core.h — the fastjson core: JSON text to tape, tape to JSON text, tape
 * validation, tape lookup.
 *
 * Plain C with no PostgreSQL headers. Memory comes from a caller-supplied
 * allocator; failures come back as an fj_error (code, message, byte offset).
 * The SQL layer (fastjson_*.c) is the only code that calls palloc/ereport.
 */
#ifndef FJ_CORE_H
#define FJ_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* ---------------------------------------------------------------- errors */

typedef enum fj_code
{
	FJ_OK = 0,
	FJ_ERR_SYNTAX,				/* input is not JSON (SQLSTATE 22P02) */
	FJ_ERR_UTF8,				/* input is not valid UTF-8 (22021) */
	FJ_ERR_DEPTH,				/* nesting deeper than the limit (54001) */
	FJ_ERR_TOO_BIG,				/* a size limit exceeded (54000) */
	FJ_ERR_NOMEM,				/* the allocator returned NULL */
	FJ_ERR_TAPE,				/* an untrusted tape is malformed (22P03) */
	FJ_ERR_INTERRUPTED,			/* the interrupt callback asked to stop */
	FJ_ERR_CBOR,				/* CBOR input is malformed or has no JSON form (22P03) */
	FJ_ERR_DUPLICATE_KEY		/* deterministic CBOR of an object with a repeated key (22030) */
} fj_code;

typedef struct fj_error
{
	fj_code		code;
	const char *message;		/* static text: what is wrong, as a sentence */
	size_t		offset;			/* byte offset in the input where it was found */
} fj_error;

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

/* A growable byte buffer owned by an allocator. */
typedef struct fj_buf
{
	uint8_t    *data;
	size_t		len;
	size_t		cap;
} fj_buf;

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
#define FJ_MAX_INPUT ((size_t) 0x7fffffff)

typedef struct fj_parse_options
{
	const fj_allocator *alloc;	/* NULL: fj_malloc_allocator */
	const fj_kernel *kernel;	/* NULL: fj_kernel_best() */
	uint32_t	max_depth;		/* 0: FJ_DEFAULT_MAX_DEPTH */
	size_t		prefix;			/* bytes reserved before the tape (a varlena header) */
	size_t		max_size;		/* limit on prefix + tape; 0: none */
	/* polled once per stage 1 window; nonzero stops the parse */
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

/* Whether len bytes are one valid JSON document (no tape is kept). */
bool		fj_valid(const char *json, size_t len, const fj_parse_options *opt,
					 fj_error *err);

/* ------------------------------------------------------------ text writer */

/*
 * Append the canonical minified JSON text of the tape value at v to out
 * (growing it with a). The tape must be valid.
 */
fj_code		fj_write_json(const uint8_t *v, const fj_allocator *a, fj_buf *out);

/*
 * The same in jsonb_pretty's indented layout (src/text_pretty.c). Stops with
 * FJ_ERR_TOO_BIG once out would pass max_len bytes (0: no limit).
 */
fj_code		fj_write_json_pretty(const uint8_t *v, const fj_allocator *a, fj_buf *out,
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
