#if canImport(Glibc)
import Glibc
#endif

/// glibc's malloc settings for a long-running server.
///
/// Reading spines allocates large short-lived buffers (decoded photos, crops, ONNX Runtime tensors). glibc
/// serves a freed large block's successor from the heap once its dynamic mmap threshold has grown (up to
/// 32 MB), and a fragmented heap is not returned to the system: twenty PP-OCR jobs at once peaked at 532 MB.
/// With a fixed threshold every larger block is its own mapping, given back the moment it is freed, at the
/// price of a page fault per page of it. At 256 KB that price was most of the work: the kernel took about
/// 78% of the CPU (perf: page faults and munmap under ONNX Runtime), and twenty PP-OCR jobs took 265 s at
/// 266 MB. At 4 MB the tensors of one line batch stay in the heap while photos and maps are still handed
/// back: bench-serve measured, one run each on 2 cores, 2 MB 56 s / 386 MB, 4 MB 43 s / 404 MB, 8 MB 35 s /
/// 447 MB, 32 MB 33 s / 496 MB (goal 500 MB).
/// (`shelfscan` also starts with MALLOC_ARENA_MAX=2; see Sources/shelfscan/main.swift.)
enum MallocTuning {
    static func apply() {
        #if os(Linux)
        // <malloc.h> is not part of Swift's Glibc module: mallopt is looked up, and its parameters are glibc's.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3
        _ = mallopt(mmapThreshold, 4 << 20)
        _ = mallopt(trimThreshold, 1 << 20)
        #endif
    }
}
