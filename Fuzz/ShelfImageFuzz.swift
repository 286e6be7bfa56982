// libFuzzer entry point for what a photo passes through in ShelfImage: every decoder (JPEG, PNG, HEIF through
// libheif, WebP through libwebp), the EXIF parsers, the reduced-size paths (DCT scaling, HEIF thumbnails,
// libwebp's scaler), EXIF orientation, the area and bilinear resizes (C loops in CPixelLoops) and the quad warp
// that cuts out every spine.
// Built and run by scripts/fuzz.sh, which compiles this file together with Sources/ShelfImage and the C
// targets it depends on under -sanitize=fuzzer,address. Any crash, sanitizer report, leak, timeout or failed
// check below is a finding; a thrown ShelfImageError is the expected answer to bad input.
//
// The last `FuzzInput.trailerSize` bytes of an input are not image data: they choose the reduced scale, the
// orientation, the resize and warp sizes and the warp's quad, so libFuzzer mutates those as freely as the
// file. Fuzz/seeds holds each test fixture with such a trailer (scripts/fuzz.sh makes them), and a file
// that crashed once is replayed by the ShelfImage tests with the same split.

/// 4 MP keeps AddressSanitizer's 2 GB RSS limit out of reach even for a progressive JPEG, whose
/// coefficient buffer is a multiple of the pixel count.
let fuzzMaxPixels = 4_000_000

/// The largest output side a resize or warp is asked for: enough to enlarge and shrink every fixture,
/// small enough that one input stays in milliseconds under AddressSanitizer.
let fuzzMaxSide = 512

@_cdecl("LLVMFuzzerTestOneInput")
public func shelfImageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(UnsafeBufferPointer(start: data, count: size))
    let info = try? ImageDecoder.info(input.image)
    if let info {
        check((1...8).contains(info.orientation), "orientation \(info.orientation) out of range")
    }

    // Decoding applies the EXIF orientation; decoding without it and orienting afterwards must agree.
    let options = DecodeOptions(maxPixels: fuzzMaxPixels, acceptsDamagedData: input.acceptsDamage)
    if let image = try? ImageDecoder.decode(input.image, options: options) {
        if let info {
            check(image.width == info.uprightWidth && image.height == info.uprightHeight,
                  "decoded \(image.width)x\(image.height), header says \(info.uprightWidth)x\(info.uprightHeight)")
        }
        // Not for HEIF, whose orientation is always libheif's own (1 here): libde265 1.0.11 leaves the blocks of a
        // damaged HEVC stream that it cannot decode as whatever its picture buffer held, with no error or warning,
        // and takes no allocator of ours for that buffer, so two decodes of one damaged HEIC can differ there.
        // This fuzzer found it; it is libde265's to fix, and the check would only find it again.
        var stored = options
        stored.applyOrientation = false
        if let info, info.format != .heif, let unturned = try? ImageDecoder.decode(input.image, options: stored) {
            check(unturned.oriented(exif: info.orientation) == image, "orienting afterwards differs from decoding upright")
        }
        exercise(image, input)
    }

    // The reduced decode, in colour and in luma, at the scale the input asks for.
    var reduced = options
    reduced.scaleDenominator = input.scale
    let rgb = try? ImageDecoder.decode(input.image, options: reduced)
    if let rgb, let info {
        let (w, h) = (ceilDiv(info.uprightWidth, input.scale), ceilDiv(info.uprightHeight, input.scale))
        check(rgb.width == w && rgb.height == h, "1/\(input.scale) decode is \(rgb.width)x\(rgb.height), not \(w)x\(h)")
    }
    if let gray = try? ImageDecoder.decodeGray(input.image, options: reduced) {
        if let rgb {
            check(gray.width == rgb.width && gray.height == rgb.height, "gray and RGB decodes differ in size")
        }
        exercise(gray, input)
    }
    return 0
}

/// Orientation, both resizes and the warp on a decoded image, with what the input's trailer asks for.
func exercise(_ image: RGBImage, _ input: FuzzInput) {
    let o = input.orientation
    check(image.oriented(exif: o).oriented(exif: inverseOrientation(o)) == image, "orientation \(o) does not undo")
    let side = input.maxSide
    let fitted = image.downscaled(maxSide: side)
    check(max(fitted.width, fitted.height) <= max(side, 1) || fitted == image, "downscaled(maxSide: \(side)) is \(fitted.width)x\(fitted.height)")
    _ = image.downscaled(width: input.areaSize.width, height: input.areaSize.height)
    _ = image.resized(width: input.bilinearSize.width, height: input.bilinearSize.height)
    _ = image.grayscale()

    let (w, h) = input.warpSize
    if input.warpsCrop, let rect = input.rect(in: image) {
        // Documented in `warped`: an axis-aligned quad with integer corners and its own size is `cropped`.
        let q = Quad(topLeft: Point(x: Double(rect.x), y: Double(rect.y)),
                     topRight: Point(x: Double(rect.x + rect.width), y: Double(rect.y)),
                     bottomRight: Point(x: Double(rect.x + rect.width), y: Double(rect.y + rect.height)),
                     bottomLeft: Point(x: Double(rect.x), y: Double(rect.y + rect.height)))
        check(image.warped(q, width: rect.width, height: rect.height)
                  == image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
              "warp of \(rect) differs from its crop")
    } else {
        let warped = image.warped(input.quad(in: image), width: w, height: h)
        let expected = w > 0 && h > 0 ? (w, h) : (0, 0)
        check(warped.width == expected.0 && warped.height == expected.1, "warp to \(w)x\(h) gave \(warped.width)x\(warped.height)")
    }
}

func exercise(_ image: GrayImage, _ input: FuzzInput) {
    let o = input.orientation
    check(image.oriented(exif: o).oriented(exif: inverseOrientation(o)) == image, "gray orientation \(o) does not undo")
    _ = image.downscaled(maxSide: input.maxSide)
    _ = image.downscaled(width: input.areaSize.width, height: input.areaSize.height)
    _ = image.resized(width: input.bilinearSize.width, height: input.bilinearSize.height)
    _ = image.rgb()
}

/// The EXIF orientation that turns `o` back: the quarter turns swap, every mirror and the half turn undo themselves.
func inverseOrientation(_ o: Int) -> Int {
    switch o {
    case 6: return 8
    case 8: return 6
    default: return o
    }
}

func ceilDiv(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }

/// A failed check is a finding: it stops the run like a crash, with the reason in the log.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz check failed: \(message())") }
}

/// One fuzz input split into the image bytes and the trailer that steers what happens to the decoded image.
///
/// Trailer layout (byte offsets from its start; an input shorter than the trailer is all trailer, zero-padded):
/// 0 flags (bits 0-1 reduced scale 1/1, 1/2, 1/4, 1/8; bit 2 accept damaged JPEG data; bit 3 quad corners as
///   raw Float bit patterns, NaN and infinities included; bit 4 warp an integer rectangle and compare with the crop),
/// 1 orientation, 2-3 maxSide, 4-7 area resize size, 8-11 bilinear resize size, 12-15 warp size,
/// 16-47 the quad's eight coordinates (top-left x, y, top-right, bottom-right, bottom-left) as Int32 in
///   1/2^24 of the image's side, so corners reach eight sides out in either direction.
struct FuzzInput {
    static let trailerSize = 48
    let image: [UInt8]
    let trailer: [UInt8]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let k = min(bytes.count, Self.trailerSize)
        image = Array(bytes.prefix(bytes.count - k))
        trailer = Array(bytes.suffix(k)) + [UInt8](repeating: 0, count: Self.trailerSize - k)
    }

    var scale: Int { [1, 2, 4, 8][Int(trailer[0] & 3)] }
    var acceptsDamage: Bool { trailer[0] & 4 != 0 }
    var rawQuad: Bool { trailer[0] & 8 != 0 }
    var warpsCrop: Bool { trailer[0] & 16 != 0 }
    var orientation: Int { 1 + Int(trailer[1] % 8) }
    var maxSide: Int { side(2) }
    var areaSize: (width: Int, height: Int) { (side(4), side(6)) }
    var bilinearSize: (width: Int, height: Int) { (side(8), side(10)) }
    var warpSize: (width: Int, height: Int) { (side(12), side(14)) }

    /// The quad to warp, in `image`'s pixels.
    func quad(in image: RGBImage) -> Quad {
        func coordinate(_ i: Int, _ extent: Int) -> Double {
            let bits = UInt32(trailer[16 + 4 * i]) << 24 | UInt32(trailer[17 + 4 * i]) << 16
                | UInt32(trailer[18 + 4 * i]) << 8 | UInt32(trailer[19 + 4 * i])
            if rawQuad { return Double(Float(bitPattern: bits)) }
            return Double(Int32(bitPattern: bits)) / Double(1 << 24) * Double(extent)
        }
        func point(_ k: Int) -> Point { Point(x: coordinate(2 * k, image.width), y: coordinate(2 * k + 1, image.height)) }
        return Quad(topLeft: point(0), topRight: point(1), bottomRight: point(2), bottomLeft: point(3))
    }

    /// A non-empty rectangle inside `image`, at most `fuzzMaxSide` on a side, taken from the quad bytes; nil for an empty image.
    func rect(in image: RGBImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard image.width > 0, image.height > 0 else { return nil }
        let x = word(16) % image.width, y = word(18) % image.height
        return (x, y, 1 + word(20) % min(fuzzMaxSide, image.width - x), 1 + word(22) % min(fuzzMaxSide, image.height - y))
    }

    private func word(_ i: Int) -> Int { Int(trailer[i]) << 8 | Int(trailer[i + 1]) }
    private func side(_ i: Int) -> Int { word(i) % (fuzzMaxSide + 1) }
}
