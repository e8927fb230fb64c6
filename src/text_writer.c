/*
 * text_writer.c — tape to canonical minified JSON text (DESIGN §2): no
 * insignificant whitespace; strings escaped one way only: \" \\ \b \f \n \r \t,
 * other control characters as \u00XX, everything else as its UTF-8 bytes.
 * Numbers come back exactly as written. Iterative: containers on a stack.
 */
#include "fj_core.h"
#include "tape.h"
#include "simd/kernel.h"

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
	size_t		used = (size_t) (w->wp - w->out->data);
	size_t		cap = w->out->cap * 2;
	uint8_t    *data;

	if (cap < used + need + 64)
		cap = used + need + 64;
	data = w->out->data ? w->a->grow(w->a->ctx, w->out->data, used, cap)
		: w->a->alloc(w->a->ctx, cap);
	if (!data)
		return FJ_ERR_NOMEM;
	w->out->data = data;
	w->out->cap = cap;
	w->wp = data + used;
	w->limit = data + cap;
	return FJ_OK;
}

static inline fj_code
writer_reserve(writer *w, size_t need)
{
	if ((size_t) (w->limit - w->wp) >= need)
		return FJ_OK;
	return writer_grow(w, need);
}

/* Whether any of the 8 bytes at p is below 0x20, '"' or '\\'. */
static inline bool
needs_escape8(const uint8_t *p)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t	x,
				q,
				b;

	memcpy(&x, p, 8);
	q = x ^ (ones * '"');
	b = x ^ (ones * '\\');
	return (((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b)) & high;
}

static const char hexdigits[] = "0123456789abcdef";

/* Write s[0..len) as a JSON string literal; room for 6 * len + 2 is reserved. */
static inline uint8_t *
write_string(uint8_t *d, const uint8_t *s, size_t len)
{
	size_t		i = 0;

	*d++ = '"';
	while (i < len)
	{
		uint8_t		c;

		while (i + 8 <= len && !needs_escape8(s + i))
		{
			memcpy(d, s + i, 8);
			d += 8;
			i += 8;
		}
		if (i == len)
			break;
		c = s[i++];
		if (c >= 0x20 && c != '"' && c != '\\')
		{
			*d++ = c;
			continue;
		}
		*d++ = '\\';
		switch (c)
		{
			case '"':
				*d++ = '"';
				break;
			case '\\':
				*d++ = '\\';
				break;
			case '\b':
				*d++ = 'b';
				break;
			case '\f':
				*d++ = 'f';
				break;
			case '\n':
				*d++ = 'n';
				break;
			case '\r':
				*d++ = 'r';
				break;
			case '\t':
				*d++ = 't';
				break;
			default:
				*d++ = 'u';
				*d++ = '0';
				*d++ = '0';
				*d++ = (uint8_t) hexdigits[c >> 4];
				*d++ = (uint8_t) hexdigits[c & 15];
		}
	}
	*d++ = '"';
	return d;
}

/* Write the decimal digits of v; returns the end. */
static inline uint8_t *
write_u64(uint8_t *d, uint64_t v)
{
	uint8_t		tmp[20];
	int			n = 0;

	do
	{
		tmp[n++] = (uint8_t) ('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*d++ = tmp[--n];
	return d;
}

/* Write one scalar value (not a container); returns the end. */
static inline uint8_t *
write_scalar(uint8_t *d, const uint8_t *v)
{
	uint8_t		tag = v[0];
	const uint8_t *text;
	uint32_t	len;

	switch (FJ_TYPE(tag))
	{
		case FJ_LITERAL:
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
			return write_u64(d, fj_int_magnitude(v));
		case FJ_NINT:
			*d++ = '-';
			return write_u64(d, fj_int_magnitude(v) + 1);
		case FJ_NUMBER:
			len = fj_text(v, &text);
			memcpy(d, text, len);
			return d + len;
		default:
			len = fj_text(v, &text);
			return write_string(d, text, len);
	}
}

/* Bytes write_scalar may need for v. */
static inline size_t
scalar_room(const uint8_t *v)
{
	if (FJ_TYPE(v[0]) == FJ_STRING || FJ_TYPE(v[0]) == FJ_NUMBER)
	{
		const uint8_t *text;

		return 6 * (size_t) fj_text(v, &text) + 2;
	}
	return 21;
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
					w.wp = write_scalar(w.wp, v);
					*w.wp++ = ':';
					v += fj_value_size(v);
				}
				continue;
			}
		}
		else
		{
			if ((rc = writer_reserve(&w, scalar_room(v))) != FJ_OK)
				break;
			w.wp = write_scalar(w.wp, v);
			v += fj_value_size(v);
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
			w.wp = write_scalar(w.wp, v);
			*w.wp++ = ':';
			v += fj_value_size(v);
		}
	}
	if (stack != local)
		a->release(a->ctx, stack);
	if (w.wp)
		out->len = (size_t) (w.wp - out->data);
	return rc;
}
