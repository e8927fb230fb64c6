/*
 * cbor_bench.c — the core's CBOR encoder and decoder against its text path
 * (fj_write_json, fj_parse) on the same files, outside the server, for A/B
 * decisions: best-of wall-clock MB/s (file bytes / s) of each, and a mode that
 * runs one conversion a fixed number of times, for valgrind --tool=callgrind
 * (instruction counts do not depend on the machine's load).
 *
 *   cbor_bench [--reps N] [--min-time S] [FILE.json ...]
 *   cbor_bench --op encode|decode|out|in|Encode|Decode --iters N FILE.json
 *
 * The table also has the reference implementation's encode and decode
 * (test/cbor_ref/, the code before the fast paths; ops Encode and Decode),
 * measured interleaved with the others: a before/after comparison that the
 * machine's load touches alike.
 *   cbor_bench --dump FILE.json     CBOR, then the tape decoded from it, as hex
 *
 * Without files it runs every *.json of ../shared/data/corpus.
 */
#include "../src/cbor.h"
#include "../src/fj_core.h"
#include "../src/tape.h"
#include "../test/cbor_ref/cbor_ref.h"
#include "read_file.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct doc
{
	char	   *json;
	size_t		len;
	fj_buf		tape;
	fj_buf		cbor;
} doc;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static void
die(const char *what, const char *name)
{
	fprintf(stderr, "cbor_bench: %s: %s\n", name, what);
	exit(1);
}

static void
load(const char *path, doc *d)
{
	fj_error	err;

	if ((d->json = read_file(path, &d->len)) == NULL)
		die("cannot read", path);
	if (fj_parse(d->json, d->len, NULL, &d->tape, &err) != FJ_OK)
		die(err.message, path);
	if (fj_cbor_encode(d->tape.data + FJ_TAPE_HEADER, NULL, &d->cbor, &err) != FJ_OK)
		die(err.message, path);
}

/* One conversion; the output is released. */
static void
run_op(const doc *d, char op)
{
	fj_buf		out = {0};
	fj_error	err;
	fj_code		rc;

	switch (op)
	{
		case 'e':
			rc = fj_cbor_encode(d->tape.data + FJ_TAPE_HEADER, NULL, &out, &err);
			break;
		case 'd':
			rc = fj_cbor_decode(d->cbor.data, d->cbor.len, NULL, &out, &err);
			break;
		case 'E':
			rc = fj_ref_cbor_encode(d->tape.data + FJ_TAPE_HEADER, NULL, &out, &err);
			break;
		case 'D':
			rc = fj_ref_cbor_decode(d->cbor.data, d->cbor.len, NULL, &out, &err);
			break;
		case 'o':
			rc = fj_write_json(d->tape.data + FJ_TAPE_HEADER, &fj_malloc_allocator, &out);
			break;
		default:
			rc = fj_parse(d->json, d->len, NULL, &out, &err);
			break;
	}
	if (rc != FJ_OK)
		die("conversion failed", "run_op");
	fj_buf_release(&fj_malloc_allocator, &out);
}

/* MB/s of op in one run of at least min_time s. */
static double
run_mbs(const doc *d, char op, double min_time)
{
	double		t0 = now(),
				t;
	long		n = 0;

	do
	{
		run_op(d, op);
		n++;
		t = now() - t0;
	} while (t < min_time);
	return (double) d->len * (double) n / t / 1e6;
}

static void
hex(const uint8_t *p, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	putchar('\n');
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

int
main(int argc, char **argv)
{
	int			reps = 5,
				i,
				nfiles = 0;
	long		iters = 0;
	double		min_time = 0.1;
	char		op = 0;
	bool		dump = false;
	char	  **files = calloc((size_t) argc + 64, sizeof(char *));

	for (i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (strcmp(argv[i], "--min-time") == 0 && i + 1 < argc)
			min_time = atof(argv[++i]);
		else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
			iters = atol(argv[++i]);
		else if (strcmp(argv[i], "--op") == 0 && i + 1 < argc)
			op = argv[++i][0];
		else if (strcmp(argv[i], "--dump") == 0)
			dump = true;
		else
			files[nfiles++] = argv[i];
	}
	if (nfiles == 0)
	{
		const char *dir = "../shared/data/corpus";
		DIR		   *dd = opendir(dir);
		struct dirent *e;

		if (!dd)
			die("no corpus", dir);
		while ((e = readdir(dd)) && nfiles < 64)
		{
			size_t		n = strlen(e->d_name);

			if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0)
			{
				files[nfiles] = malloc(strlen(dir) + n + 2);
				sprintf(files[nfiles++], "%s/%s", dir, e->d_name);
			}
		}
		closedir(dd);
		qsort(files, (size_t) nfiles, sizeof(char *), cmp_str);
	}

	if (dump)
	{
		for (i = 0; i < nfiles; i++)
		{
			doc			d = {0};
			fj_buf		tape = {0};
			fj_error	err;

			load(files[i], &d);
			if (fj_cbor_decode(d.cbor.data, d.cbor.len, NULL, &tape, &err) != FJ_OK)
				die(err.message, files[i]);
			hex(d.cbor.data, d.cbor.len);
			hex(tape.data, tape.len);
		}
		return 0;
	}
	if (op)
	{
		doc			d = {0};
		long		k;

		if (nfiles != 1 || iters <= 0)
			die("--op needs --iters N and one file", "usage");
		load(files[0], &d);
		for (k = 0; k < iters; k++)
			run_op(&d, op);
		return 0;
	}

	printf("| file | size B | encode MB/s | reference encode MB/s | out MB/s | encode/out | reference encode/out "
		   "| decode MB/s | reference decode MB/s | in MB/s | decode/in | reference decode/in |\n");
	printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	for (i = 0; i < nfiles; i++)
	{
		doc			d = {0};
		const char *base = strrchr(files[i], '/');
		double		enc,
					out,
					dec,
					in,
					renc,
					rdec;
		int			r;

		load(files[i], &d);
		/* best of reps, the six interleaved so that a slow spell falls on each */
		enc = out = dec = in = renc = rdec = 0;
		for (r = 0; r < reps; r++)
		{
			double		v;

			if ((v = run_mbs(&d, 'e', min_time)) > enc)
				enc = v;
			if ((v = run_mbs(&d, 'o', min_time)) > out)
				out = v;
			if ((v = run_mbs(&d, 'd', min_time)) > dec)
				dec = v;
			if ((v = run_mbs(&d, 'i', min_time)) > in)
				in = v;
			if ((v = run_mbs(&d, 'E', min_time)) > renc)
				renc = v;
			if ((v = run_mbs(&d, 'D', min_time)) > rdec)
				rdec = v;
		}
		printf("| %s | %zu | %.0f | %.0f | %.0f | %.2f | %.2f | %.0f | %.0f | %.0f | %.2f | %.2f |\n",
			   base ? base + 1 : files[i], d.len, enc, renc, out, enc / out, renc / out,
			   dec, rdec, in, dec / in, rdec / in);
		fflush(stdout);
	}
	return 0;
}
