#ifndef DBB_RUNTIME_H
#define DBB_RUNTIME_H

#include <stddef.h>

/// The usable size of the heap block at `pointer` (malloc_usable_size / malloc_size), or 0
/// where the platform cannot tell. DBBBuilder uses it to check that a property's storage
/// lies inside its object before reading and writing it directly.
size_t dbb_allocation_size(const void *pointer);

#endif
