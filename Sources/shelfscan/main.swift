#if canImport(Glibc)
import Glibc
#endif
import ShelfScanCLI

// libtesseract runs its work in OpenMP threads, and libgomp reads OMP_THREAD_LIMIT once, when it is loaded
// with the binary — before any Swift code runs, so a setenv() here is too late. ShelfScan already reads
// several spines in parallel (one engine per worker), and OpenMP threads on top of that only spin: a
// 62-spine photo took 32 s instead of 10 s. So the process re-executes itself once with the limit set.
// A user's own OMP_THREAD_LIMIT is left as it is.
// The same re-execution caps glibc's malloc arenas, also read only at start-up: by default each thread that
// allocates gets an arena of its own and freed memory stays in it, and reading spines allocates large
// short-lived buffers (ONNX Runtime tensors, crops) on many threads. 18 phone photos, --jobs 1: 469 MB peak
// resident without the cap, 379 MB with MALLOC_ARENA_MAX=2.
#if os(Linux)
if getenv("OMP_THREAD_LIMIT") == nil {
    setenv("OMP_THREAD_LIMIT", "1", 1)
    if getenv("MALLOC_ARENA_MAX") == nil { setenv("MALLOC_ARENA_MAX", "2", 1) }
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // Only reached if exec failed: carry on, slower but correct.
}
#endif

await Shelfscan.runMain()
