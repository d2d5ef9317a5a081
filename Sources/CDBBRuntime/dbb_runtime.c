#include "dbb_runtime.h"

#if defined(__APPLE__)
#include <malloc/malloc.h>
size_t dbb_allocation_size(const void *pointer) { return malloc_size(pointer); }
#elif defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
size_t dbb_allocation_size(const void *pointer) { return malloc_usable_size((void *)pointer); }
#else
size_t dbb_allocation_size(const void *pointer) { (void)pointer; return 0; }
#endif
