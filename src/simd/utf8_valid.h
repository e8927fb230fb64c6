/*
 * utf8_valid.h — a whole buffer checked as UTF-8 with the kernel's stage 1
 * validator (utf8_init, utf8_block, utf8_failed), for the callers that have
 * text and no JSON around it: the CBOR decoder's text strings. Included by a
 * kernel after its validator.
 */
#ifndef FJ_SIMD_UTF8_VALID_H
#define FJ_SIMD_UTF8_VALID_H

/*
 * Whether s[0..n) is valid UTF-8: 64-byte blocks, the last one copied into
 * a block padded with zeros (ASCII, which ends no sequence early and starts
 * none), then whether a sequence is left incomplete at the end.
 */
static bool
kernel_utf8_valid(const uint8_t *s, size_t n)
{
	fj_utf8_state u;
	uint8_t		last[64];
	size_t		i = 0;

	utf8_init(&u);
	for (; n - i >= 64; i += 64)
		utf8_block(&u, s + i);
	if (i < n)
	{
		memset(last, 0, sizeof(last));
		memcpy(last, s + i, n - i);
		utf8_block(&u, last);
	}
	return !utf8_failed(&u, true);
}

#endif							/* FJ_SIMD_UTF8_VALID_H */
