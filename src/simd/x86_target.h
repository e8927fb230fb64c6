/*
 * x86_target.h — compile the rest of a kernel file for one x86 instruction
 * set, whatever the command-line flags say (the build never targets the
 * build machine's own CPU: the .so must run on any x86-64).
 *
 * Define FJ_TARGET to the target string before including this file.
 */
#if defined(__clang__)
#define FJ_TARGET_ATTR(t) _Pragma(#t)
#pragma clang attribute push(__attribute__((target(FJ_TARGET))), apply_to = function)
#elif defined(__GNUC__)
#define FJ_PRAGMA(x) _Pragma(#x)
#define FJ_GCC_TARGET(t) FJ_PRAGMA(GCC target(t))
#pragma GCC push_options
FJ_GCC_TARGET(FJ_TARGET)
#endif

#include <immintrin.h>
