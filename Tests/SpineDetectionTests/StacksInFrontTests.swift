import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// A stack of books lying in front of a row, hiding the feet of the books standing behind it.
@Suite struct StacksInFrontTests {
    /// A row of standing books on a board; across five of them, in front, two books lying one on the other.
    private struct Scene {
        var shelf = DrawnShelf(width: 640, height: 480)
        var lying: [Quad] = []
        /// The visible parts of the books wholly behind the stack.
        var behind: [Quad] = []
        let stackTop = 370.0

        init() {
            shelf.board(y: 420, thickness: 40)
            shelf.standing(from: 20, floorY: 420, widths: [46, 52, 44, 58, 50, 42, 54, 48, 60, 46, 50, 44], heights: [230, 215, 240])
            let x0 = 170.0, x1 = 430.0
            behind = shelf.spines.filter { $0.topLeft.x >= x0 && $0.topRight.x <= x1 }.map { s in
                Quad(topLeft: s.topLeft, topRight: s.topRight, bottomRight: Point(x: s.bottomRight.x, y: stackTop),
                     bottomLeft: Point(x: s.bottomLeft.x, y: stackTop))
            }
            // Bottom book first, staggered, each a colour of its own with a dark seam on top and a line of print.
            var bottom = 420.0
            for (k, (dx0, dx1, thickness)) in [(0.0, 0.0, 26.0), (14, -10, 24)].enumerated() {
                let top = bottom - thickness
                let book = Quad(topLeft: Point(x: x0 + dx0, y: top), topRight: Point(x: x1 + dx1, y: top),
                                bottomRight: Point(x: x1 + dx1, y: bottom), bottomLeft: Point(x: x0 + dx0, y: bottom))
                shelf.fill(book, [(200, 60, 50), (40, 110, 160), (230, 210, 120)][k])
                shelf.rect(x0 + dx0, top, x1 + dx1 - x0 - dx0, 1.5, (15, 15, 15))
                shelf.rect(x0 + dx0 + 40, top + 0.35 * thickness, 140, 0.3 * thickness, (245, 245, 240))
                lying.append(book)
                bottom = top
            }
        }
    }

    @Test func theBooksBehindEndAtItsTopAndItsBooksAreFound() throws {
        let scene = Scene()
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(scene.shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let band = try #require(RowFinder.rows(maps, p).first { $0.bottom > 380 })
        func matched(_ found: [RowSpines.Found], _ truth: [Quad], lying: Bool) -> Int {
            truth.filter { t in found.contains { $0.lying == lying && PolygonIoU.iou($0.quad.points, t.points) > 0.5 } }.count
        }
        let found = RowSpines.find(maps, band, ceiling: 0, p)
        let lyingFound = matched(found, scene.lying, lying: true), behindFound = matched(found, scene.behind, lying: false)
        let boxes = found.map { ($0.lying, $0.quad) }
        #expect(lyingFound == scene.lying.count, "boxes: \(boxes)")
        #expect(behindFound >= scene.behind.count - 1, "\(behindFound) of \(scene.behind.count) behind; boxes: \(boxes)")
        // Off, the row's boundaries run down through the stack and cut it into standing pieces: no book lying.
        var off = p
        off.stacksInFront = false
        let through = RowSpines.find(maps, band, ceiling: 0, off)
        let lyingThrough = matched(through, scene.lying, lying: true)
        #expect(lyingThrough == 0)
    }

    @Test func aRowWithAPrintedBandAtOneHeightIsLeftAsItIs() throws {
        // Every spine carries a dark band at the same height across the whole row: a long line low in the row,
        // but the books' boundaries run on down through it, so no stack is there.
        var shelf = DrawnShelf(width: 640, height: 480)
        shelf.board(y: 420, thickness: 40)
        shelf.standing(from: 20, floorY: 420, widths: [46, 52, 44, 58, 50, 42, 54, 48, 60, 46, 50, 44], heights: [230, 215, 240])
        for s in shelf.spines {
            shelf.fill(Quad(topLeft: Point(x: s.bottomLeft.x + 2, y: 360), topRight: Point(x: s.bottomRight.x, y: 360),
                            bottomRight: Point(x: s.bottomRight.x, y: 372), bottomLeft: Point(x: s.bottomLeft.x + 2, y: 372)), (25, 25, 30))
        }
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let band = try #require(RowFinder.rows(maps, p).first { $0.bottom > 380 })
        var off = p
        off.stacksInFront = false
        let on = RowSpines.find(maps, band, ceiling: 0, p).map(\.quad), without = RowSpines.find(maps, band, ceiling: 0, off).map(\.quad)
        let lying = RowSpines.find(maps, band, ceiling: 0, p).filter(\.lying).count
        #expect(on == without)
        #expect(lying == 0)
    }
}
