/*
 * kernel.h — what every per-CPU kernel shares: the kernel descriptor, the
 * stage 1 window state and the parse error messages.
 *
 * A kernel is the whole parser (stage 1 and stage 2) compiled for one
 * instruction set: each src/simd/<isa>.c defines its primitives and then
 * includes the generic stage1.h and stage2.h, as simdjson does.
 */
#ifndef FJ_KERNEL_H
#define FJ_KERNEL_H

#include "../fj_core.h"

struct fj_kernel
{
	const char *name;
	bool		(*supported) (void);
	fj_code		(*parse) (const uint8_t *json, size_t len, const fj_parse_options *opt,
						  fj_buf *out, fj_error *err);
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
 * Stage 1 scans the input in windows of FJ_WINDOW bytes into a reused index
 * buffer; stage 2 asks for the next window when it has used the last one.
 */
#define FJ_WINDOW (32 * 1024)
#define FJ_INDEX_SLACK 64		/* flatten may write this many entries past the end */

/* The position of the first invalid UTF-8 sequence in p[0..len), or len. */
size_t		fj_utf8_first_error(const uint8_t *p, size_t len);
/* The start of the UTF-8 sequence that covers pos (pos itself if none covers it). */
size_t		fj_utf8_sequence_start(const uint8_t *buf, size_t pos);

/* ------------------------------------------------------ error messages */

#define FJ_MSG_EMPTY "The input string ended unexpectedly."
#define FJ_MSG_VALUE "Expected JSON value."
#define FJ_MSG_KEY "Expected string."
#define FJ_MSG_COLON "Expected \":\"."
#define FJ_MSG_ARRAY_NEXT "Expected \",\" or \"]\"."
#define FJ_MSG_OBJECT_NEXT "Expected \",\" or \"}\"."
#define FJ_MSG_TRAILING "Expected end of input."
#define FJ_MSG_NUMBER "Invalid number."
#define FJ_MSG_LITERAL "Token is invalid."
#define FJ_MSG_UNTERMINATED "Unterminated string."
#define FJ_MSG_CONTROL "Control characters in strings must be escaped."
#define FJ_MSG_ESCAPE "Escape sequence is invalid."
#define FJ_MSG_HEX "\"\\u\" must be followed by four hexadecimal digits."
#define FJ_MSG_LOW_SURROGATE "Unicode low surrogate must follow a high surrogate."
#define FJ_MSG_HIGH_SURROGATE "Unicode high surrogate must be followed by a low surrogate."
#define FJ_MSG_UTF8 "Invalid UTF-8 byte sequence."
#define FJ_MSG_DEPTH "Nesting is deeper than the maximum allowed depth."
#define FJ_MSG_TOO_BIG "The document is larger than the maximum allowed size."
#define FJ_MSG_STRING_TOO_BIG "A string is longer than the maximum allowed length."
#define FJ_MSG_NOMEM "Out of memory."
#define FJ_MSG_INTERRUPTED "Parse interrupted."

static inline fj_code
fj_fail(fj_error *err, fj_code code, const char *message, size_t offset)
{
	err->code = code;
	err->message = message;
	err->offset = offset;
	return code;
}

#endif							/* FJ_KERNEL_H */
