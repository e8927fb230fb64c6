/*
 * text_writer.h — tape to canonical minified JSON text, compiled into every
 * kernel (src/simd/<isa>.c), as the parser's stages are: no insignificant
 * whitespace; strings escaped one way only: \" \\ \b \f \n \r \t, other
 * control characters as \u00XX, everything else as its UTF-8 bytes. Numbers
 * come back exactly as written. Iterative: containers on a stack.
 *
 * The including kernel defines, after this file (so that it can fall back
 * on copy_plain_swar, below, the portable one, eight bytes at a time):
 *
 *   static inline size_t copy_plain(uint8_t *d, const uint8_t *s, size_t n,
 *                                   const uint8_t *readable_end);
 *
 * which copies s[0..n) to d up to the first byte that needs an escape (a
 * control character, '"' or '\\') and returns how many bytes it copied.
 * It may store up to FJ_STRING_SLACK - 10 bytes past d + that count, and
 * read any byte before readable_end (the end of the value being written).
 * Each kernel's write_json is its descriptor's; fj_write_json (dispatch.c)
 * runs the best kernel's.
 */
#ifndef FJ_SIMD_TEXT_WRITER_H
#define FJ_SIMD_TEXT_WRITER_H

#include "../tape.h"

/* Room a string needs beyond 6 bytes a byte: quotes, and a vector stored past the end. */
#define FJ_STRING_SLACK 80

static inline size_t copy_plain(uint8_t *d, const uint8_t *s, size_t n,
								const uint8_t *readable_end);

typedef struct writer_frame
{
	const uint8_t *members_end;	/* where the members stop */
	const uint8_t *end;			/* where the container stops (after its key index) */
	int			object;
} writer_frame;

typedef struct writer
{
	const fj_allocator *a;
	fj_buf	   *out;
	uint8_t    *wp;
	uint8_t    *limit;
} writer;

static fj_code
writer_grow(writer *w, size_t need)
{
	w->out->len = (size_t) (w->wp - w->out->data);
	if (!fj_buf_reserve(w->a, w->out, need))
		return FJ_ERR_NOMEM;
	w->wp = w->out->data + w->out->len;
	w->limit = w->out->data + w->out->cap;
	return FJ_OK;
}

static inline fj_code
writer_reserve(writer *w, size_t need)
{
	if ((size_t) (w->limit - w->wp) >= need)
		return FJ_OK;
	return writer_grow(w, need);
}

/* Bit 7 of each byte of x that is below 0x20, '"' or '\\'. */
static inline uint64_t
escape_bytes(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t	q = x ^ (ones * '"');
	uint64_t	b = x ^ (ones * '\\');

	return (((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b)) & high;
}

static const char hexdigits[] = "0123456789abcdef";

/* The escape for byte c (which needs one); returns the end. */
static inline uint8_t *
write_escape(uint8_t *d, uint8_t c)
{
	static const char short_escape[32] = {
		0, 0, 0, 0, 0, 0, 0, 0, 'b', 't', 'n', 0, 'f', 'r', 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
	};

	*d++ = '\\';
	if (c == '"' || c == '\\')
		*d++ = c;
	else if (short_escape[c])
		*d++ = (uint8_t) short_escape[c];
	else
	{
		*d++ = 'u';
		*d++ = '0';
		*d++ = '0';
		*d++ = (uint8_t) hexdigits[c >> 4];
		*d++ = (uint8_t) hexdigits[c & 15];
	}
	return d;
}

/*
 * Copy the bytes of s[0..n) that need no escape, eight at a time, up to the
 * first that does; returns how many. Writes at most 8 bytes past d + that
 * count, and reads no byte at or past readable_end beyond s + n.
 */
static inline size_t
copy_plain_swar(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *readable_end)
{
	size_t		i = 0;

	while (i < n)
	{
		size_t		m = n - i < 8 ? n - i : 8;
		uint64_t	x,
					hits;

		if (m == 8)
			memcpy(&x, s + i, 8);
		else
		{
			/* the tail, padded with a byte that needs no escape */
			if (s + i + 8 <= readable_end)
				memcpy(&x, s + i, 8);
			else
				x = fj_load_upto8(s + i, m);
			x = (x & ((1ULL << (8 * m)) - 1)) | (0x6161616161616161ULL << (8 * m));
		}
		hits = escape_bytes(x);
		memcpy(d + i, &x, 8);
		if (hits)
			return i + ((size_t) __builtin_ctzll(hits) >> 3);
		i += m;
	}
	return n;
}

/*
 * Write s[0..len) as a JSON string literal: the kernel's copy_plain copies
 * the runs that need no escape (a vector at a time), and each byte that
 * needs one is escaped here. Room for 6 * len + FJ_STRING_SLACK bytes is
 * reserved: copy_plain may store a whole vector past the end of a run.
 */
static inline uint8_t *
write_string(uint8_t *d, const uint8_t *s, size_t len, const uint8_t *readable_end)
{
	size_t		i = 0;

	*d++ = '"';
	while (i < len)
	{
		size_t		k = copy_plain(d, s + i, len - i, readable_end);

		d += k;
		i += k;
		if (i < len)
			d = write_escape(d, s[i++]);
	}
	*d++ = '"';
	return d;
}

/*
 * Write the text of a PACKED number of n characters (its nibbles at nib):
 * 16 characters from each 8-byte load where 8 bytes are readable, writing
 * up to 47 bytes past d + n (within scalar_room).
 */
static inline void
write_packed(uint8_t *d, const uint8_t *nib, unsigned n, const uint8_t *readable_end)
{
	unsigned	bytes = (n + 1) / 2,
				k;

	if (nib + ((bytes + 7) & ~7u) > readable_end)
	{
		fj_unpack_number(nib, n, (char *) d);
		return;
	}
	for (k = 0; k < bytes; k += 8)
	{
		uint64_t	x = fj_load64(nib + k);
		uint64_t	lo = fj_unpack8((uint32_t) x),
					hi = fj_unpack8((uint32_t) (x >> 32));

		memcpy(d + 2 * k, &lo, 8);
		memcpy(d + 2 * k + 8, &hi, 8);
	}
}

/*
 * Write one scalar value (not a container); *next gets the value after it.
 * Bytes up to readable_end may be read (the end of the value being written).
 */
static inline __attribute__((always_inline)) uint8_t *
write_scalar(uint8_t *d, const uint8_t *v, const uint8_t **next, const uint8_t *readable_end)
{
	uint8_t		tag = v[0];
	const uint8_t *text;
	uint32_t	len;

	switch (FJ_TYPE(tag))
	{
		case FJ_LITERAL:
			*next = v + 1;
			if (FJ_IMM(tag) == FJ_NULL)
			{
				memcpy(d, "null", 4);
				return d + 4;
			}
			if (FJ_IMM(tag) == FJ_TRUE)
			{
				memcpy(d, "true", 4);
				return d + 4;
			}
			memcpy(d, "false", 5);
			return d + 5;
		case FJ_UINT:
		case FJ_NINT:
			*next = v + 1 + fj_int_extra(tag);
			return fj_put_int_text(d, v);
		case FJ_NUMBER:
			len = fj_text(v, &text);
			*next = text + len;
			memcpy(d, text, len);
			return d + len;
		case FJ_PACKED:
			len = fj_packed_len(v, &text);
			*next = text + (len + 1) / 2;
			write_packed(d, text, len, readable_end);
			return d + len;
		default:
			len = fj_text(v, &text);
			/* a string reference's text is elsewhere, before it */
			*next = tag == FJ_STRING_REF ? v + FJ_REF_SIZE : text + len;
			return write_string(d, text, len, readable_end);
	}
}

/* Bytes write_scalar may need for v. */
static inline size_t
scalar_room(const uint8_t *v)
{
	if (FJ_TYPE(v[0]) == FJ_STRING || FJ_TYPE(v[0]) == FJ_NUMBER)
	{
		const uint8_t *text;

		return 6 * (size_t) fj_text(v, &text) + FJ_STRING_SLACK;
	}
	return FJ_NUMBER_TEXT_BUF;
}

static fj_code
write_json(const uint8_t *v, const fj_allocator *a, fj_buf *out)
{
	writer		w;
	writer_frame local[64];
	writer_frame *stack = local;
	size_t		cap = 64,
				depth = 0;
	fj_code		rc = FJ_OK;
	const uint8_t *root_end = v + fj_value_size(v);

	w.a = a;
	w.out = out;
	w.wp = out->data ? out->data + out->len : NULL;
	w.limit = out->data ? out->data + out->cap : NULL;

	for (;;)
	{
		/* write the value at v */
		int			type = FJ_TYPE(v[0]);

		if (type == FJ_ARRAY || type == FJ_OBJECT)
		{
			if ((rc = writer_reserve(&w, 2)) != FJ_OK)
				break;
			*w.wp++ = type == FJ_ARRAY ? '[' : '{';
			if (fj_container_count(v) == 0)
			{
				*w.wp++ = type == FJ_ARRAY ? ']' : '}';
				v += 1;
			}
			else
			{
				if (depth == cap)
				{
					writer_frame *bigger = a->alloc(a->ctx, 2 * cap * sizeof(writer_frame));

					if (!bigger)
					{
						rc = FJ_ERR_NOMEM;
						break;
					}
					memcpy(bigger, stack, depth * sizeof(writer_frame));
					if (stack != local)
						a->release(a->ctx, stack);
					stack = bigger;
					cap *= 2;
				}
				stack[depth].members_end = fj_container_members_end(v);
				stack[depth].end = v + fj_value_size(v);
				stack[depth].object = type == FJ_OBJECT;
				depth++;
				v = fj_container_members(v);
				if (type == FJ_OBJECT)
				{
					if ((rc = writer_reserve(&w, scalar_room(v) + 1)) != FJ_OK)
						break;
					w.wp = write_scalar(w.wp, v, &v, root_end);
					*w.wp++ = ':';
				}
				continue;
			}
		}
		else
		{
			if ((rc = writer_reserve(&w, scalar_room(v))) != FJ_OK)
				break;
			w.wp = write_scalar(w.wp, v, &v, root_end);
		}

		/* close finished containers, then move to the next member */
		while (depth > 0 && v == stack[depth - 1].members_end)
		{
			if ((rc = writer_reserve(&w, 1)) != FJ_OK)
				break;
			depth--;
			*w.wp++ = stack[depth].object ? '}' : ']';
			v = stack[depth].end;
		}
		if (rc != FJ_OK || depth == 0)
			break;
		if ((rc = writer_reserve(&w, 1)) != FJ_OK)
			break;
		*w.wp++ = ',';
		if (stack[depth - 1].object)
		{
			if ((rc = writer_reserve(&w, scalar_room(v) + 1)) != FJ_OK)
				break;
			w.wp = write_scalar(w.wp, v, &v, root_end);
			*w.wp++ = ':';
		}
	}
	if (stack != local)
		a->release(a->ctx, stack);
	if (w.wp)
		out->len = (size_t) (w.wp - out->data);
	return rc;
}

#endif							/* FJ_SIMD_TEXT_WRITER_H */
