// libFuzzer entry point for every decoder (JPEG, PNG, HEIF through libheif, WebP through libwebp), the
// EXIF parsers and the reduced-size paths (DCT scaling, HEIF thumbnails, libwebp's scaler).
// Built and run by scripts/fuzz.sh, which compiles this file together with Sources/ShelfImage and the
// C shim under -sanitize=fuzzer,address. Any crash, sanitizer report, leak or timeout is a finding;
// a thrown ShelfImageError is the expected answer to bad input.

/// 4 MP keeps AddressSanitizer's 2 GB RSS limit out of reach even for a progressive JPEG, whose
/// coefficient buffer is a multiple of the pixel count.
let fuzzOptions = DecodeOptions(maxPixels: 4_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func shelfImageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let info = try? ImageDecoder.info(bytes) {
        precondition((1...8).contains(info.orientation), "orientation out of range")
    }
    if let image = try? ImageDecoder.decode(bytes, options: fuzzOptions) {
        precondition(image.pixels.count == image.width * image.height * 3, "buffer size mismatch")
        if image.width > 1, image.height > 1, image.width * image.height < 1_000_000 {
            _ = image.downscaled(maxSide: max(1, max(image.width, image.height) / 3))
        }
    }
    var quarter = fuzzOptions
    quarter.scaleDenominator = 4
    if let image = try? ImageDecoder.decode(bytes, options: quarter) {
        precondition(image.pixels.count == image.width * image.height * 3, "buffer size mismatch at 1/4")
    }
    if let gray = try? ImageDecoder.decodeGray(bytes, options: quarter) {
        precondition(gray.pixels.count == gray.width * gray.height, "gray buffer size mismatch")
    }
    return 0
}
