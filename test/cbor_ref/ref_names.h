/*
 * ref_names.h — included first by the reference copies in this folder: their
 * public functions get an fj_ref_ prefix, so that they link next to the
 * current ones (src/cbor_*.c). See cbor_ref.h.
 */
#ifndef FJ_CBOR_REF_NAMES_H
#define FJ_CBOR_REF_NAMES_H

#define fj_cbor_encode fj_ref_cbor_encode
#define fj_cbor_decode fj_ref_cbor_decode
#define fj_double_shortest fj_ref_double_shortest
#define fj_number_split fj_ref_number_split
#define fj_number_is_double fj_ref_number_is_double
#define fj_double_to_half fj_ref_double_to_half
#define fj_decimal_to_bignum fj_ref_decimal_to_bignum
#define fj_bignum_to_decimal fj_ref_bignum_to_decimal

#include "../../src/cbor.h"

#endif							/* FJ_CBOR_REF_NAMES_H */
