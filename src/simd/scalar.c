/*
 * scalar.c — the portable kernel: a byte-at-a-time stage 1.
 *
 * It is always built, runs on any CPU, and is the oracle: every SIMD kernel
 * must produce exactly the tape (or the error) this one produces. Its stage 1
 * is a plain state machine, independent of the bit tricks in stage1.h, so the
 * differential tests check those tricks too.
 */
#include "../utf8.h"

#include <string.h>

typedef struct fj_utf8_state
{
	fj_utf8_dfa dfa;
	bool		failed;
} fj_utf8_state;

#include "stage1_state.h"

static inline void
utf8_init(fj_utf8_state *u)
{
	u->dfa.need = 0;
	u->dfa.lo = 0x80;
	u->dfa.hi = 0xbf;
	u->failed = false;
}

static inline bool
is_op(uint8_t c)
{
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',';
}

static inline bool
is_ws(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Scan one window byte by byte; the same positions and errors as stage1.h. */
static void
stage1_window(fj_stage1 *s)
{
	size_t		start = s->scanned;
	size_t		end = s->len - start > FJ_WINDOW ? start + FJ_WINDOW : s->len;
	uint32_t   *out = s->idx;
	bool		in_string = s->prev_in_string != 0;
	bool		escape = s->prev_escaped != 0;
	bool		prev_scalar = s->prev_scalar != 0;
	size_t		ctrl_at = SIZE_MAX;
	size_t		pos;

	for (pos = start; pos < end; pos++)
	{
		uint8_t		c;

		/* the index is full: end the window at a block boundary, as stage1.h does */
		if (((pos - start) & 63) == 0 && (uint32_t) (out - s->idx) + 64 > s->idx_cap)
		{
			end = pos;
			break;
		}
		c = s->buf[pos];
		bool		escaped = escape;
		bool		quote = c == '"' && !escaped;

		if (!s->utf8.failed && !fj_utf8_step(&s->utf8.dfa, c))
			s->utf8.failed = true;
		escape = c == '\\' && !escaped;
		if (in_string)
		{
			if (quote)
			{
				in_string = false;
				*out++ = (uint32_t) pos;
				prev_scalar = false;
				continue;
			}
			if (c < 0x20 && ctrl_at == SIZE_MAX)
				ctrl_at = pos;
			prev_scalar = !is_op(c) && !is_ws(c);
			continue;
		}
		if (quote)
		{
			in_string = true;
			*out++ = (uint32_t) pos;
			prev_scalar = false;
		}
		else if (is_op(c))
		{
			*out++ = (uint32_t) pos;
			prev_scalar = false;
		}
		else if (is_ws(c))
			prev_scalar = false;
		else
		{
			if (!prev_scalar)
				*out++ = (uint32_t) pos;
			prev_scalar = true;
		}
	}
	s->prev_in_string = in_string;
	s->prev_escaped = escape;
	s->prev_scalar = prev_scalar;
	s->n = (uint32_t) (out - s->idx);
	s->pos = 0;
	s->scanned = end;
	if (s->utf8.failed || (end == s->len && s->utf8.dfa.need) || stage1_cut_sequence_invalid(s, end))
		stage1_utf8_error(s, start, end);
	if (ctrl_at != SIZE_MAX)
		stage1_error(s, ctrl_at, FJ_R_CONTROL);
}

static inline size_t
copy_until_backslash(uint8_t *dst, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	const uint8_t *b = memchr(src, '\\', n);
	size_t		k = b ? (size_t) (b - src) : n;

	(void) input_end;
	memcpy(dst, src, k);
	return k;
}

/* Copy a string of n <= 27 bytes if it has no escapes. */
static inline bool
copy_short_string(uint8_t *dst, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	(void) input_end;
	if (memchr(src, '\\', n))
		return false;
	memcpy(dst, src, n);
	return true;
}

#include "stage2.h"

#include "text_writer.h"

static inline size_t
copy_plain(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *readable_end)
{
	return copy_plain_swar(d, s, n, readable_end);
}

static bool
scalar_supported(void)
{
	return true;
}

/* its UTF-8 check is the DFA of stage 1, byte by byte (src/utf8.c) */
const fj_kernel fj_kernel_scalar = {"scalar", scalar_supported, kernel_parse, write_json, fj_utf8_valid};
