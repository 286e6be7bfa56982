import Testing
@testable import ShelfImage

struct OperationTests {
    let card = TestImages.card(width: 40, height: 30, noise: 40)

    @Test func cropIsClampedToTheImage() {
        let c = card.cropped(x: 5, y: 7, width: 10, height: 4)
        #expect(c.width == 10 && c.height == 4)
        #expect(Array(c.pixels[0..<3]) == Array(card.pixels[(7 * 40 + 5) * 3..<(7 * 40 + 5) * 3 + 3]))
        let clamped = card.cropped(x: 35, y: -5, width: 100, height: 10)
        #expect(clamped.width == 5 && clamped.height == 5)
        #expect(card.cropped(x: 50, y: 0, width: 10, height: 10).width == 0)
        #expect(card.cropped(x: 0, y: 0, width: 40, height: 30) == card)
    }

    @Test(arguments: [(0, 0, 40, 30), (3, 4, 10, 20), (12, 9, 1, 1), (30, 0, 10, 30)])
    func axisAlignedWarpEqualsCrop(_ r: (Int, Int, Int, Int)) {
        let (x, y, w, h) = r
        let quad = Quad(topLeft: Point(x: Double(x), y: Double(y)), topRight: Point(x: Double(x + w), y: Double(y)),
                        bottomRight: Point(x: Double(x + w), y: Double(y + h)), bottomLeft: Point(x: Double(x), y: Double(y + h)))
        #expect(card.warped(quad, width: w, height: h) == card.cropped(x: x, y: y, width: w, height: h))
    }

    @Test func warpOfARotatedQuadIsARotation() {
        // The quad whose top edge runs down the image's right side is the clockwise-rotated image.
        let q = Quad(topLeft: Point(x: 0, y: 30), topRight: Point(x: 0, y: 0),
                     bottomRight: Point(x: 40, y: 0), bottomLeft: Point(x: 40, y: 30))
        #expect(card.warped(q, width: 30, height: 40) == card.rotated(.clockwise90))
    }

    @Test func warpOfATiltedQuadSamplesInside() {
        // A 2x-upsampled, slightly tilted strip of a smooth gradient: values stay within the source range.
        var px = [UInt8](repeating: 0, count: 100 * 100 * 3)
        for y in 0..<100 { for x in 0..<100 { px[(y * 100 + x) * 3] = UInt8(x * 2); px[(y * 100 + x) * 3 + 1] = UInt8(y * 2) } }
        let ramp = RGBImage(width: 100, height: 100, pixels: px)
        let q = Quad(topLeft: Point(x: 20, y: 10), topRight: Point(x: 40, y: 12),
                     bottomRight: Point(x: 34, y: 90), bottomLeft: Point(x: 14, y: 88))
        let out = ramp.warped(q, width: 20, height: 80)
        #expect(out.width == 20 && out.height == 80)
        // Output top-left samples near (20.5, 10.5) of the ramp: red ~ 2 * 20, green ~ 2 * 10.
        #expect(abs(Int(out.pixels[0]) - 41) <= 2 && abs(Int(out.pixels[1]) - 21) <= 2)
        let last = (79 * 20 + 19) * 3 // bottom-right output pixel, near (33.5, 89.5)
        #expect(abs(Int(out.pixels[last]) - 67) <= 3 && abs(Int(out.pixels[last + 1]) - 178) <= 3)
    }

    @Test func warpUndoesPerspective() {
        // A ramp that encodes position: red = x, green = y (both in source pixels).
        var px = [UInt8](repeating: 0, count: 200 * 200 * 3)
        for y in 0..<200 { for x in 0..<200 { px[(y * 200 + x) * 3] = UInt8(x); px[(y * 200 + x) * 3 + 1] = UInt8(y) } }
        let ramp = RGBImage(width: 200, height: 200, pixels: px)
        // A trapezoid: narrow at the top, as a spine seen from below.
        let q = Quad(topLeft: Point(x: 90, y: 20), topRight: Point(x: 110, y: 20),
                     bottomRight: Point(x: 130, y: 180), bottomLeft: Point(x: 70, y: 180))
        let out = ramp.warped(q, width: 30, height: 160)
        func at(_ x: Int, _ y: Int) -> (Int, Int) { (Int(out.pixels[(y * 30 + x) * 3]), Int(out.pixels[(y * 30 + x) * 3 + 1])) }
        let tl = at(0, 0), br = at(29, 159)
        #expect(abs(tl.0 - 90) <= 1 && abs(tl.1 - 20) <= 1)
        #expect(abs(br.0 - 129) <= 1 && abs(br.1 - 179) <= 1)
        // The vertical centre line of the output is the quad's axis: x stays 100 all the way down.
        for y in stride(from: 0, to: 160, by: 20) { #expect(abs(at(15, y).0 - 100) <= 1) }
        // Rows are straight lines in a homography: the perspective centre row sits above the mid-height.
        #expect(at(15, 80).1 < 100)
    }

    @Test func degenerateQuadsDoNotTrap() {
        let nan = Point(x: .nan, y: .infinity)
        let q = Quad(topLeft: nan, topRight: Point(x: 1, y: 1), bottomRight: Point(x: 1, y: 1), bottomLeft: nan)
        #expect(card.warped(q, width: 5, height: 5).pixels.count == 75)
        let point = Quad(topLeft: Point(x: 3, y: 3), topRight: Point(x: 3, y: 3), bottomRight: Point(x: 3, y: 3), bottomLeft: Point(x: 3, y: 3))
        let flat = card.warped(point, width: 4, height: 4)
        // Every output pixel samples the same point: (3, 3) is the corner shared by pixels (2...3, 2...3).
        let corners = [(2, 2), (3, 2), (2, 3), (3, 3)].map { Int(card.pixels[($0.1 * 40 + $0.0) * 3]) }
        #expect(Set(stride(from: 0, to: flat.pixels.count, by: 3).map { flat.pixels[$0] }).count == 1)
        #expect(abs(Int(flat.pixels[0]) - corners.reduce(0, +) / 4) <= 1)
        #expect(card.warped(point, width: 0, height: 4).width == 0)
    }

    @Test func resizeAndDownscale() {
        let same = card.resized(width: 40, height: 30)
        #expect(same == card)
        let smooth = TestImages.card(width: 40, height: 30)
        let up = smooth.resized(width: 80, height: 60)
        #expect(up.width == 80 && up.height == 60)
        // Bilinear 2x up then 2x area down returns close to the original (edges blur a little).
        #expect(TestImages.difference(up.downscaled(width: 40, height: 30), smooth).mean < 3)
        let small = card.downscaled(maxSide: 20)
        #expect(small.width == 20 && small.height == 15)
        #expect(card.downscaled(maxSide: 100) == card)
        // Area averaging of a 2x2 block is its exact mean.
        let block = RGBImage(width: 2, height: 2, pixels: [0, 0, 0, 100, 100, 100, 200, 200, 200, 101, 101, 101])
        #expect(block.downscaled(width: 1, height: 1).pixels == [100, 100, 100])
    }

    @Test("A shrink by an odd factor, as from a DCT-scaled decode to 1280 px, averages each output's share of the source, RGB and gray alike")
    func areaShrinkByAnOddFactorIsTheCoveredMean() {
        var state: UInt32 = 12345
        func next() -> UInt8 { state = state &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: state >> 24) }
        let (w, h, ow, oh) = (63, 47, 40, 30)  // 1.575x across, as 2016 -> 1280
        let rgb = RGBImage(width: w, height: h, pixels: (0..<(w * h * 3)).map { _ in next() })
        let gray = GrayImage(width: w, height: h, pixels: (0..<(w * h)).map { _ in next() })
        // The covered mean in doubles, straight from the definition: each source pixel weighted by the overlap
        // of its unit square with the output pixel's footprint.
        func mean(_ pixels: [UInt8], channels c: Int, ox: Int, oy: Int, ch: Int) -> Double {
            let sx = Double(w) / Double(ow), sy = Double(h) / Double(oh)
            var sum = 0.0, area = 0.0
            for y in 0..<h {
                let wy = min(Double(y + 1), Double(oy + 1) * sy) - max(Double(y), Double(oy) * sy)
                guard wy > 0 else { continue }
                for x in 0..<w {
                    let wx = min(Double(x + 1), Double(ox + 1) * sx) - max(Double(x), Double(ox) * sx)
                    guard wx > 0 else { continue }
                    sum += wx * wy * Double(pixels[(y * w + x) * c + ch]); area += wx * wy
                }
            }
            return sum / area
        }
        let small = rgb.downscaled(width: ow, height: oh), smallGray = gray.downscaled(width: ow, height: oh)
        #expect(small.width == ow && small.height == oh && smallGray.pixels.count == ow * oh)
        var worst = 0.0
        for oy in 0..<oh {
            for ox in 0..<ow {
                for ch in 0..<3 { worst = max(worst, abs(Double(small.pixels[(oy * ow + ox) * 3 + ch]) - mean(rgb.pixels, channels: 3, ox: ox, oy: oy, ch: ch))) }
                worst = max(worst, abs(Double(smallGray.pixels[oy * ow + ox]) - mean(gray.pixels, channels: 1, ox: ox, oy: oy, ch: 0)))
            }
        }
        #expect(worst <= 0.5 + 1e-3, "largest difference from the covered mean: \(worst)")
    }

    @Test("Bilinear sampling blends the four neighbours of each output's centre")
    func bilinearBlendsTheFourNeighbours() {
        // A horizontal ramp 0, 10, 20, ... sampled at half the width lands between columns 2i and 2i + 1.
        let ramp = GrayImage(width: 8, height: 2, pixels: (0..<16).map { UInt8(($0 % 8) * 10) })
        #expect(ramp.resized(width: 4, height: 2).pixels == [5, 25, 45, 65, 5, 25, 45, 65])
        // Enlarging repeats the edge pixels and blends a quarter and three quarters between the others.
        let pair = RGBImage(width: 2, height: 1, pixels: [0, 100, 200, 200, 100, 0])
        #expect(pair.resized(width: 4, height: 1).pixels == [0, 100, 200, 50, 100, 150, 150, 100, 50, 200, 100, 0])
    }

    @Test func grayscaleAndBack() {
        let g = RGBImage(width: 3, height: 1, pixels: [255, 0, 0, 0, 255, 0, 255, 255, 255]).grayscale()
        #expect(g.pixels == [77, 149, 255])
        let rgb = g.rgb()
        #expect(rgb.pixels == [77, 77, 77, 149, 149, 149, 255, 255, 255])
    }

    @Test func encodersRoundTrip() throws {
        #expect(try ImageDecoder.decode(try card.pngData()) == card)
        let smooth = TestImages.card(width: 40, height: 30)
        let jpeg = try ImageDecoder.decode(try smooth.jpegData(quality: 95))
        // Small image, saturated colour edges, 4:2:0 chroma: a few levels of error on average.
        #expect(TestImages.difference(jpeg, smooth).mean < 8)
        let lowQuality = try smooth.jpegData(quality: 10), highQuality = try smooth.jpegData(quality: 95)
        #expect(lowQuality.count < highQuality.count)
        let gray = card.grayscale()
        #expect(try ImageDecoder.decode(try gray.pngData()) == gray.rgb())
        #expect(throws: ShelfImageError.self) { try RGBImage(width: 0, height: 0, pixels: []).jpegData() }
    }
}
