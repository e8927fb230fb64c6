/*
 * tape_builder.c — build a tape value by value (tape_builder.h), for the
 * functions that make new documents.
 */
#include "tape_builder.h"
#include "tape_writer.h"

#define BUILDER_SLACK 16

#define FRAME(b, i) ((fj_builder_frame *) (b)->frames.data + (i))
#define KEYS(b) ((uint32_t *) (b)->keys.data)
#define NKEYS(b) ((uint32_t) ((b)->keys.len / sizeof(uint32_t)))

/* Make room for need bytes (plus slack) at the end of the buffer. */
static bool
builder_reserve(fj_builder *b, size_t need)
{
	if (b->error != FJ_OK)
		return false;
	if (b->buf.cap - b->buf.len >= need + BUILDER_SLACK)
		return true;
	if (need > SIZE_MAX - BUILDER_SLACK - b->buf.len || (b->max_size && b->buf.len + need > b->max_size))
	{
		b->error = FJ_ERR_TOO_BIG;
		return false;
	}
	if (!fj_buf_reserve(b->a, &b->buf, need + BUILDER_SLACK))
	{
		b->error = FJ_ERR_NOMEM;
		return false;
	}
	return true;
}

/* Append size bytes to one of the builder's stacks: their address, or NULL (an error). */
static void *
builder_push(fj_builder *b, fj_buf *stack, size_t size)
{
	void	   *p = fj_buf_push(b->a, stack, size);

	if (!p)
		b->error = FJ_ERR_NOMEM;
	return p;
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
	FRAME(b, b->depth - 1)->count++;
	b->want_key = FRAME(b, b->depth - 1)->type == FJ_OBJECT;
	return true;
}

static void
builder_begin(fj_builder *b, int type)
{
	fj_builder_frame *f;

	if (b->error == FJ_OK && b->max_depth && b->depth >= b->max_depth)
		b->error = FJ_ERR_DEPTH;
	if (!builder_value_start(b) || !builder_reserve(b, FJ_CONTAINER_HEADER_MAX) ||
		!(f = builder_push(b, &b->frames, sizeof(fj_builder_frame))))
		return;
	b->depth++;
	f->hdr = (uint32_t) b->buf.len;
	f->count = 0;
	f->type = (uint32_t) type;
	f->keys = NKEYS(b);
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
	if (b->depth == 0 || (FRAME(b, b->depth - 1)->type == FJ_OBJECT && !b->want_key))
	{
		b->error = FJ_ERR_TAPE;
		return;
	}
	f = FRAME(b, b->depth - 1);
	if (!builder_reserve(b, fj_key_index_size(f->count, 4) + 8))
		return;
	if (f->type == FJ_OBJECT && f->count > FJ_KEY_INDEX_MIN)
	{
		uint32_t	i;

		keys = KEYS(b) + f->keys;
		for (i = 0; i < f->count; i++)
			keys[i] -= f->hdr + FJ_CONTAINER_HEADER_MAX;
	}
	end = fj_close_container(b->buf.data + f->hdr, b->buf.data + b->buf.len, f->count, (int) f->type, keys);
	b->buf.len = (size_t) (end - b->buf.data);
	b->keys.len = (size_t) f->keys * sizeof(uint32_t);
	b->depth--;
	b->frames.len -= sizeof(fj_builder_frame);
	b->want_key = b->depth > 0 && FRAME(b, b->depth - 1)->type == FJ_OBJECT;
}

void
fj_builder_key(fj_builder *b, const char *key, size_t len)
{
	uint32_t   *pos;

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
	if (!builder_reserve(b, len + 5) || !(pos = builder_push(b, &b->keys, sizeof(uint32_t))))
		return;
	*pos = (uint32_t) b->buf.len;
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
	fj_buf		levels;
	level	   *stack = local;
	uint32_t	depth = 0;

	fj_buf_borrow(&levels, local, sizeof(local));

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
			if (!builder_push(b, &levels, sizeof(level)))
				break;
			stack = (level *) levels.data;
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
			levels.len -= sizeof(level);
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
	fj_buf_release(b->a, &levels);
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

fj_code
fj_builder_finish(fj_builder *b, fj_buf *out)
{
	fj_code		rc = b->error;

	if (rc == FJ_OK && (b->depth != 0 || !b->root_done))
		rc = FJ_ERR_TAPE;
	fj_buf_release(b->a, &b->frames);
	fj_buf_release(b->a, &b->keys);
	if (rc != FJ_OK)
	{
		fj_buf_release(b->a, &b->buf);
		memset(out, 0, sizeof(*out));
		return rc;
	}
	b->buf.data[b->prefix + 1] = fj_root_flags(b->buf.data + b->prefix + FJ_TAPE_HEADER);
	*out = b->buf;
	return FJ_OK;
}
