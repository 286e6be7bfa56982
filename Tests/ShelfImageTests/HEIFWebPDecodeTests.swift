import Testing
@testable import ShelfImage

/// HEIC and WebP decode to the upright pixels the reference decoders give on the same files: heif-convert
/// (libheif's own tool, which applies irot/imir) and dwebp. Both references were saved as PNG by
/// scripts/image-fixtures/make-heif-webp.sh and are read here through ShelfImage's PNG decoder (checked
/// against Pillow in ReferenceDecodeTests), which composites their alpha onto white by the same rule.
struct HEIFWebPDecodeTests {
    static let heicFixtures = (1...8).map { "heic-orientation-\($0).heic" }
        + ["heic-orientation-6-exif.heic", "heic-alpha.heic", "heic-10bit.heic", "heic-thumbnail.heic"]
    static let webpFixtures = ["webp-lossy.webp", "webp-lossless.webp", "webp-alpha.webp", "webp-animated.webp"]

    /// The reference pixels as the tool wrote them. Orientation off: heif-convert copies the HEIC's EXIF
    /// (orientation 6 included) into a PNG it has already turned upright, the very double turn to avoid.
    static func reference(_ name: String) throws -> RGBImage {
        try ImageDecoder.decode(TestImages.fixture(name + ".ref.png"), options: DecodeOptions(applyOrientation: false))
    }

    @Test(arguments: heicFixtures)
    func heicMatchesHeifConvert(_ name: String) throws {
        let image = try ImageDecoder.decode(TestImages.fixture(name))
        let reference = try Self.reference(name)
        #expect(image.width == reference.width && image.height == reference.height)
        guard image.width == reference.width && image.height == reference.height else { return }
        let diff = TestImages.difference(image, reference)
        // Same libheif and libde265 on both sides; a 10-bit sample reaches 8 bits by two roundings
        // (ours: libheif's, theirs: 16-bit PNG then libpng's), so one step apart at most.
        #expect(diff.max <= 1, "\(name): max difference \(diff.max)")
        #expect(try ImageDecoder.info(TestImages.fixture(name)).format == .heif)
    }

    /// The eight fixtures store the same pixels and differ only in irot/imir: each must be the upright
    /// orientation-1 image turned by exactly that EXIF orientation, and `info` must report the upright size.
    @Test(arguments: 1...8)
    func heicTransformsAreAppliedOnce(_ orientation: Int) throws {
        let stored = try ImageDecoder.decode(TestImages.fixture("heic-orientation-1.heic"))
        let data = TestImages.fixture("heic-orientation-\(orientation).heic")
        let image = try ImageDecoder.decode(data)
        #expect(image == stored.oriented(exif: orientation))
        let info = try ImageDecoder.info(data)
        #expect(info.orientation == 1)
        #expect(info.uprightWidth == image.width && info.uprightHeight == image.height)
        #expect(info.width == (orientation >= 5 ? 48 : 64))
    }

    /// A phone writes irot and an EXIF orientation that says the same; turning by both would be wrong.
    @Test func heicExifOrientationIsNotAppliedOnTopOfIrot() throws {
        let both = try ImageDecoder.decode(TestImages.fixture("heic-orientation-6-exif.heic"))
        let irotOnly = try ImageDecoder.decode(TestImages.fixture("heic-orientation-6.heic"))
        #expect(TestImages.difference(both, irotOnly).max == 0)
        #expect(both.width == 48 && both.height == 64)
        #expect(try ImageDecoder.info(TestImages.fixture("heic-orientation-6-exif.heic")).orientation == 1)
        // Even with orientation off nothing changes: libheif's transforms are part of the image.
        let off = try ImageDecoder.decode(TestImages.fixture("heic-orientation-6-exif.heic"),
                                          options: DecodeOptions(applyOrientation: false))
        #expect(off == both)
    }

    @Test func heicAlphaIsCompositedOntoWhite() throws {
        let image = try ImageDecoder.decode(TestImages.fixture("heic-alpha.heic"))
        // The four left columns are fully transparent: white, whatever colour is stored under them.
        for y in stride(from: 0, to: image.height, by: 7) {
            let o = y * image.width * 3
            #expect(Array(image.pixels[o..<o + 12]) == [UInt8](repeating: 255, count: 12))
        }
    }

    @Test func tenBitHEICIsReadAsTenBit() throws {
        let h = try ImageDecoder.heifHeader(TestImages.fixture("heic-10bit.heic"), name: "10-bit")
        #expect(h.bit_depth == 10)
        let deep = try ImageDecoder.decode(TestImages.fixture("heic-10bit.heic"))
        let eight = try ImageDecoder.decode(TestImages.fixture("heic-orientation-1.heic"))
        // Same pattern at another depth and quantizer: close, not identical.
        #expect(TestImages.difference(deep, eight).mean < 3)
    }

    @Test(arguments: webpFixtures)
    func webpMatchesDwebp(_ name: String) throws {
        let data = TestImages.fixture(name)
        let image = try ImageDecoder.decode(data)
        let reference = try Self.reference(name)
        #expect(image.width == reference.width && image.height == reference.height)
        guard image.width == reference.width && image.height == reference.height else { return }
        let diff = TestImages.difference(image, reference)
        #expect(diff.max <= 1, "\(name): max difference \(diff.max)")
        #expect(try ImageDecoder.info(data).format == .webp)
    }

    @Test func losslessWebPIsExact() throws {
        let lossless = try ImageDecoder.decode(TestImages.fixture("webp-lossless.webp"))
        let heic = try ImageDecoder.decode(TestImages.fixture("heic-orientation-1.heic"))
        #expect(TestImages.difference(lossless, try Self.reference("webp-lossless.webp")).max == 0)
        // The HEIC was drawn from the same pattern: a lossy copy, near but not equal.
        #expect(TestImages.difference(lossless, heic).mean < 3)
    }

    /// dwebp ignores EXIF, so its reference is the stored image; ours must be it turned 90 degrees clockwise.
    @Test func webpExifOrientationSixIsApplied() throws {
        let data = TestImages.fixture("webp-orientation-6.webp")
        let info = try ImageDecoder.info(data)
        #expect(info.orientation == 6)
        #expect(info.width == 64 && info.height == 48 && info.uprightWidth == 48 && info.uprightHeight == 64)
        let image = try ImageDecoder.decode(data)
        let expected = try Self.reference("webp-orientation-6.webp").rotated(.clockwise90)
        #expect(image.width == 48 && image.height == 64)
        #expect(TestImages.difference(image, expected).max <= 1)
        let stored = try ImageDecoder.decode(data, options: DecodeOptions(applyOrientation: false))
        #expect(TestImages.difference(stored, try Self.reference("webp-orientation-6.webp")).max <= 1)
    }

    /// The animation's second frame is the negative of the first: any of it showing would be far off.
    @Test func animatedWebPGivesTheFirstFrame() throws {
        let image = try ImageDecoder.decode(TestImages.fixture("webp-animated.webp"))
        let first = try Self.reference("webp-animated.webp")
        #expect(image == first)
        let reduced = try ImageDecoder.decode(TestImages.fixture("webp-animated.webp"), options: DecodeOptions(scaleDenominator: 2))
        #expect(reduced.width == 32 && reduced.height == 24)
    }

    /// Reduced decodes have libjpeg's sizes, `ceil(size / scale)`, and the same content as the full decode
    /// area-averaged: libwebp scales while decoding; HEIF takes its 128x96 thumbnail when big enough.
    @Test(arguments: [2, 4, 8])
    func reducedDecodesKeepTheContent(_ scale: Int) throws {
        for name in ["webp-lossy.webp", "webp-alpha.webp", "webp-orientation-6.webp", "heic-thumbnail.heic", "heic-orientation-6.heic"] {
            let data = TestImages.fixture(name)
            let full = try ImageDecoder.decode(data)
            let reduced = try ImageDecoder.decode(data, options: DecodeOptions(scaleDenominator: scale))
            let w = (full.width + scale - 1) / scale, h = (full.height + scale - 1) / scale
            #expect(reduced.width == w && reduced.height == h, "\(name) at 1/\(scale)")
            guard reduced.width == w && reduced.height == h else { continue }
            let diff = TestImages.difference(reduced, full.areaResized(width: w, height: h))
            #expect(diff.mean < 6, "\(name) at 1/\(scale): mean difference \(diff.mean)")
            let gray = try ImageDecoder.decodeGray(data, options: DecodeOptions(scaleDenominator: scale))
            #expect(gray.width == w && gray.height == h)
        }
    }

    @Test func heifThumbnailIsUsedOnlyWhenLargeEnough() throws {
        let h = try ImageDecoder.heifHeader(TestImages.fixture("heic-thumbnail.heic"), name: "thumbnail")
        #expect(h.width == 256 && h.height == 192 && h.thumbnail_width == 128 && h.thumbnail_height == 96)
        let target = { (s: Int) in (width: (256 + s - 1) / s, height: (192 + s - 1) / s) }
        let thumb = (width: 128, height: 96), full = (width: 256, height: 192)
        #expect(!ImageDecoder.thumbnailFits(thumb, target: target(1), full: full))
        #expect(ImageDecoder.thumbnailFits(thumb, target: target(2), full: full))
        #expect(ImageDecoder.thumbnailFits(thumb, target: target(8), full: full))
        #expect(!ImageDecoder.thumbnailFits((width: 128, height: 72), target: target(4), full: full)) // other shape
    }

    @Test func formatIsSniffedFromTheBytes() throws {
        #expect(FormatSniffer.isHEIF(TestImages.fixture("heic-alpha.heic")))
        #expect(FormatSniffer.isWebP(TestImages.fixture("webp-lossless.webp")))
        #expect(try ImageDecoder.info(fileAt: TestImages.fixturePath("webp-lossless.webp")).format == .webp)
        var mp4 = TestImages.fixture("heic-orientation-1.heic")
        mp4.replaceSubrange(8..<12, with: Array("isom".utf8))
        let e = #expect(throws: ShelfImageError.self) { try ImageDecoder.decode(mp4) }
        #expect(e?.code == .unsupportedFormat)
        #expect(e?.message.contains("isom") == true)
        var avif = mp4
        avif.replaceSubrange(8..<12, with: Array("avif".utf8))
        let a = #expect(throws: ShelfImageError.self) { try ImageDecoder.decode(avif) }
        #expect(a?.message.contains("AVIF") == true)
    }
}
