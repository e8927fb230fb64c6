/*
 * test_conformance.c — RFC 8259 conformance over JSONTestSuite (every y_
 * accepted, every n_ rejected, every i_ as decided in doc/conformance.md)
 * and round trips over the benchmark corpus: parse, write, parse again gives
 * the identical tape, and the tape validator accepts every tape.
 *
 * Skips with a message when ../shared/data (or $FJ_DATA) is absent.
 */
#include "harness.h"

/*
 * The decisions for implementation-defined inputs: numbers of any size or
 * precision are accepted and kept exactly as written; a nesting of 500 is
 * within the depth limit; everything that is not UTF-8 (UTF-16, Latin-1,
 * overlong or truncated sequences, encoded surrogates), escaped lone
 * surrogates (no UTF-8 form), and a byte order mark are rejected.
 */
static bool
i_accepted(const char *name)
{
	return strncmp(name, "i_number_", 9) == 0 ||
		strcmp(name, "i_structure_500_nested_arrays.json") == 0;
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void
conformance(const char *data)
{
	char		dir[4096];
	char	  **files;
	size_t		n,
				i;
	int			y_ok = 0,
				y_all = 0,
				n_ok = 0,
				n_all = 0,
				i_ok = 0,
				i_all = 0;

	snprintf(dir, sizeof(dir), "%s/jsontestsuite", data);
	n = t_list_dir(dir, "", ".json", &files);
	for (i = 0; i < n; i++)
	{
		const char *name = base_name(files[i]);
		size_t		len;
		char	   *json = t_read_file(files[i], &len);
		fj_buf		tape;
		fj_error	err;
		bool		accepted;

		if (!json)
			continue;
		accepted = t_parse(json, len, NULL, &tape, &err) == FJ_OK;
		if (accepted)
			fj_buf_release(&fj_malloc_allocator, &tape);
		else
			CHECKF(err.code == FJ_ERR_SYNTAX || err.code == FJ_ERR_UTF8 || err.code == FJ_ERR_DEPTH,
				   "%s: unexpected error code %d", name, err.code);
		if (name[0] == 'y')
		{
			y_all++;
			y_ok += accepted;
			CHECKF(accepted, "%s rejected: %s at %zu", name, err.message, err.offset);
		}
		else if (name[0] == 'n')
		{
			n_all++;
			n_ok += !accepted;
			CHECKF(!accepted, "%s accepted", name);
		}
		else if (name[0] == 'i')
		{
			i_all++;
			i_ok += accepted == i_accepted(name);
			CHECKF(accepted == i_accepted(name), "%s: %s, decided %s", name,
				   accepted ? "accepted" : "rejected", i_accepted(name) ? "accept" : "reject");
		}
		free(json);
		free(files[i]);
	}
	free(files);
	printf("JSONTestSuite: y_ %d/%d accepted, n_ %d/%d rejected, i_ %d/%d as decided\n",
		   y_ok, y_all, n_ok, n_all, i_ok, i_all);
	CHECK(y_all == 95 && n_all == 188 && i_all == 35);
}

/* Parse, write, parse again: the two tapes must be identical. */
static void
roundtrip_one(const char *label, const char *json, size_t len, int *ok, int *all)
{
	fj_buf		tape,
				text = {0},
				again,
				text2 = {0};
	fj_error	err;
	bool		good = false;

	(*all)++;
	if (t_parse(json, len, NULL, &tape, &err) != FJ_OK)
	{
		CHECKF(0, "%s: rejected: %s at %zu", label, err.message, err.offset);
		return;
	}
	CHECKF(fj_validate_tape(tape.data, tape.len, 0, NULL, &err) == FJ_OK,
		   "%s: validator rejects the parser's tape: %s at %zu", label, err.message, err.offset);
	if (fj_write_json(tape.data + FJ_TAPE_HEADER, &fj_malloc_allocator, &text) == FJ_OK &&
		t_parse((const char *) text.data, text.len, NULL, &again, &err) == FJ_OK)
	{
		good = again.len == tape.len && memcmp(again.data, tape.data, tape.len) == 0;
		if (fj_write_json(again.data + FJ_TAPE_HEADER, &fj_malloc_allocator, &text2) == FJ_OK)
			good &= text2.len == text.len && memcmp(text2.data, text.data, text.len) == 0;
		fj_buf_release(&fj_malloc_allocator, &again);
	}
	CHECKF(good, "%s: parse-write-parse does not give the same tape", label);
	*ok += good;
	fj_buf_release(&fj_malloc_allocator, &tape);
	fj_buf_release(&fj_malloc_allocator, &text);
	fj_buf_release(&fj_malloc_allocator, &text2);
}

static void
corpus(const char *data)
{
	static const char *const dirs[] = {"corpus", "corpus/small", "corpus/small/jsoniter_scala"};
	size_t		d;
	int			ok = 0,
				all = 0,
				lines = 0;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
	{
		char		dir[4096];
		char	  **files;
		size_t		n,
					i;

		snprintf(dir, sizeof(dir), "%s/%s", data, dirs[d]);
		n = t_list_dir(dir, "", ".json", &files);
		for (i = 0; i < n; i++)
		{
			size_t		len;
			char	   *json = t_read_file(files[i], &len);

			if (json)
				roundtrip_one(files[i], json, len, &ok, &all);
			free(json);
			free(files[i]);
		}
		free(files);
	}
	/* the NDJSON sample, line by line */
	{
		char		path[4096];
		size_t		len;
		char	   *nd,
				   *p,
				   *end;

		snprintf(path, sizeof(path), "%s/corpus/amazon_cellphones.ndjson", data);
		nd = t_read_file(path, &len);
		for (p = nd, end = nd ? nd + len : NULL; p && p < end;)
		{
			char	   *nl = memchr(p, '\n', (size_t) (end - p));
			size_t		l = nl ? (size_t) (nl - p) : (size_t) (end - p);

			if (l > 0)
			{
				roundtrip_one("amazon_cellphones.ndjson line", p, l, &ok, &all);
				lines++;
			}
			p += l + 1;
		}
		free(nd);
	}
	printf("corpus: %d/%d documents round-trip to identical tapes (%d NDJSON lines)\n", ok, all, lines);
}

int
main(void)
{
	const char *data = t_data_dir();

	if (data)
	{
		conformance(data);
		corpus(data);
	}
	return t_summary("test_conformance");
}
