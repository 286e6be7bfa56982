import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// The learned box classifier: its tree walk, the file it is shipped in, what it is fed, and where the detector
/// uses it.
@Suite struct BoxClassifierTests {
    private func classifier(trees: [[[Double]]], features: [String] = BoxClassifier.expectedFeatures, linear: [Double]? = nil) -> BoxClassifier {
        BoxClassifier(version: "test", features: features, baseline: 0.5, linear: linear, trees: trees)
    }

    @Test func eachTreeAddsTheLeafItsSplitsLeadTo() {
        // Split on input 0 at 0.5 (at most: left), then input 1 at 2 on the right.
        let c = classifier(trees: [[[0, 0.5, 1, 2, 0], [-1, 0, 0, 0, -2], [1, 2, 3, 4, 0], [-1, 0, 0, 0, 1], [-1, 0, 0, 0, 3]],
                                   [[-1, 0, 0, 0, 0.25]]])
        func chance(_ z: Double) -> Double { 1 / (1 + exp(-z)) }
        #expect(abs(c.probability([0.2, 9]) - chance(0.5 - 2 + 0.25)) < 1e-12)
        #expect(abs(c.probability([0.5, 9]) - chance(0.5 - 2 + 0.25)) < 1e-12, "a value at the threshold goes left")
        #expect(abs(c.probability([0.9, 1]) - chance(0.5 + 1 + 0.25)) < 1e-12)
        #expect(abs(c.probability([0.9, 5]) - chance(0.5 + 3 + 0.25)) < 1e-12)
        // A linear term adds its bias and weighted inputs to the same log-odds.
        var weights = [Double](repeating: 0, count: BoxClassifier.expectedFeatures.count + 1)
        weights[0] = -1; weights[1] = 2; weights[2] = 0.5
        let withLinear = classifier(trees: c.trees, linear: weights)
        #expect(abs(withLinear.probability([0.9, 5]) - chance(0.5 + 3 + 0.25 - 1 + 2 * 0.9 + 0.5 * 5)) < 1e-12)
    }

    @Test func theShippedFileIsReadAndAFileFittedOnOtherInputsIsRefused() throws {
        let shipped = try #require(BoxClassifier.load(file: "box-classifier-v1.json"))
        #expect(shipped.features == SpineDetector.confidenceCueNames + BoxAppearance.names)
        #expect(shipped.trees.count >= 100)
        #expect(shipped.linear?.count == shipped.features.count + 1)
        #expect(DetectorParameters.bundled.boxClassifier == "box-classifier-v1.json")
        #expect(BoxClassifier.load(file: "no-such-classifier.json") == nil)

        let good = classifier(trees: [[[0, 0.5, 1, 2, 0], [-1, 0, 0, 0, -1], [-1, 0, 0, 0, 1]]])
        #expect(BoxClassifier.decoded(try JSONEncoder().encode(good)) != nil)
        // Inputs in another order: the trees would read the wrong numbers.
        let reordered = classifier(trees: good.trees, features: good.features.reversed())
        #expect(BoxClassifier.decoded(try JSONEncoder().encode(reordered)) == nil)
        // A child pointing back at its parent: the walk would never end.
        let looping = classifier(trees: [[[0, 0.5, 0, 1, 0], [-1, 0, 0, 0, 1]]])
        #expect(BoxClassifier.decoded(try JSONEncoder().encode(looping)) == nil)
        #expect(BoxClassifier.decoded(Data("{\"version\": 1}".utf8)) == nil)
        // A linear term of the wrong length: weights would meet the wrong inputs.
        let short = classifier(trees: good.trees, linear: [0, 1, 2])
        #expect(BoxClassifier.decoded(try JSONEncoder().encode(short)) == nil)
    }

    /// A 200 x 400 grey photo with a dark upright box at x 80..<120, y 100..<300, optionally striped in its middle.
    private func photo(printed: Bool) -> EdgeMaps {
        var image = RGBImage(width: 200, height: 400, fill: (150, 150, 150))
        for y in 100..<300 {
            for x in 80..<120 {
                let ink = printed && (90..<110).contains(x) && (y / 6) % 2 == 0
                let v: UInt8 = ink ? 230 : 40
                let i = 3 * (y * 200 + x)
                image.pixels[i] = v; image.pixels[i + 1] = v; image.pixels[i + 2] = v
            }
        }
        return EdgeMaps(image, edgeFloor: 6, edgeCap: 24)
    }

    private let box = Quad(topLeft: Point(x: 80, y: 100), topRight: Point(x: 120, y: 100),
                           bottomRight: Point(x: 120, y: 300), bottomLeft: Point(x: 80, y: 300))

    @Test func theAppearanceShowsABoxsSidesInItsMarginsAndItsPrintInItsMiddle() {
        let plain = [0] + BoxAppearance.features(photo(printed: false), box)
        #expect(plain.count == BoxAppearance.names.count)
        let across = Array(plain[1..<24])
        // The box spans the middle two thirds of the grid's 24 columns: its sides fall between columns 3 and 4
        // and 19 and 20.
        let strongest = across.indices.sorted { across[$0] > across[$1] }.prefix(2).sorted()
        #expect(strongest == [3, 19], "across profile \(across)")
        let value = { (features: [Double], name: String) in features[BoxAppearance.names.firstIndex(of: name)!] }
        #expect(value(plain, "insideR") < 0.2 && value(plain, "marginR") > 0.5)
        // The margins hold a sixth of the box's colour (a grid column straddles each side).
        #expect(value(plain, "contrastG") > 0.3)
        let printed = [0] + BoxAppearance.features(photo(printed: true), box)
        #expect(value(printed, "middleTexture") > 10 * max(0.001, value(plain, "middleTexture")))
        #expect(value(printed, "spreadR") > value(plain, "spreadR") + 0.2)
    }

    @Test func theAppearanceOfABoxHalfOutsideThePhotoIsFinite() {
        let outside = Quad(topLeft: Point(x: -50, y: -20), topRight: Point(x: 10, y: -20),
                           bottomRight: Point(x: 10, y: 500), bottomLeft: Point(x: -50, y: 500))
        let features = BoxAppearance.features(photo(printed: false), outside)
        #expect(features.count == BoxAppearance.names.count - 1 && features.allSatisfy(\.isFinite))
    }

    @Test func withPrintTheClassifierScoresEveryRowBoxFromItsCuesAndAppearance() throws {
        var f = DrawnShelf(width: 640, height: 440)
        f.board(y: 330, thickness: 60)
        f.standing(from: 30, floorY: 330, widths: [48, 55, 42, 60, 50, 45, 58, 52, 47, 44, 56], heights: [230, 215, 240])
        // Print over the middle of each drawn book, as the text detector would see it.
        let w = 160, h = 110
        var prob = [Float](repeating: 0, count: w * h)
        for y in Int(0.5 * Double(h))..<Int(0.65 * Double(h)) { for x in 0..<w where (x / 3) % 2 == 0 { prob[y * w + x] = 0.9 } }
        let evidence = TextEvidence(width: w, height: h, probability: prob, lines: [])
        let detector = SpineDetector()
        let classifier = try #require(detector.classifier)
        let (r, cues, looks) = detector.detectWithCues(f.image, text: evidence)
        #expect(r.spines.count >= 9, "drawn books found: \(r.spines.count) of 11")
        #expect(cues.count == looks.count && cues.count >= 9, "row boxes scored: \(cues.count)")
        for (s, (c, a)) in zip(r.spines, zip(cues, looks)) {
            #expect(abs(s.confidence - classifier.probability(c + a)) < 1e-9)
            #expect(s.confidence >= DetectorParameters.bundled.boxClassifierFloor ?? 0)
        }
        // Without print, the logistic model fitted without print scores them, as before the classifier.
        var withoutClassifier = DetectorParameters.bundled
        withoutClassifier.boxClassifier = nil
        #expect(detector.detect(f.image) == SpineDetector(parameters: withoutClassifier).detect(f.image))
    }
}
