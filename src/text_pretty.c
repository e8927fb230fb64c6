/*
 * text_pretty.c — tape to indented JSON text, in jsonb_pretty's layout:
 *
 *     {
 *         "a": 1,
 *         "b": [
 *             true,
 *             {
 *             }
 *         ]
 *     }
 *
 * Every member goes on its own line, indented 4 spaces per level; a key is
 * followed by ": " and its value on the same line; the closing bracket goes on
 * its own line at the container's level, also for an empty container ("[\n]").
 * A scalar at the root is written as it is. Scalars and keys are written by
 * fj_write_json, so strings and numbers read exactly as in the minified text.
 * Iterative: containers on a stack, so nesting depth costs heap, not stack.
 */
#include "fj_core.h"
#include "tape.h"

typedef struct pretty_frame
{
	const uint8_t *members_end;	/* where the members stop */
	const uint8_t *end;			/* where the container stops (after its key index) */
	int			object;
} pretty_frame;

typedef struct pretty
{
	const fj_kernel *kernel;	/* whose writer writes the scalars */
	const fj_allocator *a;
	fj_buf	   *out;
	size_t		max_len;
	fj_code		rc;
} pretty;

/* Make room for need more bytes; false (rc set) on failure or past the limit. */
static bool
pretty_reserve(pretty *p, size_t need)
{
	if (p->rc != FJ_OK)
		return false;
	if (p->max_len && (need > p->max_len || p->out->len > p->max_len - need))
	{
		p->rc = FJ_ERR_TOO_BIG;
		return false;
	}
	if (!fj_buf_reserve_within(p->a, p->out, need, p->max_len))
	{
		p->rc = FJ_ERR_NOMEM;
		return false;
	}
	return true;
}

/* Append n bytes. */
static void
pretty_put(pretty *p, const char *s, size_t n)
{
	if (pretty_reserve(p, n))
	{
		memcpy(p->out->data + p->out->len, s, n);
		p->out->len += n;
	}
}

/* A line break, then 4 spaces per level. */
static void
pretty_newline(pretty *p, size_t level)
{
	size_t		n = 1 + 4 * level;

	if (pretty_reserve(p, n))
	{
		uint8_t    *d = p->out->data + p->out->len;

		d[0] = '\n';
		memset(d + 1, ' ', n - 1);
		p->out->len += n;
	}
}

/* A scalar (or a key) in its canonical text. */
static void
pretty_scalar(pretty *p, const uint8_t *v)
{
	if (p->rc != FJ_OK)
		return;
	p->rc = fj_kernel_write_json(p->kernel, v, p->a, p->out);
	if (p->rc == FJ_OK && p->max_len && p->out->len > p->max_len)
		p->rc = FJ_ERR_TOO_BIG;
}

/* An object member's key and the ": " after it; returns its value. */
static const uint8_t *
pretty_key(pretty *p, const uint8_t *k)
{
	pretty_scalar(p, k);
	pretty_put(p, ": ", 2);
	return k + fj_value_size(k);
}

fj_code
fj_write_json_pretty(const fj_kernel *k, const uint8_t *v, const fj_allocator *a, fj_buf *out,
					 size_t max_len)
{
	pretty		p;
	fj_buf		frames = {0};
	pretty_frame *stack = NULL;
	size_t		depth = 0;

	p.kernel = k ? k : fj_kernel_best();
	p.a = a;
	p.out = out;
	p.max_len = max_len;
	p.rc = FJ_OK;
	if (!out->data)
		memset(out, 0, sizeof(*out));

	for (;;)
	{
		/* write the value at v; its line and indentation are already written */
		int			type = FJ_TYPE(v[0]);

		if (type == FJ_ARRAY || type == FJ_OBJECT)
		{
			pretty_put(&p, type == FJ_ARRAY ? "[" : "{", 1);
			if (fj_container_count(v) == 0)
			{
				pretty_newline(&p, depth);
				pretty_put(&p, type == FJ_ARRAY ? "]" : "}", 1);
				v += 1;
			}
			else
			{
				if (!fj_buf_push(a, &frames, sizeof(pretty_frame)))
				{
					p.rc = FJ_ERR_NOMEM;
					break;
				}
				stack = (pretty_frame *) frames.data;
				stack[depth].members_end = fj_container_members_end(v);
				stack[depth].end = v + fj_value_size(v);
				stack[depth].object = type == FJ_OBJECT;
				depth++;
				v = fj_container_members(v);
				pretty_newline(&p, depth);
				if (type == FJ_OBJECT)
					v = pretty_key(&p, v);
				if (p.rc != FJ_OK)
					break;
				continue;
			}
		}
		else
		{
			pretty_scalar(&p, v);
			v += fj_value_size(v);
		}

		/* close finished containers, then move to the next member */
		while (depth > 0 && v == stack[depth - 1].members_end)
		{
			depth--;
			frames.len -= sizeof(pretty_frame);
			pretty_newline(&p, depth);
			pretty_put(&p, stack[depth].object ? "}" : "]", 1);
			v = stack[depth].end;
		}
		if (p.rc != FJ_OK || depth == 0)
			break;
		pretty_put(&p, ",", 1);
		pretty_newline(&p, depth);
		if (stack[depth - 1].object)
			v = pretty_key(&p, v);
		if (p.rc != FJ_OK)
			break;
	}
	fj_buf_release(a, &frames);
	return p.rc;
}
