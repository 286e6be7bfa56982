internal import CImageCodecs

/// Allocation of pixel arrays.
enum PixelBuffer {
    /// `[UInt8](unsafeUninitializedCapacity:)` for pixel data: a large buffer is first offered to
    /// transparent huge pages, because faulting in a 12 MP image 4 KiB at a time costs more CPU than
    /// djpeg's whole colour conversion (see CImageCodecs/memory.c).
    ///
    /// - warning: The buffer passed to `initialize` is only valid inside the closure; it must set
    ///   `initialized` to the number of bytes written (all of them, or 0 on failure).
    static func make(count: Int, _ initialize: (UnsafeMutableBufferPointer<UInt8>, inout Int) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            shelf_advise_huge_pages(buffer.baseAddress, buffer.count)
            initialize(buffer, &initialized)
        }
    }
}
