import Testing
@testable import ShelfImage

/// Damaged HEIC and WebP files: each gives a `ShelfImageError` with a data code (or, for a bit flip inside
/// compressed data, a well-formed image), never a crash, an abort in libheif/libwebp or a hang.
struct HEIFWebPMalformedTests {
    static let bases = ["heic-orientation-6-exif.heic", "heic-alpha.heic", "heic-10bit.heic", "heic-thumbnail.heic",
                        "webp-lossy.webp", "webp-lossless.webp", "webp-alpha.webp", "webp-orientation-6.webp",
                        "webp-animated.webp"]

    /// Every prefix of the file is missing image data (libheif puts `mdat` last; a RIFF size covers the
    /// whole WebP), so every cut must fail, and cut 0 as an empty file. Decoded at 1/2 as well, which takes
    /// the thumbnail or libwebp's scaler: those paths must notice the cut too.
    @Test(arguments: bases)
    func truncatedAtEveryOffsetFails(_ name: String) throws {
        let data = TestImages.fixture(name)
        #expect(data.count > 100)
        var decodedAnyway: [Int] = [], wrongCode: [Int] = []
        for cut in 0..<data.count {
            let prefix = Array(data[0..<cut])
            for scale in [1, 2] {
                switch MalformedInputTests.outcome(prefix, scale: scale) {
                case .success: decodedAnyway.append(cut)
                case .failure(let e):
                    if !MalformedInputTests.dataCodes.contains(e.code) || (cut == 0 && e.code != .emptyFile) {
                        wrongCode.append(cut)
                    }
                    #expect(!e.description.contains("\n"))
                }
            }
        }
        #expect(decodedAnyway.isEmpty, "\(name): cuts that decoded anyway: \(decodedAnyway.prefix(20))")
        // Past the first box header a cut HEIC or WebP is reported as truncated, not as corrupt data.
        for cut in [44, data.count / 2, data.count - 1] {
            guard case .failure(let e) = MalformedInputTests.outcome(Array(data[0..<cut])) else { continue }
            #expect(e.code == .truncated, "\(name) cut at \(cut): \(e)")
        }
        #expect(wrongCode.isEmpty, "\(name): cuts with the wrong error: \(wrongCode.prefix(20))")
    }

    /// Found by the fuzzer: a 1 KB HEIC whose derived image (item 2, a 'dimg' reference) is its own source. libheif
    /// 1.15 followed the loop until it could start no more decoding threads and aborted the process (or, decoding on
    /// one thread, until its stack overflowed). The shim reads the references first and calls the file damaged.
    @Test func aDerivedImageReferringToItselfIsDamagedNotACrash() throws {
        let data = TestImages.fixture("heic-derived-loop.heic")
        Self.expectDamaged(data, scales: [1, 2], cause: "refers back to itself", "a file whose image is derived from itself")
        #expect(throws: ShelfImageError.self) { _ = try ImageDecoder.info(data) }
    }

    /// Found by the fuzzer in CI: a 1.2 KB HEIC whose grid's 'dimg' reference box is too short to hold its count.
    /// libheif 1.15 read the count and the source from the bytes after the box, where they made the grid its own
    /// source, and the process ended (a C++ exception from a decoding thread; decoding on one thread, a segfault).
    @Test func aReferenceBoxCutShortIsDamagedNotACrash() throws {
        Self.expectDamaged(TestImages.fixture("heic-reference-cut-short.heic"), scales: [1, 2],
                           cause: "reference box is cut short", "a file whose reference box is cut short")
    }

    /// Decoding `data` at each scale fails as damaged data, the shim's `cause` in the error; `what` names the file
    /// for a decode that wrongly succeeded.
    static func expectDamaged(_ data: [UInt8], scales: [Int], cause: String, _ what: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        for scale in scales {
            guard case .failure(let e) = MalformedInputTests.outcome(data, scale: scale) else {
                Issue.record("decoded \(what)", sourceLocation: sourceLocation)
                continue
            }
            #expect(MalformedInputTests.dataCodes.contains(e.code), "\(e)", sourceLocation: sourceLocation)
            #expect(e.cause?.contains(cause) == true, "\(e)", sourceLocation: sourceLocation)
        }
    }

    /// Found by the fuzzer: a 1.1 KB HEIC stating no image larger than 64x64 whose grid item's data starts one byte before the end of its
    /// idat box. libheif 1.15 read the grid's output size from the bytes after the box (14441x27759) and allocated
    /// 400 MB per plane. The shim finds the grid's data outside its box and calls the file damaged.
    @Test func aGridWhoseDataRunsPastItsBoxIsDamagedNotGigabytes() throws {
        Self.expectDamaged(TestImages.fixture("heic-grid-past-idat.heic"), scales: [1, 2],
                           cause: "coded larger than the file says", "a grid read from past its box")
    }

    /// An HEVC image whose parameter set codes it larger than its ispe states: libde265 would allocate by the
    /// former, the pixel limit is checked against the latter. Every ispe of the 256x192 fixture is made 64x64.
    @Test func anImageCodedLargerThanItsStatedSizeIsDamaged() throws {
        var data = TestImages.fixture("heic-thumbnail.heic")
        let ispe = Array("ispe".utf8)
        var patched = 0
        for i in 0..<(data.count - 16) where Array(data[i..<(i + 4)]) == ispe {
            for k in 0..<8 { data[i + 8 + k] = k % 4 == 3 ? 64 : 0 }
            patched += 1
        }
        #expect(patched >= 2)
        Self.expectDamaged(data, scales: [1], cause: "coded larger than the file says", "an image coded at 256x192 that says it is 64x64")
    }

    @Test(arguments: bases)
    func bitFlipsNeverCrash(_ name: String) throws {
        let data = TestImages.fixture(name)
        var rng = SplitMix(seed: UInt64(data.count))
        var errors = 0, images = 0
        for round in 0..<300 {
            var mutated = data
            for _ in 0..<(1 + round % 8) {
                let i = Int(rng.next() % UInt64(mutated.count))
                mutated[i] ^= UInt8(1 << (rng.next() % 8))
            }
            switch MalformedInputTests.outcome(mutated, scale: 1 + round % 2) {
            case .success: images += 1
            case .failure(let e): if MalformedInputTests.dataCodes.contains(e.code) { errors += 1 }
            }
        }
        #expect(errors + images == 300)
        #expect(errors > 0, "\(name): no flip was ever noticed")
    }

    /// Sizes come from the header (ispe, VP8X canvas, the VP8 frame header) and are refused before any
    /// pixel buffer or codec state of that size exists.
    @Test func absurdDimensionsAreRefusedFromTheHeader() throws {
        // libheif writes a one-tile grid (its macOS workaround): the grid's ispe and the tile's both count.
        var heic = TestImages.fixture("heic-orientation-1.heic")
        let ispes = Self.findAll("ispe", in: heic)
        #expect(ispes.count == 2)
        // ispe: fourcc, version+flags (4), width (4), height (4).
        for ispe in ispes { heic.replaceSubrange(ispe + 8..<ispe + 16, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0]) } // 100000^2
        guard case .failure(let e1) = MalformedInputTests.outcome(heic) else { Issue.record("100000^2 HEIC decoded"); return }
        // libheif's own security limit (32768 a side) answers first, before our 4 MP one.
        #expect(e1.code == .tooManyPixels && e1.cause?.contains("Security limit") == true, "\(e1)")
        for ispe in ispes { heic.replaceSubrange(ispe + 8..<ispe + 16, with: [0, 0, 0, 0, 0, 0, 0, 0]) }
        guard case .failure(let e2) = MalformedInputTests.outcome(heic) else { Issue.record("0x0 HEIC decoded"); return }
        #expect(MalformedInputTests.dataCodes.contains(e2.code), "\(e2)")

        // Extended WebP: the VP8X canvas is 24-bit (width - 1) fields at offset 24 and 27.
        var canvas = TestImages.fixture("webp-orientation-6.webp")
        #expect(Array(canvas[12..<16]) == Array("VP8X".utf8))
        canvas.replaceSubrange(24..<30, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) // 16777216 x 16777216
        guard case .failure(let e3) = MalformedInputTests.outcome(canvas) else { Issue.record("2^24 canvas decoded"); return }
        #expect(e3.code == .tooManyPixels || e3.code == .corrupt, "\(e3)")
        var animated = TestImages.fixture("webp-animated.webp")
        animated.replaceSubrange(24..<30, with: [0xFF, 0x3F, 0x00, 0xFF, 0x3F, 0x00]) // 16384 x 16384, animation
        guard case .failure(let e4) = MalformedInputTests.outcome(animated) else { Issue.record("16384^2 animation decoded"); return }
        #expect(e4.code == .tooManyPixels, "\(e4)")

        // Simple lossy WebP: 14-bit sizes in the VP8 frame header after the 9d 01 2a start code.
        var simple = TestImages.fixture("webp-lossy.webp")
        let start = try #require(Self.find("\u{9D}\u{01}\u{2A}", bytes: [0x9D, 0x01, 0x2A], in: simple))
        simple.replaceSubrange(start + 3..<start + 7, with: [0xFF, 0x3F, 0xFF, 0x3F]) // 16383 x 16383
        guard case .failure(let e5) = MalformedInputTests.outcome(simple) else { Issue.record("16383^2 WebP decoded"); return }
        #expect(e5.code == .tooManyPixels, "\(e5)")
        #expect(e5.message.contains("over the 4 MP limit"))
    }

    @Test func wrongBrandsAndHeadersOnly() {
        let cases: [(String, [UInt8])] = [
            ("mp4", [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("isomiso2".utf8)),
            ("heic brand, no boxes", [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0]),
            ("heic brand, garbage", [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 0x41, count: 64)),
            ("riff wave", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVEfmt ".utf8)),
            ("webp, no chunk", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WEBP".utf8)),
            ("webp, garbage chunk", Array("RIFF".utf8) + [20, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [8, 0, 0, 0] + [UInt8](repeating: 7, count: 8)),
        ]
        for (label, data) in cases {
            guard case .failure(let e) = MalformedInputTests.outcome(data) else { Issue.record("\(label) decoded"); continue }
            #expect(MalformedInputTests.dataCodes.contains(e.code), "\(label): \(e)")
            #expect(e.message.hasPrefix("Cannot decode image data"), "\(label): \(e)")
        }
        if case .failure(let e) = MalformedInputTests.outcome(cases[0].1) { #expect(e.code == .unsupportedFormat) }
        if case .failure(let e) = MalformedInputTests.outcome(cases[3].1) { #expect(e.code == .unsupportedFormat) }
        // A sequence (track only) has no primary still image to show: unsupported, and the message says why.
        // With only sequence brands libheif itself calls the file type unsupported.
        let sequence = [0, 0, 0, 28] + Array("ftypmsf1".utf8) + [0, 0, 0, 0] + Array("msf1mif1hevc".utf8) + [0, 0, 0, 8] + Array("moov".utf8)
        guard case .failure(let e) = MalformedInputTests.outcome(sequence) else { Issue.record("sequence decoded"); return }
        #expect(e.code == .unsupportedFormat && e.message.contains("image sequence"), "\(e)")
        var trackOnly = sequence
        trackOnly.replaceSubrange(20..<24, with: Array("iso8".utf8))
        guard case .failure(let e6) = MalformedInputTests.outcome(trackOnly) else { Issue.record("sequence decoded"); return }
        #expect(e6.code == .unsupportedFormat && e6.cause?.contains("supported brands") == true, "\(e6)")
    }

    static func findAll(_ tag: String, in d: [UInt8]) -> [Int] {
        let needle = Array(tag.utf8)
        guard d.count >= needle.count else { return [] }
        return (0...(d.count - needle.count)).filter { Array(d[$0..<$0 + needle.count]) == needle }
    }

    static func find(_ tag: String, bytes: [UInt8]? = nil, in d: [UInt8]) -> Int? {
        let needle = bytes ?? Array(tag.utf8)
        guard d.count >= needle.count else { return nil }
        return (0...(d.count - needle.count)).first { Array(d[$0..<$0 + needle.count]) == needle }
    }
}
