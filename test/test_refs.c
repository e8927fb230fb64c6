/*
 * test_refs.c — string references (tape version 3): the parser writes a
 * repeated string value of FJ_REF_MIN_LEN bytes or more as a reference to an
 * earlier one; containers whose members move at close keep their references
 * right; the validator accepts exactly the references and container bits the
 * format allows; the builder copies a subtree whose references point out of
 * it as a document of its own; lookups in a prefix may stop at the first
 * match in a root with distinct keys.
 *
 * The validator is the oracle for distances: a wrong distance points at
 * something other than the start of a string value, or a container's bit
 * disagrees, and the tape is rejected. The text written back is compared
 * with the minified input.
 *
 * The parser looks for repeats only from FJ_REFS_FROM bytes of tape on, so
 * each document below is padded: ["<a string of PAD bytes>", document].
 */
#include "harness.h"
#include "../src/tape_builder.h"
#include "../src/string_refs.h"

#include <stdarg.h>

/* ---------------------------------------------------------------- helpers */

#define PAD (FJ_REFS_FROM + 16)

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint64_t
next_rand(void)
{
	return t_rand(&rng);
}


static void
sb_printf(t_buf *b, const char *fmt, ...)
{
	char		tmp[2048];
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n >= (int) sizeof(tmp))
		abort();
	t_put(b, tmp, (size_t) n);
}

/* A JSON string of n copies of c. */
static void
sb_repeat(t_buf *b, char c, size_t n)
{
	t_put(b, "\"", 1);
	while (n--)
		t_put(b, &c, 1);
	t_put(b, "\"", 1);
}

/* Start a padded document: what follows starts past FJ_REFS_FROM bytes of tape. */
static void
sb_pad(t_buf *b)
{
	t_put(b, "[", 1);
	sb_repeat(b, '_', PAD);
	t_put(b, ",", 1);
}

/* The minified JSON text of a tape value. */
static char *
write_value(const uint8_t *v, size_t *len)
{
	fj_buf		out = {0};

	if (fj_write_json(v, &fj_malloc_allocator, &out) != FJ_OK)
		return NULL;
	out.data = realloc(out.data, out.len + 1);
	out.data[out.len] = 0;
	*len = out.len;
	return (char *) out.data;
}

/* Counts of what a tape holds. */
typedef struct tape_stats
{
	long		refs;			/* string references */
	long		marked;			/* containers with FJ_CONTAINER_REFS_OUT */
	long		values;			/* values visited */
	long		copies_ok;		/* subtrees copied by the builder, valid and equal */
	long		copies_bad;
} tape_stats;

/*
 * Every value of the tape at root (no recursion: a walk by position): count
 * references and marked containers, and copy every value with the builder,
 * which must give a valid tape whose text is the value's text in place.
 */
static void
walk_and_copy(const uint8_t *root, tape_stats *st)
{
	struct
	{
		const uint8_t *members_end,
				   *end;
		bool		object;
	}			stack[256];
	int			depth = 0;
	const uint8_t *v = root;

	for (;;)
	{
		fj_builder	b;
		fj_buf		out;
		size_t		la = 0,
					lb = 0;
		char	   *in_place = write_value(v, &la);
		fj_error	err;
		bool		container = FJ_TYPE(v[0]) == FJ_ARRAY || FJ_TYPE(v[0]) == FJ_OBJECT;

		st->values++;
		if (v[0] == FJ_STRING_REF)
			st->refs++;
		if (container && (FJ_IMM(v[0]) & FJ_CONTAINER_REFS_OUT))
			st->marked++;
		fj_builder_init(&b, NULL, 0);
		fj_builder_value(&b, v);
		if (fj_builder_finish(&b, &out) == FJ_OK &&
			fj_validate_tape(out.data, out.len, 0, NULL, &err) == FJ_OK)
		{
			char	   *copied = write_value(out.data + FJ_TAPE_HEADER, &lb);

			if (in_place && copied && la == lb && memcmp(in_place, copied, la) == 0)
				st->copies_ok++;
			else
				st->copies_bad++;
			free(copied);
			fj_buf_release(&fj_malloc_allocator, &out);
		}
		else
			st->copies_bad++;
		free(in_place);

		/* on to the next value: into a container, else past this one */
		if (container && fj_container_count(v) > 0 && depth < 256)
		{
			stack[depth].members_end = fj_container_members_end(v);
			stack[depth].end = v + fj_value_size(v);
			stack[depth].object = FJ_TYPE(v[0]) == FJ_OBJECT;
			depth++;
			v = fj_container_members(v);
		}
		else
		{
			v += fj_value_size(v);
			while (depth > 0 && v == stack[depth - 1].members_end)
				v = stack[--depth].end;
			if (depth == 0)
				return;
		}
		if (stack[depth - 1].object)
			v += fj_value_size(v);	/* the key */
	}
}

/*
 * Parse json (already minified): the tape must validate, write back as json,
 * and parse again to the same bytes; every subtree must copy. Returns the
 * stats, adding to the caller's.
 */
static void
check_doc(const char *json, size_t len, const char *what, tape_stats *total)
{
	fj_buf		t,
				again;
	fj_error	err;
	tape_stats	st = {0};
	size_t		wlen = 0;
	char	   *written;

	if (fj_parse(json, len, NULL, &t, &err) != FJ_OK)
	{
		CHECKF(0, "%s: parse failed: %s at %zu", what, err.message, err.offset);
		return;
	}
	CHECKF(fj_validate_tape(t.data, t.len, 0, NULL, &err) == FJ_OK,
		   "%s: the parser's tape is invalid: %s at %zu", what, err.message, err.offset);
	written = write_value(t.data + FJ_TAPE_HEADER, &wlen);
	CHECKF(written && wlen == len && memcmp(written, json, len) == 0, "%s: written text differs", what);
	CHECKF(written && fj_parse(written, wlen, NULL, &again, &err) == FJ_OK && again.len == t.len &&
		   memcmp(again.data, t.data, t.len) == 0, "%s: a second parse gives another tape", what);
	fj_buf_release(&fj_malloc_allocator, &again);
	walk_and_copy(t.data + FJ_TAPE_HEADER, &st);
	CHECKF(st.copies_bad == 0, "%s: %ld of %ld subtrees did not copy", what, st.copies_bad, st.values);
	total->refs += st.refs;
	total->marked += st.marked;
	total->values += st.values;
	total->copies_ok += st.copies_ok;
	total->copies_bad += st.copies_bad;
	free(written);
	fj_buf_release(&fj_malloc_allocator, &t);
}

/* The number of references in the tape of json. */
static long
refs_in(const char *json)
{
	fj_buf		t;
	fj_error	err;
	tape_stats	st = {0};

	if (fj_parse(json, strlen(json), NULL, &t, &err) != FJ_OK)
		return -1;
	walk_and_copy(t.data + FJ_TAPE_HEADER, &st);
	fj_buf_release(&fj_malloc_allocator, &t);
	return st.copies_bad ? -1 : st.refs;
}

/* ------------------------------------------------------------------ tests */

/* Which strings become references, and which never do. */
static void
test_which(void)
{
	t_buf		b = {0};

	char		x[FJ_REF_MIN_LEN + 1];

	/* FJ_REF_MIN_LEN bytes: referenced; one less: not */
	sb_pad(&b);
	sb_repeat(&b, 'a', FJ_REF_MIN_LEN);
	t_put(&b, ",", 1);
	sb_repeat(&b, 'a', FJ_REF_MIN_LEN);
	t_put(&b, ",", 1);
	sb_repeat(&b, 'b', FJ_REF_MIN_LEN - 1);
	t_put(&b, ",", 1);
	sb_repeat(&b, 'b', FJ_REF_MIN_LEN - 1);
	t_put(&b, "]", 1);
	CHECK(refs_in(b.s) == 1);
	b.len = 0;

	/* not before FJ_REFS_FROM bytes of tape */
	t_put(&b, "[", 1);
	sb_repeat(&b, 'a', FJ_REF_MIN_LEN);
	t_put(&b, ",", 1);
	sb_repeat(&b, 'a', FJ_REF_MIN_LEN);
	t_put(&b, "]", 1);
	CHECK(refs_in(b.s) == 0);
	b.len = 0;

	/* keys are never references, nor referenced */
	sb_pad(&b);
	t_put(&b, "{", 1);
	sb_repeat(&b, 'k', 100);
	t_put(&b, ":1,", 3);
	sb_repeat(&b, 'k', 100);
	t_put(&b, ":", 1);
	sb_repeat(&b, 'k', 100);
	t_put(&b, "}]", 2);
	CHECK(refs_in(b.s) == 0);
	b.len = 0;

	/* the unescaped length counts: FJ_REF_MIN_LEN + 1 bytes of input, 2 fewer of text */
	memset(x, 'x', FJ_REF_MIN_LEN - 3);
	x[FJ_REF_MIN_LEN - 3] = 0;
	sb_pad(&b);
	sb_printf(&b, "\"%s\\n\\n\",\"%s\\n\\n\"]", x, x);
	CHECK(refs_in(b.s) == 0);
	b.len = 0;

	/* escaped and plain spellings of one text: one reference */
	memset(x, 'y', FJ_REF_MIN_LEN);
	x[FJ_REF_MIN_LEN] = 0;
	sb_pad(&b);
	sb_printf(&b, "\"\\u00e9%s\",\"\xc3\xa9%s\"]", x, x);
	CHECK(refs_in(b.s) == 1);
	free(b.s);
}

/*
 * Containers whose members move when they close, with references that point
 * out of them and strings remembered inside them: the header guessed from the
 * sibling before is too small, too large, or an indexed object's front key
 * index has to fit in.
 */
static void
test_moves(void)
{
	static const char *const shapes[] = {
		/* grows: the sibling before led with 3 bytes, this one needs 5 */
		"[S,[\"x\"],[S,F]]",
		/* shrinks: the sibling before led with 5, this one needs 3 */
		"[S,[F],[S]]",
		/* an indexed object: a front key index moves its members */
		"[S,{\"a\":S,\"b\":1,\"c\":2,\"d\":3,\"e\":4,\"f\":5,\"g\":6,\"h\":7,\"i\":8}]",
		/* a string remembered inside a container that moves, referenced after it */
		"[[\"x\"],[S,F],S,[S]]",
		/* nested moves: both levels guess wrong */
		"[S,[[\"x\"]],[[S,F],F],S]",
		/* a reference to a string before the root's first member, from deep inside */
		"{\"s\":S,\"d\":[[[[[[S]]]]]],\"e\":{\"f\":{\"g\":[S,F]}}}",
	};
	size_t		i;
	tape_stats	st = {0};

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
	{
		t_buf		b = {0};
		const char *p;

		sb_pad(&b);
		for (p = shapes[i]; *p; p++)
			if (*p == 'S')
				sb_repeat(&b, 's', FJ_REF_MIN_LEN + 16);
			else if (*p == 'F')
				sb_repeat(&b, 'f', 300);	/* filler: the container passes 255 bytes */
			else
				t_put(&b, p, 1);
		t_put(&b, "]", 1);
		check_doc(b.s, b.len, shapes[i], &st);
		CHECKF(refs_in(b.s) > 0, "%s: no reference written", shapes[i]);
		free(b.s);
	}
	CHECK(st.marked > 0);
}

/* A pool string: the phrase three times, long enough to be referenced. */
static void
sb_pool(t_buf *b, const char *phrase)
{
	int			r;

	t_put(b, "\"", 1);
	for (r = 0; r < 3; r++)
		t_put(b, phrase, strlen(phrase));
	t_put(b, "\"", 1);
}

/*
 * A random document, minified and canonical (as the writer writes it), with
 * long strings from a small pool.
 */
static void
gen_value(t_buf *b, int depth)
{
	static const char *const pool[] = {
		"https://api.example.com/repos/octocat/hello-world/issues/comments/1234567?page=2&per_page=100&sort=created",
		"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.",
		"caf\xc3\xa9" " cr\xc3\xa8" "me br\xc3\xbb" "l\xc3\xa9" "e \xf0\x9f\x98\x80" " and a few more words, to be long enough for a reference",
		"line one\\nline two\\tafter a tab \\\\ and a backslash \\\" and a quote, long enough to be referenced",
		"\xe6\x9d\xb1\xe4\xba\xac\xe9\x83\xbd \xe6\xb8\x8b\xe8\xb0\xb7\xe5\x8c\xba 1-2-3, a street address that is long enough to be referenced later on",
	};
	unsigned	kind = (unsigned) (next_rand() % (depth > 4 ? 3 : 6));
	unsigned	n,
				i;

	switch (kind)
	{
		case 0:
			sb_pool(b, pool[next_rand() % 5]);
			break;
		case 1:
			sb_printf(b, "%d", (int) (next_rand() % 100000) - 50000);
			break;
		case 2:
			/* a long string made once, sometimes repeated by the pool above */
			if (next_rand() % 2)
			{
				char		c = (char) ('a' + next_rand() % 4);

				sb_repeat(b, c, FJ_REF_MIN_LEN - 4 + next_rand() % 10);
			}
			else
				sb_pool(b, pool[next_rand() % 5]);
			break;
		case 3:
		case 4:
			n = next_rand() % 4 == 0 ? 40 : 6;	/* one call a statement: a fixed order */
			n = (unsigned) (next_rand() % n);
			t_put(b, "[", 1);
			for (i = 0; i < n; i++)
			{
				if (i)
					t_put(b, ",", 1);
				gen_value(b, depth + 1);
			}
			t_put(b, "]", 1);
			break;
		default:
			n = next_rand() % 4 == 0 ? 20 : 6;
			n = (unsigned) (next_rand() % n);
			t_put(b, "{", 1);
			for (i = 0; i < n; i++)
			{
				if (i)
					t_put(b, ",", 1);
				sb_printf(b, "\"k%u\":", (unsigned) (next_rand() % 30));
				gen_value(b, depth + 1);
			}
			t_put(b, "}", 1);
	}
}

static void
test_random(void)
{
	tape_stats	st = {0};
	int			d;

	for (d = 0; d < 400; d++)
	{
		t_buf		b = {0};
		char		what[32];

		sb_pad(&b);
		gen_value(&b, 0);
		t_put(&b, ",", 1);
		gen_value(&b, 0);
		t_put(&b, "]", 1);
		snprintf(what, sizeof(what), "random document %d", d);
		check_doc(b.s, b.len, what, &st);
		free(b.s);
	}
	printf("random: %ld values, %ld references, %ld marked containers, %ld subtree copies\n",
		   st.values, st.refs, st.marked, st.copies_ok);
	CHECK(st.refs > 1000 && st.marked > 1000);
}

/* A container over 64 KB (4-byte header) that moves, with references out of it. */
static void
test_large(void)
{
	t_buf		b = {0};
	tape_stats	st = {0};
	int			i;

	sb_pad(&b);
	sb_repeat(&b, 'L', FJ_REF_MIN_LEN + 4);
	t_put(&b, ",[1],[", 6);
	for (i = 0; i < 1000; i++)
	{
		sb_repeat(&b, 'L', FJ_REF_MIN_LEN + 4);
		t_put(&b, ",", 1);
	}
	t_put(&b, "1],", 3);
	sb_repeat(&b, 'L', FJ_REF_MIN_LEN + 4);
	t_put(&b, "]", 1);
	check_doc(b.s, b.len, "large", &st);
	CHECK(st.refs == 1001);
	free(b.s);
}

/*
 * Every one-byte change of some tapes with references: the validator rejects
 * it, or accepts a tape that writes and whose every subtree copies.
 */
static void
test_mutants(void)
{
	static const char *const docs[] = {
		"[S,[\"x\"],[S,{\"k\":S}],S]",
		"{\"a\":S,\"b\":{\"c\":[S,1]},\"a\":S}",
	};
	size_t		d;
	long		accepted = 0,
				rejected = 0;

	for (d = 0; d < sizeof(docs) / sizeof(docs[0]); d++)
	{
		t_buf		b = {0};
		const char *p;
		fj_buf		t;
		fj_error	err;
		size_t		pos;

		sb_pad(&b);
		for (p = docs[d]; *p; p++)
			if (*p == 'S')
				sb_repeat(&b, 'm', FJ_REF_MIN_LEN);
			else
				t_put(&b, p, 1);
		t_put(&b, "]", 1);
		if (fj_parse(b.s, b.len, NULL, &t, &err) != FJ_OK)
		{
			CHECK(0);
			continue;
		}
		for (pos = 0; pos < t.len; pos++)
		{
			unsigned	byte;

			/* the texts of the padding and of S: any byte there is just another string */
			if ((pos >= 16 && pos < PAD) || (pos > 0 && t.data[pos] == 'm' && t.data[pos - 1] == 'm'))
				continue;
			for (byte = 0; byte < 256; byte++)
			{
				uint8_t    *copy = malloc(t.len);

				memcpy(copy, t.data, t.len);
				if (copy[pos] == byte)
				{
					free(copy);
					continue;
				}
				copy[pos] = (uint8_t) byte;
				if (fj_validate_tape(copy, t.len, 0, NULL, &err) == FJ_OK)
				{
					tape_stats	st = {0};

					accepted++;
					walk_and_copy(copy + FJ_TAPE_HEADER, &st);
					CHECKF(st.copies_bad == 0, "mutant of %s at %zu (%02x) accepted but does not copy", docs[d], pos, byte);
				}
				else
					rejected++;
				free(copy);
			}
		}
		fj_buf_release(&fj_malloc_allocator, &t);
		free(b.s);
	}
	printf("mutants: %ld accepted (and copied), %ld rejected\n", accepted, rejected);
}

/* The distinct-keys flag, and prefix lookups that stop at the first match. */
static void
test_flags(void)
{
	static const struct
	{
		const char *json;
		uint8_t		flags;
	}			cases[] = {
		{"{\"a\":1,\"b\":2}", FJ_FLAG_DISTINCT_ROOT_KEYS},
		{"{\"a\":1,\"a\":2}", 0},
		{"{\"a\":{\"x\":1,\"x\":2}}", FJ_FLAG_DISTINCT_ROOT_KEYS},
		{"{}", 0},
		{"[{\"a\":1}]", 0},
		{"{\"1\":1,\"2\":2,\"3\":3,\"4\":4,\"5\":5,\"6\":6,\"7\":7,\"8\":8}", FJ_FLAG_DISTINCT_ROOT_KEYS},
		{"{\"1\":1,\"2\":2,\"3\":3,\"4\":4,\"5\":5,\"6\":6,\"7\":7,\"8\":8,\"9\":9}", 0},
		{"{\"abcdefghij\":1,\"abcdefghik\":2}", FJ_FLAG_DISTINCT_ROOT_KEYS},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		fj_buf		t;
		fj_error	err;

		if (fj_parse(cases[i].json, strlen(cases[i].json), NULL, &t, &err) != FJ_OK)
		{
			CHECK(0);
			continue;
		}
		CHECKF(t.data[1] == cases[i].flags, "%s: flags %u", cases[i].json, t.data[1]);
		/* the builder sets the same flags */
		{
			fj_builder	b;
			fj_buf		out;

			fj_builder_init(&b, NULL, 0);
			fj_builder_value(&b, t.data + FJ_TAPE_HEADER);
			CHECK(fj_builder_finish(&b, &out) == FJ_OK && out.data[1] == cases[i].flags);
			fj_buf_release(&fj_malloc_allocator, &out);
		}
		fj_buf_release(&fj_malloc_allocator, &t);
	}

	/*
	 * A small root with distinct keys: its first member is found in a
	 * prefix that ends right after it; without the flag the whole object
	 * is needed (a later duplicate would win).
	 */
	{
		const char *json = "{\"id\":7,\"payload\":[1,2,3,4,5,6,7,8,9,10],\"end\":true}";
		fj_buf		t;
		fj_error	err;
		const uint8_t *root,
				   *v = NULL;
		size_t		avail;

		if (fj_parse(json, strlen(json), NULL, &t, &err) == FJ_OK)
		{
			root = t.data + FJ_TAPE_HEADER;
			fj_window	w;

			avail = (size_t) (fj_object_get(root, "id", 2) - root) + 1;
			w = (fj_window) {.avail = avail};
			CHECK(fj_object_get_window(root, &w, "id", 2, true, &v) == FJ_FOUND && fj_int_value(v) == 7);
			w = (fj_window) {.avail = avail};
			CHECK(fj_object_get_window(root, &w, "id", 2, false, &v) == FJ_MORE);
			fj_buf_release(&fj_malloc_allocator, &t);
		}
	}
}

/* Version 2 tapes (no references, no flags) are still valid. */
static void
test_version2(void)
{
	static const uint8_t v2[] = {2, 0, FJ_TAG(FJ_OBJECT, 1), 3, 1, FJ_TAG(FJ_STRING, 1), 'a', FJ_TAG(FJ_UINT, 1)};
	static const uint8_t v2_flag[] = {2, 1, FJ_TAG(FJ_OBJECT, 1), 3, 1, FJ_TAG(FJ_STRING, 1), 'a', FJ_TAG(FJ_UINT, 1)};
	fj_error	err;

	CHECK(fj_validate_tape(v2, sizeof(v2), 0, NULL, &err) == FJ_OK);
	CHECK(fj_validate_tape(v2_flag, sizeof(v2_flag), 0, NULL, &err) == FJ_ERR_TAPE);
}

int
main(void)
{
	test_which();
	test_moves();
	test_random();
	test_large();
	test_mutants();
	test_flags();
	test_version2();
	return t_summary("test_refs");
}
