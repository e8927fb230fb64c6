/*
 * stage2_state.h — stage 2's state: the parser (fj_stage2), its open
 * containers (fj_frame), how it reads the next window of structural
 * positions, reports the error that ends the input early, and grows the tape.
 * Included by stage2.h; the strings, numbers and the state machine all use it.
 */
#ifndef FJ_STAGE2_STATE_H
#define FJ_STAGE2_STATE_H

#include "../tape.h"
#include "../tape_writer.h"
#include "../string_refs.h"

#define FJ_TAPE_SLACK 72		/* spare bytes past the write position */

/* Bytes that may follow a number or literal: whitespace , ] } */
static const uint8_t fj_value_end[256] = {
	[' '] = 1,['\t'] = 1,['\n'] = 1,['\r'] = 1,[','] = 1,[']'] = 1,['}'] = 1
};

/* The value of each hex digit byte; -1 (all bits set) for any other byte. */
#define FJ_HEX_ROW_NONE -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
static const int8_t fj_hex_value[256] = {
	FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	FJ_HEX_ROW_NONE,
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE,
	FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE, FJ_HEX_ROW_NONE
};

typedef struct fj_frame
{
	uint32_t	hdr;			/* tape offset of the container's reserved header */
	uint32_t	count;			/* members so far */
	uint8_t		type;			/* FJ_ARRAY or FJ_OBJECT */
	uint8_t		slot;			/* its lead_guess slot: its position in its parent */
	/*
	 * Bytes reserved at hdr (header and leading key index), and FJ_REFS_OUT
	 * once a string reference inside points before the container: kept in
	 * one field so that the common close (exactly 3 bytes reserved, no
	 * reference) tests one thing.
	 */
	uint16_t	reserved;
} fj_frame;

#define FJ_REFS_OUT 0x8000		/* fj_frame.reserved: a reference points out of the container */

typedef struct fj_stage2
{
	fj_stage1	s1;
	const fj_allocator *alloc;
	fj_buf	   *out;
	uint8_t    *wp;				/* write position in out->data */
	uint8_t    *limit;			/* out->data + out->cap - FJ_TAPE_SLACK */
	size_t		max_size;
	fj_error   *err;
	const fj_parse_options *opt;
	/*
	 * Tape positions of the keys of the open objects, innermost last: keys,
	 * nkeys and keys_cap mirror keys_buf (which starts in keys_local), so
	 * that the state machine can keep them in registers.
	 */
	uint32_t   *keys;
	uint32_t	nkeys,
				keys_cap;
	fj_buf		keys_buf;
	uint32_t	keys_local[256];

	/* what containers led with, by depth and position (tape_writer.h) */
	fj_lead_guess lead_guess;

	/* long string values seen so far, for string references */
	fj_string_refs refs;
} fj_stage2;

/*
 * The current window's positions are used up: scan the next window and
 * return its first position, or s1.len at the end of the input (or at a
 * stage 1 error or an interrupt). The caller reads the rest of the window
 * from s1.idx + s1.pos up to s1.idx + s1.n.
 */
static uint32_t
stage2_refill(fj_stage2 *p)
{
	fj_stage1  *s = &p->s1;

	s->pos = s->n;
	while (s->pos == s->n)
	{
		if (s->scanned == s->len || s->error_at != SIZE_MAX)
			return (uint32_t) s->len;
		if (p->opt->interrupted && p->opt->interrupted(p->opt->interrupt_ctx))
			return (uint32_t) s->len;
		stage1_window(s);
	}
	return s->idx[s->pos++];
}

/* Report the error that ends the input early: stage 1's, an interrupt, or EOF. */
static fj_code
stage2_fail_at_end(fj_stage2 *p)
{
	fj_stage1  *s = &p->s1;

	if (s->error_at != SIZE_MAX)
		return fj_fail(p->err, s->error_reason, s->error_at);
	if (s->scanned != s->len)
		return fj_fail(p->err, FJ_R_INTERRUPTED, s->scanned);
	return fj_fail(p->err, FJ_R_EMPTY, s->len);
}

/* Make room for need more bytes at the write position (plus the slack). */
static fj_code
stage2_reserve_slow(fj_stage2 *p, size_t need)
{
	fj_buf	   *b = p->out;

	b->len = (size_t) (p->wp - b->data);
	if (p->max_size && b->len + need > p->max_size)
		return fj_fail(p->err, FJ_R_TOO_BIG, p->s1.scanned);
	if (!fj_buf_reserve_within(p->alloc, b, need + FJ_TAPE_SLACK, p->max_size ? p->max_size + FJ_TAPE_SLACK : 0))
		return fj_fail(p->err, FJ_R_NOMEM, 0);
	p->wp = b->data + b->len;
	p->limit = b->data + b->cap - FJ_TAPE_SLACK;
	return FJ_OK;
}

static inline fj_code
stage2_reserve(fj_stage2 *p, size_t need)
{
	if ((size_t) (p->limit - p->wp) >= need)
		return FJ_OK;
	return stage2_reserve_slow(p, need);
}

/*
 * A number or literal starting at i is followed by byte q, which may not
 * follow it. If q starts an invalid UTF-8 sequence, that is the first error
 * in the input (the token itself was fine): report it as stage 1 would.
 */
static fj_code
stage2_bad_token_end(fj_stage2 *p, fj_reason reason, uint32_t i, size_t q)
{
	const uint8_t *buf = p->s1.buf;

	if (buf[q] >= 0x80)
	{
		size_t		n = p->s1.len - q < 4 ? p->s1.len - q : 4;

		if (fj_utf8_first_error(buf + q, n) == 0)
			return fj_fail(p->err, FJ_R_UTF8, q);
	}
	return fj_fail(p->err, reason, i);
}

#endif							/* FJ_STAGE2_STATE_H */
