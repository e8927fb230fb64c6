/*
 * core_ab.c — two builds of the core, A and B, timed against each other in
 * one process: each is a shared object (dlopen'ed with RTLD_LOCAL, so their
 * symbols stay apart), and every round calls A's and B's conversion once
 * each, alternating which goes first. Both meet the same machine load at
 * nearly the same moment, which wall-clock runs of two programs, minutes
 * apart on a shared VM, do not. For each file it prints the best and the
 * median MB/s (file bytes / s) of each build, and B's speed-up at the best.
 *
 *   core_ab A.so B.so decode|encode|out|in ROUNDS FILE.json ...
 *
 * The document, its tape and its CBOR are made once with A. bench/core_ab.sh
 * builds the two shared objects from two git revisions and runs this.
 */
#include "../src/cbor.h"
#include "../src/fj_core.h"
#include "../src/tape.h"
#include "read_file.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef fj_code (*parse_fn) (const char *, size_t, const fj_parse_options *, fj_buf *, fj_error *);
typedef fj_code (*decode_fn) (const uint8_t *, size_t, const fj_cbor_decode_options *, fj_buf *, fj_error *);
typedef fj_code (*encode_fn) (const uint8_t *, const fj_cbor_encode_options *, fj_buf *, fj_error *);
typedef fj_code (*write_fn) (const uint8_t *, const fj_allocator *, fj_buf *);

/* The functions of one build. */
typedef struct build
{
	parse_fn	parse;
	decode_fn	decode;
	encode_fn	encode;
	write_fn	write_json;
	const fj_allocator *alloc;
} build;

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return x < y ? -1 : x > y;
}

static void
die(const char *what, const char *detail)
{
	fprintf(stderr, "core_ab: %s: %s\n", what, detail);
	exit(1);
}

static void *
symbol(void *h, const char *name)
{
	void	   *p = dlsym(h, name);

	if (!p)
		die("missing symbol", name);
	return p;
}

static build
load_build(const char *path)
{
	void	   *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	build		b;

	if (!h)
		die("cannot load", dlerror());
	b.parse = (parse_fn) symbol(h, "fj_parse");
	b.decode = (decode_fn) symbol(h, "fj_cbor_decode");
	b.encode = (encode_fn) symbol(h, "fj_cbor_encode");
	b.write_json = (write_fn) symbol(h, "fj_write_json");
	b.alloc = (const fj_allocator *) symbol(h, "fj_malloc_allocator");
	return b;
}

/* One conversion with build b; returns its time in ns. */
static double
run_once(const build *b, char op, const char *json, size_t len, const fj_buf *tape, const fj_buf *cbor)
{
	fj_buf		out = {0};
	fj_error	err;
	fj_code		rc;
	double		t0 = now_ns(),
				t;

	if (op == 'd')
		rc = b->decode(cbor->data, cbor->len, NULL, &out, &err);
	else if (op == 'e')
		rc = b->encode(tape->data + FJ_TAPE_HEADER, NULL, &out, &err);
	else if (op == 'o')
		rc = b->write_json(tape->data + FJ_TAPE_HEADER, b->alloc, &out);
	else
		rc = b->parse(json, len, NULL, &out, &err);
	t = now_ns() - t0;
	if (rc != FJ_OK)
		die("conversion failed", "run_once");
	free(out.data);
	return t;
}

int
main(int argc, char **argv)
{
	build		builds[2];
	char		op;
	long		rounds;
	int			f;

	if (argc < 6)
		die("usage", "core_ab A.so B.so decode|encode|out|in ROUNDS FILE.json ...");
	builds[0] = load_build(argv[1]);
	builds[1] = load_build(argv[2]);
	op = argv[3][0];
	if (strchr("deoi", op) == NULL)
		die("unknown conversion", argv[3]);
	rounds = atol(argv[4]);
	if (rounds < 1)
		die("ROUNDS must be at least 1", argv[4]);
	printf("| file | A best MB/s | A median | B best MB/s | B median | B / A speed at best |\n");
	printf("|---|--:|--:|--:|--:|--:|\n");
	for (f = 5; f < argc; f++)
	{
		char	   *json;
		size_t		len;
		fj_buf		tape = {0},
					cbor = {0};
		fj_error	err;
		double	   *t[2];
		long		r;
		int			k;
		const char *name = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];

		if ((json = read_file(argv[f], &len)) == NULL)
			die("cannot read", argv[f]);
		if (builds[0].parse(json, len, NULL, &tape, &err) != FJ_OK ||
			builds[0].encode(tape.data + FJ_TAPE_HEADER, NULL, &cbor, &err) != FJ_OK)
			die(err.message, argv[f]);
		t[0] = malloc(sizeof(double) * (size_t) rounds);
		t[1] = malloc(sizeof(double) * (size_t) rounds);
		for (r = 0; r < rounds; r++)
			for (k = 0; k < 2; k++)
			{
				/* A first in even rounds, B first in odd ones */
				int			which = (r & 1) ? 1 - k : k;

				t[which][r] = run_once(&builds[which], op, json, len, &tape, &cbor);
			}
		qsort(t[0], (size_t) rounds, sizeof(double), cmp_double);
		qsort(t[1], (size_t) rounds, sizeof(double), cmp_double);
		printf("| %s | %.0f | %.0f | %.0f | %.0f | %.3f |\n", name,
			   (double) len * 1e3 / t[0][0], (double) len * 1e3 / t[0][rounds / 2],
			   (double) len * 1e3 / t[1][0], (double) len * 1e3 / t[1][rounds / 2],
			   t[0][0] / t[1][0]);
		free(t[0]);
		free(t[1]);
		free(json);
		free(tape.data);
		free(cbor.data);
	}
	return 0;
}
