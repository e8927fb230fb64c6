/*
 * fastjson_parse — parse a JSON file with the fastjson core and print its
 * canonical minified text, or the error with its byte offset.
 *
 *   fastjson_parse [--kernel NAME] [--tape | --hex] [--kernels] FILE|-
 *
 * --tape prints the tape size instead of the text, --hex the tape's bytes
 * (16 a line); --kernels lists kernels.
 */
#include "../src/fj_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const code_names[] = {
	"ok", "syntax error", "invalid UTF-8", "nesting too deep", "too big",
	"out of memory", "malformed tape", "interrupted"
};

/* Read a whole file (or stdin for "-"); exits on failure. */
static char *
read_all(const char *path, size_t *len)
{
	FILE	   *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	size_t		cap = 1 << 16,
				n = 0;
	char	   *buf = malloc(cap);

	if (!f || !buf)
	{
		fprintf(stderr, "fastjson_parse: cannot open %s\n", path);
		exit(2);
	}
	for (;;)
	{
		size_t		got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (n < cap)
			break;
		cap *= 2;
		if (!(buf = realloc(buf, cap)))
			exit(2);
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

int
main(int argc, char **argv)
{
	fj_parse_options opt;
	const char *path = NULL;
	bool		tape_only = false,
				hex = false;
	fj_buf		tape,
				text = {0};
	fj_error	err;
	char	   *json;
	size_t		len;
	int			i;

	memset(&opt, 0, sizeof(opt));
	for (i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc)
		{
			opt.kernel = fj_kernel_by_name(argv[++i]);
			if (!opt.kernel || !fj_kernel_supported(opt.kernel))
			{
				fprintf(stderr, "fastjson_parse: kernel %s is not available here\n", argv[i]);
				return 2;
			}
		}
		else if (strcmp(argv[i], "--tape") == 0)
			tape_only = true;
		else if (strcmp(argv[i], "--hex") == 0)
			hex = true;
		else if (strcmp(argv[i], "--kernels") == 0)
		{
			const fj_kernel *k[8];
			size_t		n = fj_kernel_list(k, 8),
						j;

			for (j = 0; j < n; j++)
				printf("%s%s%s\n", fj_kernel_name(k[j]),
					   fj_kernel_supported(k[j]) ? "" : " (not supported by this CPU)",
					   k[j] == fj_kernel_best() ? " (default)" : "");
			return 0;
		}
		else
			path = argv[i];
	}
	if (!path)
	{
		fprintf(stderr, "usage: fastjson_parse [--kernel NAME] [--tape | --hex] [--kernels] FILE|-\n");
		return 2;
	}
	json = read_all(path, &len);
	if (fj_parse(json, len, &opt, &tape, &err) != FJ_OK)
	{
		fprintf(stderr, "%s: %s at byte %zu: %s\n", path, code_names[err.code], err.offset, err.message);
		return 1;
	}
	if (tape_only)
		printf("input %zu bytes, tape %zu bytes\n", len, tape.len);
	else if (hex)
	{
		size_t		k;

		for (k = 0; k < tape.len; k++)
			printf("%02x%c", tape.data[k], k % 16 == 15 || k + 1 == tape.len ? '\n' : ' ');
	}
	else
	{
		if (fj_write_json(tape.data + 2, &fj_malloc_allocator, &text) != FJ_OK)
			return 2;
		fwrite(text.data, 1, text.len, stdout);
		putchar('\n');
	}
	fj_buf_release(&fj_malloc_allocator, &tape);
	fj_buf_release(&fj_malloc_allocator, &text);
	free(json);
	return 0;
}
