/*
 * test_core.c — unit tests of the core: tape encodings, lookups, the text
 * writer, errors and their offsets, limits, and the tape validator.
 */
#include "harness.h"
#include "../src/tape_builder.h"
#include "../src/tape_writer.h"
#include "../src/pglz_prefix.h"

#include <stdint.h>

/* Parse s with the default kernel; returns the tape (without prefix) or NULL. */
static uint8_t *
parse(const char *s, size_t *tape_len, fj_error *err)
{
	fj_buf		b;
	fj_error	e;

	if (!err)
		err = &e;
	if (fj_parse(s, strlen(s), NULL, &b, err) != FJ_OK)
		return NULL;
	*tape_len = b.len;
	return b.data;
}

/* Parse s and write it back; a malloc'd string or NULL. */
static char *
roundtrip(const char *s)
{
	size_t		n;
	uint8_t    *t = parse(s, &n, NULL);
	fj_buf		out = {0};

	if (!t)
		return NULL;
	fj_write_json(t + FJ_TAPE_HEADER, &fj_malloc_allocator, &out);
	free(t);
	out.data = realloc(out.data, out.len + 1);
	out.data[out.len] = 0;
	return (char *) out.data;
}

static void
expect_out(const char *in, const char *want)
{
	char	   *got = roundtrip(in);

	CHECKF(got && strcmp(got, want) == 0, "%s: got %s, want %s", in, got ? got : "(error)", want);
	free(got);
}

static void
expect_error(const char *in, fj_code code, size_t offset)
{
	fj_error	err;
	size_t		n;
	uint8_t    *t = parse(in, &n, &err);

	CHECKF(!t && err.code == code && err.offset == offset,
		   "%s: got code %d offset %zu (%s), want code %d offset %zu",
		   in, t ? 0 : (int) err.code, t ? 0 : err.offset, t ? "accepted" : err.message,
		   (int) code, offset);
	free(t);
}

/* The tape bytes of s equal want[0..n). */
static void
expect_tape(const char *s, const uint8_t *want, size_t n)
{
	size_t		len;
	uint8_t    *t = parse(s, &len, NULL);

	CHECKF(t && len == n + FJ_TAPE_HEADER && memcmp(t + FJ_TAPE_HEADER, want, n) == 0,
		   "tape of %s differs", s);
	free(t);
}

static void
test_encodings(void)
{
	/* the worked example of doc/format.md */
	static const uint8_t example[] = {
		0xc1, 0x0d, 0x02,		/* object, 1-byte size 13, count 2 */
		0x81, 'a',				/* key "a" */
		0x21,					/* 1 */
		0x81, 'b',				/* key "b" */
		0xa1, 0x05, 0x03,		/* array, size 5, count 3 */
		0x02,					/* true */
		0x00,					/* null */
		0xe3, 0xe1, 0x00		/* packed "1.0": 3 characters, nibbles 1 . 0 and a zero pad */
	};
	static const uint8_t ints[] = {
		0x37,					/* 23 inline */
		0x38, 24,				/* 24: one byte */
		0x39, 0x00, 0x01,		/* 256: two bytes */
		0x3a, 0x00, 0x00, 0x01, 0x00,	/* 65536: four bytes */
		0x40,					/* -1 */
		0x58, 0x18				/* -25: magnitude 24 */
	};

	{
		size_t		len;
		uint8_t    *t = parse("{\"a\":1,\"b\":[true,null,1.0]}", &len, NULL);

		/* an object of two distinct keys: the flags byte says so */
		CHECK(t && t[0] == FJ_TAPE_VERSION && t[1] == FJ_FLAG_DISTINCT_ROOT_KEYS);
		free(t);
	}
	{
		size_t		len;
		uint8_t    *t = parse("[23,24,256,65536,-1,-25]", &len, NULL);

		CHECK(t && len == FJ_TAPE_HEADER + 3 + sizeof(ints));
		CHECK(t && memcmp(t + FJ_TAPE_HEADER + 3, ints, sizeof(ints)) == 0);
		free(t);
	}
	{
		size_t		len;
		uint8_t    *t = parse("{\"a\":1,\"b\":[true,null,1.0]}", &len, NULL);

		CHECK(t && len == FJ_TAPE_HEADER + sizeof(example));
		CHECK(t && memcmp(t + FJ_TAPE_HEADER, example, sizeof(example)) == 0);
		free(t);
	}
	/* scalars at the root, empty containers */
	expect_tape("null", (const uint8_t *) "\x00", 1);
	expect_tape(" false ", (const uint8_t *) "\x01", 1);
	expect_tape("true", (const uint8_t *) "\x02", 1);
	expect_tape("[]", (const uint8_t *) "\xa0", 1);
	expect_tape("{}", (const uint8_t *) "\xc0", 1);
	expect_tape("\"\"", (const uint8_t *) "\x80", 1);
	expect_tape("0", (const uint8_t *) "\x20", 1);
	expect_tape("-0", (const uint8_t *) "\xe2\x0d", 2);	/* packed: '-' is 0xd, '0' is 0 */
}

/*
 * The decimal text of integers (fj_put_u64_text, which writes digits in
 * place from the digit count): against printf at both sides of every power
 * of ten and at random, and no byte written past the digits.
 */
static void
test_integer_text(void)
{
	uint64_t	rng = 0x1d1d1d1dULL,
				p = 1;
	int			k,
				ok = 1;

	for (k = 0; k <= 20000; k++)
	{
		uint64_t	v;
		char		want[32];
		uint8_t		got[32];
		uint8_t    *end;

		if (k < 60)
			v = k % 3 == 0 ? p - 1 : k % 3 == 1 ? p : p + 1;
		else if (k == 60)
			v = UINT64_MAX;
		else
			v = t_rand(&rng) >> (t_rand(&rng) % 64);
		if (k < 60 && k % 3 == 2 && p <= UINT64_MAX / 10)
			p *= 10;
		snprintf(want, sizeof(want), "%llu", (unsigned long long) v);
		memset(got, '#', sizeof(got));
		end = fj_put_u64_text(got, v);
		ok &= (size_t) (end - got) == strlen(want) && memcmp(got, want, strlen(want)) == 0 &&
			*end == '#';
	}
	CHECK(ok);
}

static void
test_numbers(void)
{
	static const char *const same[] = {
		"0", "-0", "1", "-1", "23", "24", "-24", "-25", "255", "256", "65535", "65536",
		"4294967295", "4294967296", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
		"1.0", "1e2", "1E2", "1e+2", "1e-2", "0.1000", "-0.0", "1.5e300", "1e400", "-1e-400",
		"0e0", "0.0000000000000000000000001", "[1,2.5,-3e4]",
		"0.5", "-0.000", "10.50", "1234567890.123456789", "12345678901.123456789",
		"0.000000000000000001", "0.0000000000000000001", "999999999999999999.9",
		"9999999999999999999.0", "-18446744073709551.615", "[0.1,-0.25,3.14159]",
		"-1234567890123456789012345678901234567.8", "-12345678901234567890123456789012345678.9",
		"[-0,-0.0,0.00,1.0e0]"
	};
	size_t		i;

	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		expect_out(same[i], same[i]);
	/* integers that fit int64 are UINT/NINT; others keep their text */
	{
		size_t		len;
		uint8_t    *t = parse("9223372036854775807", &len, NULL);

		CHECK(t && FJ_TYPE(t[2]) == FJ_UINT && fj_int_value(t + 2) == INT64_MAX);
		free(t);
		t = parse("-9223372036854775808", &len, NULL);
		CHECK(t && FJ_TYPE(t[2]) == FJ_NINT && fj_int_value(t + 2) == INT64_MIN);
		free(t);
		t = parse("9223372036854775808", &len, NULL);
		CHECK(t && FJ_TYPE(t[2]) == FJ_PACKED);
		free(t);
		t = parse("-9223372036854775809", &len, NULL);
		CHECK(t && FJ_TYPE(t[2]) == FJ_PACKED);
		free(t);
		t = parse("-0", &len, NULL);
		CHECK(t && FJ_TYPE(t[2]) == FJ_PACKED);
		free(t);
	}
	/* a number without exponent of up to 40 characters is PACKED; others keep their text */
	{
		static const struct
		{
			const char *text;
			int			type;
		}			kinds[] = {
			{"0.5", FJ_PACKED}, {"-0.0", FJ_PACKED}, {"10.50", FJ_PACKED}, {"-0", FJ_PACKED},
			{"9223372036854775808", FJ_PACKED}, {"1234567890123456789012345678901234567890", FJ_PACKED},
			{"12345678901234567890123456789012345678901", FJ_NUMBER}, {"1.5e3", FJ_NUMBER},
			{"1E2", FJ_NUMBER}, {"0.6394267984578837", FJ_PACKED}, {"7", FJ_UINT},
		};

		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		{
			size_t		len;
			uint8_t    *t = parse(kinds[i].text, &len, NULL);

			CHECKF(t && FJ_TYPE(t[2]) == kinds[i].type, "encoding of %s", kinds[i].text);
			CHECKF(t && len == FJ_TAPE_HEADER + fj_value_size(t + 2), "size of %s", kinds[i].text);
			free(t);
		}
	}
	/* packed nibbles: "-0.5" is d 0 e 5 */
	expect_tape("-0.5", (const uint8_t *) "\xe4\x0d\x5e", 3);
	expect_tape("10.50", (const uint8_t *) "\xe5\x01\x5e\x00", 4);
	expect_error("01", FJ_ERR_SYNTAX, 0);
	expect_error("[1.]", FJ_ERR_SYNTAX, 1);
	expect_error("[.5]", FJ_ERR_SYNTAX, 1);
	expect_error("[1e]", FJ_ERR_SYNTAX, 1);
	expect_error("[1e+]", FJ_ERR_SYNTAX, 1);
	expect_error("[-]", FJ_ERR_SYNTAX, 1);
	expect_error("[+1]", FJ_ERR_SYNTAX, 1);
	expect_error("[0x10]", FJ_ERR_SYNTAX, 1);
	expect_error("[1 2]", FJ_ERR_SYNTAX, 3);
	expect_error("[NaN]", FJ_ERR_SYNTAX, 1);
	expect_error("[Infinity]", FJ_ERR_SYNTAX, 1);
	expect_error("[12a]", FJ_ERR_SYNTAX, 1);
}

static void
test_strings(void)
{
	expect_out("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\"");
	expect_out("\"\\u00e9\\u20AC\\ud83d\\ude00\"", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	expect_out("\"\\u0000\"", "\"\\u0000\"");
	expect_out("\"\\u001f\\u007f\"", "\"\\u001f\x7f\"");
	expect_out("\"caf\xc3\xa9\"", "\"caf\xc3\xa9\"");
	/* a long string with an escape near the end keeps a short header */
	{
		char		in[80],
					want[80];

		memset(in, 'x', sizeof(in));
		in[0] = '"';
		memcpy(in + 1 + 26, "\\n", 2);
		in[29] = '"';
		in[30] = 0;
		expect_out(in, in);
		/* 28 raw bytes, 27 decoded: header shrinks to one byte */
		{
			size_t		len;
			uint8_t    *t = parse(in, &len, NULL);

			CHECK(t && t[2] == FJ_TAG(FJ_STRING, 27) && len == 2 + 1 + 27);
			free(t);
		}
		(void) want;
	}
	expect_error("\"abc", FJ_ERR_SYNTAX, 0);
	expect_error("[\"a\\x\"]", FJ_ERR_SYNTAX, 3);
	expect_error("[\"\\u12\"]", FJ_ERR_SYNTAX, 2);
	expect_error("[\"\\ud800\"]", FJ_ERR_SYNTAX, 2);
	expect_error("[\"\\udc00\"]", FJ_ERR_SYNTAX, 2);
	expect_error("[\"\\ud800\\u0041\"]", FJ_ERR_SYNTAX, 2);
	expect_error("[\"a\tb\"]", FJ_ERR_SYNTAX, 3);
	expect_error("[\"a\nb\"]", FJ_ERR_SYNTAX, 3);
	expect_error("[\"\xc3\"]", FJ_ERR_UTF8, 2);
	expect_error("[\"\xed\xa0\x80\"]", FJ_ERR_UTF8, 2);
	expect_error("[\"\xc0\xaf\"]", FJ_ERR_UTF8, 2);
	expect_error("[\"\xf4\x90\x80\x80\"]", FJ_ERR_UTF8, 2);
	expect_error("[\"ok\"]\xff", FJ_ERR_UTF8, 6);
	/* invalid UTF-8 right after a number or literal is a UTF-8 error there */
	expect_error("[3\xff]", FJ_ERR_UTF8, 2);
	expect_error("[true\xc0\xaf]", FJ_ERR_UTF8, 5);
	expect_error("[3\xc3\xa9]", FJ_ERR_SYNTAX, 1);
	expect_error("3\xe2", FJ_ERR_UTF8, 1);
}

static void
test_structure(void)
{
	expect_out(" { \"a\" : [ 1 , { } , [ ] ] , \"b\" : null } ", "{\"a\":[1,{},[]],\"b\":null}");
	expect_out("{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":2}");
	expect_error("", FJ_ERR_SYNTAX, 0);
	expect_error("   ", FJ_ERR_SYNTAX, 3);
	expect_error("[", FJ_ERR_SYNTAX, 1);
	expect_error("[1,]", FJ_ERR_SYNTAX, 3);
	expect_error("{\"a\" 1}", FJ_ERR_SYNTAX, 5);
	expect_error("{\"a\":1,}", FJ_ERR_SYNTAX, 7);
	expect_error("{1:1}", FJ_ERR_SYNTAX, 1);
	expect_error("[1]]", FJ_ERR_SYNTAX, 3);
	expect_error("[1}", FJ_ERR_SYNTAX, 2);
	expect_error("{\"a\":1]", FJ_ERR_SYNTAX, 6);
	expect_error("tru", FJ_ERR_SYNTAX, 0);
	expect_error("truex", FJ_ERR_SYNTAX, 0);
	expect_error("nul", FJ_ERR_SYNTAX, 0);
	expect_error("1 1", FJ_ERR_SYNTAX, 2);
	expect_error("\"a\"\"b\"", FJ_ERR_SYNTAX, 3);
	expect_error("[1\"a\"]", FJ_ERR_SYNTAX, 1);
	expect_error("/* */ 1", FJ_ERR_SYNTAX, 0);
	expect_error("\xef\xbb\xbf{}", FJ_ERR_SYNTAX, 0);
}

/* Build {"k0":0,...,"k<n-1>":n-1} plus a duplicate of k3 at the end. */
static char *
big_object(int n)
{
	char	   *s = malloc((size_t) n * 24 + 64);
	char	   *p = s;
	int			i;

	*p++ = '{';
	for (i = n - 1; i >= 0; i--)
		p += sprintf(p, "\"k%d\":%d,", i, i);
	p += sprintf(p, "\"k3\":\"last\"}");
	return s;
}

static void
test_lookup(void)
{
	int			sizes[] = {3, 16, 17, 40, 63, 64, 300, 20000};
	size_t		si;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
	{
		int			n = sizes[si];
		char	   *s = big_object(n);
		size_t		len;
		uint8_t    *t = parse(s, &len, NULL);
		const uint8_t *root = t ? t + FJ_TAPE_HEADER : NULL;
		int			i,
					ok = 1;

		CHECK(t != NULL);
		if (!t)
		{
			free(s);
			continue;
		}
		CHECK(((FJ_IMM(root[0]) & FJ_CONTAINER_INDEXED) != 0) == (n + 1 > FJ_KEY_INDEX_MIN));
		CHECK(fj_container_count(root) == (uint32_t) n + 1);
		for (i = 0; i < n; i++)
		{
			char		key[16];
			const uint8_t *v;

			sprintf(key, "k%d", i);
			v = fj_object_get(root, key, strlen(key));
			if (i == 3)
			{
				const uint8_t *text;

				ok &= v && FJ_TYPE(v[0]) == FJ_STRING && fj_text(v, &text) == 4 && memcmp(text, "last", 4) == 0;
			}
			else
				ok &= v && FJ_TYPE(v[0]) == FJ_UINT && fj_int_value(v) == i;
		}
		CHECKF(ok, "lookups in an object of %d keys", n);
		if (FJ_IMM(root[0]) & FJ_CONTAINER_INDEXED)
		{
			/*
			 * The key index leads the members up to 64 members, as its
			 * fingerprints alone, and follows them beyond, with offsets.
			 */
			unsigned	w = fj_container_width(root[0]);
			bool		first = n + 1 <= FJ_KEY_INDEX_FRONT_MAX && w != 4;
			size_t		isize = first ? (size_t) n + 1 : fj_key_index_size((uint32_t) n + 1, w);

			CHECKF(first == (n + 1 <= 64), "key index placement for %d members", n + 1);
			CHECKF(((FJ_IMM(root[0]) & FJ_CONTAINER_FP_ONLY) != 0) == first,
				   "fingerprints-only key index for %d members", n + 1);
			CHECK(fj_key_index(root) == (first ? root + 1 + 2 * w : fj_container_members_end(root)));
			CHECK(fj_container_members(root) == root + 1 + 2 * w + (first ? isize : 0));
			CHECK(fj_container_members_end(root) + (first ? 0 : isize) == root + fj_value_size(root));
		}
		CHECK(fj_object_get(root, "missing", 7) == NULL);
		CHECK(fj_object_get(root, "k", 1) == NULL);
		CHECK(fj_object_get(root, "", 0) == NULL);
		CHECK(fj_validate_tape(t, len, 0, NULL, &(fj_error) {0}) == FJ_OK);
		free(t);
		free(s);
	}
	{
		size_t		len;
		uint8_t    *t = parse("[10,[20],{\"a\":30},\"x\",null]", &len, NULL);
		const uint8_t *root = t + FJ_TAPE_HEADER;

		CHECK(fj_int_value(fj_array_get(root, 0)) == 10);
		CHECK(FJ_TYPE(fj_array_get(root, 1)[0]) == FJ_ARRAY);
		CHECK(fj_int_value(fj_object_get(fj_array_get(root, 2), "a", 1)) == 30);
		CHECK(fj_array_get(root, -1)[0] == FJ_TAG(FJ_LITERAL, FJ_NULL));
		CHECK(fj_int_value(fj_array_get(root, -5)) == 10);
		CHECK(fj_array_get(root, 5) == NULL);
		CHECK(fj_array_get(root, -6) == NULL);
		CHECK(fj_object_get(root, "a", 1) == NULL);
		CHECK(fj_array_get(fj_array_get(root, 2), 0) == NULL);
		/* skipping any value is O(1): its size is in its header */
		CHECK(fj_value_size(root) == len - FJ_TAPE_HEADER);
		free(t);
	}
	/* an object of 64 KB or more keeps its key index after the members, whatever its count */
	{
		size_t		len,
					pos = 0;
		char	   *s = malloc(12 * 7000 + 64);
		uint8_t    *t;
		const uint8_t *root;
		int			i;

		s[pos++] = '{';
		for (i = 0; i < 12; i++)
		{
			pos += (size_t) sprintf(s + pos, "%s\"k%d\":\"", i ? "," : "", i);
			memset(s + pos, 'a' + i, 6000);
			pos += 6000;
			s[pos++] = '"';
		}
		s[pos++] = '}';
		s[pos] = 0;
		t = parse(s, &len, NULL);
		root = t + FJ_TAPE_HEADER;
		CHECK(FJ_IMM(root[0]) & FJ_CONTAINER_INDEXED);
		CHECK(fj_container_width(root[0]) == 4);
		CHECK(fj_key_index(root) == fj_container_members_end(root));
		CHECK(fj_container_members(root) == root + 9);
		for (i = 0; i < 12; i++)
		{
			char		key[16];
			const uint8_t *v,
					   *text;

			sprintf(key, "k%d", i);
			v = fj_object_get(root, key, strlen(key));
			CHECK(v && fj_text(v, &text) == 6000 && text[0] == 'a' + i);
		}
		CHECK(fj_validate_tape(t, len, 0, NULL, &(fj_error) {0}) == FJ_OK);
		free(t);
		free(s);
	}
	/* "" and a key that is a prefix of others in an indexed object */
	{
		size_t		len;
		uint8_t    *t = parse("{\"\":1,\"a\":2,\"aa\":3,\"b\":4,\"c\":5,\"d\":6,\"e\":7,\"f\":8,\"g\":9,"
							  "\"h\":10,\"i\":11,\"j\":12,\"k\":13,\"l\":14,\"m\":15,\"n\":16,\"\":17}", &len, NULL);
		const uint8_t *root = t + FJ_TAPE_HEADER;

		CHECK(FJ_IMM(root[0]) & FJ_CONTAINER_INDEXED);
		CHECK(fj_int_value(fj_object_get(root, "", 0)) == 17);
		CHECK(fj_int_value(fj_object_get(root, "a", 1)) == 2);
		CHECK(fj_int_value(fj_object_get(root, "aa", 2)) == 3);
		CHECK(fj_object_get(root, "aaa", 3) == NULL);
		free(t);
	}
}

/*
 * The value v written as version 3 writes it: every key index with its
 * offsets, and the narrowest width for that (v holds no string reference).
 * Returns the bytes written at out.
 */
static size_t
to_v3_form(const uint8_t *v, uint8_t *out)
{
	int			type = FJ_TYPE(v[0]);
	uint8_t    *members;
	const uint8_t *p,
			   *end;
	uint32_t	count,
				i,
			   *offs;
	size_t		msize = 0,
				isize = 0;
	unsigned	w,
				wclass;
	bool		indexed,
				first;

	if ((type != FJ_OBJECT && type != FJ_ARRAY) || fj_value_size(v) == 1)
	{
		memcpy(out, v, fj_value_size(v));
		return fj_value_size(v);
	}
	count = fj_container_count(v);
	members = malloc(fj_value_size(v) * 2 + 64);
	offs = malloc(count * sizeof(uint32_t));
	p = fj_container_members(v);
	end = fj_container_members_end(v);
	for (i = 0; p < end; i++)
	{
		if (type == FJ_OBJECT)
		{
			offs[i] = (uint32_t) msize;
			memcpy(members + msize, p, fj_value_size(p));
			msize += fj_value_size(p);
			p += fj_value_size(p);
		}
		msize += to_v3_form(p, members + msize);
		p += fj_value_size(p);
	}
	indexed = type == FJ_OBJECT && count > FJ_KEY_INDEX_MIN;
	if (msize + (indexed ? fj_key_index_size(count, 1) : 0) <= 0xff)
		w = 1, wclass = 1;
	else if (msize + (indexed ? fj_key_index_size(count, 2) : 0) <= 0xffff)
		w = 2, wclass = 2;
	else
		w = 4, wclass = 3;
	isize = indexed ? fj_key_index_size(count, w) : 0;
	first = indexed && fj_key_index_first(count, w);
	out[0] = FJ_TAG(type, wclass | (indexed ? FJ_CONTAINER_INDEXED : 0) | (FJ_IMM(v[0]) & FJ_CONTAINER_REFS_OUT));
	memcpy(out + 1, &(uint32_t) {(uint32_t) (msize + isize)}, w);
	memcpy(out + 1 + w, &count, w);
	p = out + 1 + 2 * w + (first ? 0 : msize);
	if (!first)
		memcpy(out + 1 + 2 * w, members, msize);
	if (indexed)
	{
		uint8_t    *ix = (uint8_t *) p;

		for (i = 0; i < count; i++)
		{
			const uint8_t *key;
			uint32_t	klen = fj_text(members + offs[i], &key);

			ix[i] = fj_key_fingerprint(key, klen);
			memcpy(ix + count + (size_t) i * w, &offs[i], w);
		}
	}
	if (first)
		memcpy(out + 1 + 2 * w + isize, members, msize);
	free(members);
	free(offs);
	return 1 + 2 * w + msize + isize;
}

/* Whether the two values are the same JSON text. */
static bool
same_json(const uint8_t *a, const uint8_t *b)
{
	fj_buf		x = {0},
				y = {0};
	bool		same;

	same = fj_write_json(a, &fj_malloc_allocator, &x) == FJ_OK &&
		fj_write_json(b, &fj_malloc_allocator, &y) == FJ_OK &&
		x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
	fj_buf_release(&fj_malloc_allocator, &x);
	fj_buf_release(&fj_malloc_allocator, &y);
	return same;
}

/*
 * Key indexes in both forms: version 4 writes a front index as fingerprints
 * alone, version 3 wrote offsets too. A version 3 tape, and a version 4 tape
 * holding a value copied out of one, read the same; a version 3 tape never
 * has a fingerprints-only index.
 */
static void
test_key_index_forms(void)
{
	int			sizes[] = {9, 16, 40, 64, 65, 300};
	size_t		si;
	long		v3_fronts = 0;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]) * 2; si++)
	{
		int			n = sizes[si % 6],
					i;
		bool		nested = si >= 6;
		size_t		pos = 0,
					len,
					len3;
		char	   *s = malloc((size_t) n * 128 + 64);
		uint8_t    *t,
				   *t3;
		const uint8_t *root,
				   *root3;
		bool		ok = true;
		fj_error	err;

		/* n members, duplicate keys among them; nested: each a small indexed object too */
		s[pos++] = '{';
		for (i = 0; i < n; i++)
			pos += (size_t) sprintf(s + pos, nested ? "%s\"k%d\":{\"a%d\":%d,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":[%d]}" : "%s\"k%d\":%d",
									i ? "," : "", i % (n - 2), i, i, i);
		s[pos++] = '}';
		s[pos] = 0;
		t = parse(s, &len, NULL);
		CHECK(t != NULL);
		if (!t)
		{
			free(s);
			continue;
		}
		root = t + FJ_TAPE_HEADER;
		t3 = malloc(len * 2 + 64);
		t3[0] = 3;
		t3[1] = t[1];
		len3 = FJ_TAPE_HEADER + to_v3_form(root, t3 + FJ_TAPE_HEADER);
		root3 = t3 + FJ_TAPE_HEADER;
		if (fj_key_index_first((uint32_t) n, fj_container_width(root3[0])))
		{
			v3_fronts++;
			CHECKF(len3 > len, "%d members: offsets make the tape longer", n);
		}
		CHECKF(!(FJ_IMM(root3[0]) & FJ_CONTAINER_FP_ONLY), "%d members: version 3 form", n);
		CHECKF(fj_validate_tape(t3, len3, 0, NULL, &err) == FJ_OK, "%d members: version 3 tape valid", n);
		CHECK(same_json(root, root3));
		for (i = 0; i < n + 2; i++)
		{
			char		key[16];
			const uint8_t *a,
					   *b;

			sprintf(key, "k%d", i);
			a = fj_object_get(root, key, strlen(key));
			b = fj_object_get(root3, key, strlen(key));
			ok &= (a == NULL) == (b == NULL) && (!a || same_json(a, b));
			if (nested && a)
			{
				sprintf(key, "i");
				a = fj_object_get(a, key, 1);
				b = fj_object_get(b, key, 1);
				ok &= a && b && same_json(a, b);
			}
		}
		CHECKF(ok, "%d members%s: lookups in both forms agree", n, nested ? ", nested" : "");
		/* a value copied out of a version 3 tape into a version 4 one */
		t3[0] = 4;
		CHECKF(fj_validate_tape(t3, len3, 0, NULL, &err) == FJ_OK, "%d members: version 3 form in version 4", n);
		/* a fingerprints-only index in a version 3 tape */
		t[0] = 3;
		if (fj_key_index_first((uint32_t) n, fj_container_width(root[0])) || nested)
			CHECKF(fj_validate_tape(t, len, 0, NULL, &err) == FJ_ERR_TAPE && err.reason == FJ_R_TAPE_CONTAINER_BITS,
				   "%d members: fingerprints-only index in version 3 rejected", n);
		else
			CHECK(fj_validate_tape(t, len, 0, NULL, &err) == FJ_OK);
		t[0] = 4;
		CHECK(fj_validate_tape(t, len, 0, NULL, &err) == FJ_OK);
		free(t);
		free(t3);
		free(s);
	}
	CHECK(v3_fronts >= 4);
	/* the fingerprints-only bit where it may not be */
	{
		static const struct
		{
			const char *bytes;
			size_t		len;
		}			bad[] = {
			{"\x04\x00\xb1\x01\x01\x20", 6},	/* on an array */
			{"\x04\x00\xd1\x03\x01\x80\x20", 7},	/* on an object without a key index */
		};
		fj_error	err;
		size_t		i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			CHECKF(fj_validate_tape((const uint8_t *) bad[i].bytes, bad[i].len, 0, NULL, &err) == FJ_ERR_TAPE &&
				   err.reason == FJ_R_TAPE_CONTAINER_BITS, "bad fingerprints-only bit %zu accepted", i);
	}
	/* on a trailing index (more than 64 members): the offsets are then missing */
	{
		char	   *s = malloc(100 * 16 + 8);
		size_t		pos = 0,
					len;
		uint8_t    *t;
		int			i;
		fj_error	err;

		s[pos++] = '{';
		for (i = 0; i < 100; i++)
			pos += (size_t) sprintf(s + pos, "%s\"k%d\":%d", i ? "," : "", i, i);
		s[pos++] = '}';
		s[pos] = 0;
		t = parse(s, &len, NULL);
		CHECK(t && !(FJ_IMM(t[2]) & FJ_CONTAINER_FP_ONLY));
		t[2] |= FJ_CONTAINER_FP_ONLY;
		CHECK(fj_validate_tape(t, len, 0, NULL, &err) == FJ_ERR_TAPE && err.reason == FJ_R_TAPE_CONTAINER_BITS);
		free(t);
		free(s);
	}
}

/*
 * Keys of every length up to 40 against keys that differ from them in one
 * byte at each position, or in length only: key comparison goes by head and
 * tail words up to 16 bytes, and the fingerprint reads at most 16.
 */
static void
test_key_lengths(void)
{
	int			members[] = {6, 44};	/* a scanned object and an indexed one */
	size_t		mi;
	int			len;
	uint8_t		key[48];

	/* the search fingerprint equals the one the parser stores (read with 8 bytes to spare) */
	for (len = 0; len <= 40; len++)
	{
		uint8_t		padded[48 + 8];
		uint64_t	ref = 0;
		int			i;

		for (i = 0; i < len; i++)
			key[i] = padded[i] = (uint8_t) (0x41 + (i * 7) % 50);
		memset(padded + len, 0xee, 8);
		CHECKF(fj_key_fingerprint(key, (size_t) len) == fj_key_fingerprint_padded(padded, (size_t) len),
			   "fingerprint of a %d-byte key", len);
		for (i = 0; i < len && i < 8; i++)
			ref |= (uint64_t) key[i] << (8 * i);
		CHECKF(fj_load_upto8(key, (size_t) (len < 8 ? len : 8)) == ref, "load of %d bytes", len);
	}
	for (mi = 0; mi < sizeof(members) / sizeof(members[0]); mi++)
		for (len = 0; len <= 40; len++)
		{
			char		json[4096];
			size_t		pos = 0,
						tlen;
			int			i,
						pad,
						ok = 1;
			uint8_t    *t;
			const uint8_t *root;

			for (i = 0; i < len; i++)
				key[i] = (uint8_t) ('a' + i % 26);
			/*
			 * The wanted key last, after its one-byte variants (at every
			 * position; in the scanned object only the first, middle and
			 * last, to stay under the index threshold) and its neighbours
			 * in length.
			 */
			json[pos++] = '{';
			for (i = 0; i < len; i++)
				if (mi == 1 || i == 0 || i == len / 2 || i == len - 1)
					pos += (size_t) sprintf(json + pos, "\"%.*s%c%.*s\":0,", i, (const char *) key,
										key[i] == 'z' ? 'y' : 'z', len - i - 1, (const char *) key + i + 1);
			if (len > 0)
				pos += (size_t) sprintf(json + pos, "\"%.*s\":0,", len - 1, (const char *) key);
			pos += (size_t) sprintf(json + pos, "\"%.*sa\":0,", len, (const char *) key);
			for (pad = len + 2; pad < members[mi]; pad++)
				pos += (size_t) sprintf(json + pos, "\"#%d\":0,", pad);
			pos += (size_t) sprintf(json + pos, "\"%.*s\":1}", len, (const char *) key);
			t = parse(json, &tlen, NULL);
			CHECK(t != NULL);
			if (!t)
				continue;
			root = t + FJ_TAPE_HEADER;
			CHECK(((FJ_IMM(root[0]) & FJ_CONTAINER_INDEXED) != 0) == (mi == 1));
			ok &= fj_int_value(fj_object_get(root, (const char *) key, (size_t) len)) == 1;
			for (i = 0; i < len; i++)
			{
				uint8_t		other[48];

				memcpy(other, key, (size_t) len);
				other[i] = key[i] == 'z' ? 'y' : 'z';
				if (mi == 1 || i == 0 || i == len / 2 || i == len - 1)
					ok &= fj_int_value(fj_object_get(root, (const char *) other, (size_t) len)) == 0;
				other[i] = '?';
				ok &= fj_object_get(root, (const char *) other, (size_t) len) == NULL;
			}
			CHECKF(ok, "lookups of a %d-byte key among %d members", len, members[mi]);
			free(t);
		}
}

/*
 * Check the prefix lookups of container c (size bytes) for one key or index
 * against the whole-tape lookup, for every prefix length (a sample of them
 * in large containers): found gives the same value, wholly inside the
 * prefix; absent agrees; "more" asks for more than it has and no more than
 * the container, and never when the container is all there. Each prefix is
 * a copy in a block of its own size, so that the sanitizer build catches a
 * read past it. With head_only (a path's step before the last), a container
 * found need only have its head in the prefix, and is found whenever the
 * lookup without it finds it.
 */
static int
check_prefix(const uint8_t *c, size_t size, const char *key, int64_t index)
{
	const uint8_t *want = key ? fj_object_get(c, key, strlen(key)) : fj_array_get(c, index);
	size_t		avail;
	int			ok = 1;

	for (avail = 0; avail <= size; avail++)
	{
		const uint8_t *v = NULL;
		size_t		need = 0;
		fj_found	r;
		uint8_t    *prefix;

		if (size > 4096 && avail > 300 && avail < size - 300 && avail % 97 != 0)
			continue;
		prefix = malloc(avail ? avail : 1);
		memcpy(prefix, c, avail);
		fj_window	w = {.avail = avail};

		r = key ? fj_object_get_window(prefix, &w, key, strlen(key), false, &v)
			: fj_array_get_window(prefix, &w, index, &v);
		need = w.need_to;
		if (r == FJ_FOUND)
			ok &= want && v - prefix == want - c && (size_t) (v - prefix) + fj_value_size(v) <= avail &&
				memcmp(v, want, fj_value_size(want)) == 0;
		else if (r == FJ_ABSENT)
			ok &= want == NULL;
		else
			ok &= avail < size && need > avail && need <= size;
		{
			fj_window	h = {.avail = avail, .head_only = true};
			const uint8_t *hv = NULL;
			fj_found	hr = key ? fj_object_get_window(prefix, &h, key, strlen(key), false, &hv)
				: fj_array_get_window(prefix, &h, index, &hv);

			if (hr == FJ_FOUND)
				ok &= want && hv - prefix == want - c &&
					(size_t) (hv - prefix) + (fj_is_container(want) ? fj_value_head_size(want[0])
											  : fj_value_size(want)) <= avail;
			else if (hr == FJ_ABSENT)
				ok &= want == NULL && r == FJ_ABSENT;
			else
				ok &= r == FJ_MORE && h.need_to > avail && h.need_to <= size;
		}
		free(prefix);
	}
	return ok;
}

/*
 * The same for a tape of which only parts of blocks (of 64 bytes here) are
 * there, in random patterns (a block absent, whole, or a prefix of it), the
 * container starting origin bytes into the tape: found gives the same
 * value, every byte of it there (of a container, its head, when the lookup
 * is a path's inner step, head_only); absent agrees; "more" names bytes of the
 * container of which one is missing. Then, decoding what "more" asks for
 * (by prefix, as the server does), again and again, always ends in the
 * answer.
 */
static int
check_sparse(const uint8_t *c, size_t size, const char *key, int64_t index, uint64_t *rng)
{
	const uint8_t *want = key ? fj_object_get(c, key, strlen(key)) : fj_array_get(c, index);
	size_t		origin = (size_t) (t_rand(rng) % 200),
				nblocks = (origin + size + 63) / 64,
				b,
				i;
	uint16_t   *have = calloc(nblocks, sizeof(uint16_t));
	int			ok = 1,
				round;
	bool		head_only = t_rand(rng) % 2 == 0;	/* half the time, as a path's inner step */

	for (b = 0; b < nblocks; b++)
	{
		unsigned	k = (unsigned) (t_rand(rng) % 4);

		have[b] = k == 0 ? 64 : k == 1 ? (uint16_t) (t_rand(rng) % 65) : 0;
	}
	/* there: byte i of the tape */
#define THERE(i) (have[(i) / 64] > (i) % 64)
	for (round = 0; round < 10000; round++)
	{
		fj_window	w = {.avail = size, .have = have, .origin = origin, .block_log2 = 6, .head_only = head_only};
		const uint8_t *v = NULL;
		fj_found	r = key ? fj_object_get_window(c, &w, key, strlen(key), false, &v)
			: fj_array_get_window(c, &w, index, &v);

		if (r == FJ_FOUND)
		{
			size_t		from = origin + (size_t) (v - c),
						to = from + (head_only && fj_is_container(v) ? fj_value_head_size(v[0]) : fj_value_size(v));

			ok &= v == want;
			for (i = from; i < to; i++)
				ok &= THERE(i);
			break;
		}
		if (r == FJ_ABSENT)
		{
			ok &= want == NULL;
			break;
		}
		/* a range of the container with a byte missing */
		if (!(w.need_from < w.need_to && w.need_to <= size))
		{
			ok = 0;
			break;
		}
		{
			int			missing = 0;

			for (i = origin + w.need_from; i < origin + w.need_to; i++)
				if (!THERE(i))
				{
					/* its block decoded up to the end of the range (or whole) */
					size_t		end = origin + w.need_to - (i / 64) * 64;

					have[i / 64] = (uint16_t) (end < 64 ? end : 64);
					missing = 1;
				}
			ok &= missing;
		}
	}
#undef THERE
	free(have);
	return ok && round < 10000;
}

/* Every member key, missing keys and indexes, in every container of the documents below. */
static void
test_prefix_lookup(void)
{
	const char *docs[] = {
		"{\"a\":1,\"b\":\"two\",\"a\":[3,4],\"c\":{\"d\":null}}",
		"[1,-300,70000,-5000000000,1.5,\"sss\",[],{},{\"x\":true},123456789012345678901234567890]",
		"\"scalar\"",
		"{}",
		NULL,					/* 20 members with values of every size class (front index) */
		NULL,					/* 100 members (trailing index) */
		NULL,					/* a member over 64 KB first: the index goes after the members */
	};
	char	   *gen[3];
	size_t		d;
	int			i,
				s;
	uint64_t	rng_sparse = 0x5eed5eed5eedULL;

	for (i = 0; i < 3; i++)
	{
		size_t		cap = 200000,
					pos = 0;
		int			n = i == 0 ? 20 : i == 1 ? 100 : 12,
					m;

		gen[i] = malloc(cap);
		gen[i][pos++] = '{';
		for (m = 0; m < n; m++)
		{
			int			vlen = i == 2 && m == 0 ? 70000 : (m * 37) % 300;

			pos += (size_t) sprintf(gen[i] + pos, "%s\"key%d\":", m ? "," : "", m % (n - 3));
			if (m % 4 == 0)
			{
				gen[i][pos++] = '"';
				memset(gen[i] + pos, 'a' + m % 26, (size_t) vlen);
				pos += (size_t) vlen;
				gen[i][pos++] = '"';
			}
			else if (m % 4 == 1)
				pos += (size_t) sprintf(gen[i] + pos, "%d", m * 1000003);
			else if (m % 4 == 2)
				pos += (size_t) sprintf(gen[i] + pos, "[%d,{\"in\":%d},\"s%d\"]", m, m, m);
			else
				pos += (size_t) sprintf(gen[i] + pos, "-%d.25", m);
		}
		gen[i][pos++] = '}';
		gen[i][pos] = 0;
		docs[4 + i] = gen[i];
	}
	for (d = 0; d < sizeof(docs) / sizeof(docs[0]); d++)
	{
		size_t		len;
		uint8_t    *t = parse(docs[d], &len, NULL);
		const uint8_t *stack[64];
		int			depth = 0,
					ok = 1,
					ok_sparse = 1;

		CHECK(t != NULL);
		if (!t)
			continue;
		stack[depth++] = t + FJ_TAPE_HEADER;
		/* every container of the document, by an explicit walk */
		while (depth > 0)
		{
			const uint8_t *c = stack[--depth];
			size_t		size = fj_value_size(c);
			const uint8_t *p,
					   *end;
			char		missing[16];
			int64_t		k;

			if (FJ_TYPE(c[0]) != FJ_OBJECT && FJ_TYPE(c[0]) != FJ_ARRAY)
			{
				ok &= check_prefix(c, size, "a", 0) && check_prefix(c, size, NULL, 0);
				continue;
			}
			p = fj_container_members(c);
			end = fj_container_members_end(c);
			while (p < end)
			{
				const uint8_t *v = p;

				if (FJ_TYPE(c[0]) == FJ_OBJECT)
				{
					const uint8_t *kt;
					uint32_t	kl = fj_text(p, &kt);
					char		key[32];

					snprintf(key, sizeof(key), "%.*s", (int) kl, (const char *) kt);
					ok &= check_prefix(c, size, key, 0);
					for (s = 0; s < 4; s++)
						ok_sparse &= check_sparse(c, size, key, 0, &rng_sparse);
					v = kt + kl;
				}
				if ((FJ_TYPE(v[0]) == FJ_OBJECT || FJ_TYPE(v[0]) == FJ_ARRAY) && depth < 64)
					stack[depth++] = v;
				p = v + fj_value_size(v);
			}
			snprintf(missing, sizeof(missing), "key%d", 999);
			ok &= check_prefix(c, size, missing, 0) && check_prefix(c, size, "", 0);
			for (k = -12; k <= 12; k++)
			{
				ok &= check_prefix(c, size, NULL, k);
				ok_sparse &= check_sparse(c, size, NULL, k, &rng_sparse);
			}
			ok_sparse &= check_sparse(c, size, missing, 0, &rng_sparse);
		}
		CHECKF(ok, "prefix lookups in document %zu", d);
		CHECKF(ok_sparse, "lookups in decoded blocks of document %zu", d);
		free(t);
	}
	for (i = 0; i < 3; i++)
		free(gen[i]);
}

static int	interrupt_calls;
static int	interrupt_at;			/* the call that asks to stop; 0: none */

/* Counts its calls; asks to stop at call interrupt_at. */
static int
interrupt_counting(void *ctx)
{
	(void) ctx;
	return ++interrupt_calls == interrupt_at;
}

static int
interrupt_after_two(void *ctx)
{
	(void) ctx;
	return ++interrupt_calls > 2;
}

static void
test_limits(void)
{
	int			depth = 20000;
	char	   *s = malloc(2 * (size_t) depth + 1);
	fj_parse_options opt;
	fj_buf		b;
	fj_error	err;

	memset(s, '[', (size_t) depth);
	memset(s + depth, ']', (size_t) depth);
	s[2 * depth] = 0;
	memset(&opt, 0, sizeof(opt));
	CHECK(fj_parse(s, 2 * (size_t) depth, &opt, &b, &err) == FJ_ERR_DEPTH);
	CHECK(err.offset == FJ_DEFAULT_MAX_DEPTH);
	opt.max_depth = 20000;
	CHECK(fj_parse(s, 2 * (size_t) depth, &opt, &b, &err) == FJ_OK);
	if (err.code == FJ_OK)
	{
		fj_buf		out = {0};

		CHECK(fj_validate_tape(b.data, b.len, 20000, NULL, &err) == FJ_OK);
		CHECK(fj_validate_tape(b.data, b.len, 19999, NULL, &err) == FJ_ERR_DEPTH);
		CHECK(fj_write_json(b.data + 2, &fj_malloc_allocator, &out) == FJ_OK);
		CHECK(out.len == 2 * (size_t) depth && memcmp(out.data, s, out.len) == 0);
		fj_buf_release(&fj_malloc_allocator, &out);
		fj_buf_release(&fj_malloc_allocator, &b);
	}
	/* a chain of nested containers over 64 KB each: no header slides up more than a few times */
	{
		size_t		deep = 300000;
		char	   *t = malloc(2 * deep);

		memset(t, '[', deep);
		memset(t + deep, ']', deep);
		opt.max_depth = (uint32_t) deep;
		CHECK(t && fj_parse(t, 2 * deep, &opt, &b, &err) == FJ_OK);
		if (err.code == FJ_OK)
		{
			fj_buf		out = {0};

			CHECK(fj_validate_tape(b.data, b.len, (uint32_t) deep, NULL, &err) == FJ_OK);
			CHECK(fj_write_json(b.data + 2, &fj_malloc_allocator, &out) == FJ_OK);
			CHECK(out.len == 2 * deep && memcmp(out.data, t, out.len) == 0);
			fj_buf_release(&fj_malloc_allocator, &out);
			fj_buf_release(&fj_malloc_allocator, &b);
		}
		free(t);
	}
	opt.max_depth = 3;
	CHECK(fj_parse("[[[1]]]", 7, &opt, &b, &err) == FJ_OK);
	fj_buf_release(&fj_malloc_allocator, &b);
	CHECK(fj_parse("[[[[1]]]]", 9, &opt, &b, &err) == FJ_ERR_DEPTH && err.offset == 3);
	free(s);

	/* a size limit gives FJ_ERR_TOO_BIG, never a partial tape */
	memset(&opt, 0, sizeof(opt));
	opt.max_size = 100;
	{
		char		big[400];

		memset(big, ' ', sizeof(big));
		big[0] = '[';
		memcpy(big + 1, "\"", 1);
		memset(big + 2, 'x', 300);
		big[302] = '"';
		big[303] = ']';
		CHECK(fj_parse(big, sizeof(big), &opt, &b, &err) == FJ_ERR_TOO_BIG && b.data == NULL);
		opt.max_size = 400;
		CHECK(fj_parse(big, sizeof(big), &opt, &b, &err) == FJ_OK);
		fj_buf_release(&fj_malloc_allocator, &b);
	}
	/*
	 * Room reserved while parsing stays within a few times the input: a
	 * limit of the tape + 4 × the input + 64 always suffices (small
	 * documents, and containers whose predicted room comes from a larger
	 * sibling), and the tape is the one parsed without a limit.
	 */
	{
		static const char *docs[] = {
			"[]", "{}", "[[]]", "{\"a\":{}}",
			"[{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9},{}]",
			"[{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9},{\"a\":1}]",
		};
		size_t		k;

		for (k = 0; k < sizeof(docs) / sizeof(docs[0]); k++)
		{
			size_t		len = strlen(docs[k]),
						tlen = 0;
			uint8_t    *t = parse(docs[k], &tlen, NULL);
			fj_code		rc;

			memset(&opt, 0, sizeof(opt));
			opt.max_size = tlen + 4 * len + 64;
			rc = fj_parse(docs[k], len, &opt, &b, &err);
			CHECKF(t && rc == FJ_OK && b.len == tlen && memcmp(b.data, t, tlen) == 0,
				   "max_size %zu for %s", opt.max_size, docs[k]);
			if (rc == FJ_OK)
				fj_buf_release(&fj_malloc_allocator, &b);
			free(t);
		}
	}
	/* the interrupt callback is polled once a window */
	{
		size_t		n = 200000;
		char	   *arr = malloc(n);

		memset(arr, ' ', n);
		arr[0] = '[';
		arr[n - 1] = ']';
		memset(&opt, 0, sizeof(opt));
		opt.interrupted = interrupt_after_two;
		interrupt_calls = 0;
		CHECK(fj_parse(arr, n, &opt, &b, &err) == FJ_ERR_INTERRUPTED);
		free(arr);
	}
	/*
	 * The bound a cancel relies on, for every kernel and kinds of input: the
	 * callback is polled before every window of at most FJ_WINDOW bytes, and
	 * a parse asked to stop at poll k has read at most k - 1 windows.
	 */
	{
		static const char *const units[] = {" ", "[1,2.5,true,null,\"x\"],", "\"0123456789abcdef\",", "{\"k\":[{}]},"};
		const fj_kernel *kernels[8];
		size_t		nk = fj_kernel_list(kernels, 8);
		size_t		u,
					k,
					n = 1 << 20;
		char	   *doc = malloc(n + 8);

		for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		{
			size_t		ul = strlen(units[u]),
						i;

			doc[0] = '[';
			for (i = 1; i + ul < n; i += ul)
				memcpy(doc + i, units[u], ul);
			memcpy(doc + i, "0]", 2);
			for (k = 0; k < nk; k++)
			{
				size_t		len = i + 2,
							full,
							stops[] = {1, 2, 7, 0};
				int			s;

				if (!fj_kernel_supported(kernels[k]))
					continue;
				memset(&opt, 0, sizeof(opt));
				opt.kernel = kernels[k];
				opt.interrupted = interrupt_counting;
				interrupt_calls = interrupt_at = 0;
				CHECKF(fj_parse(doc, len, &opt, &b, &err) == FJ_OK, "%s: unit %zu does not parse", fj_kernel_name(kernels[k]), u);
				fj_buf_release(&fj_malloc_allocator, &b);
				full = (size_t) interrupt_calls;
				CHECKF(full >= (len + FJ_WINDOW - 1) / FJ_WINDOW, "%s, unit %zu: %zu polls for %zu bytes",
					   fj_kernel_name(kernels[k]), u, full, len);
				stops[3] = full / 2;
				for (s = 0; s < 4; s++)
				{
					interrupt_calls = 0;
					interrupt_at = (int) stops[s];
					CHECKF(fj_parse(doc, len, &opt, &b, &err) == FJ_ERR_INTERRUPTED &&
						   err.offset <= (stops[s] - 1) * FJ_WINDOW && interrupt_calls == interrupt_at,
						   "%s, unit %zu: stop at poll %zu: code %d at byte %zu", fj_kernel_name(kernels[k]), u,
						   stops[s], (int) err.code, err.offset);
				}
			}
		}
		free(doc);
	}
	/* the prefix is reserved before the tape */
	memset(&opt, 0, sizeof(opt));
	opt.prefix = 4;
	CHECK(fj_parse("[1]", 3, &opt, &b, &err) == FJ_OK && b.len == 4 + 2 + 3 + 1 && b.data[4] == FJ_TAPE_VERSION);
	fj_buf_release(&fj_malloc_allocator, &b);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next_rand(void)
{
	return t_rand(&rng);
}

static void
test_validator(void)
{
	static const char *const docs[] = {
		"{\"a\":1,\"b\":[true,null,1.0]}",
		"[\"x\",-5,1e3,{\"k\":{\"z\":[]}},\"\\u00e9\"]",
		"{\"a1\":1,\"a2\":2,\"a3\":3,\"a4\":4,\"a5\":5,\"a6\":6,\"a7\":7,\"a8\":8,\"a9\":9,\"b1\":1,"
		"\"b2\":2,\"b3\":3,\"b4\":4,\"b5\":5,\"b6\":6,\"b7\":7,\"a1\":[1,2,3],\"zz\":\"end\"}",
		"123456789012345678901234567890",
		"\"a string that is longer than twenty-seven bytes\""
	};
	fj_error	err;
	size_t		d;
	long		accepted_mutants = 0,
				rejected_mutants = 0;

	for (d = 0; d < sizeof(docs) / sizeof(docs[0]); d++)
	{
		size_t		len;
		uint8_t    *t = parse(docs[d], &len, NULL);
		int			m;

		CHECK(t && fj_validate_tape(t, len, 0, NULL, &err) == FJ_OK);
		if (!t)
			continue;
		/* every truncation is rejected */
		{
			size_t		cut;
			int			ok = 1;

			for (cut = 0; cut < len; cut++)
				ok &= fj_validate_tape(t, cut, 0, NULL, &err) == FJ_ERR_TAPE;
			CHECKF(ok, "a truncated tape of %s was accepted", docs[d]);
		}
		/* a trailing byte is rejected */
		{
			uint8_t    *longer = malloc(len + 1);

			memcpy(longer, t, len);
			longer[len] = 0;
			CHECK(fj_validate_tape(longer, len + 1, 0, NULL, &err) == FJ_ERR_TAPE);
			free(longer);
		}
		/* random mutations: rejected, or accepted and then self-consistent */
		for (m = 0; m < 20000; m++)
		{
			uint8_t    *copy = malloc(len);
			int			k,
						flips = 1 + (int) (next_rand() % 3);

			memcpy(copy, t, len);
			for (k = 0; k < flips; k++)
				copy[next_rand() % len] ^= (uint8_t) (1u << (next_rand() % 8));
			if (fj_validate_tape(copy, len, 0, NULL, &err) == FJ_OK)
			{
				fj_buf		out = {0},
							again;

				accepted_mutants++;
				CHECK(fj_write_json(copy + 2, &fj_malloc_allocator, &out) == FJ_OK);
				CHECK(fj_parse((const char *) out.data, out.len, NULL, &again, &err) == FJ_OK);
				/*
				 * The parser writes the tape again, byte for byte; a mutant
				 * of version 2 (no flags) from the root on.
				 */
				if (copy[0] == 2)
					CHECK(again.len == len && memcmp(again.data + 2, copy + 2, len - 2) == 0);
				else
					CHECK(again.len == len && memcmp(again.data, copy, len) == 0);
				fj_buf_release(&fj_malloc_allocator, &out);
				fj_buf_release(&fj_malloc_allocator, &again);
			}
			else
				rejected_mutants++;
			free(copy);
		}
		free(t);
	}
	printf("validator: %ld mutants accepted (and round-tripped), %ld rejected\n",
		   accepted_mutants, rejected_mutants);
	/* specific malformed tapes */
	{
		static const struct
		{
			const char *bytes;
			size_t		len;
		}			bad[] = {
			{"\x05\x00\x00", 3},	/* unknown version */
			{"\x01\x00\x00", 3},	/* version 1, no longer read */
			{"\x02\x01\x00", 3},	/* reserved flag bit */
			{"\x02\x00\x03", 3},	/* unknown literal */
			{"\x02\x00\x38\x05", 4},	/* 5 in a one-byte field: not shortest */
			{"\x02\x00\x3b\x00\x00\x00\x00\x00\x00\x00\x80", 11},	/* above INT64_MAX */
			{"\x02\x00\x61\x35", 4},	/* number text "5": should be an integer */
			{"\x02\x00\x62\x30\x31", 5},	/* number text "01" */
			{"\x02\x00\x82\xc3\x28", 5},	/* invalid UTF-8 */
			{"\x02\x00\xa1\x01\x02\x00", 6},	/* count 2, one member */
			{"\x02\x00\xc1\x02\x01\x21\x21", 7},	/* object key is not a string */
			{"\x02\x00\xe0", 3},	/* type 7 */
			{"\x02\x00\xa8", 3},	/* reserved container bit */
			{"\x02\x00\xa4", 3},	/* key index flag on an array */
			{"\x02\x00\xa1\x00\x00", 5},	/* non-empty container with count 0 */
		};
		size_t		i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			CHECKF(fj_validate_tape((const uint8_t *) bad[i].bytes, bad[i].len, 0, NULL, &err) == FJ_ERR_TAPE,
				   "malformed tape %zu was accepted", i);
	}
}

/* The builder gives exactly the tape the parser gives for the same document. */
static void
test_builder(void)
{
	const char *json = "{\"a\":[1,-2,\"x\",null,true,1.50],\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,"
		"\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"a\":{\"nested\":[]}}";
	size_t		len,
				i;
	uint8_t    *want = parse(json, &len, NULL);
	fj_builder	b;
	fj_buf		out;
	char		key[8];

	fj_builder_init(&b, NULL, 3);
	fj_builder_begin_object(&b);
	fj_builder_key(&b, "a", 1);
	fj_builder_begin_array(&b);
	fj_builder_int(&b, 1);
	fj_builder_int(&b, -2);
	fj_builder_string(&b, "x", 1);
	fj_builder_null(&b);
	fj_builder_bool(&b, true);
	CHECK(fj_builder_number(&b, "1.50", 4));
	fj_builder_end(&b);
	for (i = 1; i <= 8; i++)
	{
		sprintf(key, "k%zu", i);
		fj_builder_key(&b, key, strlen(key));
		CHECK(fj_builder_number(&b, key + 1, 1));	/* "1".."8" become integers */
	}
	fj_builder_key(&b, "a", 1);
	{
		/* copy a subtree of another tape */
		size_t		n;
		uint8_t    *other = parse("{\"nested\":[]}", &n, NULL);

		fj_builder_value(&b, other + FJ_TAPE_HEADER);
		free(other);
	}
	fj_builder_end(&b);
	CHECK(fj_builder_finish(&b, &out) == FJ_OK);
	CHECK(out.len == len + 3 && memcmp(out.data + 3, want, len) == 0);
	fj_buf_release(&fj_malloc_allocator, &out);
	free(want);

	/* misuse is reported, not written */
	fj_builder_init(&b, NULL, 0);
	fj_builder_begin_object(&b);
	fj_builder_int(&b, 1);		/* a value where a key belongs */
	CHECK(fj_builder_finish(&b, &out) == FJ_ERR_TAPE && out.data == NULL);
	fj_builder_init(&b, NULL, 0);
	fj_builder_begin_array(&b);
	CHECK(fj_builder_finish(&b, &out) == FJ_ERR_TAPE);	/* unclosed */
	fj_builder_init(&b, NULL, 0);
	CHECK(!fj_builder_number(&b, "01", 2));
	CHECK(!fj_builder_number(&b, "1.", 2));
	CHECK(fj_builder_number(&b, "-0", 2));
	CHECK(fj_builder_finish(&b, &out) == FJ_OK && out.data[2] == FJ_TAG(FJ_PACKED, 2));
	fj_buf_release(&fj_malloc_allocator, &out);
	/* the builder picks the parser's encoding for every number */
	{
		static const char *const nums[] = {"10.50", "-0.0", "1e2", "12345678901.123456789", "7",
			"-12345678901234567890123456789012345678.9", "1234567890123456789012345678901234567890"};

		for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		{
			size_t		len = 0;
			uint8_t    *t = parse(nums[i], &len, NULL);

			fj_builder_init(&b, NULL, 0);
			CHECK(fj_builder_number(&b, nums[i], strlen(nums[i])));
			CHECKF(fj_builder_finish(&b, &out) == FJ_OK && t && out.len == len &&
				   memcmp(out.data, t, len) == 0, "builder encoding of %s", nums[i]);
			fj_buf_release(&fj_malloc_allocator, &out);
			free(t);
		}
	}
}

/*
 * A small pglz compressor for the test (greedy, brute-force search): the
 * stream format PostgreSQL writes, so fj_pglz can be checked against the
 * input it came from.
 */
static size_t
pglz_compress_for_test(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t		i = 0,
				o = 0,
				ctrl_at = 0;
	unsigned	bit = 8;

	while (i < n)
	{
		size_t		best_len = 0,
					best_off = 0,
					off;

		if (bit == 8)
		{
			ctrl_at = o++;
			out[ctrl_at] = 0;
			bit = 0;
		}
		for (off = 1; off <= 4095 && off <= i; off++)
		{
			size_t		len = 0;

			while (len < 273 && i + len < n && in[i + len] == in[i + len - off])
				len++;
			if (len > best_len)
			{
				best_len = len;
				best_off = off;
			}
		}
		if (best_len >= 3)
		{
			out[ctrl_at] |= (uint8_t) (1u << bit);
			if (best_len >= 18)
			{
				out[o++] = (uint8_t) (((best_off >> 4) & 0xf0) | 0x0f);
				out[o++] = (uint8_t) (best_off & 0xff);
				out[o++] = (uint8_t) (best_len - 18);
			}
			else
			{
				out[o++] = (uint8_t) (((best_off >> 4) & 0xf0) | (best_len - 3));
				out[o++] = (uint8_t) (best_off & 0xff);
			}
			i += best_len;
		}
		else
			out[o++] = in[i++];
		bit++;
	}
	return o;
}

/* fj_pglz: whole and in steps, as the input was; corrupt input never read past. */
static void
test_pglz(void)
{
	int			round;
	uint64_t	r = 88172645463325252ULL;

	for (round = 0; round < 300; round++)
	{
		size_t		n = 1 + (size_t) (round * 37 % 5000),
					i,
					clen;
		uint8_t    *in = malloc(n),
				   *c = malloc(2 * n + 16),
				   *out = malloc(n + FJ_PGLZ_SLACK);
		fj_pglz		z;
		int			ok = 1;

		/* text with repeats at every distance, some runs, some noise */
		for (i = 0; i < n; i++)
		{
			r ^= r << 13;
			r ^= r >> 7;
			r ^= r << 17;
			if (i > 10 && r % 3 == 0)
				in[i] = in[i - 1 - (r >> 8) % (i < 5000 ? i : 5000)];
			else if (r % 7 == 0 && i > 0)
				in[i] = in[i - 1];
			else
			{
				static const char alphabet[] = "{\"key\":[1,2,3],\"text\":\"abcdefgh\"}";

				in[i] = (uint8_t) alphabet[r % (sizeof(alphabet) - 1)];
			}
		}
		clen = pglz_compress_for_test(in, n, c);
		fj_pglz_init(&z, c, clen, out, n);
		CHECK(fj_pglz_decode(&z, n) && z.out_len == n && memcmp(out, in, n) == 0);

		/* in steps: each call goes on from where the last stopped */
		memset(out, 0, n);
		fj_pglz_init(&z, c, clen, out, n);
		while (z.out_len < n && ok)
		{
			size_t		want = z.out_len + 1 + (size_t) (r % 300);
			size_t		before = z.out_len;

			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			ok &= fj_pglz_decode(&z, want);
			ok &= z.out_len >= (want < n ? want : n) && z.out_len > before &&
				memcmp(out, in, z.out_len) == 0;
		}
		CHECK(ok);

		/* every truncation and a byte changed: no read or write out of bounds (ASan) */
		for (i = 0; i < clen; i += 1 + clen / 40)
		{
			uint8_t    *cut = malloc(i ? i : 1);
			uint8_t    *dst = malloc(n + FJ_PGLZ_SLACK);

			memcpy(cut, c, i);
			fj_pglz_init(&z, cut, i, dst, n);
			(void) fj_pglz_decode(&z, n);
			CHECK(z.out_len <= n && memcmp(dst, in, z.out_len) == 0);
			free(cut);
			cut = malloc(clen);
			memcpy(cut, c, clen);
			cut[i] ^= (uint8_t) (1 + r % 255);
			fj_pglz_init(&z, cut, clen, dst, n);
			(void) fj_pglz_decode(&z, n);
			CHECK(z.out_len <= n);
			free(cut);
			free(dst);
		}
		free(in);
		free(c);
		free(out);
	}
	/* a tag that points before the start is an error */
	{
		static const uint8_t bad[] = {0x01, 0x00, 0x05};
		uint8_t		dst[16 + FJ_PGLZ_SLACK];
		fj_pglz		z;

		fj_pglz_init(&z, bad, sizeof(bad), dst, 16);
		CHECK(!fj_pglz_decode(&z, 16));
	}
}

/* ------------------------------------------------ the kernels' text writers */

/* Canonical escaping of s[0..n) between quotes, a byte at a time: what every writer must give. */
static size_t
escape_reference(const uint8_t *s, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	char	   *o = out;
	size_t		i;

	*o++ = '"';
	for (i = 0; i < n; i++)
	{
		uint8_t		c = s[i];

		if (c == '"' || c == '\\')
			*o++ = '\\', *o++ = (char) c;
		else if (c == '\b')
			*o++ = '\\', *o++ = 'b';
		else if (c == '\f')
			*o++ = '\\', *o++ = 'f';
		else if (c == '\n')
			*o++ = '\\', *o++ = 'n';
		else if (c == '\r')
			*o++ = '\\', *o++ = 'r';
		else if (c == '\t')
			*o++ = '\\', *o++ = 't';
		else if (c < 0x20)
		{
			memcpy(o, "\\u00", 4);
			o += 4;
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		}
		else
			*o++ = (char) c;
	}
	*o++ = '"';
	return (size_t) (o - out);
}

/* Write the tape value at v with every supported kernel; each must give want[0..n). */
static void
expect_every_writer(const uint8_t *v, const char *want, size_t n, const char *what)
{
	const fj_kernel *kernels[8];
	size_t		nk = fj_kernel_list(kernels, 8),
				k;

	for (k = 0; k < nk; k++)
	{
		fj_buf		out = {0};

		if (!fj_kernel_supported(kernels[k]))
			continue;
		CHECKF(fj_kernel_write_json(kernels[k], v, &fj_malloc_allocator, &out) == FJ_OK &&
			   out.len == n && memcmp(out.data, want, n) == 0,
			   "%.200s: kernel %s writes %.*s", what, fj_kernel_name(kernels[k]),
			   (int) (out.len < 200 ? out.len : 200), out.data ? (const char *) out.data : "");
		fj_buf_release(&fj_malloc_allocator, &out);
	}
}

/*
 * Every kernel's writer against a byte-at-a-time reference: strings of 0 to
 * 150 bytes with bytes that need an escape at every position, one or many,
 * at the very end of the value (the tape copied to a buffer of exactly its
 * size, so a read past it is an AddressSanitizer error) and followed by
 * more; and the corpus, each kernel's text equal to the scalar kernel's.
 */
static void
test_writer_kernels(void)
{
	static const uint8_t specials[] = {'"', '\\', '\n', 0x01, 0x1f, '\t', '\b', '\f', '\r', 0x00};
	uint8_t		raw[160];
	char		json[160 * 6 + 64],
				want[160 * 6 + 64];
	size_t		len;
	int			p,
				shape;

	for (len = 0; len <= 150; len++)
		for (p = -1; p <= (int) len; p++)
			for (shape = 0; shape < 2; shape++)
			{
				size_t		i,
							jn,
							wn;
				fj_buf		tape;
				fj_error	err;
				uint8_t    *exact;

				for (i = 0; i < len; i++)
					raw[i] = (uint8_t) ('a' + (i + len) % 26);
				if (p == (int) len)
				{
					/* many: every third byte, or more, needs one */
					for (i = 0; i < len; i++)
						if (next_rand() % 3 == 0)
							raw[i] = specials[next_rand() % sizeof(specials)];
				}
				else if (p >= 0)
					raw[p] = specials[(size_t) p % sizeof(specials)];
				/* the input spells every special byte with \u, the writer's output is canonical */
				jn = 0;
				if (shape == 1)
					json[jn++] = '[';
				json[jn++] = '"';
				for (i = 0; i < len; i++)
				{
					if (raw[i] < 0x20 || raw[i] == '"' || raw[i] == '\\')
						jn += (size_t) sprintf(json + jn, "\\u%04x", raw[i]);
					else
						json[jn++] = (char) raw[i];
				}
				json[jn++] = '"';
				wn = escape_reference(raw, len, shape == 1 ? want + 1 : want);
				if (shape == 1)
				{
					static const char tail[] = ",\"0123456789012345678901234567890123456789\"]";

					want[0] = '[';
					memcpy(want + 1 + wn, tail, sizeof(tail) - 1);
					wn += 1 + sizeof(tail) - 1;
					memcpy(json + jn, tail, sizeof(tail) - 1);
					jn += sizeof(tail) - 1;
				}
				json[jn] = 0;
				if (fj_parse(json, jn, NULL, &tape, &err) != FJ_OK)
				{
					CHECKF(0, "string of %zu bytes (special at %d) does not parse: %s", len, p, err.message);
					continue;
				}
				exact = malloc(tape.len);
				memcpy(exact, tape.data, tape.len);
				fj_buf_release(&fj_malloc_allocator, &tape);
				expect_every_writer(exact + FJ_TAPE_HEADER, want, wn, json);
				free(exact);
			}

	{
		char	  **files;
		size_t		n = t_corpus_files(&files),
					f;

		for (f = 0; f < n; f++)
		{
			size_t		flen;
			char	   *text = t_read_file(files[f], &flen);
			fj_buf		tape,
						ref = {0};
			fj_error	err;

			if (text && fj_parse(text, flen, NULL, &tape, &err) == FJ_OK)
			{
				uint8_t    *exact = malloc(tape.len);

				memcpy(exact, tape.data, tape.len);
				fj_buf_release(&fj_malloc_allocator, &tape);
				CHECK(fj_kernel_write_json(fj_kernel_by_name("scalar"), exact + FJ_TAPE_HEADER,
										   &fj_malloc_allocator, &ref) == FJ_OK);
				expect_every_writer(exact + FJ_TAPE_HEADER, (const char *) ref.data, ref.len, files[f]);
				fj_buf_release(&fj_malloc_allocator, &ref);
				free(exact);
			}
			else
				CHECKF(0, "%s does not parse", files[f]);
			free(text);
			free(files[f]);
		}
		free(files);
	}
}

static void
test_kernels_listed(void)
{
	const fj_kernel *k[8];
	size_t		n = fj_kernel_list(k, 8);

	CHECK(n >= 1 && strcmp(fj_kernel_name(k[n - 1]), "scalar") == 0);
	CHECK(fj_kernel_by_name("scalar") != NULL);
	CHECK(fj_kernel_by_name("nonesuch") == NULL);
	CHECK(fj_kernel_supported(fj_kernel_best()));
	printf("kernels: default %s\n", fj_kernel_name(fj_kernel_best()));
}

/*
 * fj_digit_nibbles (whose 9 to 20 digits go through fj_digits16_nibbles, in
 * SSE2 lanes on x86-64 and in scalar code elsewhere) against the digits of
 * printf's text: every length from 1 to 20, at its ends and at random.
 */
static void
test_digit_nibbles(void)
{
	uint64_t	state = 0x5eed5eed1234ULL;
	unsigned	n;

	for (n = 1; n <= 20; n++)
	{
		uint64_t	low = 1,
					high;
		unsigned	i,
					bad = 0;
		uint64_t	first_bad = 0;

		for (i = 1; i < n; i++)
			low *= 10;
		high = n == 20 ? UINT64_MAX : low * 10 - 1;
		if (n == 1)
			low = 0;
		for (i = 0; i < 20000; i++)
		{
			uint64_t	v = i == 0 ? low : i == 1 ? high : i == 2 ? low + 1 : i == 3 ? high - 1 :
				low + t_rand(&state) % (high - low + 1);
			char		text[24];
			unsigned __int128 want = 0,
						got = fj_digit_nibbles(v, n);
			unsigned	k;

			snprintf(text, sizeof(text), "%llu", (unsigned long long) v);
			for (k = 0; k < n; k++)
				want |= (unsigned __int128) (text[k] - '0') << (4 * k);
			if (got != want && bad++ == 0)
				first_bad = v;
		}
		CHECKF(bad == 0, "fj_digit_nibbles: %u wrong of %u digits, first %llu", bad, n,
			   (unsigned long long) first_bad);
	}
}

int
main(void)
{
	test_encodings();
	test_integer_text();
	test_numbers();
	test_digit_nibbles();
	test_strings();
	test_structure();
	test_lookup();
	test_key_index_forms();
	test_key_lengths();
	test_prefix_lookup();
	test_limits();
	test_validator();
	test_builder();
	test_pglz();
	test_kernels_listed();
	test_writer_kernels();
	return t_summary("test_core");
}
