import ShelfImage
import SpineDetection
import Testing

/// Rows, order and orientation from book outlines alone, as the learned detector hands them over.
@Suite("Spine layout")
struct SpineLayoutTests {
    /// A 1000 x 800 photo of two rows: eight standing books of varied heights on each board (feet at y 380 and 760),
    /// and a lying book on the lower row's right end.
    static func shelf() -> [FoundBox] {
        var boxes: [FoundBox] = []
        for (row, foot) in [380.0, 760.0].enumerated() {
            for i in 0..<8 {
                let height = 200.0 + Double((i * 37 + row * 11) % 90)
                boxes.append(FoundBox(center: Point(x: 100 + Double(i) * 60, y: foot - height / 2), axis: Point(x: 0, y: 1),
                                      halfLength: height / 2, halfThickness: 22, score: 0.9))
            }
        }
        boxes.append(FoundBox(center: Point(x: 800, y: 740), axis: Point(x: 1, y: 0), halfLength: 120, halfThickness: 20, score: 0.9))
        return boxes
    }

    /// The same books in the photo turned a quarter turn counter-clockwise, as a phone held sideways takes them.
    static func sideways(_ boxes: [FoundBox], height: Double = 800) -> [FoundBox] {
        boxes.map { b in
            var t = b
            t.center = Point(x: b.center.y, y: 1000 - b.center.x)  // (x, y) -> (y, W - x): counter-clockwise
            t.axis = Point(x: b.axis.y, y: -b.axis.x)
            return t
        }
    }

    @Test("Standing books make rows by their feet, numbered left to right; a lying book joins its row")
    func rowsAndOrder() {
        let r = SpineLayout.arrange(Self.shelf(), width: 1000, height: 800)
        #expect(r.rows.count == 2)
        #expect(r.spines.count == 17)
        #expect(r.spines.filter { $0.row == 0 }.count == 8)
        let lower = r.spines.filter { $0.row == 1 }.sorted { $0.position < $1.position }
        #expect(lower.count == 9)
        #expect(lower.map(\.boundingBox.x) == lower.map(\.boundingBox.x).sorted())
        #expect(lower.last?.lying == true)
        #expect(r.spines.filter(\.lying).count == 1)
        // A standing quad runs top-left, top-right, bottom-right, bottom-left as the book stands.
        let first = r.spines.first { $0.row == 0 && $0.position == 0 }!
        #expect(first.quad.topLeft.y < first.quad.bottomLeft.y && first.quad.topLeft.x < first.quad.topRight.x)
        // A lying book's quad is turned upright with its head at its left end (as the classic detector does).
        let lying = lower.last!
        #expect(lying.quad.topLeft.x < lying.quad.bottomLeft.x && abs(lying.quad.topLeft.x - lying.quad.topRight.x) < 1e-9)
        #expect(r.quarterTurns == nil)
    }

    @Test("An upright photo needs no turn; a sideways one is turned back the way its books' feet say")
    func orientationFromTheBooks() throws {
        #expect(SpineLayout.quarterTurns(Self.shelf(), width: 1000, height: 800) == 0)
        let turned = Self.sideways(Self.shelf())
        // Counter-clockwise on the phone: one quarter turn clockwise stands it up.
        #expect(SpineLayout.quarterTurns(turned, width: 800, height: 1000) == 1)
        // Turned the other way round (upside down of that), three quarter turns.
        let other = turned.map { b in
            var t = b
            t.center = Point(x: 800 - b.center.x, y: 1000 - b.center.y)
            return t
        }
        #expect(SpineLayout.quarterTurns(other, width: 800, height: 1000) == 3)
        let r = SpineLayout.arrange(turned, width: 800, height: 1000, turns: 1)
        #expect(r.quarterTurns == 1)
        #expect(r.rows.count == 2)
        #expect(r.spines.filter { !$0.lying }.count == 16)
        // Quads stay in the photo's coordinates, ordered so the crop stands the book up: the book's top edge runs
        // along the photo's left side (the top of the shelf is at the photo's left).
        let book = try #require(r.spines.first { $0.row == 0 && $0.position == 0 })
        #expect(abs(book.quad.topLeft.x - book.quad.topRight.x) < 1e-9)
        #expect(book.quad.topLeft.x < book.quad.bottomLeft.x)
    }

    @Test("Too few books to judge keeps the photo as taken")
    func tooFewToJudge() {
        #expect(SpineLayout.quarterTurns(Array(Self.shelf().prefix(4)), width: 1000, height: 800) == nil)
        #expect(SpineLayout.arrange([], width: 1000, height: 800) == DetectionResult(rows: [], spines: []))
    }

    @Test("Normalized points go to the upright frame and back for every turn")
    func pointRoundTrip() {
        let p = Point(x: 0.2, y: 0.7)
        for turns in 0..<4 {
            let back = SpineLayout.photoPoint(fromUpright: SpineLayout.uprightPoint(fromPhoto: p, turns: turns), turns: turns)
            #expect(abs(back.x - p.x) < 1e-12 && abs(back.y - p.y) < 1e-12)
        }
        #expect(SpineLayout.uprightPoint(fromPhoto: Point(x: 0, y: 0), turns: 1) == Point(x: 1, y: 0))
    }
}
