// What the benchmarks need from the C library and Swift's Glibc module does not export.
#ifndef ASSEMBLAGE_BENCHMARK_SUPPORT_H
#define ASSEMBLAGE_BENCHMARK_SUPPORT_H

#include <stdint.h>

/// Bytes currently allocated by malloc and not yet freed (glibc: mallinfo2's uordblks + hblkhd, main
/// arena and mmapped chunks; Darwin: the default zone's size_in_use), or -1 where unknown.
/// Other arenas are not counted: call it from a single-threaded process.
int64_t benchmark_heap_bytes_in_use(void);

#endif
