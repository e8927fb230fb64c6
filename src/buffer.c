/*
 * buffer.c — memory for the core: the malloc allocator, and the growable
 * byte buffer (fj_buf) that every writer of a tape, a text or a stack uses.
 */
#include "fj_core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ allocator */

static void *
malloc_alloc(void *ctx, size_t size)
{
	(void) ctx;
	return malloc(size);
}

static void *
malloc_grow(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	(void) ctx;
	(void) old_size;
	return realloc(ptr, new_size);
}

static void
malloc_release(void *ctx, void *ptr)
{
	(void) ctx;
	free(ptr);
}

const fj_allocator fj_malloc_allocator = {malloc_alloc, malloc_grow, malloc_release, NULL};

/* --------------------------------------------------------------- buffer */

#define FJ_BUF_MIN 64			/* the smallest block a buffer grows to */

bool
fj_buf_grow(const fj_allocator *a, fj_buf *buf, size_t need, size_t max)
{
	size_t		cap;
	uint8_t    *data;

	if (need > SIZE_MAX - buf->len)
		return false;
	/*
	 * at least half again, so that n appends cost O(n), and no more, so
	 * that a parse's peak memory stays near its tape's size
	 */
	cap = buf->cap > SIZE_MAX / 3 * 2 ? SIZE_MAX : buf->cap + buf->cap / 2;
	if (cap < FJ_BUF_MIN)
		cap = FJ_BUF_MIN;
	if (max && cap > max)
		cap = max;
	if (cap < buf->len + need)
		cap = buf->len + need;
	if (buf->borrowed)
	{
		/* out of the caller's storage, into the allocator's */
		data = a->alloc(a->ctx, cap);
		if (data && buf->len)
			memcpy(data, buf->data, buf->len);
	}
	else
		data = buf->data ? a->grow(a->ctx, buf->data, buf->len, cap) : a->alloc(a->ctx, cap);
	if (!data)
		return false;
	buf->data = data;
	buf->cap = cap;
	buf->borrowed = false;
	return true;
}

void *
fj_buf_push(const fj_allocator *a, fj_buf *buf, size_t size)
{
	void	   *p;

	if (!fj_buf_reserve(a, buf, size))
		return NULL;
	p = buf->data + buf->len;
	buf->len += size;
	return p;
}

void
fj_buf_release(const fj_allocator *a, fj_buf *buf)
{
	if (buf->data && !buf->borrowed)
		a->release(a->ctx, buf->data);
	buf->data = NULL;
	buf->len = buf->cap = 0;
	buf->borrowed = false;
}
