/*
 * tape_builder.c — closing containers: the key index of large objects and
 * the choice of the narrowest header.
 */
#include "tape.h"

static inline void
store_width(uint8_t *p, uint32_t v, unsigned w)
{
	if (w == 1)
		*p = (uint8_t) v;
	else if (w == 2)
	{
		uint16_t	s = (uint16_t) v;

		memcpy(p, &s, 2);
	}
	else
		memcpy(p, &v, 4);
}

uint8_t *
fj_close_container(uint8_t *hdr, uint8_t *end, uint32_t count, int type,
				   const uint32_t *keys)
{
	return fj_close_container_reserved(hdr, FJ_CONTAINER_HEADER_MAX, end, count, type, keys);
}

uint8_t *
fj_close_container_reserved(uint8_t *hdr, unsigned reserved, uint8_t *end, uint32_t count,
							int type, const uint32_t *keys)
{
	const uint8_t *members = hdr + reserved;
	size_t		msize = (size_t) (end - members);
	int			indexed = type == FJ_OBJECT && count > FJ_KEY_INDEX_MIN;
	unsigned	w,
				wclass,
				hsize;
	size_t		isize = 0,
				lead = 0;
	uint8_t    *placed;

	if (count == 0)
	{
		hdr[0] = FJ_TAG(type, 0);
		return hdr + 1;
	}
	if (msize + (indexed ? fj_key_index_size(count, 1) : 0) <= 0xff)
		w = 1, wclass = 1;
	else if (msize + (indexed ? fj_key_index_size(count, 2) : 0) <= 0xffff)
		w = 2, wclass = 2;
	else
		w = 4, wclass = 3;
	hsize = 1 + 2 * w;
	if (indexed)
	{
		isize = fj_key_index_size(count, w);
		if (fj_key_index_first(count, w))
			lead = isize;
	}
	/* the members go after the header and a leading key index */
	placed = hdr + hsize + lead;
	if (placed != members)
		memmove(placed, members, msize);
	if (indexed)
	{
		/* fingerprints, then offsets, in member order */
		uint8_t    *fp = lead ? hdr + hsize : placed + msize;
		uint8_t    *off = fp + count;
		const uint8_t *p = placed;
		uint32_t	i;

		for (i = 0; i < count; i++)
		{
			const uint8_t *key;
			uint32_t	klen,
						pos = keys ? keys[i] : (uint32_t) (p - placed);

			klen = fj_text(placed + pos, &key);
			/* a key is followed by its value and 8 more readable bytes (the callers reserve them) */
			fp[i] = fj_key_fingerprint_padded(key, klen);
			store_width(off + (size_t) i * w, pos, w);
			if (!keys)
			{
				p = key + klen;
				p += fj_value_size(p);
			}
		}
	}
	hdr[0] = FJ_TAG(type, wclass | (indexed ? FJ_CONTAINER_INDEXED : 0));
	store_width(hdr + 1, (uint32_t) (msize + isize), w);
	store_width(hdr + 1 + w, count, w);
	return hdr + hsize + msize + isize;
}

/* ------------------------------------------------------------- builder */

#include "tape_builder.h"
#include "simd/kernel.h"

#define BUILDER_SLACK 16

/* Make room for need bytes (plus slack) at the end of the buffer. */
static bool
builder_reserve(fj_builder *b, size_t need)
{
	size_t		cap;
	uint8_t    *data;

	if (b->error != FJ_OK)
		return false;
	if (b->buf.cap - b->buf.len >= need + BUILDER_SLACK)
		return true;
	if (b->max_size && b->buf.len + need > b->max_size)
	{
		b->error = FJ_ERR_TOO_BIG;
		return false;
	}
	cap = b->buf.cap * 2;
	if (cap < b->buf.len + need + BUILDER_SLACK)
		cap = b->buf.len + need + BUILDER_SLACK;
	data = b->buf.data ? b->a->grow(b->a->ctx, b->buf.data, b->buf.len, cap) : b->a->alloc(b->a->ctx, cap);
	if (!data)
	{
		b->error = FJ_ERR_NOMEM;
		return false;
	}
	b->buf.data = data;
	b->buf.cap = cap;
	return true;
}

/* Grow an array of n elements of size sz to hold at least one more. */
static bool
builder_grow_array(fj_builder *b, void **arr, uint32_t *cap, uint32_t n, size_t sz)
{
	uint32_t	newcap = *cap ? *cap * 2 : 16;
	void	   *p;

	if (n < *cap)
		return true;
	p = *arr ? b->a->grow(b->a->ctx, *arr, (size_t) n * sz, (size_t) newcap * sz)
		: b->a->alloc(b->a->ctx, (size_t) newcap * sz);
	if (!p)
	{
		b->error = FJ_ERR_NOMEM;
		return false;
	}
	*arr = p;
	*cap = newcap;
	return true;
}

void
fj_builder_init(fj_builder *b, const fj_allocator *a, size_t prefix)
{
	memset(b, 0, sizeof(*b));
	b->a = a ? a : &fj_malloc_allocator;
	b->prefix = prefix;
	if (builder_reserve(b, prefix + FJ_TAPE_HEADER + 64))
	{
		b->buf.len = prefix;
		b->buf.data[b->buf.len++] = FJ_TAPE_VERSION;
		b->buf.data[b->buf.len++] = 0;
	}
}

/* Account for a value about to be written; false if the builder is in error. */
static bool
builder_value_start(fj_builder *b)
{
	if (b->error != FJ_OK)
		return false;
	if (b->depth == 0)
	{
		if (b->root_done)
		{
			b->error = FJ_ERR_TAPE;
			return false;
		}
		b->root_done = true;
		return true;
	}
	if (b->want_key)
	{
		/* a value where an object key belongs */
		b->error = FJ_ERR_TAPE;
		return false;
	}
	b->frames[b->depth - 1].count++;
	b->want_key = b->frames[b->depth - 1].type == FJ_OBJECT;
	return true;
}

static void
builder_begin(fj_builder *b, int type)
{
	fj_builder_frame *f;

	if (b->error == FJ_OK && b->max_depth && b->depth >= b->max_depth)
		b->error = FJ_ERR_DEPTH;
	if (!builder_value_start(b) || !builder_reserve(b, FJ_CONTAINER_HEADER_MAX) ||
		!builder_grow_array(b, (void **) &b->frames, &b->frames_cap, b->depth, sizeof(fj_builder_frame)))
		return;
	f = &b->frames[b->depth++];
	f->hdr = (uint32_t) b->buf.len;
	f->count = 0;
	f->type = (uint32_t) type;
	f->keys = b->nkeys;
	b->buf.len += FJ_CONTAINER_HEADER_MAX;
	b->want_key = type == FJ_OBJECT;
}

void
fj_builder_begin_array(fj_builder *b)
{
	builder_begin(b, FJ_ARRAY);
}

void
fj_builder_begin_object(fj_builder *b)
{
	builder_begin(b, FJ_OBJECT);
}

void
fj_builder_end(fj_builder *b)
{
	fj_builder_frame *f;
	uint32_t   *keys = NULL;
	uint8_t    *end;

	if (b->error != FJ_OK)
		return;
	if (b->depth == 0 || (b->frames[b->depth - 1].type == FJ_OBJECT && !b->want_key))
	{
		b->error = FJ_ERR_TAPE;
		return;
	}
	f = &b->frames[b->depth - 1];
	if (!builder_reserve(b, fj_key_index_size(f->count, 4) + 8))
		return;
	if (f->type == FJ_OBJECT && f->count > FJ_KEY_INDEX_MIN)
	{
		uint32_t	i;

		keys = b->keys + f->keys;
		for (i = 0; i < f->count; i++)
			keys[i] -= f->hdr + FJ_CONTAINER_HEADER_MAX;
	}
	end = fj_close_container(b->buf.data + f->hdr, b->buf.data + b->buf.len, f->count, (int) f->type, keys);
	b->buf.len = (size_t) (end - b->buf.data);
	b->nkeys = f->keys;
	b->depth--;
	b->want_key = b->depth > 0 && b->frames[b->depth - 1].type == FJ_OBJECT;
}

void
fj_builder_key(fj_builder *b, const char *key, size_t len)
{
	if (b->error != FJ_OK)
		return;
	if (b->depth == 0 || !b->want_key)
	{
		b->error = FJ_ERR_TAPE;
		return;
	}
	if (len > FJ_MAX_TEXT_LEN)
	{
		b->error = FJ_ERR_TOO_BIG;
		return;
	}
	if (!builder_reserve(b, len + 5) ||
		!builder_grow_array(b, (void **) &b->keys, &b->keys_cap, b->nkeys, sizeof(uint32_t)))
		return;
	b->keys[b->nkeys++] = (uint32_t) b->buf.len;
	b->buf.len = (size_t) (fj_put_text_header(b->buf.data + b->buf.len, FJ_STRING, len) - b->buf.data);
	memcpy(b->buf.data + b->buf.len, key, len);
	b->buf.len += len;
	b->want_key = false;
}

/* Copy the bytes of a self-contained value. */
static void
builder_copy(fj_builder *b, const uint8_t *v)
{
	size_t		n = fj_value_size(v);

	if (!builder_value_start(b) || !builder_reserve(b, n))
		return;
	memcpy(b->buf.data + b->buf.len, v, n);
	b->buf.len += n;
}

static void builder_string(fj_builder *b, const char *s, size_t len);

/*
 * Copy a value that is not self-contained: its containers are opened and
 * closed anew, their self-contained members copied as bytes, and each
 * reference that is not inside such a member written as its string. No
 * recursion: the containers being copied are on an explicit stack.
 */
static void
builder_copy_resolving(fj_builder *b, const uint8_t *v)
{
	typedef struct
	{
		const uint8_t *members_end; /* where its members stop */
		const uint8_t *end;		/* where it stops (after a trailing key index) */
		bool		object;
	} level;
	level		local[32];
	level	   *stack = local;
	uint32_t	depth = 0,
				cap = 32;

	for (;;)
	{
		/* the value at v */
		if (fj_value_self_contained(v) &&
			(!b->expand_refs || !(FJ_TYPE(v[0]) == FJ_ARRAY || FJ_TYPE(v[0]) == FJ_OBJECT) ||
			 fj_container_count(v) == 0))
		{
			builder_copy(b, v);
			v += fj_value_size(v);
		}
		else if (v[0] == FJ_STRING_REF)
		{
			const uint8_t *text;
			uint32_t	len = fj_text(v, &text);

			builder_string(b, (const char *) text, len);
			v += FJ_REF_SIZE;
		}
		else
		{
			/* a container with a reference that points out of it (or any, expand_refs): it has members */
			if (depth == cap)
			{
				level	   *bigger = b->a->alloc(b->a->ctx, 2 * (size_t) cap * sizeof(level));

				if (!bigger)
				{
					b->error = FJ_ERR_NOMEM;
					break;
				}
				memcpy(bigger, stack, depth * sizeof(level));
				if (stack != local)
					b->a->release(b->a->ctx, stack);
				stack = bigger;
				cap *= 2;
			}
			stack[depth].members_end = fj_container_members_end(v);
			stack[depth].end = v + fj_value_size(v);
			stack[depth].object = FJ_TYPE(v[0]) == FJ_OBJECT;
			builder_begin(b, stack[depth].object ? FJ_OBJECT : FJ_ARRAY);
			v = fj_container_members(v);
			depth++;
			goto member;
		}
		/* close the containers that ended, then on to the next member */
		while (depth > 0 && v == stack[depth - 1].members_end)
		{
			fj_builder_end(b);
			v = stack[--depth].end;
		}
		if (depth == 0 || b->error != FJ_OK)
			break;
member:
		if (stack[depth - 1].object)
		{
			/* keys are never references */
			const uint8_t *key;
			uint32_t	klen = fj_text(v, &key);

			fj_builder_key(b, (const char *) key, klen);
			v = key + klen;
		}
	}
	if (stack != local)
		b->a->release(b->a->ctx, stack);
}

void
fj_builder_value(fj_builder *b, const uint8_t *v)
{
	if (fj_value_self_contained(v) && !b->expand_refs)
		builder_copy(b, v);
	else
		builder_copy_resolving(b, v);
}

void
fj_builder_null(fj_builder *b)
{
	if (builder_value_start(b) && builder_reserve(b, 1))
		b->buf.data[b->buf.len++] = FJ_TAG(FJ_LITERAL, FJ_NULL);
}

void
fj_builder_bool(fj_builder *b, bool v)
{
	if (builder_value_start(b) && builder_reserve(b, 1))
		b->buf.data[b->buf.len++] = FJ_TAG(FJ_LITERAL, v ? FJ_TRUE : FJ_FALSE);
}

void
fj_builder_int(fj_builder *b, int64_t v)
{
	uint8_t    *end;

	if (!builder_value_start(b) || !builder_reserve(b, 9))
		return;
	if (v >= 0)
		end = fj_put_int(b->buf.data + b->buf.len, FJ_UINT, (uint64_t) v);
	else
		end = fj_put_int(b->buf.data + b->buf.len, FJ_NINT, (uint64_t) (-1 - v));
	b->buf.len = (size_t) (end - b->buf.data);
}

/* Append a STRING value. */
static void
builder_string(fj_builder *b, const char *s, size_t len)
{
	if (len > FJ_MAX_TEXT_LEN)
	{
		b->error = FJ_ERR_TOO_BIG;
		return;
	}
	if (!builder_value_start(b) || !builder_reserve(b, len + 5))
		return;
	b->buf.len = (size_t) (fj_put_text_header(b->buf.data + b->buf.len, FJ_STRING, len) - b->buf.data);
	memcpy(b->buf.data + b->buf.len, s, len);
	b->buf.len += len;
}

void
fj_builder_string(fj_builder *b, const char *s, size_t len)
{
	builder_string(b, s, len);
}

bool
fj_builder_number(fj_builder *b, const char *s, size_t len)
{
	bool		int64;
	int64_t		v;

	if (!fj_number_parse((const uint8_t *) s, len, &int64, &v))
		return false;
	if (int64)
		fj_builder_int(b, v);
	else if (len > FJ_MAX_TEXT_LEN)
		b->error = FJ_ERR_TOO_BIG;
	else if (builder_value_start(b) && builder_reserve(b, len + 9))
		b->buf.len = (size_t) (fj_put_number(b->buf.data + b->buf.len, (const uint8_t *) s, len) -
							   b->buf.data);
	return true;
}

uint8_t *
fj_put_number(uint8_t *w, const uint8_t *s, size_t len)
{
	bool		int64;
	int64_t		iv;

	if (fj_number_parse(s, len, &int64, &iv) && int64)
		return iv >= 0 ? fj_put_int(w, FJ_UINT, (uint64_t) iv) : fj_put_int(w, FJ_NINT, (uint64_t) (-1 - iv));
	if (fj_number_packable(s, len))
		return fj_put_packed(w, s, (unsigned) len);
	w = fj_put_text_header(w, FJ_NUMBER, len);
	memcpy(w, s, len);
	return w + len;
}

fj_code
fj_builder_finish(fj_builder *b, fj_buf *out)
{
	fj_code		rc = b->error;

	if (rc == FJ_OK && (b->depth != 0 || !b->root_done))
		rc = FJ_ERR_TAPE;
	if (b->frames)
		b->a->release(b->a->ctx, b->frames);
	if (b->keys)
		b->a->release(b->a->ctx, b->keys);
	if (rc != FJ_OK)
	{
		fj_buf_release(b->a, &b->buf);
		out->data = NULL;
		out->len = out->cap = 0;
		return rc;
	}
	b->buf.data[b->prefix + 1] = fj_root_flags(b->buf.data + b->prefix + FJ_TAPE_HEADER);
	*out = b->buf;
	return FJ_OK;
}

bool
fj_number_parse(const uint8_t *s, size_t len, bool *int64, int64_t *value)
{
	const uint8_t *p = s,
			   *end = s + len,
			   *digits,
			   *t;
	bool		neg = false,
				integer = true;
	uint64_t	v = 0;

	*int64 = false;
	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	digits = p;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		while (p < end && *p >= '0' && *p <= '9')
			v = v * 10 + (unsigned) (*p++ - '0');
	else
		return false;
	if ((size_t) (p - digits) > 19)
		integer = false;
	if (p < end && *p == '.')
	{
		t = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == t)
			return false;
		integer = false;
	}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		t = p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == t)
			return false;
		integer = false;
	}
	if (p != end)
		return false;
	if (integer && (neg ? v != 0 && v <= (uint64_t) INT64_MAX + 1 : v <= (uint64_t) INT64_MAX))
	{
		*int64 = true;
		if (value)
			*value = neg ? (int64_t) (0 - v) : (int64_t) v;
	}
	return true;
}
