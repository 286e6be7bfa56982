/*
 * Page-fault cost of big pixel buffers. A fresh 36 MB buffer (12 MP RGB) faults in 9,000 separate 4 KiB
 * pages, about 15 ms of kernel time: a quarter of a full decode, and the whole gap to djpeg, which reuses
 * one row buffer. Asking for transparent huge pages cuts that to about 4 ms. The advice is a hint:
 * kernels without THP (or other systems) simply ignore it.
 */
#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "CImageCodecs.h"

void shelf_advise_huge_pages(void *buffer, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (buffer == NULL || size < ((size_t)4 << 20)) return;
    const uintptr_t page = 4096;
    uintptr_t start = ((uintptr_t)buffer + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)buffer + size) & ~(page - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)buffer;
    (void)size;
#endif
}
