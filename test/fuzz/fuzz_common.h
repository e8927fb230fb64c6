/*
 * fuzz_common.h — shared by the libFuzzer targets in test/fuzz/: a strict,
 * counting allocator with failure injection, failure reporting, the kernel
 * list, and a walk over a tape that checks the readers (fj_object_get,
 * fj_array_get) against a plain scan of the members.
 *
 * Every violation ends in fz_fail(), which prints what went wrong and calls
 * abort(), so libFuzzer records the input as a crash.
 *
 * Only the public core API (src/fj_core.h, src/tape.h) is used.
 */
#ifndef FJ_FUZZ_COMMON_H
#define FJ_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/fj_core.h"
#include "../../src/tape.h"
#include "../../src/tape_builder.h"

/* ------------------------------------------------------------- failures */

static const uint8_t *fz_input;	/* the current input, for the report */
static size_t fz_input_len;

static void
fz_print_bytes(const char *label, const uint8_t *p, size_t len, size_t max)
{
	size_t		i;

	fprintf(stderr, "%s (%zu bytes): \"", label, len);
	for (i = 0; i < len && i < max; i++)
	{
		uint8_t		c = p[i];

		if (c == '"' || c == '\\')
			fprintf(stderr, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, stderr);
		else
			fprintf(stderr, "\\x%02x", c);
	}
	fprintf(stderr, "\"%s\n", len > max ? " ..." : "");
}

__attribute__((noreturn, format(printf, 1, 2)))
static void
fz_fail(const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "\n==== fastjson fuzz check failed: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (fz_input)
		fz_print_bytes("input", fz_input, fz_input_len, 512);
	abort();
}

/*
 * Whether a known, reported bug is to be tolerated: FJ_FUZZ_KNOWN in the
 * environment lists names (comma-separated) of checks to relax, so a long run
 * can get past a bug that is already reported. Nothing is relaxed by default.
 */
static inline int
fz_known(const char *name)
{
	const char *env = getenv("FJ_FUZZ_KNOWN");
	size_t		n = strlen(name);

	while (env && *env)
	{
		const char *comma = strchr(env, ',');
		size_t		len = comma ? (size_t) (comma - env) : strlen(env);

		if (len == n && strncmp(env, name, n) == 0)
			return 1;
		env = comma ? comma + 1 : NULL;
	}
	return 0;
}

#define FZ_CHECK(cond, ...) do { if (!(cond)) fz_fail(__VA_ARGS__); } while (0)

static const char *const fz_code_names[] = {
	"FJ_OK", "FJ_ERR_SYNTAX", "FJ_ERR_UTF8", "FJ_ERR_DEPTH", "FJ_ERR_TOO_BIG",
	"FJ_ERR_NOMEM", "FJ_ERR_TAPE", "FJ_ERR_INTERRUPTED", "FJ_ERR_CBOR", "FJ_ERR_DUPLICATE_KEY"
};

static inline const char *
fz_code_name(fj_code c)
{
	return (unsigned) c < sizeof(fz_code_names) / sizeof(fz_code_names[0]) ? fz_code_names[c] : "(unknown code)";
}

/* Index of the first differing byte of two buffers (the shorter length if a prefix). */
static inline size_t
fz_first_diff(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	size_t		n = alen < blen ? alen : blen,
				i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			break;
	return i;
}

/* FNV-1a of the input: deterministic per input, for choices a harness makes. */
static inline uint64_t
fz_hash(const uint8_t *p, size_t len)
{
	uint64_t	h = 0xcbf29ce484222325ULL;
	size_t		i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* ------------------------------------------------------------ allocator */

/*
 * A strict allocator: each block carries a header with a magic and its size;
 * grow always moves the block (copying only old_size bytes and filling the
 * rest with junk), so stale pointers are use-after-free for ASan and a caller
 * that relies on more than old_size bytes surviving gets different output;
 * fresh blocks are filled with junk too. It counts live blocks and calls, and
 * fails the fail_at-th call (1-based; 0: never).
 */
typedef struct fz_alloc_state
{
	long		live;			/* blocks allocated and not released */
	long		calls;			/* alloc and grow calls so far */
	long		fail_at;		/* the call that returns NULL, 0 for none */
	int			failed;			/* a call was failed */
} fz_alloc_state;

#define FZ_MAGIC 0x6a66757a7a414c43ULL	/* "jfuzzALC" */
#define FZ_HDR 16
#define FZ_JUNK 0xbe
#define FZ_MAX_ALLOC ((size_t) 1 << 30)

static void *
fz_alloc(void *ctx, size_t size)
{
	fz_alloc_state *st = ctx;
	uint8_t    *b;

	st->calls++;
	if (st->fail_at && st->calls == st->fail_at)
	{
		st->failed = 1;
		return NULL;
	}
	FZ_CHECK(size <= FZ_MAX_ALLOC, "allocator asked for %zu bytes", size);
	b = malloc(FZ_HDR + size);
	FZ_CHECK(b != NULL, "malloc(%zu) failed", size);
	((uint64_t *) b)[0] = FZ_MAGIC;
	((uint64_t *) b)[1] = size;
	memset(b + FZ_HDR, FZ_JUNK, size);
	st->live++;
	return b + FZ_HDR;
}

static size_t
fz_block_size(void *ptr, const char *what)
{
	uint8_t    *b = (uint8_t *) ptr - FZ_HDR;

	FZ_CHECK(((uint64_t *) b)[0] == FZ_MAGIC, "%s of a pointer the allocator did not return (%p)", what, ptr);
	return (size_t) ((uint64_t *) b)[1];
}

static void
fz_release(void *ctx, void *ptr)
{
	fz_alloc_state *st = ctx;
	uint8_t    *b;

	if (!ptr)
		return;
	b = (uint8_t *) ptr - FZ_HDR;
	memset(b + FZ_HDR, 0xdf, fz_block_size(ptr, "release"));
	((uint64_t *) b)[0] = 0;
	free(b);
	st->live--;
	FZ_CHECK(st->live >= 0, "more blocks released than allocated");
}

static void *
fz_grow(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	size_t		have;
	uint8_t    *n;

	FZ_CHECK(ptr != NULL, "grow(NULL, %zu, %zu)", old_size, new_size);
	have = fz_block_size(ptr, "grow");
	FZ_CHECK(old_size <= have, "grow keeps old_size %zu bytes of a %zu-byte block", old_size, have);
	FZ_CHECK(new_size >= old_size, "grow shrinks a block from %zu to %zu bytes", old_size, new_size);
	/* a failed grow leaves the block alone (counted by fz_alloc) */
	n = fz_alloc(ctx, new_size);
	if (!n)
		return NULL;
	memcpy(n, ptr, old_size);
	fz_release(ctx, ptr);
	return n;
}

static inline fj_allocator
fz_allocator(fz_alloc_state *st)
{
	fj_allocator a = {fz_alloc, fz_grow, fz_release, st};

	memset(st, 0, sizeof(*st));
	return a;
}

/* --------------------------------------------------------------- kernels */

static const fj_kernel *fz_kernels[8];	/* supported ones; scalar first */
static size_t fz_nkernels;
static const fj_kernel *fz_scalar;

static inline void
fz_init_kernels(void)
{
	const fj_kernel *all[8];
	size_t		n,
				i;

	if (fz_nkernels)
		return;
	n = fj_kernel_list(all, 8);
	if (n > 8)
		n = 8;
	fz_scalar = fj_kernel_by_name("scalar");
	FZ_CHECK(fz_scalar && fj_kernel_supported(fz_scalar), "no scalar kernel");
	fz_kernels[fz_nkernels++] = fz_scalar;
	for (i = 0; i < n; i++)
		if (all[i] != fz_scalar && fj_kernel_supported(all[i]))
			fz_kernels[fz_nkernels++] = all[i];
	fprintf(stderr, "fastjson fuzz: kernels compared:");
	for (i = 0; i < fz_nkernels; i++)
		fprintf(stderr, " %s", fj_kernel_name(fz_kernels[i]));
	fprintf(stderr, "\n");
}

/* -------------------------------------------------------------- readers */

/*
 * A copy of the valid tape at t with every string reference written as its
 * string (version 3, flags set): where references are placed is the writer's
 * choice, so tapes are compared without them.
 */
static inline fj_buf
fz_expanded(const uint8_t *t, const fj_allocator *a)
{
	fj_builder	b;
	fj_buf		out;

	fj_builder_init(&b, a, 0);
	b.expand_refs = true;
	fj_builder_value(&b, t + FJ_TAPE_HEADER);
	if (fj_builder_finish(&b, &out) != FJ_OK)
		fz_fail("the builder cannot copy a valid tape");
	return out;
}

/* The value after an object member's key at k. */
static inline const uint8_t *
fz_key_value(const uint8_t *k, const uint8_t **text, uint32_t *len)
{
	*len = fj_text(k, text);
	return *text + *len;
}

/* The expected fj_object_get result: the value of the last member with the key, by a plain scan. */
static const uint8_t *
fz_expect_get(const uint8_t *const *keys, const uint8_t *const *vals, uint32_t n,
			  const uint8_t *key, size_t len)
{
	uint32_t	i = n;

	while (i-- > 0)
	{
		const uint8_t *t;
		uint32_t	tl = fj_text(keys[i], &t);

		if (tl == len && (len == 0 || memcmp(t, key, len) == 0))
			return vals[i];
	}
	return NULL;
}

static void
fz_probe_key(const uint8_t *obj, const uint8_t *const *keys, const uint8_t *const *vals, uint32_t n,
			 const uint8_t *key, size_t len)
{
	const uint8_t *want = fz_expect_get(keys, vals, n, key, len);
	const uint8_t *got = fj_object_get(obj, (const char *) key, len);

	if (got != want)
	{
		fz_print_bytes("key", key, len, 200);
		fz_fail("fj_object_get on an object of %u members (%s) returns %s%p, expected %s%p (tape offset of object %p)",
				n, (FJ_IMM(obj[0]) & FJ_CONTAINER_INDEXED) ? "with key index" : "no key index",
				got ? "" : "NULL ", (const void *) got, want ? "" : "NULL ", (const void *) want,
				(const void *) obj);
	}
}

/* Check fj_object_get on every key of the object at obj, and on keys it lacks. */
static void
fz_check_object(const uint8_t *obj, uint64_t seed)
{
	uint32_t	count = fj_container_count(obj);
	const uint8_t *p = fj_container_members(obj);
	const uint8_t *end = fj_container_members_end(obj);
	const uint8_t **keys = malloc(sizeof(*keys) * (count + 1));
	const uint8_t **vals = malloc(sizeof(*vals) * (count + 1));
	uint8_t    *probe;
	uint32_t	n = 0,
				i,
				step;
	size_t		maxk = 0;

	while (p < end)
	{
		const uint8_t *t;
		uint32_t	tl;

		FZ_CHECK(n < count, "object holds more members than its count %u", count);
		FZ_CHECK(FJ_TYPE(p[0]) == FJ_STRING, "object key is not a string");
		keys[n] = p;
		vals[n] = fz_key_value(p, &t, &tl);
		if (tl > maxk)
			maxk = tl;
		p = vals[n] + fj_value_size(vals[n]);
		n++;
	}
	FZ_CHECK(p == end, "object members overrun the members' end");
	FZ_CHECK(n == count, "object holds %u members, its count says %u", n, count);

	probe = malloc(maxk + 2);
	/* all keys when few, else a spread of them (the scan is O(n) per probe) */
	step = n <= 256 ? 1 : n / 128;
	for (i = (uint32_t) (seed % step); i < n; i += step)
	{
		const uint8_t *t;
		uint32_t	tl = fj_text(keys[i], &t);

		fz_probe_key(obj, keys, vals, n, t, tl);
		/* near misses: longer, shorter, one byte changed (usually absent) */
		memcpy(probe, t, tl);
		probe[tl] = (uint8_t) ('a' + (seed + i) % 26);
		fz_probe_key(obj, keys, vals, n, probe, tl + 1);
		if (tl > 0)
		{
			fz_probe_key(obj, keys, vals, n, t, tl - 1);
			probe[tl - 1 - (seed + i) % tl] ^= 1;
			fz_probe_key(obj, keys, vals, n, probe, tl);
		}
	}
	fz_probe_key(obj, keys, vals, n, (const uint8_t *) "", 0);
	fz_probe_key(obj, keys, vals, n, (const uint8_t *) "\xff\xfe missing", 10);
	free(probe);
	free(keys);
	free(vals);
}

/* Check fj_array_get for indexes -n-1..n (a spread of them in long arrays) and extremes. */
static void
fz_check_array(const uint8_t *arr, uint64_t seed)
{
	uint32_t	count = fj_container_count(arr);
	const uint8_t *p = fj_container_members(arr);
	const uint8_t *end = fj_container_members_end(arr);
	const uint8_t **elems = malloc(sizeof(*elems) * (count + 1));
	uint32_t	n = 0;
	int64_t		i,
				step;
	static const int64_t extremes[] = {INT64_MIN, INT64_MIN + 1, -((int64_t) 1 << 32), -((int64_t) 1 << 32) - 1,
	(int64_t) 1 << 32, INT64_MAX, (int64_t) UINT32_MAX, -(int64_t) UINT32_MAX};
	size_t		e;

	FZ_CHECK(!(FJ_IMM(arr[0]) & FJ_CONTAINER_INDEXED), "array with a key index");
	while (p < end)
	{
		FZ_CHECK(n < count, "array holds more elements than its count %u", count);
		elems[n++] = p;
		p += fj_value_size(p);
	}
	FZ_CHECK(p == end, "array elements overrun the members' end");
	FZ_CHECK(n == count, "array holds %u elements, its count says %u", n, count);

	step = n <= 256 ? 1 : n / 64;
	for (i = -(int64_t) n - 1; i <= (int64_t) n; i++)
	{
		const uint8_t *want,
				   *got;

		if (step > 1 && i > -(int64_t) n + 2 && i < (int64_t) n - 2 && i != -1 && i != 0 && i != 1 &&
			(uint64_t) (i + (int64_t) seed) % (uint64_t) step != 0)
			continue;
		want = i >= (int64_t) n || i < -(int64_t) n ? NULL : elems[i < 0 ? i + n : i];
		got = fj_array_get(arr, i);
		FZ_CHECK(got == want, "fj_array_get(array of %u, %lld) returns %p, expected %p",
				 n, (long long) i, (const void *) got, (const void *) want);
	}
	for (e = 0; e < sizeof(extremes) / sizeof(extremes[0]); e++)
		FZ_CHECK(fj_array_get(arr, extremes[e]) == NULL, "fj_array_get(array of %u, %lld) is not NULL",
				 n, (long long) extremes[e]);
	free(elems);
}

/*
 * Walk every value of a valid tape (iteratively, in document order): check
 * the readers on each container, that the non-containers refuse to be read
 * as containers, and that sizes add up. Returns the deepest nesting (a
 * container at top level is depth 1, empty ones count).
 */
typedef struct fz_wframe
{
	const uint8_t *members_end;
	const uint8_t *end;
} fz_wframe;

static inline uint32_t
fz_walk_tape(const uint8_t *tape, size_t len, uint64_t seed)
{
	const uint8_t *v = tape + FJ_TAPE_HEADER;
	const uint8_t *limit = tape + len;
	fz_wframe  *stack = NULL;
	size_t		depth = 0,
				cap = 0;
	uint32_t	maxdepth = 0;

	FZ_CHECK(len > FJ_TAPE_HEADER && fj_value_size(v) == len - FJ_TAPE_HEADER,
			 "root value size %zu, tape holds %zu bytes after the header",
			 len > FJ_TAPE_HEADER ? fj_value_size(v) : 0, len - FJ_TAPE_HEADER);
	for (;;)
	{
		int			type = FJ_TYPE(v[0]);

		FZ_CHECK(v < limit && v + fj_value_size(v) <= (depth ? stack[depth - 1].members_end : limit),
				 "value at tape offset %zu runs past its container", (size_t) (v - tape));
		if (type != FJ_OBJECT)
			FZ_CHECK(fj_object_get(v, "", 0) == NULL && fj_object_get(v, "a", 1) == NULL,
					 "fj_object_get on a non-object (type %d) is not NULL", type);
		if (type != FJ_ARRAY)
			FZ_CHECK(fj_array_get(v, 0) == NULL && fj_array_get(v, -1) == NULL,
					 "fj_array_get on a non-array (type %d) is not NULL", type);
		if (type == FJ_OBJECT || type == FJ_ARRAY)
		{
			uint32_t	count = fj_container_count(v);

			if (depth + 1 > maxdepth)
				maxdepth = (uint32_t) (depth + 1);
			if (type == FJ_OBJECT)
				fz_check_object(v, seed + (uint64_t) (v - tape));
			else
				fz_check_array(v, seed + (uint64_t) (v - tape));
			if (count > 0)
			{
				if (depth == cap)
				{
					cap = cap ? cap * 2 : 64;
					stack = realloc(stack, cap * sizeof(*stack));
				}
				stack[depth].members_end = fj_container_members_end(v);
				stack[depth].end = v + fj_value_size(v);
				depth++;
				v = fj_container_members(v);
				continue;
			}
		}
		v += fj_value_size(v);
		while (depth > 0 && v == stack[depth - 1].members_end)
			v = stack[--depth].end;
		if (depth == 0)
			break;
	}
	FZ_CHECK(v == limit, "walk ends at tape offset %zu of %zu", (size_t) (v - tape), len);
	free(stack);
	return maxdepth;
}

#endif							/* FJ_FUZZ_COMMON_H */
