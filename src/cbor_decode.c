/*
 * cbor_decode.c — CBOR to tape (RFC 8949 §6.1), driven by libcbor's
 * streaming decoder (cbor_stream_decode: one head or string per call, no
 * allocation, callbacks into this file).
 *
 * The decoder keeps an explicit stack of open containers, never recursion.
 * Each array or map reserves tape bytes for its header when it opens, as
 * many as the last container closed at its depth and position led with
 * (fj_lead_guess, as the parser does), and is closed with
 * fj_close_container_reserved when its last member (or its break) arrives. A declared length is only a counter: memory grows with the
 * bytes actually present, so a 9-byte "array of 2^32 elements" costs one
 * stack frame and then fails as truncated.
 *
 * Tags: 2 and 3 (bignums) must enclose a byte string, 4 (decimal fraction)
 * an array [exponent, mantissa]; they become exact numbers. 21, 22 and 23
 * choose how the byte strings inside the tagged item become text (base64url,
 * base64, base16); every other tag is dropped and its content kept.
 *
 * Bytes libcbor 0.8 rejects although they are well-formed (one-byte tags 6
 * to 20, simple values 0 to 19 and the two-byte simple values) are handled
 * here before libcbor sees them.
 */
#include "cbor.h"
#include "string_refs.h"
#include "tape_writer.h"
#include "utf8.h"

#include <math.h>
#include <stdio.h>

/* What the next data item is for. */
enum slot
{
	SLOT_VALUE,					/* a JSON value (root, array element, map value) */
	SLOT_KEY,					/* a map key */
	SLOT_EXPONENT,				/* a decimal fraction's exponent */
	SLOT_MANTISSA,				/* a decimal fraction's mantissa */
	SLOT_EXCESS					/* a third element of a decimal fraction */
};

enum frame_kind
{
	FRAME_ARRAY,
	FRAME_MAP,
	FRAME_DECIMAL				/* the array of a tag 4 decimal fraction */
};

typedef struct dframe
{
	size_t		hdr;			/* arrays and maps: tape offset of the reserved header */
	uint64_t	remaining;		/* definite: members (maps: pairs) still to come */
	uint32_t	count;			/* members (maps: pairs) so far */
	uint8_t		kind;
	uint8_t		hint;			/* byte string conversion inside: 21, 22 or 23 */
	bool		indefinite;
	bool		want_key;		/* maps: the next item is a key */
	bool		refs_out;		/* a string reference inside points before it */
	uint8_t		slot;			/* arrays and maps: the lead guess's position in the parent */
	uint16_t	reserved;		/* arrays and maps: tape bytes reserved at hdr */
} dframe;

typedef struct decoder
{
	const fj_cbor_decode_options *opt;
	const fj_allocator *a;
	const uint8_t *in;
	size_t		len;
	size_t		item;			/* offset of the item being decoded */
	fj_buf		out;			/* the tape; out.len is the write position */
	size_t		max_size;
	uint32_t	max_depth;
	uint32_t	depth;			/* open arrays and maps */
	fj_buf		frames;			/* dframe: the open items, innermost last */
	bool		root_done;
	uint8_t		tag_num;		/* a pending tag 2, 3 or 4 the next item is the content of */
	uint8_t		tag_hint;		/* a pending tag 21, 22 or 23 */
	bool		tag_pending;	/* any tag is waiting for its content */

	/* an indefinite-length string being assembled from its chunks */
	uint8_t		chunks;			/* 0 none, 2 byte string, 3 text string */
	uint8_t		chunks_slot;
	uint8_t		chunks_tag;
	uint8_t		chunks_hint;
	size_t		chunks_item;	/* where the string started */
	fj_buf		chunk_data;

	/* the decimal fraction being read (they cannot nest) */
	int64_t		exponent;
	bool		mantissa_negative;
	fj_buf		mantissa;		/* its digits */

	fj_buf		digits;			/* scratch: a bignum's digits */
	fj_buf		text;			/* scratch: a number's text */
	fj_poll		poll;
	fj_utf8_validator utf8;		/* the kernel's UTF-8 check of text strings */
	uint64_t	items;
	fj_code		rc;
	fj_error   *err;

	/* long string values seen, for string references as the parser writes them */
	fj_string_refs refs;

	/* what containers led with, by depth and position (tape_writer.h) */
	fj_lead_guess lead_guess;
} decoder;

#define POLL_ITEMS 65536		/* items decoded between interrupt polls */

/* Record the first failure (callbacks cannot return one). */
static bool
fail_at(decoder *d, fj_reason reason, size_t offset)
{
	if (d->rc == FJ_OK)
		d->rc = fj_fail(d->err, reason, offset);
	return false;
}

/* The same at the current item. */
static bool
fail(decoder *d, fj_reason reason)
{
	return fail_at(d, reason, d->item);
}

static bool
fail_code(decoder *d, fj_code code)
{
	return fail(d, code == FJ_ERR_NOMEM ? FJ_R_NOMEM : code == FJ_ERR_INTERRUPTED ? FJ_R_INTERRUPTED : FJ_R_TOO_BIG);
}

/* ------------------------------------------------------------ buffers */

/*
 * Make room for n more tape bytes, of which slack are only scratch space
 * (not counted against max_size).
 */
static bool
reserve_slack(decoder *d, size_t n, size_t slack)
{
	if (d->out.cap - d->out.len >= n)
		return true;
	if (n > SIZE_MAX - d->out.len || (d->max_size && d->out.len + n - slack > d->max_size))
		return fail_code(d, FJ_ERR_TOO_BIG);
	if (!fj_buf_reserve(d->a, &d->out, n))
		return fail_code(d, FJ_ERR_NOMEM);
	return true;
}

static inline __attribute__((always_inline)) bool
reserve(decoder *d, size_t n)
{
	return d->out.cap - d->out.len >= n || reserve_slack(d, n, 0);
}

/* Append n bytes to a scratch buffer. */
static bool
append(decoder *d, fj_buf *b, const void *p, size_t n)
{
	if (n > SIZE_MAX - b->len)
		return fail_code(d, FJ_ERR_TOO_BIG);
	if (!fj_buf_reserve(d->a, b, n))
		return fail_code(d, FJ_ERR_NOMEM);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return true;
}

/* ------------------------------------------------------- tape writers */

/* Write the header of a NUMBER/STRING of n bytes; returns where the text goes or NULL. */
static uint8_t *
put_text_header(decoder *d, int type, size_t n)
{
	uint8_t    *w;

	if (n > FJ_MAX_TEXT_LEN)
	{
		fail(d, FJ_R_CBOR_STRING_TOO_BIG);
		return NULL;
	}
	if (!reserve(d, 5 + n))
		return NULL;
	w = fj_put_text_header(d->out.data + d->out.len, type, n);
	d->out.len = (size_t) (w - d->out.data) + n;
	return w;
}

static bool
put_text(decoder *d, int type, const void *s, size_t n)
{
	uint8_t    *w = put_text_header(d, type, n);

	if (w && n)
		memcpy(w, s, n);
	return w != NULL;
}

/* Write the valid JSON number text s in its one tape encoding (integer, PACKED or NUMBER). */
static bool
put_number_text(decoder *d, const void *s, size_t n)
{
	if (n > FJ_MAX_TEXT_LEN)
	{
		fail(d, FJ_R_CBOR_STRING_TOO_BIG);
		return false;
	}
	if (!reserve(d, 9 + n))
		return false;
	d->out.len = (size_t) (fj_put_number(d->out.data + d->out.len, s, n) - d->out.data);
	return true;
}

/* Write v's decimal digits at out; returns how many. */
static int
u64_text(char *out, uint64_t v)
{
	return (int) (fj_put_u64_text((uint8_t *) out, v) - (uint8_t *) out);
}

/* Decimal text of the integer with magnitude m (-1 - m if negative); 24 bytes suffice. */
static int
int_text(char *buf, uint64_t m, bool negative)
{
	if (!negative)
		return u64_text(buf, m);
	buf[0] = '-';
	if (m == UINT64_MAX)
	{
		memcpy(buf + 1, "18446744073709551616", 20);
		return 21;
	}
	return 1 + u64_text(buf + 1, m + 1);
}

/* The integer with magnitude m: -1 - m if negative. */
static bool
put_int(decoder *d, uint64_t m, bool negative)
{
	char		buf[24];
	int			n;

	if (m <= (uint64_t) INT64_MAX)
	{
		uint8_t    *w;

		if (!reserve(d, 9))
			return false;
		w = fj_put_int(d->out.data + d->out.len, negative ? FJ_NINT : FJ_UINT, m);
		d->out.len = (size_t) (w - d->out.data);
		return true;
	}
	/* outside int64: the tape keeps the text */
	n = int_text(buf, m, negative);
	return put_number_text(d, buf, (size_t) n);
}

/*
 * The integer -digits or +digits (decimal, no leading zeros, "0" for zero):
 * UINT/NINT when it fits int64, else NUMBER text.
 */
static bool
put_integer_digits(decoder *d, bool negative, const uint8_t *digits, size_t n)
{
	if (n <= 19)
	{
		uint64_t	v = 0;
		size_t		i;

		for (i = 0; i < n; i++)
			v = v * 10 + (uint64_t) (digits[i] - '0');
		if (!negative && v <= (uint64_t) INT64_MAX)
			return put_int(d, v, false);
		if (negative && v >= 1 && v - 1 <= (uint64_t) INT64_MAX)
			return put_int(d, v - 1, true);
	}
	if (negative && n + 1 <= FJ_PACKED_MAX)
	{
		char		text[FJ_PACKED_MAX];

		text[0] = '-';
		memcpy(text + 1, digits, n);
		return put_number_text(d, text, n + 1);
	}
	if (negative)
	{
		/* too long to pack: NUMBER text */
		uint8_t    *w = put_text_header(d, FJ_NUMBER, n + 1);

		if (!w)
			return false;
		*w = '-';
		memcpy(w + 1, digits, n);
		return true;
	}
	return put_number_text(d, digits, n);
}

/* ------------------------------------------------------ byte strings */

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
static const char b64std[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b16[] = "0123456789ABCDEF";

/* A byte string as a STRING: base64url (hint 21 or none), base64 (22), base16 (23). */
static bool
put_bytes_text(decoder *d, const uint8_t *s, size_t n, uint8_t hint)
{
	size_t		tlen;
	uint8_t    *w;
	size_t		i;

	if (n > (size_t) FJ_MAX_TEXT_LEN)
		return fail(d, FJ_R_CBOR_STRING_TOO_BIG);
	if (hint == 23)
		tlen = 2 * n;
	else if (hint == 22)
		tlen = (n + 2) / 3 * 4;
	else
		tlen = n / 3 * 4 + (n % 3 ? n % 3 + 1 : 0);
	if (!(w = put_text_header(d, FJ_STRING, tlen)))
		return false;
	if (hint == 23)
	{
		for (i = 0; i < n; i++)
		{
			*w++ = (uint8_t) b16[s[i] >> 4];
			*w++ = (uint8_t) b16[s[i] & 15];
		}
		return true;
	}
	{
		const char *alphabet = hint == 22 ? b64std : b64url;

		for (i = 0; i + 3 <= n; i += 3)
		{
			uint32_t	v = (uint32_t) s[i] << 16 | (uint32_t) s[i + 1] << 8 | s[i + 2];

			*w++ = (uint8_t) alphabet[v >> 18];
			*w++ = (uint8_t) alphabet[(v >> 12) & 63];
			*w++ = (uint8_t) alphabet[(v >> 6) & 63];
			*w++ = (uint8_t) alphabet[v & 63];
		}
		if (i < n)
		{
			uint32_t	v = (uint32_t) s[i] << 16 | (i + 1 < n ? (uint32_t) s[i + 1] << 8 : 0);

			*w++ = (uint8_t) alphabet[v >> 18];
			*w++ = (uint8_t) alphabet[(v >> 12) & 63];
			if (i + 1 < n)
				*w++ = (uint8_t) alphabet[(v >> 6) & 63];
			else if (hint == 22)
				*w++ = '=';
			if (hint == 22)
				*w++ = '=';
		}
	}
	return true;
}

/* The decimal digits of a bignum (tag 3: of -1 - n, without the sign) into d->digits. */
static bool
bignum_digits(decoder *d, const uint8_t *s, size_t n, bool negative)
{
	fj_code		rc = fj_bignum_to_decimal(s, n, negative, d->a, &d->poll, &d->digits);

	return rc == FJ_OK || fail_code(d, rc);
}

/* ---------------------------------------------------- decimal fractions */

/*
 * Write the decimal fraction mantissa * 10^exponent as a NUMBER in the
 * layout of the General Decimal Arithmetic to-scientific-string (Python's
 * str(Decimal)), with a lowercase 'e': plain digits when the exponent is at
 * most 0 and the value is not below 1e-6, else one digit, the rest after a
 * point, and an exponent. An exponent of 0 gives an integer.
 */
static bool
put_decimal(decoder *d)
{
	const uint8_t *c = d->mantissa.data;
	size_t		n = d->mantissa.len;
	int64_t		e = d->exponent,
				adjusted;
	fj_buf	   *t = &d->text;
	char		ebuf[24];

	if (e == 0)
		return put_integer_digits(d, d->mantissa_negative, c, n);
	if (e > 0 && (uint64_t) e > (uint64_t) INT64_MAX - (n - 1))
		return fail(d, FJ_R_CBOR_DECIMAL_EXP);
	adjusted = e + ((int64_t) n - 1);
	t->len = 0;
	if (d->mantissa_negative && !append(d, t, "-", 1))
		return false;
	if (e < 0 && adjusted >= -6)
	{
		/* plain: the point falls inside the digits or just before them */
		int64_t		point = (int64_t) n + e;

		if (point > 0)
		{
			if (!append(d, t, c, (size_t) point) || !append(d, t, ".", 1) ||
				!append(d, t, c + point, n - (size_t) point))
				return false;
		}
		else
		{
			if (!append(d, t, "0.", 2))
				return false;
			for (; point < 0; point++)
				if (!append(d, t, "0", 1))
					return false;
			if (!append(d, t, c, n))
				return false;
		}
	}
	else
	{
		if (!append(d, t, c, 1))
			return false;
		if (n > 1 && (!append(d, t, ".", 1) || !append(d, t, c + 1, n - 1)))
			return false;
		ebuf[0] = 'e';
		ebuf[1] = adjusted < 0 ? '-' : '+';
		if (!append(d, t, ebuf, 2 + (size_t) u64_text(ebuf + 2, adjusted < 0 ? 0 - (uint64_t) adjusted : (uint64_t) adjusted)))
			return false;
	}
	return put_number_text(d, t->data, t->len);
}

/* ------------------------------------------------------------- frames */

static inline dframe *
top(decoder *d)
{
	return d->frames.len ? (dframe *) (d->frames.data + d->frames.len) - 1 : NULL;
}

/* What the next item is for. */
static inline enum slot
next_slot(decoder *d)
{
	dframe	   *f = top(d);

	if (!f)
		return SLOT_VALUE;
	if (f->kind == FRAME_MAP)
		return f->want_key ? SLOT_KEY : SLOT_VALUE;
	if (f->kind == FRAME_DECIMAL)
		return f->count == 0 ? SLOT_EXPONENT : f->count == 1 ? SLOT_MANTISSA : SLOT_EXCESS;
	return SLOT_VALUE;
}

/* The byte string hint in force for the next item. */
static inline uint8_t
next_hint(decoder *d)
{
	dframe	   *f = top(d);

	return d->tag_hint ? d->tag_hint : f ? f->hint : 0;
}

static inline __attribute__((always_inline)) bool
push(decoder *d, uint8_t kind, bool indefinite, uint64_t n, uint8_t hint)
{
	dframe	   *f;

	if (d->frames.cap - d->frames.len >= sizeof(dframe))
	{
		f = (dframe *) (d->frames.data + d->frames.len);
		d->frames.len += sizeof(dframe);
	}
	else if (!(f = fj_buf_push(d->a, &d->frames, sizeof(dframe))))
		return fail_code(d, FJ_ERR_NOMEM);
	f->kind = kind;
	f->indefinite = indefinite;
	f->remaining = n;
	f->count = 0;
	f->hint = hint;
	f->want_key = kind == FRAME_MAP;
	f->refs_out = false;
	f->hdr = d->out.len;
	if (kind != FRAME_DECIMAL)
	{
		/* on_container has counted it in d->depth */
		dframe	   *parent = f == (dframe *) d->frames.data ? NULL : f - 1;

		f->slot = parent && parent->kind == FRAME_MAP ? (uint8_t) (parent->count & (FJ_GUESS_SLOTS - 1)) : 0;
		f->reserved = (uint16_t) fj_lead_guess_get(d->lead_guess, d->depth - 1, f->slot, kind == FRAME_MAP,
												   d->len - d->item);
		if (!reserve(d, f->reserved))
			return false;
		d->out.len += f->reserved;
	}
	return true;
}

/* Close the array or map on top of the stack. */
static bool
close_container(decoder *d)
{
	dframe	   *f = top(d);
	uint8_t    *end;
	size_t		room,
				msize = d->out.len - f->hdr - f->reserved;
	int			type = f->kind == FRAME_MAP ? FJ_OBJECT : FJ_ARRAY;

	d->frames.len -= sizeof(dframe);
	d->depth--;
	if (f->reserved == 3 && f->count && msize <= 0xff && !(type == FJ_OBJECT && f->count > FJ_KEY_INDEX_MIN))
	{
		/*
		 * What fj_close_container_reserved writes for a container of up to
		 * 255 bytes with no key index, whose 1-byte-width header was
		 * guessed right: the header alone, nothing moves
		 */
		uint8_t    *hdr = d->out.data + f->hdr;

		hdr[0] = FJ_TAG(type, 1 | (f->refs_out ? FJ_CONTAINER_REFS_OUT : 0));
		hdr[1] = (uint8_t) msize;
		hdr[2] = (uint8_t) f->count;
		fj_lead_guess_set(d->lead_guess, d->depth, f->slot, type == FJ_OBJECT, 3);
		return true;
	}
	/* the tape's size fields are 32-bit */
	if (d->out.len - f->hdr > (size_t) UINT32_MAX - 5 * (size_t) f->count)
		return fail(d, FJ_R_TOO_BIG);
	/* the key index, the slack, and the header sliding up when it needs more than was reserved */
	room = 5 * (size_t) f->count + 8 +
		(f->reserved < FJ_CONTAINER_HEADER_MAX ? (size_t) (FJ_CONTAINER_HEADER_MAX - f->reserved) : 0);
	if (!reserve_slack(d, room, room))
		return false;
	end = fj_close_container_reserved(d->out.data + f->hdr, f->reserved, d->out.data + d->out.len, f->count,
									  type, NULL);
	d->out.len = (size_t) (end - d->out.data);
	if (f->refs_out)
		d->out.data[f->hdr] |= FJ_CONTAINER_REFS_OUT;
	if (f->count)
	{
		uint8_t    *hdr = d->out.data + f->hdr;
		uint32_t	lead = (uint32_t) (fj_container_members(hdr) - hdr);

		fj_lead_guess_set(d->lead_guess, d->depth, f->slot, f->kind == FRAME_MAP, lead);
		/* the members moved to the header's end: so did the strings and references among them */
		if (lead != f->reserved && (d->refs.nstrings || d->refs.nrefs))
			fj_refs_moved(&d->refs, d->out.data, (uint32_t) f->hdr + f->reserved,
						  (int32_t) lead - (int32_t) f->reserved);
	}
	return true;
}

/*
 * The STRING value just written at tape offset at, of FJ_REF_MIN_LEN bytes
 * or more: when an equal string value came before, it becomes a reference to
 * that one, and the open containers the reference points out of are marked,
 * as the parser does (src/simd/stage2.h), so a document decoded from CBOR
 * has the tape its text parses to (but for a string near the offset where
 * the search starts, doc/cbor.md says why). Out of line: the rare case.
 */
static __attribute__((noinline)) void
string_ref(decoder *d, uint32_t at)
{
	uint8_t    *base = d->out.data;
	uint32_t	target = fj_refs_find(&d->refs, base, at);
	dframe	   *f;

	if (target == FJ_REFS_NONE || !fj_refs_note(&d->refs, at))
		return;
	d->out.len = (size_t) (fj_put_string_ref(base + at, at - target) - base);
	for (f = top(d); f && f->hdr > target; f = f == (dframe *) d->frames.data ? NULL : f - 1)
		f->refs_out = true;
}

/*
 * A STRING was written at tape offset at, up to the write position: a
 * value (not a map key) of FJ_REF_MIN_LEN bytes or more, from the offset
 * the parser starts looking at, may become a reference.
 */
static inline void
string_written(decoder *d, size_t at)
{
	dframe	   *f;

	if (d->out.len - at < FJ_REF_MIN_LEN + 2 || at < d->refs.from || at > UINT32_MAX - FJ_REF_SIZE)
		return;
	f = top(d);
	if (f && f->kind == FRAME_MAP && f->want_key)
		return;
	string_ref(d, (uint32_t) at);
}

/*
 * An item is complete: count it in its container, closing every container
 * it completes (a closed container is in turn an item of its parent).
 */
static bool
item_done_slow(decoder *d)
{
	for (;;)
	{
		dframe	   *f = top(d);

		if (!f)
		{
			d->root_done = true;
			return true;
		}
		if (f->kind == FRAME_MAP && f->want_key)
		{
			f->want_key = false;
			return true;
		}
		if (f->count == UINT32_MAX)
			return fail(d, FJ_R_CBOR_COUNT);
		f->count++;
		f->want_key = f->kind == FRAME_MAP;
		if (f->kind == FRAME_DECIMAL)
		{
			if (f->indefinite || f->count < 2)
				return true;
			d->frames.len -= sizeof(dframe);
			if (!put_decimal(d))
				return false;
			continue;
		}
		if (f->indefinite || --f->remaining > 0)
			return true;
		if (!close_container(d))
			return false;
	}
}

/* The same, the common cases first. */
static inline __attribute__((always_inline)) bool
item_done(decoder *d)
{
	dframe	   *f = top(d);

	if (f && f->kind != FRAME_DECIMAL && f->count < UINT32_MAX)
	{
		if (f->kind == FRAME_MAP && f->want_key)
		{
			f->want_key = false;
			return true;
		}
		if (f->indefinite || f->remaining > 1)
		{
			f->count++;
			f->remaining -= !f->indefinite;
			f->want_key = f->kind == FRAME_MAP;
			return true;
		}
	}
	return item_done_slow(d);
}

/*
 * Start an item: no string may be assembling, and the item takes the
 * pending tags. Returns false after an error.
 */
static inline bool
begin(decoder *d, uint8_t *tag_num, uint8_t *hint, enum slot *slot)
{
	if (d->chunks)
		return fail(d, FJ_R_CBOR_CHUNK);
	*slot = next_slot(d);
	*hint = next_hint(d);
	if (*slot == SLOT_EXCESS)
		return fail(d, FJ_R_CBOR_DECIMAL);
	*tag_num = d->tag_num;
	d->tag_num = 0;
	d->tag_hint = 0;
	d->tag_pending = false;
	if (++d->items % POLL_ITEMS == 0 && d->poll.interrupted && d->poll.interrupted(d->poll.ctx))
		return fail_code(d, FJ_ERR_INTERRUPTED);
	return true;
}

/* The error for an item that cannot be the content of tag t. */
static bool
tag_content_error(decoder *d, uint8_t t)
{
	return fail(d, t == 4 ? FJ_R_CBOR_DECIMAL : FJ_R_CBOR_BIGNUM);
}

/* ------------------------------------------------------ item handlers */

/* An integer -1 - m (negative) or m. */
static void
on_int(decoder *d, uint64_t m, bool negative)
{
	uint8_t		t,
				hint;
	enum slot	slot;
	char		buf[24];

	if (!begin(d, &t, &hint, &slot))
		return;
	if (t)
	{
		tag_content_error(d, t);
		return;
	}
	switch (slot)
	{
		case SLOT_KEY:
			if (!put_text(d, FJ_STRING, buf, (size_t) int_text(buf, m, negative)))
				return;
			break;
		case SLOT_EXPONENT:
			if (m > (uint64_t) INT64_MAX)
			{
				fail(d, FJ_R_CBOR_DECIMAL_EXP);
				return;
			}
			d->exponent = negative ? -1 - (int64_t) m : (int64_t) m;
			break;
		case SLOT_MANTISSA:
			{
				int			n = int_text(buf, m, negative);

				d->mantissa_negative = negative;
				d->mantissa.len = 0;
				if (!append(d, &d->mantissa, buf + negative, (size_t) n - negative))
					return;
				break;
			}
		default:
			if (!put_int(d, m, negative))
				return;
	}
	item_done(d);
}

/* A whole byte string (definite, or the chunks of an indefinite one). */
static void
bytes_item(decoder *d, const uint8_t *s, size_t n, uint8_t t, uint8_t hint, enum slot slot)
{
	if (t == 4)
	{
		tag_content_error(d, t);
		return;
	}
	switch (slot)
	{
		case SLOT_KEY:
			if (!t)
			{
				fail(d, FJ_R_CBOR_KEY);
				return;
			}
			if (!bignum_digits(d, s, n, t == 3))
				return;
			{
				uint8_t    *w = put_text_header(d, FJ_STRING, d->digits.len + (t == 3));

				if (!w)
					return;
				if (t == 3)
					*w++ = '-';
				memcpy(w, d->digits.data, d->digits.len);
			}
			break;
		case SLOT_EXPONENT:
			fail(d, FJ_R_CBOR_DECIMAL);
			return;
		case SLOT_MANTISSA:
			if (!t)
			{
				fail(d, FJ_R_CBOR_DECIMAL);
				return;
			}
			if (!bignum_digits(d, s, n, t == 3))
				return;
			d->mantissa_negative = t == 3;
			d->mantissa.len = 0;
			if (!append(d, &d->mantissa, d->digits.data, d->digits.len))
				return;
			break;
		default:
			if (t)
			{
				if (!bignum_digits(d, s, n, t == 3) ||
					!put_integer_digits(d, t == 3, d->digits.data, d->digits.len))
					return;
			}
			else
			{
				size_t		at = d->out.len;

				if (!put_bytes_text(d, s, n, hint))
					return;
				string_written(d, at);
			}
	}
	item_done(d);
}

/* A whole text string. */
static void
text_item(decoder *d, const uint8_t *s, size_t n, uint8_t t, enum slot slot)
{
	size_t		at;

	if (t)
	{
		tag_content_error(d, t);
		return;
	}
	if (slot == SLOT_EXPONENT || slot == SLOT_MANTISSA)
	{
		fail(d, FJ_R_CBOR_DECIMAL);
		return;
	}
	at = d->out.len;
	if (put_text(d, FJ_STRING, s, n))
	{
		string_written(d, at);
		item_done(d);
	}
}

/* A scalar with no JSON form of its own: null if substitute_null. */
static void
substitute(decoder *d, fj_reason reason)
{
	uint8_t		t,
				hint;
	enum slot	slot;

	if (!begin(d, &t, &hint, &slot))
		return;
	if (t)
		tag_content_error(d, t);
	else if (slot == SLOT_KEY)
		fail(d, FJ_R_CBOR_KEY);
	else if (slot != SLOT_VALUE)
		fail(d, FJ_R_CBOR_DECIMAL);
	else if (!d->opt->substitute_null)
		fail(d, reason);
	else if (reserve(d, 1))
	{
		d->out.data[d->out.len++] = FJ_TAG(FJ_LITERAL, FJ_NULL);
		item_done(d);
	}
}

/* false, true or null. */
static void
on_literal(decoder *d, int literal)
{
	uint8_t		t,
				hint;
	enum slot	slot;

	if (!begin(d, &t, &hint, &slot))
		return;
	if (t)
		tag_content_error(d, t);
	else if (slot == SLOT_KEY)
		fail(d, FJ_R_CBOR_KEY);
	else if (slot != SLOT_VALUE)
		fail(d, FJ_R_CBOR_DECIMAL);
	else if (reserve(d, 1))
	{
		d->out.data[d->out.len++] = FJ_TAG(FJ_LITERAL, literal);
		item_done(d);
	}
}

/*
 * The finite double v as its shortest text, written as put_number_text
 * would write it (never an integer: PACKED without an exponent, else NUMBER)
 * without reading the text back.
 */
static inline __attribute__((always_inline)) bool
put_float_inline(decoder *d, double v)
{
	/* the exponent form's text */
	char		buf[FJ_DOUBLE_TEXT_MAX];
	bool		exponent;
	size_t		n;
	uint8_t    *w;
	double		a = fabs(v);

	if (a >= 1e-4 && a < 1e16)
	{
		/*
		 * fj_double_shortest_form's plain layout (its point from -3 to 16)
		 * written as PACKED nibbles straight from the digits
		 */
		unsigned __int128 nibbles;
		unsigned	len;
		int			point;

		fj_double_shortest_nibbles(a, &nibbles, &len, &point);
		if (!reserve(d, 9 + fj_packed_fraction_len(signbit(v), len, point)))
			return false;
		w = fj_put_packed_nibbles(d->out.data + d->out.len, signbit(v), nibbles, len, point);
	}
	else
	{
		n = fj_double_shortest_form(v, buf, &exponent);
		if (!reserve(d, 9 + n))
			return false;
		w = d->out.data + d->out.len;
		if (!exponent)
			w = fj_put_packed(w, (const uint8_t *) buf, (unsigned) n);
		else
		{
			w = fj_put_text_header(w, FJ_NUMBER, n);
			memcpy(w, buf, n);
			w += n;
		}
	}
	d->out.len = (size_t) (w - d->out.data);
	return true;
}

/* The same, out of line: the single floats' call. */
static bool
put_float(decoder *d, double v)
{
	return put_float_inline(d, v);
}

static void
on_float(decoder *d, double v)
{
	uint8_t		t,
				hint;
	enum slot	slot;

	if (!isfinite(v))
	{
		substitute(d, FJ_R_CBOR_NONFINITE);
		return;
	}
	if (!begin(d, &t, &hint, &slot))
		return;
	if (t)
		tag_content_error(d, t);
	else if (slot == SLOT_KEY)
		fail(d, FJ_R_CBOR_KEY);
	else if (slot != SLOT_VALUE)
		fail(d, FJ_R_CBOR_DECIMAL);
	else if (put_float(d, v))
		item_done(d);
}

/* An array or map head (n members or pairs, or indefinite). */
static void
on_container(decoder *d, bool map, bool indefinite, uint64_t n)
{
	uint8_t		t,
				hint;
	enum slot	slot;

	if (!begin(d, &t, &hint, &slot))
		return;
	if (slot == SLOT_KEY)
	{
		fail(d, FJ_R_CBOR_KEY);
		return;
	}
	if (slot != SLOT_VALUE)
	{
		fail(d, FJ_R_CBOR_DECIMAL);
		return;
	}
	if (t == 4 && !map && (indefinite || n == 2))
	{
		push(d, FRAME_DECIMAL, indefinite, n, 0);
		return;
	}
	if (t)
	{
		tag_content_error(d, t);
		return;
	}
	if (d->depth >= d->max_depth)
	{
		fail(d, FJ_R_DEPTH);
		return;
	}
	d->depth++;
	if (!push(d, map ? FRAME_MAP : FRAME_ARRAY, indefinite, n, hint))
		return;
	if (!indefinite && n == 0 && close_container(d))
		item_done(d);
}

/* The start of an indefinite-length byte (2) or text (3) string. */
static void
on_chunks_start(decoder *d, uint8_t major)
{
	uint8_t		t,
				hint;
	enum slot	slot;

	if (!begin(d, &t, &hint, &slot))
		return;
	/* the errors a whole string would give, found at its start */
	if (t && (major == 3 || t == 4))
	{
		tag_content_error(d, t);
		return;
	}
	if ((slot == SLOT_KEY && major == 2 && !t) || (slot == SLOT_EXPONENT) ||
		(slot == SLOT_MANTISSA && !t))
	{
		fail(d, slot == SLOT_KEY ? FJ_R_CBOR_KEY : FJ_R_CBOR_DECIMAL);
		return;
	}
	d->chunks = major;
	d->chunks_slot = (uint8_t) slot;
	d->chunks_tag = t;
	d->chunks_hint = hint;
	d->chunks_item = d->item;
	d->chunk_data.len = 0;
}

/* The break that ends an indefinite-length item. */
static void
on_break(decoder *d)
{
	dframe	   *f = top(d);

	if (d->chunks)
	{
		uint8_t		major = d->chunks;

		d->chunks = 0;
		d->item = d->chunks_item;
		if (major == 2)
			bytes_item(d, d->chunk_data.data, d->chunk_data.len, d->chunks_tag, d->chunks_hint,
					   (enum slot) d->chunks_slot);
		else
			text_item(d, d->chunk_data.data, d->chunk_data.len, d->chunks_tag, (enum slot) d->chunks_slot);
		return;
	}
	if (d->tag_pending)
	{
		fail(d, FJ_R_CBOR_BREAK_TAG);
		return;
	}
	if (!f || !f->indefinite)
	{
		fail(d, FJ_R_CBOR_BREAK);
		return;
	}
	if (f->kind == FRAME_MAP && !f->want_key)
	{
		fail(d, FJ_R_CBOR_BREAK_KEY);
		return;
	}
	if (f->kind == FRAME_DECIMAL)
	{
		if (f->count != 2)
		{
			fail(d, FJ_R_CBOR_DECIMAL);
			return;
		}
		d->frames.len -= sizeof(dframe);
		if (put_decimal(d))
			item_done(d);
		return;
	}
	if (close_container(d))
		item_done(d);
}

static void
on_tag(decoder *d, uint64_t tag)
{
	enum slot	slot = next_slot(d);

	if (d->chunks)
	{
		fail(d, FJ_R_CBOR_CHUNK);
		return;
	}
	if (d->tag_num)
	{
		tag_content_error(d, d->tag_num);
		return;
	}
	if (slot == SLOT_EXPONENT || slot == SLOT_EXCESS || (slot == SLOT_MANTISSA && tag != 2 && tag != 3))
	{
		fail(d, FJ_R_CBOR_DECIMAL);
		return;
	}
	d->tag_pending = true;
	if (tag >= 2 && tag <= 4)
		d->tag_num = (uint8_t) tag;
	else if (tag >= 21 && tag <= 23)
		d->tag_hint = (uint8_t) tag;
}

/* ------------------------------------------------------- reading items */

/* Whether the n bytes at s are all ASCII (then they are valid UTF-8). */
static inline bool
ascii(const uint8_t *s, size_t n)
{
	uint64_t	acc = 0,
				c;
	size_t		i = 0;

	if (n < 8)
		return (fj_load_upto8(s, n) & 0x8080808080808080ULL) == 0;
	for (; i + 8 <= n; i += 8)
	{
		memcpy(&c, s + i, 8);
		acc |= c;
	}
	/* the last 8 bytes, overlapping the ones before */
	memcpy(&c, s + n - 8, 8);
	return ((acc | c) & 0x8080808080808080ULL) == 0;
}

/* Whether the n bytes at s are valid UTF-8: ASCII checked 8 bytes at a time first, then the kernel's validator. */
static inline bool
utf8_valid(const decoder *d, const uint8_t *s, size_t n)
{
	return ascii(s, n) || d->utf8(s, n);
}

/* A definite byte string: a whole item, or a chunk of an indefinite one. */
static void
on_byte_string(decoder *d, const uint8_t *s, size_t n)
{
	uint8_t		t,
				hint;
	enum slot	slot;

	if (d->chunks)
	{
		if (d->chunks != 2)
			fail(d, FJ_R_CBOR_CHUNK);
		else
			append(d, &d->chunk_data, s, n);
		return;
	}
	if (begin(d, &t, &hint, &slot))
		bytes_item(d, s, n, t, hint, slot);
}

/* A definite text string: a whole item, or a chunk of an indefinite one. */
static inline void
on_text_string(decoder *d, const uint8_t *s, size_t n)
{
	uint8_t		t,
				hint;
	enum slot	slot;

	/* every string, and every chunk on its own, must be valid UTF-8 (§3.2.3) */
	if (d->chunks)
	{
		if (d->chunks != 3)
			fail(d, FJ_R_CBOR_CHUNK);
		else if (!utf8_valid(d, s, n))
			fail(d, FJ_R_CBOR_UTF8);
		else
			append(d, &d->chunk_data, s, n);
		return;
	}
	if (!begin(d, &t, &hint, &slot))
		return;
	if (!utf8_valid(d, s, n))
		fail(d, FJ_R_CBOR_UTF8);
	else
		text_item(d, s, n, t, slot);
}

/* The start of an indefinite-length byte (2) or text (3) string. */
static void
on_string_start(decoder *d, uint8_t major)
{
	if (d->chunks)
		fail(d, FJ_R_CBOR_CHUNK);
	else
		on_chunks_start(d, major);
}

/* The value of a binary16 (exact as a double). */
static double
half_value(uint16_t h)
{
	int			e = (h >> 10) & 31,
				m = h & 1023;
	double		v;

	if (e == 0)
		v = ldexp(m, -24);
	else if (e != 31)
		v = ldexp(m + 1024, e - 25);
	else
		v = m == 0 ? INFINITY : NAN;
	return h & 0x8000 ? -v : v;
}

/*
 * Decode the data item that starts at in[pos] (its head, and a definite
 * string's bytes) and act on it; returns where the next one starts (past
 * len after a failure, which is in d->rc). Reserved and truncated heads are
 * the errors that libcbor's streaming decoder, which this replaced, gave.
 */
static inline size_t
decode_item(decoder *d, const uint8_t *in, size_t pos, size_t len)
{
	uint8_t		b = in[pos];
	unsigned	major = b >> 5,
				ai = b & 31;
	uint64_t	arg;
	size_t		head;

	if (ai < 24)
	{
		arg = ai;
		head = 1;
	}
	else if (ai <= 27)
	{
		unsigned	k = 1u << (ai - 24);

		if (len - pos - 1 < k)
		{
			fail_at(d, FJ_R_CBOR_TRUNCATED, pos);
			return len + 1;
		}
		switch (k)
		{
			case 1:
				arg = in[pos + 1];
				break;
			case 2:
				arg = __builtin_bswap16(fj_load16(in + pos + 1));
				break;
			case 4:
				arg = __builtin_bswap32(fj_load32(in + pos + 1));
				break;
			default:
				arg = __builtin_bswap64(fj_load64(in + pos + 1));
				break;
		}
		head = 1 + k;
	}
	else if (ai == 31 && major >= 2 && major <= 5)
	{
		/* the start of an indefinite-length item */
		if (major <= 3)
			on_string_start(d, (uint8_t) major);
		else
			on_container(d, major == 5, true, 0);
		return pos + 1;
	}
	else if (ai == 31 && major == 7)
	{
		on_break(d);
		return pos + 1;
	}
	else
	{
		fail_at(d, FJ_R_CBOR_RESERVED, pos);
		return len + 1;
	}

	switch (major)
	{
		case 0:
		case 1:
			on_int(d, arg, major == 1);
			return pos + head;
		case 2:
		case 3:
			if (arg > len - pos - head)
			{
				fail_at(d, FJ_R_CBOR_TRUNCATED, pos);
				return len + 1;
			}
			if (major == 3)
				on_text_string(d, in + pos + head, (size_t) arg);
			else
				on_byte_string(d, in + pos + head, (size_t) arg);
			return pos + head + (size_t) arg;
		case 4:
		case 5:
			on_container(d, major == 5, false, arg);
			return pos + head;
		case 6:
			on_tag(d, arg);
			return pos + head;
		default:
			break;
	}
	/* major type 7 */
	switch (ai)
	{
		case 20:
		case 21:
			on_literal(d, ai == 21 ? FJ_TRUE : FJ_FALSE);
			break;
		case 22:
			on_literal(d, FJ_NULL);
			break;
		case 23:
			substitute(d, FJ_R_CBOR_UNDEFINED);
			break;
		case 24:
			/* a two-byte simple value: below 32 is not well-formed (§3.3) */
			if (arg < 32)
			{
				fail_at(d, FJ_R_CBOR_SIMPLE_2BYTE, pos);
				return len + 1;
			}
			substitute(d, FJ_R_CBOR_SIMPLE);
			break;
		case 25:
			on_float(d, half_value((uint16_t) arg));
			break;
		case 26:
			{
				uint32_t	bits = (uint32_t) arg;
				float		f;

				memcpy(&f, &bits, 4);
				on_float(d, f);
				break;
			}
		case 27:
			{
				double		v;

				memcpy(&v, &arg, 8);
				on_float(d, v);
				break;
			}
		default:
			/* simple values 0 to 19 */
			substitute(d, FJ_R_CBOR_SIMPLE);
			break;
	}
	return pos + head;
}

/* Count an item; false (interrupted) when the interrupt callback, polled now and then, says so. */
static inline bool
poll_item(decoder *d)
{
	if (++d->items % POLL_ITEMS == 0 && d->poll.interrupted && d->poll.interrupted(d->poll.ctx))
		return fail_code(d, FJ_ERR_INTERRUPTED);
	return true;
}

/* The argument of the head at in[pos] (additional information below 28): false if truncated. */
static inline bool
read_arg(const uint8_t *in, size_t pos, size_t len, uint64_t *arg, size_t *head)
{
	unsigned	ai = in[pos] & 31,
				k;

	if (ai < 24)
	{
		*arg = ai;
		*head = 1;
		return true;
	}
	k = 1u << (ai - 24);
	if (len - pos - 1 < k)
		return false;
	if (k == 1)
		*arg = in[pos + 1];
	else if (k == 2)
		*arg = __builtin_bswap16(fj_load16(in + pos + 1));
	else if (k == 4)
		*arg = __builtin_bswap32(fj_load32(in + pos + 1));
	else
		*arg = __builtin_bswap64(fj_load64(in + pos + 1));
	*head = 1 + k;
	return true;
}

/* Whether b heads an integer whose argument follows it (major type 0 or 1, arguments up to 8 bytes). */
static inline bool
int_head(uint8_t b)
{
	return b < 0x1c || (b >= 0x20 && b < 0x3c);
}

/* A decimal fraction 4([exponent, mantissa]) as read_decimal reads it. */
typedef struct decimal_parts
{
	int64_t		e;				/* the exponent */
	uint64_t	mm;				/* the mantissa's argument (magnitude - 1 when negative) */
	uint64_t	mag;			/* the mantissa's magnitude */
	bool		neg;
	size_t		n;				/* digits of the magnitude (1 for 0) */
	size_t		mpos;			/* offset of the mantissa */
	size_t		end;			/* offset after it */
} decimal_parts;

/*
 * A decimal fraction 4([exponent, mantissa]) whose exponent and mantissa are
 * integers, at in[pos] (c4 82): its parts, or false for every case that the
 * handlers and put_decimal must take (a bignum, an exponent past int64, a
 * mantissa past uint64, an exponent that puts the text's own exponent past
 * int64, truncated input).
 */
static inline __attribute__((always_inline)) bool
read_decimal(const uint8_t *in, size_t pos, size_t len, decimal_parts *p)
{
	size_t		epos = pos + 2,
				ehead,
				mhead;
	uint64_t	em;

	if (len - pos >= 12 && (in[epos] & 0xdf) < 0x18 && (in[epos + 1] & 0xdf) == 0x1b)
	{
		/* the common shape: an exponent of -24 to 23 in its head, a mantissa of 8 bytes */
		em = in[epos] & 31;
		p->mpos = epos + 1;
		p->mm = __builtin_bswap64(fj_load64(in + p->mpos + 1));
		mhead = 9;
	}
	else
	{
		if ((in[epos] & 0xc0) != 0 || (in[epos] & 31) > 27 || !read_arg(in, epos, len, &em, &ehead))
			return false;
		p->mpos = epos + ehead;
		if (p->mpos >= len || (in[p->mpos] & 0xc0) != 0 || (in[p->mpos] & 31) > 27 ||
			!read_arg(in, p->mpos, len, &p->mm, &mhead))
			return false;
	}
	/* the exponent within int64; the mantissa's magnitude within uint64 */
	if (em > (uint64_t) INT64_MAX || ((in[p->mpos] & 0x20) && p->mm == UINT64_MAX))
		return false;
	p->e = (in[epos] & 0x20) ? -1 - (int64_t) em : (int64_t) em;
	p->neg = (in[p->mpos] & 0x20) != 0;
	p->mag = p->mm + p->neg;
	p->n = p->mag ? fj_decimal_length(p->mag) : 1;
	p->end = p->mpos + mhead;
	if (p->e == 0)
	{
		/* an integer: put_integer_digits, when it fits int64 */
		if (p->mm > (uint64_t) INT64_MAX)
			return false;
	}
	else if (p->e > 0 && (uint64_t) p->e > (uint64_t) INT64_MAX - (p->n - 1))
		return false;			/* put_decimal's error */
	return true;
}

/* Write the decimal p as put_decimal would (false: no room, the error set). */
static inline __attribute__((always_inline)) bool
put_decimal_parts(decoder *d, const decimal_parts *p)
{
	int64_t		adjusted;
	size_t		tlen = 0;
	uint8_t		digits[24],
				text[64],
			   *w;

	if (p->e == 0)
	{
		if (!reserve(d, 9))
			return false;
		d->out.len = (size_t) (fj_put_int(d->out.data + d->out.len, p->neg ? FJ_NINT : FJ_UINT, p->mm) - d->out.data);
		return true;
	}
	adjusted = p->e + ((int64_t) p->n - 1);
	if (p->e < 0 && adjusted >= -6)
	{
		/* put_decimal's plain text, as PACKED nibbles straight from the mantissa */
		if (!reserve(d, 9 + fj_packed_fraction_len(p->neg, (unsigned) p->n, (int) (p->n + p->e))))
			return false;
		w = fj_put_packed_fraction(d->out.data + d->out.len, p->neg, p->mag, (unsigned) p->n, (int) (p->n + p->e));
		d->out.len = (size_t) (w - d->out.data);
		return true;
	}
	/* put_decimal's text, in exponent form */
	fj_put_u64_text(digits, p->mag);
	if (p->neg)
		text[tlen++] = '-';
	text[tlen++] = digits[0];
	if (p->n > 1)
	{
		text[tlen++] = '.';
		memcpy(text + tlen, digits + 1, p->n - 1);
		tlen += p->n - 1;
	}
	text[tlen++] = 'e';
	text[tlen++] = adjusted < 0 ? '-' : '+';
	tlen = (size_t) (fj_put_u64_text(text + tlen, adjusted < 0 ? 0 - (uint64_t) adjusted : (uint64_t) adjusted) - text);
	/* put_number_text: never an integer here, and with an exponent: NUMBER */
	if (!reserve(d, 9 + tlen))
		return false;
	w = fj_put_text_header(d->out.data + d->out.len, FJ_NUMBER, tlen);
	memcpy(w, text, tlen);
	w += tlen;
	d->out.len = (size_t) (w - d->out.data);
	return true;
}

/*
 * A decimal fraction with integer parts as a value inside an array or map:
 * what the handlers do for its four items (tag, array, exponent, mantissa)
 * and put_decimal, in one step, with the same checks (it leaves to them
 * every case that fails one, and a poll of the interrupt callback) and the
 * same tape bytes. in[*ppos] is c4 82.
 */
static bool
fast_decimal(decoder *d, const uint8_t *in, size_t *ppos, size_t len)
{
	decimal_parts p;

	if (!read_decimal(in, *ppos, len, &p))
		return false;
	/* three items counted (the array, the exponent, the mantissa), none of them a poll */
	if (POLL_ITEMS - d->items % POLL_ITEMS <= 3)
		return false;
	d->items += 3;
	d->item = p.mpos;
	*ppos = p.end;
	if (put_decimal_parts(d, &p))
		item_done(d);
	return true;
}

/*
 * The most tape bytes one number of a run writes, scratch included: a
 * double (put_float's PACKED form or text), an integer, or a decimal
 * fraction (PACKED, or text of at most 44 characters).
 */
#define NUMBER_ROOM (9 + 64)
_Static_assert(FJ_PACKED_FRACTION_MAX <= FJ_DOUBLE_TEXT_MAX && FJ_DOUBLE_TEXT_MAX <= 64,
			   "a double of a run fits NUMBER_ROOM");
/* a decimal's exponent form: sign, 20 digits and a point, "e", a sign, 19 digits */
_Static_assert(1 + 20 + 1 + 2 + 19 <= 64, "a decimal of a run fits NUMBER_ROOM");

/*
 * A run of numbers in an array, as fast_item would decode them one by one,
 * in a loop: finite 64-bit floats (fb), integers within int64, and decimal
 * fractions read_decimal takes, with no frame lookup, interrupt poll or
 * buffer check of its own for each. The array f is on top with nothing
 * pending, and in[*ppos] is its next member. The run stops before a poll
 * could fall due, before the buffer could lack room for one more number
 * without growing, and at the first member that is none of these: fast_item and
 * decode_item take those, as before, and the tape bytes are the same. When
 * it reaches the end of a definite array it closes it, as the last member's
 * item_done would. Ends an array of numbers, such as a pair of coordinates,
 * without going back to the main loop for each member.
 */
static inline __attribute__((always_inline)) void
number_run(decoder *d, dframe *f, const uint8_t *in, size_t *ppos, size_t len)
{
	size_t		pos = *ppos,
				last = pos;
	uint64_t	limit = f->indefinite ? UINT64_MAX : f->remaining,
				used = 0,
				k = 0;

	/* an array of strings or containers: nothing to count */
	if (pos >= len || !(in[pos] == 0xfb || in[pos] == 0xc4 || int_head(in[pos])))
		return;
	/* at the count's maximum, item_done's check fails the next member: that is the handlers' to do */
	if (f->count >= UINT32_MAX - 1)
		return;
	/*
	 * The members it may take, counted once: f->count stays below its
	 * maximum, as item_done's check requires (f->count is below UINT32_MAX
	 * - 1 here, so this does not wrap); the items counted (at most 3 a
	 * member) reach no poll; the buffer has NUMBER_ROOM for each
	 */
	if (UINT32_MAX - 1 - (uint64_t) f->count < limit)
		limit = UINT32_MAX - 1 - (uint64_t) f->count;
	if ((POLL_ITEMS - 1 - d->items % POLL_ITEMS) / 3 < limit)
		limit = (POLL_ITEMS - 1 - d->items % POLL_ITEMS) / 3;
	if ((d->out.cap - d->out.len) / NUMBER_ROOM < limit)
		limit = (d->out.cap - d->out.len) / NUMBER_ROOM;
	while (k < limit && pos < len)
	{
		uint8_t		b = in[pos];

		if (b == 0xfb)
		{
			uint64_t	bits;
			double		v;

			if (len - pos < 9)
				break;
			bits = __builtin_bswap64(fj_load64(in + pos + 1));
			memcpy(&v, &bits, 8);
			if (!isfinite(v))
				break;
			/* cannot fail: the room is there */
			put_float_inline(d, v);
			last = pos;
			pos += 9;
			used++;
		}
		else if (b == 0xc4)
		{
			decimal_parts p;

			if (len - pos <= 2 || in[pos + 1] != 0x82 || !read_decimal(in, pos, len, &p))
				break;
			put_decimal_parts(d, &p);
			last = p.mpos;
			pos = p.end;
			used += 3;
		}
		else if (int_head(b))
		{
			uint64_t	m;
			size_t		head;

			if (!read_arg(in, pos, len, &m, &head) || m > (uint64_t) INT64_MAX)
				break;
			d->out.len = (size_t) (fj_put_int(d->out.data + d->out.len, b < 0x20 ? FJ_UINT : FJ_NINT, m) -
								   d->out.data);
			last = pos;
			pos += head;
			used++;
		}
		else
			break;
		k++;
	}
	if (k == 0)
		return;
	d->items += used;
	d->item = last;				/* as the main loop and fast_decimal leave it */
	f->count += (uint32_t) k;
	*ppos = pos;
	if (f->indefinite)
		return;
	f->remaining -= k;
	/* the last member's item_done: the array is complete, and an item of its parent */
	if (f->remaining == 0 && close_container(d))
		item_done(d);
}

/*
 * number_run out of line, where fast_item calls it: its code inline there
 * made the main loop slower for documents of strings and objects (2-3 %).
 * At a number inside an array, and at the head of an array of 1 to 23
 * members (array_head_run).
 */
static __attribute__((noinline)) void
number_run_call(decoder *d, dframe *f, const uint8_t *in, size_t *ppos, size_t len)
{
	number_run(d, f, in, ppos, len);
}

/*
 * The array whose head b (81 to 97) fast_item has read and counted, with
 * the run of numbers it starts; then, while that array is closed and the
 * next item of its parent, an array, is another such head, the same for
 * it, as fast_item would take it (an interrupt poll, the offset the header
 * guess reads): a ring of coordinate pairs in one call. fast_item's depth
 * limit needs no test here: a sibling opens at the depth the first one
 * passed it at.
 */
static __attribute__((noinline)) void
array_head_run(decoder *d, uint8_t b, uint8_t hint, const uint8_t *in, size_t *ppos, size_t len)
{
	for (;;)
	{
		size_t		open = d->frames.len,
					pos;
		dframe	   *f;

		if (!push(d, FRAME_ARRAY, false, b & 31, hint))
			return;
		number_run(d, top(d), in, ppos, len);
		pos = *ppos;
		f = top(d);
		if (d->rc != FJ_OK || d->frames.len != open || !f || f->kind != FRAME_ARRAY || pos >= len ||
			in[pos] < 0x81 || in[pos] > 0x97)
			return;
		b = in[pos];
		hint = f->hint;
		d->item = pos;
		if (!poll_item(d))
		{
			*ppos = len + 1;
			return;
		}
		d->depth++;
		*ppos = pos + 1;
	}
}

/*
 * The common items inside an array or map, with no tag or indefinite string
 * pending: text strings, small integers, floats, false, true and null. The
 * same checks in the same order as decode_item and the handlers make, with
 * fewer steps; false leaves the item to decode_item.
 */
static inline bool
fast_item(decoder *d, const uint8_t *in, size_t *ppos, size_t len)
{
	size_t		pos = *ppos;
	dframe	   *f = top(d);
	uint8_t		b = in[pos];
	bool		key;
	uint8_t    *w;

	if (!f || f->kind == FRAME_DECIMAL || d->chunks || d->tag_pending)
		return false;
	key = f->kind == FRAME_MAP && f->want_key;
	if ((b & 0xe0) == 0x60 && (b & 31) <= 25)
	{
		/* a text string of up to 65535 bytes */
		size_t		n,
					head,
					at;

		if ((b & 31) < 24)
		{
			n = b & 31;
			head = 1;
		}
		else if ((b & 31) == 24)
		{
			if (len - pos < 2)
				return false;
			n = in[pos + 1];
			head = 2;
		}
		else
		{
			if (len - pos < 3)
				return false;
			n = __builtin_bswap16(fj_load16(in + pos + 1));
			head = 3;
		}
		if (n > len - pos - head)
			return false;
		if (!poll_item(d))
			return *ppos = len + 1, true;
		if (!utf8_valid(d, in + pos + head, n))
			return fail(d, FJ_R_CBOR_UTF8), *ppos = len + 1, true;
		if (!reserve(d, 5 + n))
			return *ppos = len + 1, true;
		at = d->out.len;
		w = fj_put_text_header(d->out.data + at, FJ_STRING, n);
		memcpy(w, in + pos + head, n);
		d->out.len = (size_t) (w - d->out.data) + n;
		*ppos = pos + head + n;
		string_written(d, at);
		item_done(d);
		return true;
	}
	if (key)
		return false;
	if ((b >= 0x81 && b <= 0x97) || (b >= 0xa1 && b <= 0xb7))
	{
		/* an array or map of 1 to 23 members: on_container without its checks for tags and slots */
		if (d->depth >= d->max_depth)
			return false;
		if (!poll_item(d))
			return *ppos = len + 1, true;
		d->depth++;
		*ppos = pos + 1;
		if (b < 0xa0)
			array_head_run(d, b, f->hint, in, ppos, len);
		else
			push(d, FRAME_MAP, false, b & 31, f->hint);
		return true;
	}
	if (f->kind == FRAME_ARRAY)
	{
		number_run_call(d, f, in, ppos, len);
		if (*ppos != pos)
			return true;
	}
	if (int_head(b))
	{
		/* an integer within int64 */
		uint64_t	m;
		size_t		head;

		if (!read_arg(in, pos, len, &m, &head) || m > (uint64_t) INT64_MAX)
			return false;
		if (!poll_item(d))
			return *ppos = len + 1, true;
		if (!reserve(d, 9))
			return *ppos = len + 1, true;
		d->out.len = (size_t) (fj_put_int(d->out.data + d->out.len, b < 0x20 ? FJ_UINT : FJ_NINT, m) - d->out.data);
		*ppos = pos + head;
		item_done(d);
		return true;
	}
	if (b >= 0xf9 && b <= 0xfb)
	{
		/* a float: on_float without its checks for tags and slots, which pass here */
		uint64_t	bits;
		size_t		head;
		double		v;

		if (!read_arg(in, pos, len, &bits, &head))
			return false;
		if (b == 0xf9)
			v = half_value((uint16_t) bits);
		else if (b == 0xfa)
		{
			uint32_t	fb = (uint32_t) bits;
			float		f;

			memcpy(&f, &fb, 4);
			v = f;
		}
		else
			memcpy(&v, &bits, 8);
		if (!isfinite(v))
			return false;
		if (!poll_item(d))
			return *ppos = len + 1, true;
		*ppos = pos + head;
		if (put_float(d, v))
			item_done(d);
		return true;
	}
	if (b == 0xc4 && len - pos > 2 && in[pos + 1] == 0x82)
		return fast_decimal(d, in, ppos, len);
	return false;
}

/* ---------------------------------------------------------------- main */

fj_code
fj_cbor_decode(const uint8_t *cbor, size_t len, const fj_cbor_decode_options *opt,
			   fj_buf *out, fj_error *err)
{
	static const fj_cbor_decode_options defaults = {0};
	decoder		d;
	size_t		pos = 0,
				guess;

	if (!opt)
		opt = &defaults;
	memset(&d, 0, sizeof(d));
	d.opt = opt;
	d.a = opt->alloc ? opt->alloc : &fj_malloc_allocator;
	d.in = cbor;
	d.len = len;
	d.max_size = opt->max_size;
	d.max_depth = opt->max_depth ? opt->max_depth : FJ_DEFAULT_MAX_DEPTH;
	d.utf8 = fj_kernel_utf8_validator(opt->kernel ? opt->kernel : fj_kernel_best());
	d.poll.interrupted = opt->interrupted;
	d.poll.ctx = opt->interrupt_ctx;
	d.err = err;
	fj_refs_init(&d.refs, d.a);
	d.refs.from = (uint32_t) (opt->prefix + FJ_REFS_FROM);
	fj_error_clear(err);

	/* a first guess at the tape: about the size of the CBOR (grown as needed) */
	guess = opt->prefix + FJ_TAPE_HEADER + (len < ((size_t) 1 << 20) ? len : len / 2) + 16;
	if (d.max_size && guess > d.max_size)
		guess = d.max_size;
	if (reserve_slack(&d, guess, guess))
		d.out.len = opt->prefix + FJ_TAPE_HEADER;
	if (len == 0)
		fail_at(&d, FJ_R_CBOR_EMPTY, 0);

	while (d.rc == FJ_OK && pos < len)
	{
		if (d.root_done)
		{
			fail_at(&d, FJ_R_CBOR_TRAILING, pos);
			break;
		}
		d.item = pos;
		if (!fast_item(&d, cbor, &pos, len))
			pos = decode_item(&d, cbor, pos, len);
	}
	if (d.rc == FJ_OK && !d.root_done)
		fail_at(&d, FJ_R_CBOR_TRUNCATED, len);
	if (d.rc == FJ_OK && d.max_size && d.out.len > d.max_size)
		fail_at(&d, FJ_R_TOO_BIG, len);

	fj_buf_release(d.a, &d.frames);
	fj_buf_release(d.a, &d.chunk_data);
	fj_buf_release(d.a, &d.mantissa);
	fj_buf_release(d.a, &d.digits);
	fj_buf_release(d.a, &d.text);
	fj_refs_release(&d.refs);
	if (d.rc != FJ_OK)
	{
		fj_buf_release(d.a, &d.out);
		memset(out, 0, sizeof(*out));
		return d.rc;
	}
	d.out.data[opt->prefix] = FJ_TAPE_VERSION;
	d.out.data[opt->prefix + 1] = fj_root_flags(d.out.data + opt->prefix + FJ_TAPE_HEADER);
	*out = d.out;
	return FJ_OK;
}
