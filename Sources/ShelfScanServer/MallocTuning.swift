#if canImport(Glibc)
import Glibc
#endif

/// glibc's malloc settings for a long-running server.
///
/// Reading spines allocates large short-lived buffers (decoded photos, crops, ONNX Runtime tensors). glibc
/// serves a freed large block's successor from the heap once its dynamic mmap threshold has grown (up to
/// 32 MB), and a fragmented heap is not returned to the system. With a fixed threshold every block of
/// 256 KB or more is its own mapping, given back the moment it is freed; the price is a page fault per page
/// of such a block, small beside the inference that fills it. Together with releasing the decoded photo
/// before its crops are read, twenty PP-OCR jobs at once peaked at 271-296 MB instead of 532 MB (bench-serve).
/// (`shelfscan` also starts with MALLOC_ARENA_MAX=2; see Sources/shelfscan/main.swift.)
enum MallocTuning {
    static func apply() {
        #if os(Linux)
        // <malloc.h> is not part of Swift's Glibc module: mallopt is looked up, and its parameters are glibc's.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3
        _ = mallopt(mmapThreshold, 256 << 10)
        _ = mallopt(trimThreshold, 1 << 20)
        #endif
    }
}
