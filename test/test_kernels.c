/*
 * test_kernels.c — every kernel against the scalar oracle: the same tape,
 * byte for byte, or the same error (code, message, offset), on the corpus,
 * on JSONTestSuite, on generated and mutated documents, and on inputs built
 * so that strings, escapes, numbers and UTF-8 sequences straddle every
 * offset of a 64-byte block boundary and of a stage 1 window boundary; and
 * each kernel's UTF-8 check of a whole buffer against src/utf8.c.
 */
#include "harness.h"
#include "../src/utf8.h"

static const fj_kernel *kernels[8];
static size_t nkernels;
static long compared;

/* Parse with every supported kernel; all must agree with scalar. */
static void
compare_all(const char *label, const char *json, size_t len)
{
	fj_parse_options opt;
	fj_buf		ref,
				got;
	fj_error	ref_err,
				err;
	fj_code		ref_rc,
				rc;
	size_t		k;

	memset(&opt, 0, sizeof(opt));
	opt.kernel = fj_kernel_by_name("scalar");
	ref_rc = fj_parse(json, len, &opt, &ref, &ref_err);
	for (k = 0; k < nkernels; k++)
	{
		if (kernels[k] == fj_kernel_by_name("scalar"))
			continue;
		opt.kernel = kernels[k];
		rc = fj_parse(json, len, &opt, &got, &err);
		compared++;
		if (rc != ref_rc)
			CHECKF(0, "%s: %s gives code %d (%s at %zu), scalar %d (%s at %zu)", label,
				   fj_kernel_name(kernels[k]), rc, err.message, err.offset, ref_rc,
				   ref_err.message, ref_err.offset);
		else if (rc == FJ_OK)
			CHECKF(got.len == ref.len && memcmp(got.data, ref.data, ref.len) == 0,
				   "%s: %s tape differs from scalar", label, fj_kernel_name(kernels[k]));
		else
			CHECKF(err.offset == ref_err.offset && strcmp(err.message, ref_err.message) == 0,
				   "%s: %s error %s at %zu, scalar %s at %zu", label, fj_kernel_name(kernels[k]),
				   err.message, err.offset, ref_err.message, ref_err.offset);
		if (rc == FJ_OK)
			fj_buf_release(&fj_malloc_allocator, &got);
	}
	if (ref_rc == FJ_OK)
		fj_buf_release(&fj_malloc_allocator, &ref);
}

static void
files(const char *data)
{
	static const char *const dirs[] = {"jsontestsuite", "corpus", "corpus/small", "corpus/small/jsoniter_scala"};
	size_t		d;
	int			count = 0;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
	{
		char		dir[4096];
		char	  **names;
		size_t		n,
					i;

		snprintf(dir, sizeof(dir), "%s/%s", data, dirs[d]);
		n = t_list_dir(dir, "", "json", &names);
		for (i = 0; i < n; i++)
		{
			size_t		len;
			char	   *json = t_read_file(names[i], &len);

			if (json)
			{
				compare_all(names[i], json, len);
				count++;
			}
			free(json);
			free(names[i]);
		}
		free(names);
	}
	printf("files: %d compared\n", count);
}

/* ---------------------------------------------------- generated inputs */

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t
next_rand(void)
{
	return t_rand(&rng);
}


static void
puts_(t_buf *b, const char *s)
{
	t_put(b, s, strlen(s));
}

static const char *const string_parts[] = {
	"a", "hello", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00", "\xc3\xa9", "\xe2\x82\xac",
	"\xf0\x9f\x98\x80", " ", "{", "]", ":", ",", "0123456789abcdef0123456789abcdef", "\\u0000", "\\t"
};
static const char *const numbers[] = {
	"0", "-0", "1", "-1", "23", "24", "255", "65536", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "1.5", "-2.25e10", "1e400", "0.000001", "123456789012345678901234567890"
};
static const char *const spaces[] = {"", "", "", " ", "\n", "\t", "\r\n  "};

static void
gen_value(t_buf *b, int depth)
{
	int			kind = (int) (next_rand() % (depth > 5 ? 4 : 6));
	int			i,
				n;

	puts_(b, spaces[next_rand() % 7]);
	switch (kind)
	{
		case 0:
			puts_(b, next_rand() % 3 == 0 ? "true" : next_rand() % 2 ? "false" : "null");
			break;
		case 1:
			puts_(b, numbers[next_rand() % (sizeof(numbers) / sizeof(numbers[0]))]);
			break;
		case 2:
		case 3:
			puts_(b, "\"");
			n = (int) (next_rand() % 12);
			for (i = 0; i < n; i++)
				puts_(b, string_parts[next_rand() % (sizeof(string_parts) / sizeof(string_parts[0]))]);
			puts_(b, "\"");
			break;
		case 4:
			puts_(b, "[");
			n = (int) (next_rand() % 6);
			for (i = 0; i < n; i++)
			{
				if (i)
					puts_(b, ",");
				gen_value(b, depth + 1);
			}
			puts_(b, "]");
			break;
		default:
			puts_(b, "{");
			n = (int) (next_rand() % 20);
			for (i = 0; i < n; i++)
			{
				char		key[32];

				if (i)
					puts_(b, ",");
				snprintf(key, sizeof(key), "\"k%d\":", (int) (next_rand() % 24));
				puts_(b, key);
				gen_value(b, depth + 1);
			}
			puts_(b, "}");
	}
	puts_(b, spaces[next_rand() % 7]);
}

static void
generated(void)
{
	static const char mutations[] = "\"\\{}[],: \n\x80\xc3\xe2\xf0\xff\x01" "ae0-";
	int			i;
	t_buf		b = {0};

	for (i = 0; i < 20000; i++)
	{
		char		label[64];
		int			m,
					nm;

		b.len = 0;
		gen_value(&b, 0);
		snprintf(label, sizeof(label), "generated #%d", i);
		compare_all(label, b.s, b.len);
		/* mutated copies: the same errors, at the same offsets */
		nm = 1 + (int) (next_rand() % 3);
		for (m = 0; m < nm && b.len > 0; m++)
			b.s[next_rand() % b.len] = mutations[next_rand() % (sizeof(mutations) - 1)];
		snprintf(label, sizeof(label), "mutated #%d", i);
		compare_all(label, b.s, b.len);
	}
	free(b.s);
	printf("generated: 20000 documents and 20000 mutants compared\n");
}

/*
 * Numbers of every shape stage 2's 32-byte fast path sorts: signs, leading
 * zeros, integer parts of 0 to 25 digits (around int64's 19), fractions,
 * exponents, stray number characters inside, lengths around 32, and every
 * byte that can follow. The fast path reads a number inside an array with 32
 * bytes readable: each is an array's first element (through the dispatch on
 * its first byte) and an element after a comma (straight from the comma),
 * both followed by more values; and, for the byte-at-a-time path, the only
 * value and an array's last bytes (fewer than 32 readable).
 */
static void
numbers_fast_path(void)
{
	static const char follow[] = ",] }\n\t:x\"\x80\xc3{e.-+0";
	static const char stray[] = "0123456789.-+eE";
	char		num[96],
				doc[192];
	int			i;

	for (i = 0; i < 60000; i++)
	{
		size_t		n = 0;
		int			k,
					nd;
		char		label[64];
		int			len;

		if (next_rand() % 3 == 0)
			num[n++] = '-';
		nd = (int) (next_rand() % 26);
		if (next_rand() % 4 == 0)
			num[n++] = '0';
		for (k = 0; k < nd; k++)
			num[n++] = (char) ('0' + (k == 0 && next_rand() % 2 ? 1 + next_rand() % 9 : next_rand() % 10));
		if (next_rand() % 2)
		{
			num[n++] = '.';
			nd = (int) (next_rand() % 22);
			for (k = 0; k < nd; k++)
				num[n++] = (char) ('0' + next_rand() % 10);
		}
		if (next_rand() % 6 == 0)
		{
			num[n++] = next_rand() % 2 ? 'e' : 'E';
			if (next_rand() % 2)
				num[n++] = next_rand() % 2 ? '+' : '-';
			nd = (int) (next_rand() % 4);
			for (k = 0; k < nd; k++)
				num[n++] = (char) ('0' + next_rand() % 10);
		}
		if (n > 0 && next_rand() % 5 == 0)
			num[next_rand() % n] = stray[next_rand() % (sizeof(stray) - 1)];
		if (n == 0)
			num[n++] = '7';
		num[n] = '\0';

		snprintf(label, sizeof(label), "number #%d alone", i);
		compare_all(label, num, n);
		len = snprintf(doc, sizeof(doc), "[%s%c", num, follow[next_rand() % (sizeof(follow) - 1)]);
		snprintf(label, sizeof(label), "number #%d at the end", i);
		compare_all(label, doc, (size_t) len);
		len = snprintf(doc, sizeof(doc), "[%s%c 1, 2.5, \"padding to well past 32 bytes\"]", num,
					   follow[next_rand() % (sizeof(follow) - 1)]);
		snprintf(label, sizeof(label), "number #%d first in an array", i);
		compare_all(label, doc, (size_t) len);
		len = snprintf(doc, sizeof(doc), "[0,%s%c 2.5, \"padding to well past 32 bytes\"]", num,
					   follow[next_rand() % (sizeof(follow) - 1)]);
		snprintf(label, sizeof(label), "number #%d after a comma", i);
		compare_all(label, doc, (size_t) len);
	}
	printf("numbers: 60000 numbers compared alone, at the end, first in an array and after a comma\n");
}

/*
 * Put each snippet at every offset across a 64-byte block boundary and a
 * window boundary: "[" + padding + snippet + "]" with the padding chosen so
 * the snippet starts at boundary - 70 .. boundary + 6.
 */
static void
boundaries(void)
{
	static const char *const snippets[] = {
		"\"abc\\\"def\"", "\"\\\\\\\\\\\"\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\xe2\x82\xac\xc3\xa9\"",
		"-12345.678e+90", "9223372036854775808", "true", "false", "null", "{\"k\":[1,2]}",
		"\"\xf0\x9f\x98\"", "\"\xe2\x82\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"a\x01b\"", "\"\\\\\"x",
		"\"unterminated", "1.", "tru", "\"\\uD800\"", "\"\\q\"", "\"\\\"\"\"",
		/* bad UTF-8 outside strings: stray lead and invalid bytes at a window's end */
		"\xe2" "a", "\xff", "\xc3", "\"a\xe2" "a\"", "\"\xf4\x90\x80\x80\"",
		/* a valid 4-byte sequence, then a stray continuation byte */
		"\"\xf0\x9b\xbf\x9b\xbf\xbf\"",
	};
	static const size_t bounds[] = {64, 128, FJ_WINDOW, 2 * FJ_WINDOW};
	size_t		s,
				bi;
	long		count = 0;
	t_buf		b = {0};

	for (s = 0; s < sizeof(snippets) / sizeof(snippets[0]); s++)
		for (bi = 0; bi < sizeof(bounds) / sizeof(bounds[0]); bi++)
		{
			size_t		start;

			for (start = bounds[bi] - 70; start <= bounds[bi] + 6; start++)
			{
				int			variant;

				for (variant = 0; variant < 3; variant++)
				{
					char		label[96];

					b.len = 0;
					puts_(&b, "[");
					/* variant 0: spaces; 1: a long string; 2: backslash-heavy string */
					if (variant == 0)
						while (b.len < start)
							puts_(&b, " ");
					else
					{
						puts_(&b, "\"");
						while (b.len < start - 3)
							puts_(&b, variant == 1 ? "x" : (b.len % 3 ? "\\\\" : "y"));
						b.len = start - 2;
						if (variant == 2 && b.s[b.len - 1] == '\\' && b.s[b.len - 2] != '\\')
							b.s[b.len - 1] = 'z';
						puts_(&b, "\",");
					}
					puts_(&b, snippets[s]);
					puts_(&b, "]");
					snprintf(label, sizeof(label), "snippet %zu at %zu variant %d", s, start, variant);
					compare_all(label, b.s, b.len);
					/* and cut at the end of the snippet (end of input inside it) */
					compare_all(label, b.s, b.len - 1);
					count += 2;
				}
			}
		}
	free(b.s);
	printf("boundaries: %ld inputs compared\n", count);
}

/*
 * Dense input (a structural character every byte or two) fills the index
 * before the window ends, so stage 1 cuts windows short: every kernel must
 * cut at the same place, with errors planted before and after the cuts.
 */
static void
dense(void)
{
	static const char *const units[] = {"1,", "[],", "{},", "\"\",", "[1,[2,[3]]],", "\"\\\"\","};
	size_t		u;
	long		count = 0;
	t_buf		b = {0};

	for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
	{
		size_t		reps;

		for (reps = 1000; reps <= 60000; reps *= 4)
		{
			size_t		r,
						k;
			char		label[64];

			b.len = 0;
			puts_(&b, "[");
			for (r = 0; r < reps; r++)
				puts_(&b, units[u]);
			puts_(&b, "0]");
			snprintf(label, sizeof(label), "dense %zu x %zu", u, reps);
			compare_all(label, b.s, b.len);
			count++;
			/* plant one bad byte at a few places, including near window cuts */
			for (k = 1; k < 12; k++)
			{
				size_t		at = (b.len * k) / 12;
				char		saved = b.s[at];

				b.s[at] = (char) (k % 3 == 0 ? 0xff : k % 3 == 1 ? '"' : 'x');
				compare_all(label, b.s, b.len);
				b.s[at] = saved;
				count++;
			}
		}
	}
	free(b.s);
	printf("dense: %ld inputs compared\n", count);
}

/*
 * Each kernel's UTF-8 check of a whole buffer (the CBOR decoder's, for text
 * strings) against the byte-by-byte one of src/utf8.c: buffers of 0 to 200
 * bytes, mostly valid sequences of 1 to 4 bytes with, in most, one byte
 * replaced, a sequence cut short at the end, or a lead byte that is never
 * valid; every length across the 64-byte blocks.
 */
static void
utf8_buffers(void)
{
	static const char *const seqs[] = {"a", " ", "\x7f", "\xc2\x80", "\xdf\xbf", "\xd0\x9b",
		"\xe0\xa0\x80", "\xed\x9f\xbf", "\xef\xbf\xbd", "\xe2\x82\xac", "\xf0\x90\x80\x80",
		"\xf4\x8f\xbf\xbf", "\xf0\x9f\x98\x80"};
	static const uint8_t bad[] = {0x80, 0xbf, 0xc0, 0xc1, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x9f};
	long		checked = 0,
				invalid = 0;
	int			round;

	for (round = 0; round < 40000; round++)
	{
		uint8_t		buf[256];
		size_t		len = 0,
					want = next_rand() % 201,
					k;

		while (len < want)
		{
			const char *q = seqs[next_rand() % (sizeof(seqs) / sizeof(seqs[0]))];
			size_t		m = strlen(q);

			if (len + m > sizeof(buf))
				break;
			memcpy(buf + len, q, m);
			len += m;
		}
		switch (next_rand() % 4)
		{
			case 0:
				break;			/* valid */
			case 1:
				if (len)
					buf[next_rand() % len] = bad[next_rand() % sizeof(bad)];
				break;
			case 2:
				if (len)
					len--;		/* maybe a sequence cut short */
				break;
			default:
				if (len)
					buf[next_rand() % len] = (uint8_t) next_rand();
		}
		for (k = 0; k < nkernels; k++)
		{
			bool		got = fj_kernel_utf8_validator(kernels[k])(buf, len),
						ref = fj_utf8_valid(buf, len);

			CHECKF(got == ref, "%s: UTF-8 check of %zu bytes gives %d, src/utf8.c %d",
				   fj_kernel_name(kernels[k]), len, (int) got, (int) ref);
			checked++;
			invalid += !ref;
		}
	}
	printf("%ld UTF-8 buffers checked by each kernel's validator as by src/utf8.c (%ld invalid)\n",
		   checked, invalid);
}

int
main(void)
{
	const fj_kernel *all[8];
	size_t		n = fj_kernel_list(all, 8),
				i;
	const char *data = t_data_dir();

	for (i = 0; i < n; i++)
	{
		if (fj_kernel_supported(all[i]))
			kernels[nkernels++] = all[i];
		else
			printf("kernel %s: not supported by this CPU, not tested here\n", fj_kernel_name(all[i]));
	}
	printf("kernels tested against scalar:");
	for (i = 0; i < nkernels; i++)
		printf(" %s", fj_kernel_name(kernels[i]));
	printf("\n");
	if (data)
		files(data);
	generated();
	numbers_fast_path();
	boundaries();
	dense();
	utf8_buffers();
	printf("%ld kernel results compared with scalar\n", compared);
	return t_summary("test_kernels");
}
