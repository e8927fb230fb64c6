/*
 * utf8_lookup.h — the three 16-entry tables of the Keiser–Lemire UTF-8
 * validator. Each names the errors a byte pair can show, from the high nibble
 * of the first byte, the low nibble of the first byte and the high nibble of
 * the second; an error is present where all three agree.
 */
#ifndef FJ_UTF8_LOOKUP_H
#define FJ_UTF8_LOOKUP_H

#define U8_TOO_SHORT (1 << 0)	/* lead byte or ASCII, then a lead byte or ASCII */
#define U8_TOO_LONG (1 << 1)	/* ASCII, then a continuation */
#define U8_OVERLONG_3 (1 << 2)	/* E0 80..9F */
#define U8_TOO_LARGE (1 << 3)	/* above U+10FFFF */
#define U8_SURROGATE (1 << 4)	/* ED A0..BF */
#define U8_OVERLONG_2 (1 << 5)	/* C0, C1 */
#define U8_TOO_LARGE_1000 (1 << 6)
#define U8_OVERLONG_4 (1 << 6)	/* F0 80..8F */
#define U8_TWO_CONTS (1 << 7)	/* a continuation where none is expected */
#define U8_CARRY (U8_TOO_SHORT | U8_TOO_LONG | U8_TWO_CONTS)

#define UTF8_BYTE1_HIGH \
	U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, \
	U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, \
	(int8_t) U8_TWO_CONTS, (int8_t) U8_TWO_CONTS, (int8_t) U8_TWO_CONTS, (int8_t) U8_TWO_CONTS, \
	U8_TOO_SHORT | U8_OVERLONG_2, \
	U8_TOO_SHORT, \
	U8_TOO_SHORT | U8_OVERLONG_3 | U8_SURROGATE, \
	(int8_t) (U8_TOO_SHORT | U8_TOO_LARGE | U8_TOO_LARGE_1000 | U8_OVERLONG_4)

#define UTF8_BYTE1_LOW \
	(int8_t) (U8_CARRY | U8_OVERLONG_3 | U8_OVERLONG_2 | U8_OVERLONG_4), \
	(int8_t) (U8_CARRY | U8_OVERLONG_2), \
	(int8_t) U8_CARRY, \
	(int8_t) U8_CARRY, \
	(int8_t) (U8_CARRY | U8_TOO_LARGE), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000 | U8_SURROGATE), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000), \
	(int8_t) (U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000)

#define UTF8_BYTE2_HIGH \
	U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT, \
	U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT, \
	(int8_t) (U8_TOO_LONG | U8_OVERLONG_2 | U8_TWO_CONTS | U8_OVERLONG_3 | U8_TOO_LARGE_1000 | U8_OVERLONG_4), \
	(int8_t) (U8_TOO_LONG | U8_OVERLONG_2 | U8_TWO_CONTS | U8_OVERLONG_3 | U8_TOO_LARGE), \
	(int8_t) (U8_TOO_LONG | U8_OVERLONG_2 | U8_TWO_CONTS | U8_SURROGATE | U8_TOO_LARGE), \
	(int8_t) (U8_TOO_LONG | U8_OVERLONG_2 | U8_TWO_CONTS | U8_SURROGATE | U8_TOO_LARGE), \
	U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT

#endif							/* FJ_UTF8_LOOKUP_H */
