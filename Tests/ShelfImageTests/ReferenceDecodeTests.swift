import Testing
@testable import ShelfImage

/// Every supported encoding decodes to the upright pixels Pillow (the reference decoder) produced in
/// make_fixtures.py. JPEG allows small IDCT/upsampling differences between libjpeg builds; PNG is lossless,
/// so only 16-bit rounding (v/257 vs v>>8) and alpha rounding may differ by one or two.
struct ReferenceDecodeTests {
    static let jpegFixtures = [
        "baseline-444.jpg", "baseline-422.jpg", "baseline-420.jpg", "baseline-440.jpg", "baseline-411.jpg",
        "baseline-410.jpg", "mixed-sampling.jpg", "sampling-3x1.jpg",
        "progressive.jpg", "gray.jpg", "cmyk-adobe.jpg", "cmyk-no-adobe.jpg", "ycck.jpg",
        "orientation-1.jpg", "orientation-2.jpg", "orientation-3.jpg", "orientation-4.jpg",
        "orientation-5.jpg", "orientation-6.jpg", "orientation-7.jpg", "orientation-8.jpg",
        "orientation-6-bigendian.jpg",
    ]
    static let pngFixtures = [
        "rgb.png", "rgba.png", "gray.png", "gray-1bit.png", "gray-alpha.png", "palette.png", "palette-trns.png",
        "gray-16.png", "rgb-16.png", "rgba-16.png", "rgb-interlaced.png", "rgba-interlaced.png", "orientation-8.png",
    ]

    @Test(arguments: jpegFixtures)
    func jpegMatchesReference(_ name: String) throws {
        let reference = try #require(TestImages.ppm(name + ".ref.ppm"))
        let image = try ImageDecoder.decode(TestImages.fixture(name))
        #expect(image.width == reference.width && image.height == reference.height)
        let diff = TestImages.difference(image, reference)
        #expect(diff.max <= 6, "\(name): max difference \(diff.max)")
        #expect(diff.mean <= 1.0, "\(name): mean difference \(diff.mean)")
    }

    @Test(arguments: pngFixtures)
    func pngMatchesReference(_ name: String) throws {
        let reference = try #require(TestImages.ppm(name + ".ref.ppm"))
        let image = try ImageDecoder.decode(TestImages.fixture(name))
        #expect(image.width == reference.width && image.height == reference.height)
        let diff = TestImages.difference(image, reference)
        #expect(diff.max <= 2, "\(name): max difference \(diff.max)")
    }

    @Test func formatComesFromBytesNotName() throws {
        let png = TestImages.fixture("rgb.png")
        #expect(try ImageDecoder.info(png).format == .png)
        #expect(try ImageDecoder.info(TestImages.fixture("progressive.jpg")).format == .jpeg)
        let path = TestImages.fixturePath("rgb.png")
        #expect(try ImageDecoder.info(fileAt: path).format == .png)
    }

    @Test func adobeCMYKIsInvertedAndPlainIsNot() throws {
        // The same stored values read with and without the Adobe marker give complementary light.
        let adobe = try ImageDecoder.info(TestImages.fixture("cmyk-adobe.jpg"))
        #expect(adobe.width == 16 && adobe.height == 12)
        let a = try ImageDecoder.decode(TestImages.fixture("cmyk-adobe.jpg"))
        let ref = try #require(TestImages.ppm("baseline-444.jpg.ref.ppm"))
        #expect(TestImages.difference(a, ref).mean < 6)
    }
}
