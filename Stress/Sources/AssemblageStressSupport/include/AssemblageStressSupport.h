// Heap figures for the stress runner (the Glibc module does not import <malloc.h>).
#ifndef ASSEMBLAGE_STRESS_SUPPORT_H
#define ASSEMBLAGE_STRESS_SUPPORT_H

#include <stdint.h>

/// Bytes of heap in use: `uordblks + hblkhd` of glibc's `mallinfo2()`, `size_in_use` of the default malloc
/// zone on Apple platforms; -1 where neither is available.
int64_t assemblage_stress_heap_bytes_in_use(void);

#endif
