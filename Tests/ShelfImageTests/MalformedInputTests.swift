import Testing
@testable import ShelfImage

/// A malformed corpus built in code: every input must give a `ShelfImageError` or a well-formed image.
/// A crash, a C-library exit or a hang would take the whole test process down, which is the failure.
struct MalformedInputTests {
    static let dataCodes: Set<ShelfImageError.Code> = [.truncated, .corrupt, .unsupportedFormat, .emptyFile, .tooManyPixels]

    /// Decodes and reports the outcome; a returned image must be internally consistent.
    static func outcome(_ data: [UInt8], scale: Int = 1) -> Result<RGBImage, ShelfImageError> {
        do {
            let image = try ImageDecoder.decode(data, options: DecodeOptions(maxPixels: 4_000_000, scaleDenominator: scale))
            precondition(image.pixels.count == image.width * image.height * 3)
            return .success(image)
        } catch {
            return .failure(error)
        }
    }

    static var corpusBases: [(String, [UInt8])] {
        let card = TestImages.card(width: 40, height: 30, noise: 20)
        return [
            ("baseline", (try? card.jpegData(quality: 80)) ?? []),
            ("progressive", TestImages.fixture("progressive.jpg")),
            ("ycck", TestImages.fixture("ycck.jpg")),
            ("png", (try? card.pngData()) ?? []),
            ("png-interlaced-alpha", TestImages.fixture("rgba-interlaced.png")),
            ("palette-trns", TestImages.fixture("palette-trns.png")),
        ]
    }

    @Test(arguments: corpusBases.map(\.0))
    func truncatedAtEveryOffset(_ name: String) throws {
        let data = try #require(Self.corpusBases.first { $0.0 == name }?.1)
        #expect(data.count > 100)
        let isJPEG = data.starts(with: [0xFF, 0xD8])
        // The image data is complete once the last entropy-coded byte (JPEG) or IDAT (PNG) is in.
        let complete = isJPEG ? data.count - 2 : lastIDATEnd(data)
        var wrongOutcomes: [Int] = []
        for cut in 0..<data.count {
            switch Self.outcome(Array(data[0..<cut])) {
            case .success:
                if cut < complete { wrongOutcomes.append(cut) }
            case .failure(let e):
                if !Self.dataCodes.contains(e.code) { wrongOutcomes.append(cut) }
                if cut == 0 && e.code != .emptyFile { wrongOutcomes.append(cut) }
            }
        }
        #expect(wrongOutcomes.isEmpty, "\(name): cuts that decoded anyway or gave the wrong error: \(wrongOutcomes.prefix(20))")
    }

    @Test(arguments: corpusBases.map(\.0))
    func bitFlipsNeverCrash(_ name: String) throws {
        let data = try #require(Self.corpusBases.first { $0.0 == name }?.1)
        var rng = SplitMix(seed: UInt64(data.count))
        var errors = 0, images = 0
        for round in 0..<400 {
            var mutated = data
            let flips = 1 + round % 8
            for _ in 0..<flips {
                let i = Int(rng.next() % UInt64(mutated.count))
                mutated[i] ^= UInt8(1 << (rng.next() % 8))
            }
            switch Self.outcome(mutated) {
            case .success: images += 1
            case .failure(let e): if Self.dataCodes.contains(e.code) { errors += 1 }
            }
        }
        #expect(errors + images == 400)
    }

    @Test func wrongMagicIsUnsupported() {
        let cases: [[UInt8]] = [
            Array("GIF89a....".utf8), Array("hello world".utf8), [0x00, 0x01, 0x02, 0x03],
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x00, 1, 2, 3, 4],   // PNG magic with one wrong byte
            [0xFF, 0xD9, 0xFF, 0xE0, 0, 0],                                  // JPEG-ish, wrong SOI
        ]
        for data in cases {
            guard case .failure(let e) = Self.outcome(data) else { Issue.record("decoded \(data)"); continue }
            #expect(e.code == .unsupportedFormat)
            #expect(e.message.contains("image data"))
        }
        if case .failure(let e) = Self.outcome(Array("GIF89a....".utf8)) {
            #expect(e.message.contains("GIF"))
        }
        // A WebP header is decoded now (HEIFWebPMalformedTests): with no chunk behind it, it is broken data.
        if case .failure(let e) = Self.outcome(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) {
            #expect(Self.dataCodes.contains(e.code) && e.code != .unsupportedFormat)
        }
    }

    @Test func emptyAndSignatureOnly() {
        guard case .failure(let empty) = Self.outcome([]) else { Issue.record("empty decoded"); return }
        #expect(empty.code == .emptyFile)
        for prefix in [[0xFF, 0xD8], [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47]] as [[UInt8]] {
            guard case .failure(let e) = Self.outcome(prefix) else { Issue.record("decoded \(prefix)"); continue }
            #expect(e.code == .truncated || e.code == .corrupt)
        }
    }

    @Test func absurdDimensions() throws {
        let jpeg = try TestImages.card(width: 16, height: 16).jpegData()
        let sof = try #require(sofOffset(jpeg))
        // From the SOF length field: length(2) precision(1) height(2) width(2).
        var huge = jpeg
        huge[sof + 3] = 0xFD; huge[sof + 4] = 0xE8; huge[sof + 5] = 0xFD; huge[sof + 6] = 0xE8
        guard case .failure(let e1) = Self.outcome(huge) else { Issue.record("65000x65000 decoded"); return }
        #expect(e1.code == .tooManyPixels)
        var beyondLibjpeg = jpeg // 65535 is past libjpeg's 65500 limit: it says so itself
        beyondLibjpeg[sof + 5] = 0xFF; beyondLibjpeg[sof + 6] = 0xFF
        guard case .failure(let e5) = Self.outcome(beyondLibjpeg) else { Issue.record("65535 wide decoded"); return }
        #expect(e5.code == .corrupt && e5.cause?.contains("65500") == true)
        var zero = jpeg
        zero[sof + 3] = 0; zero[sof + 4] = 0
        guard case .failure(let e2) = Self.outcome(zero) else { Issue.record("zero height decoded"); return }
        #expect(e2.code == .corrupt)

        let png = try TestImages.card(width: 16, height: 16).pngData()
        var wide = png
        wide[16] = 0x7F; wide[17] = 0xFF; wide[18] = 0xFF; wide[19] = 0xFF
        guard case .failure(let e3) = Self.outcome(wide) else { Issue.record("2^31 wide PNG decoded"); return }
        #expect(e3.code == .tooManyPixels)
        var maxed = png // 2^32-1 on both sides: width * height overflows Int64 (found by the fuzzer)
        for i in 16..<24 { maxed[i] = 0xFF }
        guard case .failure(let e6) = Self.outcome(maxed) else { Issue.record("(2^32-1)^2 PNG decoded"); return }
        #expect(e6.code == .tooManyPixels)
        var zeroPNG = png
        zeroPNG[16] = 0; zeroPNG[17] = 0; zeroPNG[18] = 0; zeroPNG[19] = 0
        guard case .failure(let e4) = Self.outcome(zeroPNG) else { Issue.record("zero-width PNG decoded"); return }
        #expect(Self.dataCodes.contains(e4.code))
    }

    /// Damage libjpeg would paint over (a stray restart marker, a zeroed run of entropy data) is an
    /// error by default and an image on request; PNG's CRC and Adler-32 catch the same in PNG.
    @Test func damagedEntropyData() throws {
        let jpeg = try TestImages.card(width: 160, height: 120, noise: 60).jpegData(quality: 90)
        let sosFound: Int? = (0..<jpeg.count - 1).first { (i: Int) -> Bool in jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA }
        let sos = try #require(sosFound)
        let mid = (sos + jpeg.count) / 2
        var marker = jpeg
        marker[mid] = 0xFF; marker[mid + 1] = 0xD5
        var zeroed = jpeg
        for i in mid..<(mid + 600) { zeroed[i] = 0 }
        for damaged in [marker, zeroed] {
            guard case .failure(let e) = Self.outcome(damaged) else { Issue.record("damaged JPEG decoded"); continue }
            #expect(e.code == .corrupt)
            #expect(e.cause?.contains("Corrupt JPEG data") == true)
            let tolerant = try ImageDecoder.decode(damaged, options: DecodeOptions(acceptsDamagedData: true))
            #expect(tolerant.width == 160 && tolerant.height == 120)
        }
        // Junk after complete pixels (no EOI, garbage instead) is not damage.
        let junkTail = Array(jpeg[0..<(jpeg.count - 2)]) + [0x12, 0x34, 0x56]
        #expect(try ImageDecoder.decode(junkTail) == ImageDecoder.decode(jpeg))

        var png = try TestImages.card(width: 40, height: 30, noise: 60).pngData()
        let idatTag: [UInt8] = Array("IDAT".utf8)
        let found: Int? = (8..<png.count - 4).first { (i: Int) -> Bool in Array(png[i..<(i + 4)]) == idatTag }
        let idat = try #require(found)
        png[idat + 40] ^= 0x10 // breaks the chunk CRC
        guard case .failure(let e) = Self.outcome(png) else { Issue.record("PNG with a bad CRC decoded"); return }
        #expect(e.code == .corrupt)
    }

    @Test func validButUnsupportedJPEGsSaySo() throws {
        let jpeg = try TestImages.card(width: 16, height: 16).jpegData()
        let sof = try #require(sofOffset(jpeg))
        var twelveBit = jpeg
        twelveBit[sof + 2] = 12
        var lossless = jpeg
        lossless[sof - 1] = 0xC3
        for data in [twelveBit, lossless] {
            guard case .failure(let e) = Self.outcome(data) else { Issue.record("decoded"); continue }
            #expect(e.code == .unsupportedFormat)
            #expect(e.cause?.hasPrefix("libjpeg: ") == true)
        }
    }

    func sofOffset(_ d: [UInt8]) -> Int? {
        var i = 2
        while i + 4 < d.count {
            if d[i] == 0xFF, d[i + 1] == 0xC0 || d[i + 1] == 0xC2 { return i + 2 }
            let length = Int(d[i + 2]) << 8 | Int(d[i + 3])
            i += 2 + length
        }
        return nil
    }

    func lastIDATEnd(_ d: [UInt8]) -> Int {
        var i = 8, end = d.count
        while i + 8 <= d.count {
            let n = Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3])
            if d[i + 4] == 0x49, d[i + 5] == 0x44, d[i + 6] == 0x41, d[i + 7] == 0x54 { end = i + 8 + n }
            i += 12 + n
        }
        return end
    }
}

/// Deterministic 64-bit generator for reproducible mutations.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
