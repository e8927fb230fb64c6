/*
 * error.c — the table of reasons behind error.h: each one's class of
 * failure and message.
 */
#include "error.h"

const fj_reason_info fj_reason_table[FJ_R_COUNT] = {
	[FJ_R_NONE] = {FJ_OK, NULL},
#define FJ_REASON_ROW(r, c, m) [r] = {c, m},
	FJ_REASONS(FJ_REASON_ROW)
#undef FJ_REASON_ROW
};
