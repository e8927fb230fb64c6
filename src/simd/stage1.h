/*
 * stage1.h — generic SIMD stage 1: find the structural characters of one
 * window of input and validate its UTF-8.
 *
 * A kernel includes this after defining, for a 64-byte block:
 *
 *   fj_utf8_state, utf8_block(state, p), utf8_failed(state, at_eof)
 *   classify(p, &masks)       bit masks of quote, backslash, op, ws, ctrl bytes
 *   prefix_xor(x)             bit i = xor of bits 0..i
 *   flatten(out, bits, base)  write base + position of each set bit, return end
 *
 * The bit logic follows simdjson: escaped characters are found from runs of
 * backslashes, strings from the prefix xor of unescaped quotes. Structural
 * positions are the operators {}[]:, outside strings, every unescaped quote
 * (opening and closing, so stage 2 knows each string's raw length), and the
 * first byte of every other scalar (numbers, literals, stray bytes).
 */
#ifndef FJ_STAGE1_H
#define FJ_STAGE1_H

#include "stage1_state.h"

/* The bytes escaped by a backslash (the byte after an odd run of them). */
static inline uint64_t
stage1_escaped(uint64_t *prev_escaped, uint64_t backslash)
{
	const uint64_t even_bits = 0x5555555555555555ULL;
	uint64_t	follows_escape,
				odd_starts,
				even_sequences;

	backslash &= ~*prev_escaped;
	follows_escape = backslash << 1 | *prev_escaped;
	odd_starts = backslash & ~even_bits & ~follows_escape;
	*prev_escaped = __builtin_add_overflow(odd_starts, backslash, &even_sequences);
	return (even_bits ^ (even_sequences << 1)) & follows_escape;
}

/* Scan [s->scanned, s->scanned + FJ_WINDOW) into s->idx. */
static void
stage1_window(fj_stage1 *s)
{
	size_t		start = s->scanned;
	size_t		end = s->len - start > FJ_WINDOW ? start + FJ_WINDOW : s->len;
	uint32_t   *out = s->idx;
	uint64_t	ctrl_in_string = 0;
	size_t		ctrl_block = 0;
	size_t		pos;

	for (pos = start; pos < end; pos += 64)
	{
		const uint8_t *block = s->buf + pos;
		uint8_t		tail[64];
		fj_block_masks m;
		uint64_t	escaped,
					quote,
					in_string,
					nonquote_scalar,
					follows,
					scalar_start,
					structural;

		if ((uint32_t) (out - s->idx) + 64 > s->idx_cap)
		{
			/* the index is full: end the window here, at a block boundary */
			end = pos;
			break;
		}
		if (end - pos < 64)
		{
			/* the last block of the input: pad with spaces */
			memset(tail, ' ', sizeof(tail));
			memcpy(tail, block, end - pos);
			block = tail;
		}
		classify(block, &m);
		utf8_block(&s->utf8, block);

		escaped = stage1_escaped(&s->prev_escaped, m.backslash);
		quote = m.quote & ~escaped;
		in_string = prefix_xor(quote) ^ s->prev_in_string;
		s->prev_in_string = (uint64_t) ((int64_t) in_string >> 63);

		nonquote_scalar = ~(m.op | m.ws | quote);
		follows = nonquote_scalar << 1 | s->prev_scalar;
		s->prev_scalar = nonquote_scalar >> 63;
		scalar_start = ~(m.op | m.ws) & ~follows;
		structural = ((m.op | scalar_start) & ~in_string) | quote;

		if ((m.ctrl & in_string) && !ctrl_in_string)
		{
			ctrl_in_string = m.ctrl & in_string;
			ctrl_block = pos;
		}
		out = flatten(out, structural, (uint32_t) pos);
	}
	s->n = (uint32_t) (out - s->idx);
	/* the padding may have produced positions at or past the end */
	while (s->n > 0 && s->idx[s->n - 1] >= s->len)
		s->n--;
	s->pos = 0;
	s->scanned = end;

	if (utf8_failed(&s->utf8, end == s->len) || stage1_cut_sequence_invalid(s, end))
		stage1_utf8_error(s, start, end);
	if (ctrl_in_string)
		stage1_error(s, ctrl_block + (size_t) __builtin_ctzll(ctrl_in_string),
					 FJ_R_CONTROL);
}

#endif							/* FJ_STAGE1_H */
