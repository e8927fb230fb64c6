/* x86_target_end.h — end the target region opened by x86_target.h. */
#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#ifndef FJ_X86_CPU_CHECK
#define FJ_X86_CPU_CHECK
#include <cpuid.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * The baseline checks every x86 kernel needs (OSXSAVE, PCLMUL, POPCNT, and
 * the OS saving the vector state in xcr0_mask), then leaf 7's feature words
 * for the kernel to test. Compiled outside any target region, so it runs on
 * every x86-64 CPU.
 */
static inline bool
fj_x86_cpu(uint32_t xcr0_mask, unsigned *leaf7_ebx, unsigned *leaf7_ecx)
{
	unsigned	a, b, c, d;
	uint32_t	xcr0_lo, xcr0_hi;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return false;
	if (!(c & bit_OSXSAVE) || !(c & bit_PCLMUL) || !(c & bit_POPCNT))
		return false;
	__asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
	if ((xcr0_lo & xcr0_mask) != xcr0_mask)
		return false;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return false;
	*leaf7_ebx = b;
	*leaf7_ecx = c;
	return true;
}
#endif
