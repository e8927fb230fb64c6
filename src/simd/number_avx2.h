/*
 * number_avx2.h — stage 2's numbers 32 bytes at a time, for the x86
 * kernels (AVX2, and AVX-512, which has it): which bytes may be part of a
 * number, and number text to PACKED nibbles in one pass. Included by a
 * kernel after x86_target.h; stage2_number.h uses these when
 * FJ_KERNEL_HAS_NUMBER_MASKS is defined.
 */
#ifndef FJ_NUMBER_AVX2_H
#define FJ_NUMBER_AVX2_H

#define FJ_KERNEL_HAS_NUMBER_MASKS 1

/*
 * The 32 bytes at src as number characters: bit k of *digits when src[k] is
 * 0-9, of *signs when it is '.', '-', '+', 'e' or 'E'. False when fewer than
 * 32 bytes are readable (stage 2 then reads the number a byte at a time).
 */
static inline bool
number_masks(const uint8_t *src, const uint8_t *input_end, uint32_t *digits, uint32_t *signs)
{
	__m256i		v,
				d,
				lower;

	if (input_end - src < 32)
		return false;
	v = _mm256_loadu_si256((const __m256i *) src);
	/* v - '0' is below 10 exactly for digits: then min(d, 9) == d */
	d = _mm256_sub_epi8(v, _mm256_set1_epi8('0'));
	lower = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
	*digits = (uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d));
	*signs = (uint32_t) _mm256_movemask_epi8(
		_mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('.')),
										_mm256_cmpeq_epi8(v, _mm256_set1_epi8('-'))),
						_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('+')),
										_mm256_cmpeq_epi8(lower, _mm256_set1_epi8('e')))));
	return true;
}

/*
 * The n (< 32) characters at src (digits, '-', '.'; 32 bytes readable) as
 * PACKED nibbles at dst: character k in byte k / 2, the low nibble first,
 * zero nibbles after the last. Writes 16 bytes whatever n is.
 */
static inline void
number_pack32(uint8_t *dst, const uint8_t *src, unsigned n)
{
	const __m256i iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
										  16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
	__m256i		v = _mm256_loadu_si256((const __m256i *) src);
	/* '0'-'9' to 0-9, '-' to 0xd, '.' to 0xe; the bytes past the number to 0 */
	__m256i		codes = _mm256_and_si256(_mm256_and_si256(_mm256_sub_epi8(v, _mm256_set1_epi8('0')),
														  _mm256_set1_epi8(0x0f)),
										 _mm256_cmpgt_epi8(_mm256_set1_epi8((char) n), iota));
	/* each pair to one byte, low + 16 * high, then the two lanes' 8 bytes together */
	__m256i		pairs = _mm256_maddubs_epi16(codes, _mm256_set1_epi16(0x1001));
	__m256i		bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(pairs, pairs), 0x08);

	_mm_storeu_si128((__m128i *) dst, _mm256_castsi256_si128(bytes));
}

#endif							/* FJ_NUMBER_AVX2_H */
