/*
 * text_writer.c — tape to canonical minified JSON text (doc/design.md, section 2): no
 * insignificant whitespace; strings escaped one way only: \" \\ \b \f \n \r \t,
 * other control characters as \u00XX, everything else as its UTF-8 bytes.
 * Numbers come back exactly as written. Iterative: containers on a stack.
 */
#include "fj_core.h"
#include "tape.h"

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
 * Write s[0..len) as a JSON string literal, eight bytes at a time; room for
 * 6 * len + 10 bytes is reserved (a whole word may be stored at the end).
 */
static inline uint8_t *
write_string(uint8_t *d, const uint8_t *s, size_t len, const uint8_t *readable_end)
{
	size_t		i = 0;

	*d++ = '"';
	while (i < len)
	{
		size_t		n = len - i < 8 ? len - i : 8;
		uint64_t	x,
					hits;

		if (n == 8)
			memcpy(&x, s + i, 8);
		else
		{
			/* the tail, padded with a byte that needs no escape */
			if (s + i + 8 <= readable_end)
				memcpy(&x, s + i, 8);
			else
				x = fj_load_upto8(s + i, n);
			x = (x & ((1ULL << (8 * n)) - 1)) | (0x6161616161616161ULL << (8 * n));
		}
		hits = escape_bytes(x);
		memcpy(d, &x, 8);
		if (!hits)
		{
			d += n;
			i += n;
			continue;
		}
		/* copy up to the first byte that needs an escape, then escape it */
		{
			size_t		k = (size_t) __builtin_ctzll(hits) >> 3;

			d += k;
			d = write_escape(d, s[i + k]);
			i += k + 1;
		}
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
static inline uint8_t *
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

		return 6 * (size_t) fj_text(v, &text) + 10;
	}
	return FJ_NUMBER_TEXT_BUF;
}

fj_code
fj_write_json(const uint8_t *v, const fj_allocator *a, fj_buf *out)
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
