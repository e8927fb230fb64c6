/*
 * cbor_ref.h — the CBOR implementation as it was before the fast paths
 * (src/cbor_encode.c, cbor_decode.c and cbor_number.c of commit 646ea70,
 * copied unchanged into ref_*.c here, their public names prefixed fj_ref_),
 * kept as the oracle the tests compare the current code with, byte for byte:
 * test_cbor (corpus, generated documents and numbers, random CBOR) and the
 * fuzz target fuzz_cbor. Not part of the extension.
 */
#ifndef FJ_CBOR_REF_H
#define FJ_CBOR_REF_H

#include "../../src/cbor.h"

fj_code		fj_ref_cbor_encode(const uint8_t *v, const fj_cbor_encode_options *opt,
							   fj_buf *out, fj_error *err);
fj_code		fj_ref_cbor_decode(const uint8_t *cbor, size_t len, const fj_cbor_decode_options *opt,
							   fj_buf *out, fj_error *err);
size_t		fj_ref_double_shortest(double d, char *out);
void		fj_ref_number_split(const uint8_t *s, size_t len, fj_number_parts *n);
bool		fj_ref_number_is_double(const fj_number_parts *n, double *d);
bool		fj_ref_double_to_half(double d, uint16_t *bits);

#endif							/* FJ_CBOR_REF_H */
