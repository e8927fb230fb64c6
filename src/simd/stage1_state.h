/*
 * stage1_state.h — the state stage 1 carries from one window to the next.
 *
 * Included by a kernel after it has defined fj_utf8_state, its own UTF-8
 * validation state.
 */
#ifndef FJ_STAGE1_STATE_H
#define FJ_STAGE1_STATE_H

#include "kernel.h"

typedef struct fj_stage1
{
	const uint8_t *buf;
	size_t		len;
	size_t		scanned;		/* input bytes scanned so far */
	uint32_t   *idx;			/* structural positions of the current window */
	uint32_t	n;				/* entries in idx */
	uint32_t	idx_cap;		/* entries idx holds; a window stops before overflowing it */
	uint32_t	pos;			/* next entry stage 2 reads */
	/* carries between 64-byte blocks */
	uint64_t	prev_escaped;	/* last byte of the block was an unescaped backslash */
	uint64_t	prev_in_string; /* all ones if the block ended inside a string */
	uint64_t	prev_scalar;	/* last byte of the block was a non-quote scalar byte */
	/* a stage 1 error: indices stop before error_at, which is SIZE_MAX if none */
	size_t		error_at;
	fj_reason	error_reason;
	fj_utf8_state utf8;
} fj_stage1;

/* One 64-byte block, classified: bit i describes byte i. */
typedef struct fj_block_masks
{
	uint64_t	quote;			/* '"' */
	uint64_t	backslash;		/* '\\' */
	uint64_t	op;				/* { } [ ] : , */
	uint64_t	ws;				/* space, tab, newline, carriage return */
	uint64_t	ctrl;			/* bytes below 0x20 */
} fj_block_masks;

/* Record a stage 1 error at pos if it is the first; drop indices from pos on. */
static inline void
stage1_error(fj_stage1 *s, size_t pos, fj_reason reason)
{
	if (pos < s->error_at)
	{
		s->error_at = pos;
		s->error_reason = reason;
	}
	while (s->n > 0 && s->idx[s->n - 1] >= pos)
		s->n--;
}

/* Find the exact position of a UTF-8 error that a window [start, end) holds. */
static inline void
stage1_utf8_error(fj_stage1 *s, size_t start, size_t end)
{
	size_t		from = fj_utf8_sequence_start(s->buf, start);
	size_t		at = from + fj_utf8_first_error(s->buf + from, s->len - from);

	/* a sequence cut by the end of a later window is reported there */
	if (at >= end && end < s->len)
		at = start;
	stage1_error(s, at, FJ_R_UTF8);
}

/*
 * Whether the UTF-8 sequence that the window end [.., end) cuts (if any) is
 * invalid, looking at the few bytes of the next window it needs. Every
 * kernel asks this at the end of each window but the last, so a bad sequence
 * is reported in the window where it starts, wherever windows end: stage 2
 * must not read past it (a stray lead byte outside a string would otherwise
 * be a syntax error in one kernel and a UTF-8 error in another).
 */
static inline bool
stage1_cut_sequence_invalid(const fj_stage1 *s, size_t end)
{
	size_t		from,
				lim;

	if (end == 0 || end >= s->len || s->buf[end - 1] < 0x80)
		return false;
	from = fj_utf8_sequence_start(s->buf, end - 1);
	lim = s->len - from > 4 ? from + 4 : s->len;
	return fj_utf8_first_error(s->buf + from, lim - from) == 0;
}

#endif							/* FJ_STAGE1_STATE_H */
