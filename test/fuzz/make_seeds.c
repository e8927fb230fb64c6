/*
 * make_seeds.c — build the fuzzers' seed corpora at run time from the shared
 * test data (never copied into the repository).
 *
 *   make_seeds DATA_DIR JSON_OUT TAPE_OUT [JSON_MAX [TAPE_MAX]]
 *
 * JSON_OUT (seeds for fuzz_parse) gets every JSONTestSuite file and every
 * corpus file of at most JSON_MAX bytes (default 65536), plus, from every
 * corpus file, a spread of its balanced {...} / [...] spans of 16 to JSON_MAX
 * bytes, taken verbatim (original whitespace, escapes and number spellings).
 * TAPE_OUT (seeds for fuzz_tape) gets the tape of each of those documents
 * that parses and whose tape is at most TAPE_MAX bytes (default 16384).
 * Both also get a few built-in documents (deep nesting, an object with a key
 * index, duplicate keys, integer widths), so the corpora are not empty when
 * DATA_DIR is missing; that case is reported and is not an error.
 */
#include "../../src/fj_core.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SPANS_PER_BUCKET 3

static size_t json_max = 65536,
			tape_max = 16384;
static const char *json_out,
		   *tape_out;
static long n_json,
			n_tape;

static void
write_file(const char *dir, const char *name, const void *p, size_t len)
{
	char		path[4096];
	FILE	   *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, len, f) != len || fclose(f) != 0)
	{
		fprintf(stderr, "make_seeds: cannot write %s: %s\n", path, strerror(errno));
		exit(2);
	}
}

/* One document: a JSON seed, and its tape as a tape seed if it parses. */
static void
emit(const char *name, const char *json, size_t len)
{
	fj_buf		tape;
	fj_error	err;

	if (len > json_max)
		return;
	write_file(json_out, name, json, len);
	n_json++;
	if (fj_parse(json, len, NULL, &tape, &err) == FJ_OK)
	{
		if (tape.len <= tape_max)
		{
			write_file(tape_out, name, tape.data, tape.len);
			n_tape++;
		}
		fj_buf_release(&fj_malloc_allocator, &tape);
	}
}

typedef struct span
{
	size_t		start,
				len;
} span;

/*
 * The balanced spans of a (valid) JSON text, found by a bracket scan that
 * skips strings; keep up to SPANS_PER_BUCKET spread-out spans per power of
 * two of length.
 */
static void
emit_spans(const char *base, const char *s, size_t n)
{
	size_t	   *open = malloc(sizeof(size_t) * (n + 1));
	span	   *all = malloc(sizeof(span) * (n / 2 + 1));
	size_t		nopen = 0,
				nall = 0,
				i;
	int			bucket;
	int			in_str = 0;

	for (i = 0; i < n; i++)
	{
		char		c = s[i];

		if (in_str)
		{
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"')
			in_str = 1;
		else if (c == '{' || c == '[')
			open[nopen++] = i;
		else if ((c == '}' || c == ']') && nopen > 0)
		{
			size_t		st = open[--nopen],
						len = i + 1 - st;

			if (len >= 16 && len <= json_max && len < n)
				all[nall++] = (span) {st, len};
		}
	}
	for (bucket = 4; (size_t) 1 << bucket <= json_max; bucket++)
	{
		size_t		lo = (size_t) 1 << bucket,
					hi = lo * 2,
					count = 0,
					picked = 0,
					seen = 0,
					j;

		for (j = 0; j < nall; j++)
			count += all[j].len >= lo && all[j].len < hi;
		/* the 0th, count/3-th and 2count/3-th span of this bucket (in order of their ends) */
		for (j = 0; j < nall && picked < SPANS_PER_BUCKET && count > 0; j++)
		{
			if (all[j].len < lo || all[j].len >= hi)
				continue;
			if (seen++ == picked * count / SPANS_PER_BUCKET)
			{
				char		name[512];

				snprintf(name, sizeof(name), "%s.span%zu-%zu", base, all[j].start, all[j].len);
				emit(name, s + all[j].start, all[j].len);
				picked++;
			}
		}
	}
	free(open);
	free(all);
}

static char *
read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	char	   *buf;
	long		n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t) n + 1);
	if (buf && fread(buf, 1, (size_t) n, f) != (size_t) n)
	{
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t) n;
	return buf;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Every *.json / *.ndjson file of data/sub; spans too if spans is set. */
static int
do_dir(const char *data, const char *sub, const char *tag, int spans)
{
	char		dir[4096];
	DIR		   *d;
	struct dirent *e;
	char	  **names = NULL;
	size_t		n = 0,
				cap = 0,
				i;

	snprintf(dir, sizeof(dir), "%s/%s", data, sub);
	if (!(d = opendir(dir)))
		return 0;
	while ((e = readdir(d)))
	{
		size_t		l = strlen(e->d_name);

		if ((l > 5 && strcmp(e->d_name + l - 5, ".json") == 0) ||
			(l > 7 && strcmp(e->d_name + l - 7, ".ndjson") == 0))
		{
			if (n == cap)
				names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(char *));
			names[n++] = strdup(e->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof(char *), cmpstr);
	for (i = 0; i < n; i++)
	{
		char		path[4096],
					base[600];
		size_t		len;
		char	   *text;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(base, sizeof(base), "%s_%s", tag, names[i]);
		if ((text = read_file(path, &len)))
		{
			emit(base, text, len);
			if (spans)
				emit_spans(base, text, len);
			free(text);
		}
		free(names[i]);
	}
	free(names);
	return 1;
}

static void
builtin(void)
{
	static const char *const docs[] = {
		"{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}",
		"{\"k\":1,\"k\":2,\"k\":3}",
		"{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k1\":9}",
		("[0,23,24,255,256,65535,65536,4294967295,4294967296,9223372036854775807,9223372036854775808,"
		 "-1,-24,-25,-256,-257,-9223372036854775808,-9223372036854775809,-0,1.0,1e2,1E+2,0.1000,1e400]"),
		"[\"\",\"\\u0000\",\"\\ud83d\\ude00\",\"\\/\\\"\\\\\\b\\f\\n\\r\\t\",\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]",
		"[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]",
		"{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":{\"f\":{\"g\":{\"h\":{\"i\":{}}}}}}}}}}",
		"\"a string at the root that is longer than twenty-seven bytes\"",
		"  \t\r\n 12345.6789e-10 \n",
	};
	size_t		i;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
	{
		char		name[64];

		snprintf(name, sizeof(name), "builtin_%zu.json", i);
		emit(name, docs[i], strlen(docs[i]));
	}
}

int
main(int argc, char **argv)
{
	const char *data;
	int			found = 0;

	if (argc < 4)
	{
		fprintf(stderr, "usage: make_seeds DATA_DIR JSON_OUT TAPE_OUT [JSON_MAX [TAPE_MAX]]\n");
		return 2;
	}
	data = argv[1];
	json_out = argv[2];
	tape_out = argv[3];
	if (argc > 4)
		json_max = strtoul(argv[4], NULL, 10);
	if (argc > 5)
		tape_max = strtoul(argv[5], NULL, 10);
	mkdir(json_out, 0777);
	mkdir(tape_out, 0777);

	builtin();
	found |= do_dir(data, "jsontestsuite", "jts", 0);
	found |= do_dir(data, "corpus", "corpus", 1);
	found |= do_dir(data, "corpus/small", "small", 1);
	found |= do_dir(data, "corpus/small/jsoniter_scala", "jsoniter", 1);
	if (!found)
		printf("make_seeds: %s not found (or holds no JSON files): starting from the built-in seeds only\n", data);
	printf("make_seeds: %ld JSON seeds in %s, %ld tape seeds in %s\n", n_json, json_out, n_tape, tape_out);
	return 0;
}
