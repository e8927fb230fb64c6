/*
 * fuzz_tape.c — libFuzzer target for the tape validator (fj_validate_tape),
 * which guards binary input (fastjson_recv) from untrusted clients.
 *
 * For each input (arbitrary bytes, taken as a tape, header included):
 *   - fj_validate_tape on an exactly sized heap copy must not crash or read
 *     out of bounds (ASan), must not leak, and must fail cleanly (FJ_ERR_TAPE
 *     or FJ_ERR_DEPTH with an offset inside the input) or accept;
 *   - with a small max_depth it must agree with the nesting depth;
 *   - under allocation failure: FJ_ERR_NOMEM or the normal result, no leak;
 * and for every tape it accepts:
 *   - the readers (fj_object_get on every key, near-miss keys and missing
 *     keys; fj_array_get on -n-1..n and extremes) agree with a plain scan of
 *     the members (the last member with a key is the operative one);
 *   - fj_write_json's text is accepted by fj_parse with every kernel and
 *     parses back to exactly the same tape bytes; or, where the tape is of
 *     version 2 or holds string references (whose placement is the writer's
 *     choice), to a tape that is the same byte for byte once both are copied
 *     with every reference written as its string (fj_builder expand_refs).
 *
 * Seeds: tapes of real documents, written by make_seeds (see fuzz.mk).
 */
#include "fuzz_common.h"

#define SMALL_DEPTH 8

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	uint8_t    *tape = malloc(size ? size : 1);
	uint64_t	h = fz_hash(in, size);
	fz_alloc_state st;
	fj_allocator a = fz_allocator(&st);
	fj_error	err;
	fj_code		rc,
				rc8,
				frc;
	long		total;
	uint32_t	depth;
	fj_buf		text = {0};
	size_t		k;

	fz_init_kernels();
	/* an exactly sized copy: any read past the end is a heap overflow for ASan */
	memcpy(tape, in, size);
	fz_input = tape;
	fz_input_len = size;

	memset(&err, 0x5a, sizeof(err));
	rc = fj_validate_tape(tape, size, 0, &a, &err);
	total = st.calls;
	FZ_CHECK(st.live == 0, "fj_validate_tape leaks %ld blocks (%s)", st.live, fz_code_name(rc));
	FZ_CHECK(rc == err.code, "fj_validate_tape returns %s, err.code %s", fz_code_name(rc), fz_code_name(err.code));
	FZ_CHECK(memcmp(tape, in, size) == 0, "fj_validate_tape wrote to its input");
	if (rc != FJ_OK)
	{
		FZ_CHECK(rc == FJ_ERR_TAPE || rc == FJ_ERR_DEPTH, "fj_validate_tape gives %s (%s)", fz_code_name(rc),
				 err.message ? err.message : "no message");
		FZ_CHECK(err.message != NULL, "fj_validate_tape gives %s without a message", fz_code_name(rc));
		FZ_CHECK(err.offset <= size, "fj_validate_tape: \"%s\" at offset %zu past the tape (%zu bytes)",
				 err.message, err.offset, size);
	}

	/* a small depth limit: never accepts what the default rejects */
	rc8 = fj_validate_tape(tape, size, SMALL_DEPTH, &a, &err);
	FZ_CHECK(st.live == 0, "fj_validate_tape leaks %ld blocks", st.live);
	if (rc8 == FJ_OK)
		FZ_CHECK(rc == FJ_OK, "accepted with max_depth %d, %s at the default", SMALL_DEPTH, fz_code_name(rc));

	/* allocation failure at a call the normal run makes: FJ_ERR_NOMEM, nothing leaked */
	if (total > 0)
	{
		st.calls = 0;
		st.fail_at = 1 + (long) (h % (uint64_t) total);
		frc = fj_validate_tape(tape, size, 0, &a, &err);
		FZ_CHECK(frc == FJ_ERR_NOMEM && st.failed, "fj_validate_tape with allocation %ld of %ld failing gives %s, normally %s",
				 st.fail_at, total, fz_code_name(frc), fz_code_name(rc));
		FZ_CHECK(st.live == 0, "fj_validate_tape leaks %ld blocks after %s", st.live, fz_code_name(frc));
		st.fail_at = 0;
	}

	if (rc == FJ_OK)
	{
		depth = fz_walk_tape(tape, size, h);
		FZ_CHECK(rc8 == (depth <= SMALL_DEPTH ? FJ_OK : FJ_ERR_DEPTH),
				 "fj_validate_tape with max_depth %d on a tape nested %u deep gives %s", SMALL_DEPTH, depth,
				 fz_code_name(rc8));

		/* write, then parse with every kernel: exactly the same tape */
		FZ_CHECK(fj_write_json(tape + FJ_TAPE_HEADER, &a, &text) == FJ_OK, "fj_write_json fails");
		for (k = 0; k < fz_nkernels; k++)
		{
			fj_parse_options opt;
			fj_buf		back;
			fj_code		prc;

			memset(&opt, 0, sizeof(opt));
			opt.kernel = fz_kernels[k];
			opt.alloc = &a;
			prc = fj_parse((const char *) text.data, text.len, &opt, &back, &err);
			if (prc != FJ_OK)
			{
				fz_print_bytes("written text", text.data, text.len, 400);
				fz_fail("%s rejects the text written from a valid tape: %s \"%s\" at %zu",
						fj_kernel_name(fz_kernels[k]), fz_code_name(prc), err.message, err.offset);
			}
			if (back.len != size || memcmp(back.data, tape, size) != 0)
			{
				/*
				 * Allowed only where the tape holds references or is of
				 * version 2, and then only in where references are: copied
				 * with every reference written as its string, the two are
				 * the same, and differ from the tape (which a tape without
				 * references and of this version does not).
				 */
				fj_buf		x = fz_expanded(tape, &a),
							y = fz_expanded(back.data, &a);

				if (x.len != y.len || memcmp(x.data, y.data, x.len) != 0 ||
					(x.len == size && memcmp(x.data, tape, size) == 0))
				{
					fz_print_bytes("written text", text.data, text.len, 400);
					fz_print_bytes("tape parsed back", back.data, back.len, 400);
					fz_fail("%s: the written text parses to a different tape (%zu vs %zu bytes, first difference at byte %zu)",
							fj_kernel_name(fz_kernels[k]), back.len, size,
							fz_first_diff(back.data, back.len, tape, size));
				}
				fj_buf_release(&a, &x);
				fj_buf_release(&a, &y);
			}
			fj_buf_release(&a, &back);
		}
		fj_buf_release(&a, &text);
		FZ_CHECK(st.live == 0, "%ld blocks leaked writing and parsing", st.live);
	}
	FZ_CHECK(memcmp(tape, in, size) == 0, "the tape was modified");
	free(tape);
	fz_input = NULL;
	return 0;
}
