/*
 * read_file.h — the C bench drivers' (cbor_bench.c, core_ab.c) one way to
 * read a whole file: into a new buffer, NUL-terminated past its length.
 */
#ifndef FJ_BENCH_READ_FILE_H
#define FJ_BENCH_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of the file at path (malloc'd) and their count in *len, or NULL. */
static char *
read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	char	   *buf = NULL;
	long		n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
		(buf = malloc((size_t) n + 1)) != NULL)
	{
		if (fread(buf, 1, (size_t) n, f) == (size_t) n)
		{
			buf[n] = '\0';
			*len = (size_t) n;
		}
		else
		{
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

#endif							/* FJ_BENCH_READ_FILE_H */
