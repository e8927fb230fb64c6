/*
 * harness.h — a minimal test harness for the core's C tests: CHECK records a
 * failure with its line and goes on; the summary line is "N passed, N failed".
 */
#ifndef FJ_TEST_HARNESS_H
#define FJ_TEST_HARNESS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "../src/fj_core.h"
#include "../src/tape.h"

static int	t_passed,
			t_failed;

#define CHECK(cond) \
	do { \
		if (cond) \
			t_passed++; \
		else \
		{ \
			t_failed++; \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		} \
	} while (0)

#define CHECKF(cond, ...) \
	do { \
		if (cond) \
			t_passed++; \
		else \
		{ \
			t_failed++; \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
		} \
	} while (0)

/* xorshift64*: the tests' deterministic random numbers; each test keeps its own state. */
static inline uint64_t
t_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

/* A growable, NUL-terminated string that tests build documents in. */
typedef struct t_buf
{
	char	   *s;
	size_t		len,
				cap;
} t_buf;

/* Append n bytes. */
static inline void
t_put(t_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
	{
		b->cap = (b->len + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

/* Append printf's output. */
static inline void __attribute__((format(printf, 2, 3)))
t_printf(t_buf *b, const char *fmt, ...)
{
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	t_put(b, "", 0);
	if (b->len + (size_t) n + 1 > b->cap)
	{
		b->cap = (b->len + (size_t) n + 1) * 2;
		b->s = realloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t) n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t) n;
}

/* Print the summary and return the exit status. */
static inline int
t_summary(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, t_passed, t_failed);
	return t_failed ? 1 : 0;
}

/* Read a whole file; NULL if it cannot be read. */
static inline char *
t_read_file(const char *path, size_t *len)
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
	if (buf)
		buf[n] = 0;
	*len = (size_t) n;
	return buf;
}

/* Collect the regular files of dir whose names start with prefix and end with suffix, sorted. */
static inline int
t_cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static inline size_t
t_list_dir(const char *dir, const char *prefix, const char *suffix, char ***out)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;
	size_t		n = 0,
				cap = 64;
	char	  **names;

	*out = NULL;
	if (!d)
		return 0;
	names = malloc(cap * sizeof(char *));
	while ((e = readdir(d)) != NULL)
	{
		size_t		l = strlen(e->d_name),
					ls = strlen(suffix);

		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || l < ls ||
			strcmp(e->d_name + l - ls, suffix) != 0)
			continue;
		if (n == cap)
			names = realloc(names, (cap *= 2) * sizeof(char *));
		names[n] = malloc(strlen(dir) + l + 2);
		sprintf(names[n], "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(char *), t_cmpstr);
	*out = names;
	return n;
}

/* The data folder (FJ_DATA or ../shared/data), or NULL with a skip message. */
static inline const char *
t_data_dir(void)
{
	const char *d = getenv("FJ_DATA");
	struct stat st;

	if (!d)
		d = "../shared/data";
	if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode))
	{
		printf("SKIP: data folder %s is absent; conformance and corpus tests skipped\n", d);
		return NULL;
	}
	return d;
}

/* The corpus files (*.json of the data folder's corpus/, sorted; caller frees), 0 with a skip message when absent. */
static inline size_t
t_corpus_files(char ***files)
{
	const char *data = t_data_dir();
	char		dir[1024];

	*files = NULL;
	if (!data)
		return 0;
	snprintf(dir, sizeof(dir), "%s/corpus", data);
	return t_list_dir(dir, "", ".json", files);
}

/* Parse with one kernel; the result code, tape (caller frees) and error. */
static inline fj_code
t_parse(const char *json, size_t len, const char *kernel, fj_buf *tape, fj_error *err)
{
	fj_parse_options opt;

	memset(&opt, 0, sizeof(opt));
	if (kernel)
		opt.kernel = fj_kernel_by_name(kernel);
	return fj_parse(json, len, &opt, tape, err);
}

#endif							/* FJ_TEST_HARNESS_H */
