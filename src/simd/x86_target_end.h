/* x86_target_end.h — end the target region opened by x86_target.h. */
#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif
