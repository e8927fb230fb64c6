/*
 * stage2.h — generic stage 2: walk the structural positions once, validate
 * the grammar and write the tape. No recursion: open containers live on an
 * explicit stack, limited by max_depth.
 *
 * A kernel includes this after stage 1 and after defining
 *
 *   copy_until_backslash(dst, src, n, input_end)
 *       copy src[0..k) to dst where k is the position of the first backslash
 *       in src[0..n), or n; return k. May write up to 64 bytes past dst + k,
 *       and may read up to input_end, never past it.
 *   copy_short_string(dst, src, n, input_end)
 *       for n <= 27: if src[0..n) has no backslash, copy it (writing up to
 *       32 bytes) and return true; else return false, or whenever unsure.
 */
#ifndef FJ_STAGE2_H
#define FJ_STAGE2_H

#include "../tape.h"
#include "../string_refs.h"

#define FJ_TAPE_SLACK 72		/* spare bytes past the write position */
#define FJ_ROOT_WIDE_GUESS (96 * 1024)	/* input bytes after it above which a container gets a wide header */
#define FJ_GUESS_DEPTH 16		/* containers this deep reserve the widest header */

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

#define FJ_GUESS_SLOTS 16		/* positions in the parent told apart by lead_guess */

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
	/* tape positions of the keys of the open objects, innermost last */
	uint32_t   *keys;
	uint32_t	nkeys,
				keys_cap;
	uint32_t	keys_local[256];

	/*
	 * The bytes the last non-empty array ([0]) and object ([1]) closed at
	 * each depth and position in its parent (modulo FJ_GUESS_SLOTS) led its
	 * members with (header and front key index). A container reserves as
	 * much: in a list of records the record's n-th member looks like the
	 * previous record's, and a right guess means nothing moves at close.
	 */
	uint16_t	lead_guess[FJ_GUESS_DEPTH][FJ_GUESS_SLOTS][2];

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
		return fj_fail(p->err, s->error_code, s->error_msg, s->error_at);
	if (s->scanned != s->len)
		return fj_fail(p->err, FJ_ERR_INTERRUPTED, FJ_MSG_INTERRUPTED, s->scanned);
	return fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_EMPTY, s->len);
}

/* Make room for need more bytes at the write position (plus the slack). */
static fj_code
stage2_reserve_slow(fj_stage2 *p, size_t need)
{
	fj_buf	   *b = p->out;
	size_t		used = (size_t) (p->wp - b->data);
	size_t		cap = b->cap + b->cap / 2;
	uint8_t    *data;

	if (cap < used + need + FJ_TAPE_SLACK)
		cap = used + need + FJ_TAPE_SLACK;
	if (p->max_size && used + need > p->max_size)
		return fj_fail(p->err, FJ_ERR_TOO_BIG, FJ_MSG_TOO_BIG, p->s1.scanned);
	if (p->max_size && cap > p->max_size + FJ_TAPE_SLACK)
		cap = p->max_size + FJ_TAPE_SLACK;
	data = p->alloc->grow(p->alloc->ctx, b->data, used, cap);
	if (!data)
		return fj_fail(p->err, FJ_ERR_NOMEM, FJ_MSG_NOMEM, 0);
	b->data = data;
	b->cap = cap;
	p->wp = data + used;
	p->limit = data + cap - FJ_TAPE_SLACK;
	return FJ_OK;
}

static inline fj_code
stage2_reserve(fj_stage2 *p, size_t need)
{
	if ((size_t) (p->limit - p->wp) >= need)
		return FJ_OK;
	return stage2_reserve_slow(p, need);
}

/* Append the UTF-8 encoding of code point cp at d; returns the end. */
static inline uint8_t *
stage2_put_utf8(uint8_t *d, uint32_t cp)
{
	if (cp < 0x80)
		*d++ = (uint8_t) cp;
	else if (cp < 0x800)
	{
		*d++ = (uint8_t) (0xc0 | (cp >> 6));
		*d++ = (uint8_t) (0x80 | (cp & 0x3f));
	}
	else if (cp < 0x10000)
	{
		*d++ = (uint8_t) (0xe0 | (cp >> 12));
		*d++ = (uint8_t) (0x80 | ((cp >> 6) & 0x3f));
		*d++ = (uint8_t) (0x80 | (cp & 0x3f));
	}
	else
	{
		*d++ = (uint8_t) (0xf0 | (cp >> 18));
		*d++ = (uint8_t) (0x80 | ((cp >> 12) & 0x3f));
		*d++ = (uint8_t) (0x80 | ((cp >> 6) & 0x3f));
		*d++ = (uint8_t) (0x80 | (cp & 0x3f));
	}
	return d;
}

/* The four hex digits at s as a number, or -1. */
static inline int32_t
stage2_hex4(const uint8_t *s)
{
	int32_t		a = fj_hex_value[s[0]],
				b = fj_hex_value[s[1]],
				c = fj_hex_value[s[2]],
				d = fj_hex_value[s[3]];

	if ((a | b | c | d) < 0)
		return -1;
	return a << 12 | b << 8 | c << 4 | d;
}

/*
 * Write the string between the quotes at q and c as a STRING value: copy the
 * runs between escapes, decode the escapes. Returns FJ_OK or an error.
 */
static fj_code
stage2_string(fj_stage2 *p, uint32_t q, uint32_t c)
{
	const uint8_t *buf = p->s1.buf;
	const uint8_t *input_end = buf + p->s1.len;
	const uint8_t *s = buf + q + 1;
	const uint8_t *end = buf + c;
	size_t		rawlen = (size_t) (end - s);
	unsigned	hdr;
	uint8_t    *dst,
			   *d;
	size_t		n;
	fj_code		rc;

	if (rawlen > FJ_MAX_TEXT_LEN)
		return fj_fail(p->err, FJ_ERR_TOO_BIG, FJ_MSG_STRING_TOO_BIG, q);
	if ((rc = stage2_reserve(p, rawlen + 5)) != FJ_OK)
		return rc;
	hdr = fj_text_header_size(rawlen);
	dst = d = p->wp + hdr;
	for (;;)
	{
		int32_t		cp;

		/* escapes often come in runs (\u3042\u3044...): no copy between them */
		if (*s != '\\')
		{
			size_t		k = copy_until_backslash(d, s, (size_t) (end - s), input_end);

			d += k;
			s += k;
			if (s == end)
				break;
		}
		/* s[0] is a backslash; the escaped byte is inside the string */
		if (s[1] == 'u')
			goto unicode;
		switch (s[1])
		{
			case '"':
			case '\\':
			case '/':
				*d++ = s[1];
				s += 2;
				continue;
			case 'b':
				*d++ = '\b';
				s += 2;
				continue;
			case 'f':
				*d++ = '\f';
				s += 2;
				continue;
			case 'n':
				*d++ = '\n';
				s += 2;
				continue;
			case 'r':
				*d++ = '\r';
				s += 2;
				continue;
			case 't':
				*d++ = '\t';
				s += 2;
				continue;
			default:
				return fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_ESCAPE, (size_t) (s - buf));
		}
unicode:
		if (end - s < 6 || (cp = stage2_hex4(s + 2)) < 0)
			return fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_HEX, (size_t) (s - buf));
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_LOW_SURROGATE, (size_t) (s - buf));
		if (cp >= 0xd800 && cp <= 0xdbff)
		{
			int32_t		lo;

			if (end - s < 12 || s[6] != '\\' || s[7] != 'u' ||
				(lo = stage2_hex4(s + 8)) < 0xdc00 || lo > 0xdfff)
				return fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_HIGH_SURROGATE, (size_t) (s - buf));
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			s += 6;
		}
		d = stage2_put_utf8(d, (uint32_t) cp);
		s += 6;
	}
	n = (size_t) (d - dst);
	if (fj_text_header_size(n) != hdr)
	{
		/* escapes shrank the string below its header's width class */
		memmove(p->wp + fj_text_header_size(n), dst, n);
	}
	p->wp = fj_put_text_header(p->wp, FJ_STRING, n) + n;
	return FJ_OK;
}

/*
 * Write a string of 28 to 255 bytes without escapes (the raw text at src) at
 * wp, which has room for n + 2 bytes and the tape slack; returns the end, or
 * NULL when the string has an escape (stage2_string then writes it). Out of
 * line and without the parser state, so the state machine keeps its
 * registers; it saves stage2_string's call, reservation and header work for
 * the common medium-length string.
 */
static __attribute__((noinline)) uint8_t *
stage2_medium_string(uint8_t *wp, const uint8_t *src, size_t n, const uint8_t *input_end)
{
	uint8_t    *text = wp + fj_text_header_size(n);

	if (copy_until_backslash(text, src, n, input_end) != n)
		return NULL;
	fj_put_text_header(wp, FJ_STRING, n);
	return text + n;
}

/* Bytes of x that are not ASCII digits: bit 7 of each set. */
static inline uint64_t
stage2_nondigits(uint64_t x)
{
	/* below '0': the subtraction sets bit 7; above '9': the addition does */
	return ((x - 0x3030303030303030ULL) | (x + 0x4646464646464646ULL)) & 0x8080808080808080ULL;
}

/* How many ASCII digits start at p (up to end), eight at a time. */
static inline size_t
stage2_digit_run(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q = p;

	while (end - q >= 8)
	{
		uint64_t	x,
					nondigit;

		memcpy(&x, q, 8);
		nondigit = stage2_nondigits(x);
		if (nondigit)
			return (size_t) (q - p) + (size_t) (__builtin_ctzll(nondigit) >> 3);
		q += 8;
	}
	while (q < end && (unsigned) (*q - '0') < 10)
		q++;
	return (size_t) (q - p);
}

/* The value of the first n (1 to 8) bytes of x, ASCII digits, first byte most significant. */
static inline uint64_t
stage2_swar_value(uint64_t x, size_t n)
{
	/* digits to 0..9 (a borrow only climbs into the bytes after them), then the first n to the top */
	x = (x - 0x3030303030303030ULL) << (8 * (8 - n));
	/* pairs, quads, then all eight: the leading zero bytes are leading zero digits */
	x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffULL;
	x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffULL;
	return (x * 10000 + (x >> 32)) & 0xffffffffULL;
}

/*
 * The digit run at q (its first byte a digit) and its value, eight bytes at
 * a time, for runs of up to 15 digits with 16 bytes readable; false otherwise
 * (the caller counts them itself).
 */
static inline bool
stage2_int_digits(const uint8_t *q, const uint8_t *end, size_t *n, uint64_t *v)
{
	static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
	uint64_t	a,
				b,
				nd;

	if (end - q < 16)
		return false;
	memcpy(&a, q, 8);
	if ((nd = stage2_nondigits(a)) != 0)
	{
		*n = (size_t) __builtin_ctzll(nd) >> 3;
		*v = stage2_swar_value(a, *n);
		return true;
	}
	memcpy(&b, q + 8, 8);
	if ((nd = stage2_nondigits(b)) == 0)
		return false;
	*n = (size_t) __builtin_ctzll(nd) >> 3;
	*v = stage2_swar_value(a, 8) * pow10[*n] + (*n ? stage2_swar_value(b, *n) : 0);
	*n += 8;
	return true;
}

/*
 * With 16 bytes readable at q (a digit): the length n of the digit run when
 * a fraction or exponent follows it (false: the integer's value is not
 * needed), else true (the caller computes the value).
 */
static inline bool
stage2_int_value_wanted(const uint8_t *q, size_t *n)
{
	uint64_t	a,
				nd;

	memcpy(&a, q, 8);
	if ((nd = stage2_nondigits(a)) == 0)
		return true;
	*n = (size_t) __builtin_ctzll(nd) >> 3;
	return q[*n] != '.' && (q[*n] | 0x20) != 'e';
}

/*
 * A number or literal starting at i is followed by byte q, which may not
 * follow it. If q starts an invalid UTF-8 sequence, that is the first error
 * in the input (the token itself was fine): report it as stage 1 would.
 */
static fj_code
stage2_bad_token_end(fj_stage2 *p, const char *msg, uint32_t i, size_t q)
{
	const uint8_t *buf = p->s1.buf;

	if (buf[q] >= 0x80)
	{
		size_t		n = p->s1.len - q < 4 ? p->s1.len - q : 4;

		if (fj_utf8_first_error(buf + q, n) == 0)
			return fj_fail(p->err, FJ_ERR_UTF8, FJ_MSG_UTF8, q);
	}
	return fj_fail(p->err, FJ_ERR_SYNTAX, msg, i);
}

/* 8 number characters to 8 nibbles (fj_pack8), with pext where the kernel has BMI2. */
static inline uint32_t
stage2_pack8(uint64_t c)
{
#if defined(FJ_KERNEL_HAS_PEXT)
	return (uint32_t) _pext_u64(fj_pack8_codes(c), 0x0f0f0f0f0f0f0f0fULL);
#else
	return fj_pack8(c);
#endif
}

/* Write the number starting at i: an integer if it is one that fits int64, else its text. */
static fj_code
stage2_number(fj_stage2 *p, uint32_t i)
{
	const uint8_t *buf = p->s1.buf;
	const uint8_t *end = buf + p->s1.len;
	const uint8_t *start = buf + i;
	const uint8_t *q = start;
	const uint8_t *digits,
			   *t;
	uint64_t	v = 0;
	bool		neg = false,
				integer = true,
				exponent = false;
	size_t		ndigits,
				len;
	fj_code		rc;

	if (*q == '-')
	{
		neg = true;
		q++;
	}
	digits = q;
	if (q < end && *q == '0')
		q++;
	else if (q < end && (unsigned) (*q - '1') < 9)
	{
		size_t		n;

		if (end - q >= 16 && !stage2_int_value_wanted(q, &n))
			;					/* a fraction or exponent follows: its value is not needed */
		else if (!stage2_int_digits(q, end, &n, &v))
		{
			n = stage2_digit_run(q, end);
			/* the value only matters for integers of up to 19 digits */
			if (n <= 19)
				for (t = q; t < q + n; t++)
					v = v * 10 + (unsigned) (*t - '0');
		}
		q += n;
	}
	else
		return fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_NUMBER, i);
	ndigits = (size_t) (q - digits);
	if (q < end && *q == '.')
	{
		size_t		n = stage2_digit_run(++q, end);

		if (n == 0)
			return fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_NUMBER, i);
		q += n;
		integer = false;
	}
	if (q < end && (*q | 0x20) == 'e')
	{
		exponent = true;
		size_t		n;

		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		n = stage2_digit_run(q, end);
		if (n == 0)
			return fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_NUMBER, i);
		q += n;
		integer = false;
	}
	if (q < end && !fj_value_end[*q])
		return stage2_bad_token_end(p, FJ_MSG_NUMBER, i, (size_t) (q - buf));

	len = (size_t) (q - start);
	if ((rc = stage2_reserve(p, len + 9)) != FJ_OK)
		return rc;
	if (integer && ndigits <= 19)
	{
		if (!neg && v <= (uint64_t) INT64_MAX)
		{
			p->wp = fj_put_int(p->wp, FJ_UINT, v);
			return FJ_OK;
		}
		if (neg && v != 0 && v <= (uint64_t) INT64_MAX + 1)
		{
			p->wp = fj_put_int(p->wp, FJ_NINT, v - 1);
			return FJ_OK;
		}
	}
	if (!exponent && len <= FJ_PACKED_MAX)
	{
		uint8_t    *w = fj_put_packed_header(p->wp, (unsigned) len);

		/* the input past the number is readable; the tape slack takes the blocks */
		fj_pack_number(w, start, (unsigned) len, end, stage2_pack8);
		p->wp = w + (len + 1) / 2;
		return FJ_OK;
	}
	if (len > FJ_MAX_TEXT_LEN)
		return fj_fail(p->err, FJ_ERR_TOO_BIG, FJ_MSG_STRING_TOO_BIG, i);
	p->wp = fj_put_text_header(p->wp, FJ_NUMBER, len);
	memcpy(p->wp, start, len);
	p->wp += len;
	return FJ_OK;
}

/*
 * The literal true, false or null starting at i: its tag, or 0xff after
 * reporting an error.
 */
static inline uint8_t
stage2_literal(fj_stage2 *p, uint32_t i)
{
	const uint8_t *s = p->s1.buf + i;
	size_t		left = p->s1.len - i;
	unsigned	n;
	uint8_t		tag;

	if (left >= 4 && memcmp(s, "true", 4) == 0)
		n = 4, tag = FJ_TAG(FJ_LITERAL, FJ_TRUE);
	else if (left >= 5 && memcmp(s, "false", 5) == 0)
		n = 5, tag = FJ_TAG(FJ_LITERAL, FJ_FALSE);
	else if (left >= 4 && memcmp(s, "null", 4) == 0)
		n = 4, tag = FJ_TAG(FJ_LITERAL, FJ_NULL);
	else
	{
		fj_fail(p->err, FJ_ERR_SYNTAX, FJ_MSG_LITERAL, i);
		return 0xff;
	}
	if (left > n && !fj_value_end[s[n]])
	{
		stage2_bad_token_end(p, FJ_MSG_LITERAL, i, i + n);
		return 0xff;
	}
	return tag;
}

/* Double the key position stack (the key index is built from these). */
static fj_code
stage2_grow_keys(fj_stage2 *p)
{
	uint32_t	cap = p->keys_cap * 2;
	uint32_t   *bigger;

	if (p->keys == p->keys_local)
	{
		bigger = p->alloc->alloc(p->alloc->ctx, cap * sizeof(uint32_t));
		if (bigger)
			memcpy(bigger, p->keys_local, sizeof(p->keys_local));
	}
	else
		bigger = p->alloc->grow(p->alloc->ctx, p->keys, p->keys_cap * sizeof(uint32_t),
								cap * sizeof(uint32_t));
	if (!bigger)
		return fj_fail(p->err, FJ_ERR_NOMEM, FJ_MSG_NOMEM, 0);
	p->keys = bigger;
	p->keys_cap = cap;
	return FJ_OK;
}

/* Close the innermost container (the key index needs 5 bytes a member, the header up to 4 more). */
static fj_code
stage2_close(fj_stage2 *p, fj_frame *f, uint32_t depth)
{
	fj_code		rc;
	uint32_t   *keys = NULL;
	bool		indexed = f->type == FJ_OBJECT && f->count > FJ_KEY_INDEX_MIN;
	unsigned	reserved = f->reserved & ~FJ_REFS_OUT;
	uint8_t    *hdr;

	/* the key index, and the header sliding up when it needs more than was reserved */
	if ((rc = stage2_reserve(p, (indexed ? fj_key_index_size(f->count, 4) : 0) + 8 +
							 (reserved < FJ_CONTAINER_HEADER_MAX ?
							  FJ_CONTAINER_HEADER_MAX - reserved : 0))) != FJ_OK)
		return rc;
	if (f->type == FJ_OBJECT)
	{
		p->nkeys -= f->count;
		if (indexed)
		{
			uint32_t	members = f->hdr + reserved;
			uint32_t	i;

			keys = p->keys + p->nkeys;
			for (i = 0; i < f->count; i++)
				keys[i] -= members;
		}
	}
	hdr = p->out->data + f->hdr;
	p->wp = fj_close_container_reserved(hdr, reserved, p->wp, f->count, (int) f->type, keys);
	if (f->reserved & FJ_REFS_OUT)
		hdr[0] |= FJ_CONTAINER_REFS_OUT;
	if (f->count)
	{
		uint16_t	lead = (uint16_t) (fj_container_members(hdr) - hdr);

		if (depth < FJ_GUESS_DEPTH)
			p->lead_guess[depth][f->slot][f->type == FJ_OBJECT] = lead;
		/* the members moved: so did the strings and references among them */
		if (lead != reserved && (p->refs.nstrings || p->refs.nrefs))
			fj_refs_moved(&p->refs, p->out->data, f->hdr + reserved, (int32_t) lead - (int32_t) reserved);
	}
	return FJ_OK;
}

/*
 * The string value just written at tape offset at (FJ_REF_MIN_LEN bytes or
 * more): when an equal string value came before, write it as a reference to
 * that one instead, and mark the open containers that the reference points
 * out of (stack[0..depth)). Out of line: long strings are the rare case.
 */
static __attribute__((noinline)) void
stage2_string_ref(fj_stage2 *p, uint32_t at, fj_frame *stack, uint32_t depth)
{
	uint8_t    *base = p->out->data;
	uint32_t	target = fj_refs_find(&p->refs, base, at);
	uint32_t	dist;

	if (target == FJ_REFS_NONE || !fj_refs_note(&p->refs, at))
		return;
	dist = at - target;
	base[at] = FJ_STRING_REF;
	memcpy(base + at + 1, &dist, 4);
	p->wp = base + at + FJ_REF_SIZE;
	while (depth > 0 && stack[depth - 1].hdr > target)
		stack[--depth].reserved |= FJ_REFS_OUT;
}

/*
 * Parse the whole input. The state machine has three states: a value is
 * expected (value), a value just ended (after_value), an object key is
 * expected (key).
 *
 * The hot state (write position, index cursor, key stack depth) lives in
 * local variables, not in *p: every byte stored into the tape may alias any
 * memory as far as the compiler knows, so fields of *p would be reloaded
 * after each store. SYNC() hands the locals to *p before a helper that uses
 * it, LOAD() takes them back after.
 */
static fj_code
stage2_parse(fj_stage2 *p)
{
	const uint8_t *buf = p->s1.buf;
	const uint32_t len = (uint32_t) p->s1.len;
	const uint8_t *input_end = buf + len;
	uint32_t	max_depth = p->opt->max_depth ? p->opt->max_depth : FJ_DEFAULT_MAX_DEPTH;
	fj_frame	local[64];
	fj_frame   *stack = local;
	uint32_t	stack_cap = 64;
	uint32_t	depth = 0;
	uint32_t	i;
	fj_code		rc = FJ_OK;
	uint8_t    *wp = p->wp;
	uint8_t    *limit = p->limit;
	uint8_t    *base = p->out->data;
	const uint32_t *ip = p->s1.idx;
	const uint32_t *iend = ip;
	uint32_t   *keys = p->keys;
	uint32_t	nkeys = p->nkeys;

#define SYNC() do { p->wp = wp; p->nkeys = nkeys; } while (0)
#define LOAD() do { wp = p->wp; limit = p->limit; base = p->out->data; keys = p->keys; nkeys = p->nkeys; } while (0)
#define CALL(expr) do { SYNC(); rc = (expr); LOAD(); if (rc != FJ_OK) goto done; } while (0)
#define FAIL(code, msg, at) do { rc = fj_fail(p->err, code, msg, at); goto done; } while (0)
#define NEXT() do { \
		if (__builtin_expect(ip != iend, 1)) \
			i = *ip++; \
		else \
		{ \
			i = stage2_refill(p); \
			ip = p->s1.idx + p->s1.pos; \
			iend = p->s1.idx + p->s1.n; \
		} \
	} while (0)
#define AT_END() (i >= len)
#define END_FAIL() do { rc = stage2_fail_at_end(p); goto done; } while (0)
#define RESERVE(need) do { if ((size_t) (limit - wp) < (need)) CALL(stage2_reserve_slow(p, (need))); } while (0)
	/*
	 * Close the container of frame f (at depth): inline when it reserved
	 * exactly the 3-byte header it needs (under 256 bytes, no key index),
	 * the common case, else through stage2_close.
	 */
#define CLOSE(f) do { \
		fj_frame   *f_ = (f); \
		uint8_t    *h_ = base + f_->hdr; \
		size_t		m_ = (size_t) (wp - h_) - f_->reserved; \
		if (f_->reserved == 3 && m_ <= 0xff && f_->count != 0 && \
			(f_->type == FJ_ARRAY || f_->count <= FJ_KEY_INDEX_MIN)) \
		{ \
			h_[0] = FJ_TAG(f_->type, 1); \
			h_[1] = (uint8_t) m_; \
			h_[2] = (uint8_t) f_->count; \
			if (f_->type == FJ_OBJECT) \
				nkeys -= f_->count; \
		} \
		else \
			CALL(stage2_close(p, f_, depth)); \
	} while (0)
	/*
	 * The string whose opening quote is at i (a value or a key): its closing
	 * quote is the next position; a short one without escapes in one copy,
	 * and, if value is true, one of up to 255 bytes without escapes through
	 * stage2_medium_string (only for values: adding it to the key path made
	 * number-heavy input 4-5 % slower), and a value of FJ_REF_MIN_LEN bytes or
	 * more through stage2_string_ref. Leaves i at the closing quote.
	 */
#define STRING(value) do { \
		uint32_t	q_ = i; \
		size_t		n_; \
		uint8_t    *w_; \
		\
		NEXT(); \
		if (AT_END()) \
		{ \
			if (p->s1.error_at != SIZE_MAX || p->s1.scanned != p->s1.len) \
				END_FAIL(); \
			FAIL(FJ_ERR_SYNTAX, FJ_MSG_UNTERMINATED, q_); \
		} \
		n_ = i - q_ - 1; \
		if (n_ <= FJ_LEN_INLINE_MAX && limit - wp >= 32 && \
			copy_short_string(wp + 1, buf + q_ + 1, n_, input_end)) \
		{ \
			wp[0] = FJ_TAG(FJ_STRING, n_); \
			wp += 1 + n_; \
		} \
		else \
		{ \
			uint32_t	at_ = (uint32_t) (wp - base); \
			\
			if ((value) && n_ > FJ_LEN_INLINE_MAX && n_ <= 0xff && \
				(size_t) (limit - wp) >= n_ + 2 && \
				(w_ = stage2_medium_string(wp, buf + q_ + 1, n_, input_end)) != NULL) \
				wp = w_; \
			else \
				CALL(stage2_string(p, q_, i)); \
			/* FJ_REF_MIN_LEN bytes or more (escapes may have made it shorter) */ \
			if ((value) && (size_t) (wp - base) - at_ >= FJ_REF_MIN_LEN + 2 && at_ >= p->refs.from) \
			{ \
				SYNC(); \
				stage2_string_ref(p, at_, stack, depth); \
				LOAD(); \
			} \
		} \
	} while (0)

	NEXT();
	if (AT_END())
		END_FAIL();

value:
	switch (buf[i])
	{
		case '{':
		case '[':
			if (depth >= max_depth)
				FAIL(FJ_ERR_DEPTH, FJ_MSG_DEPTH, i);
			if (depth == stack_cap)
			{
				uint32_t	cap = stack_cap * 2 < max_depth ? stack_cap * 2 : max_depth;
				fj_frame   *bigger;

				if (stack == local)
				{
					bigger = p->alloc->alloc(p->alloc->ctx, cap * sizeof(fj_frame));
					if (bigger)
						memcpy(bigger, local, sizeof(local));
				}
				else
					bigger = p->alloc->grow(p->alloc->ctx, stack,
											stack_cap * sizeof(fj_frame), cap * sizeof(fj_frame));
				if (!bigger)
					FAIL(FJ_ERR_NOMEM, FJ_MSG_NOMEM, i);
				stack = bigger;
				stack_cap = cap;
			}
			{
				/* an array's elements share a slot, an object's members each have one */
				uint8_t		slot = depth && stack[depth - 1].type == FJ_OBJECT ?
					(uint8_t) (stack[depth - 1].count & (FJ_GUESS_SLOTS - 1)) : 0;
				uint16_t	r;

				/*
				 * Reserve what the same position led with last time; the
				 * first time, a container with more than FJ_ROOT_WIDE_GUESS
				 * bytes of input after it may well grow past 64 KB and
				 * reserves the widest header, any other the 2-byte-width one.
				 * Containers nested deeper than FJ_GUESS_DEPTH always reserve
				 * the widest, so that a chain of nested large containers
				 * slides at most that many times.
				 */
				if (depth >= FJ_GUESS_DEPTH)
					r = FJ_CONTAINER_HEADER_MAX;
				else
				{
					r = p->lead_guess[depth][slot][buf[i] == '{'];
					if (!r)
						r = len - i > FJ_ROOT_WIDE_GUESS ? FJ_CONTAINER_HEADER_MAX : FJ_CONTAINER_HEADER_GUESS;
				}
				RESERVE(r);
				stack[depth].hdr = (uint32_t) (wp - base);
				stack[depth].count = 0;
				stack[depth].type = buf[i] == '{' ? FJ_OBJECT : FJ_ARRAY;
				stack[depth].slot = slot;
				stack[depth].reserved = r;
			}
			wp += stack[depth].reserved;
			depth++;
			if (buf[i] == '{')
			{
				NEXT();
				if (AT_END())
					END_FAIL();
				if (buf[i] == '}')
				{
					depth--;
					CLOSE(&stack[depth]);
					goto after_value;
				}
				goto key;
			}
			NEXT();
			if (AT_END())
				END_FAIL();
			if (buf[i] == ']')
			{
				depth--;
				CLOSE(&stack[depth]);
				goto after_value;
			}
			goto value;
		case '"':
			STRING(1);
			goto after_value;
		case 't':
		case 'f':
		case 'n':
			{
				uint8_t		tag = stage2_literal(p, i);

				if (tag == 0xff)
				{
					rc = p->err->code;
					goto done;
				}
				RESERVE(1);
				*wp++ = tag;
				goto after_value;
			}
		case '-':
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
		case '8':
		case '9':
			CALL(stage2_number(p, i));
			goto after_value;
		default:
			FAIL(FJ_ERR_SYNTAX, FJ_MSG_VALUE, i);
	}

key:
	if (buf[i] != '"')
		FAIL(FJ_ERR_SYNTAX, FJ_MSG_KEY, i);
	if (nkeys == p->keys_cap)
		CALL(stage2_grow_keys(p));
	keys[nkeys++] = (uint32_t) (wp - base);
	STRING(0);				/* keys are rarely longer than 27 bytes */
	NEXT();
	if (AT_END())
		END_FAIL();
	if (buf[i] != ':')
		FAIL(FJ_ERR_SYNTAX, FJ_MSG_COLON, i);
	NEXT();
	if (AT_END())
		END_FAIL();
	goto value;

after_value:
	if (depth == 0)
	{
		NEXT();
		if (!AT_END())
			FAIL(FJ_ERR_SYNTAX, FJ_MSG_TRAILING, i);
		if (p->s1.error_at != SIZE_MAX || p->s1.scanned != p->s1.len)
			END_FAIL();
		goto done;
	}
	NEXT();
	if (AT_END())
		END_FAIL();
	{
		fj_frame   *f = &stack[depth - 1];

		f->count++;
		if (buf[i] == ',')
		{
			NEXT();
			if (AT_END())
				END_FAIL();
			if (f->type == FJ_OBJECT)
				goto key;
			goto value;
		}
		if (buf[i] == (f->type == FJ_OBJECT ? '}' : ']'))
		{
			depth--;
			CLOSE(f);
			goto after_value;
		}
		FAIL(FJ_ERR_SYNTAX, f->type == FJ_OBJECT ? FJ_MSG_OBJECT_NEXT : FJ_MSG_ARRAY_NEXT, i);
	}

done:
	SYNC();
	if (stack != local)
		p->alloc->release(p->alloc->ctx, stack);
	if (p->keys != p->keys_local)
		p->alloc->release(p->alloc->ctx, p->keys);
	return rc;
#undef SYNC
#undef LOAD
#undef CALL
#undef FAIL
#undef NEXT
#undef AT_END
#undef END_FAIL
#undef RESERVE
#undef CLOSE
#undef STRING
}

/* The kernel's parse entry: presize the tape, run both stages. */
static fj_code
kernel_parse(const uint8_t *json, size_t len, const fj_parse_options *opt,
			 fj_buf *out, fj_error *err)
{
	fj_stage2	p;
	size_t		cap;
	fj_code		rc;

	/* all but the string memory, whose local arrays need no clearing (fj_refs_init) */
	memset(&p, 0, offsetof(fj_stage2, refs));
	p.s1.buf = json;
	p.s1.len = len;
	p.s1.error_at = SIZE_MAX;
	utf8_init(&p.s1.utf8);
	p.alloc = opt->alloc;
	p.out = out;
	p.err = err;
	p.opt = opt;
	p.max_size = opt->max_size;
	p.keys = p.keys_local;
	p.keys_cap = sizeof(p.keys_local) / sizeof(p.keys_local[0]);
	fj_refs_init(&p.refs, opt->alloc);
	p.refs.from = (uint32_t) (opt->prefix + FJ_REFS_FROM);

	/*
	 * The index holds a sixth of a window's bytes (JSON rarely has more
	 * structural characters than that); denser input just gets shorter
	 * windows. Small inputs get a small index.
	 */
	p.s1.idx_cap = (uint32_t) ((len < FJ_WINDOW ? len : FJ_WINDOW) / 6 + 128);
	p.s1.idx = opt->alloc->alloc(opt->alloc->ctx, (p.s1.idx_cap + FJ_INDEX_SLACK) * sizeof(uint32_t));
	if (!p.s1.idx)
		return fj_fail(err, FJ_ERR_NOMEM, FJ_MSG_NOMEM, 0);

	/* presized: most documents' tapes are no larger than their text */
	cap = opt->prefix + FJ_TAPE_HEADER + len + len / 16 + 256 + FJ_TAPE_SLACK;
	if (p.max_size && cap > p.max_size + FJ_TAPE_SLACK)
		cap = p.max_size + FJ_TAPE_SLACK;
	out->data = opt->alloc->alloc(opt->alloc->ctx, cap);
	if (!out->data)
	{
		opt->alloc->release(opt->alloc->ctx, p.s1.idx);
		return fj_fail(err, FJ_ERR_NOMEM, FJ_MSG_NOMEM, 0);
	}
	out->cap = cap;
	p.wp = out->data + opt->prefix;
	p.limit = out->data + cap - FJ_TAPE_SLACK;
	if ((rc = stage2_reserve(&p, FJ_TAPE_HEADER)) == FJ_OK)
	{
		*p.wp++ = FJ_TAPE_VERSION;
		*p.wp++ = 0;
		rc = stage2_parse(&p);
	}
	opt->alloc->release(opt->alloc->ctx, p.s1.idx);
	fj_refs_release(&p.refs);
	if (rc == FJ_OK)
	{
		out->data[opt->prefix + 1] = fj_root_flags(out->data + opt->prefix + FJ_TAPE_HEADER);
		out->len = (size_t) (p.wp - out->data);
		if (p.max_size && out->len > p.max_size)
			rc = fj_fail(err, FJ_ERR_TOO_BIG, FJ_MSG_TOO_BIG, len);
	}
	if (rc != FJ_OK)
		fj_buf_release(opt->alloc, out);
	return rc;
}

#endif							/* FJ_STAGE2_H */
