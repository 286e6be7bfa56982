import Foundation
import ShelfImage

/// Second looks at boxes the classifier doubts.
///
/// A short book standing between taller ones has no side of its own above its top: both boundary lines run on
/// up as its neighbours' sides, so the row's top search (a full-width edge where the sides' evidence starts)
/// takes the board above, or a taller neighbour's top, for its top. The box then reaches up into the wall, the
/// classifier rightly doubts or drops it, and the book is lost. `twin` offers the same box with its top at the
/// clearest full-width edge lower down, for the classifier to weigh against the first.
///
/// A short stack of two to four lying books is no wider than a thick standing book, so the row finder boxes it as
/// one; when the classifier drops that box, `stack` cuts it as a stack on its edges alone.
enum LowerTops {
    /// The box with its top lowered, or nil when nothing says its book ends lower down. The new top is the pixel
    /// row, from 12% of the row's height below the old top to a quarter of it above the foot, whose horizontal
    /// edge holds across most of the box (`minCoverage`). Two things say the book goes on above it instead, and
    /// keep the box as it is: print (a text line inside the box starting above the new top; a title crosses the
    /// bands and pictures a cover is printed with, the wall above a book carries none), and texture (the wall
    /// above a short book is plainer than its spine: the box's edge density above the new top is at most
    /// `maxTextureAbove` times that below it, where a cover's plain head band over its printed body passes too, so
    /// the classifier still decides). `lines`: the text detector's lines in the working frame.
    static func twin(_ m: EdgeMaps, _ f: RowSpines.Found, _ band: RowFinder.Band, lines: [[Point]], minCoverage: Double,
                     maxTextureAbove: Double) -> RowSpines.Found? {
        guard !f.lying else { return nil }
        let q = f.quad
        let yc = Double(band.top + band.bottom) / 2
        let rowH = Double(band.bottom - band.top + 1)
        let top = min(q.topLeft.y, q.topRight.y), foot = max(q.bottomLeft.y, q.bottomRight.y)
        let from = Int(top + 0.12 * rowH), to = Int(foot - 0.25 * rowH)
        guard to - from >= 3, from >= 0, to < m.height else { return nil }
        let (left, right) = RowSpines.Line.sides(of: q, yc: yc)
        let coverage = RowSpines.horizontalCoverage(m, RowFinder.Band(top: from, bottom: to), left: left, right: right, yc: yc)
        guard let i = coverage.indices.max(by: { coverage[$0] < coverage[$1] }), coverage[i] >= minCoverage else { return nil }
        let newTop = Double(from + i)
        let printedAbove = lines.contains { c in
            c.count == 4 && TextEvidence.contains(q.points, TextEvidence.centre(c)) && c.map(\.y).min()! < newTop - 2
        }
        guard !printedAbove else { return nil }
        let above = RowSpines.interior(m, top: Int(top) + 1, bottom: Int(newTop) - 2, left: left, right: right, yc: yc)
        let below = RowSpines.interior(m, top: Int(newTop) + 2, bottom: Int(foot) - 1, left: left, right: right, yc: yc)
        guard above.edgeDensity <= maxTextureAbove * below.edgeDensity else { return nil }
        var twin = f
        twin.quad = Quad(topLeft: Point(x: left.at(newTop, yc), y: newTop), topRight: Point(x: right.at(newTop, yc), y: newTop),
                         bottomRight: q.bottomRight, bottomLeft: q.bottomLeft)
        twin.measured(RowSpines.interior(m, top: Int(newTop), bottom: Int(foot) - 1, left: left, right: right, yc: yc))
        return twin
    }

    /// The lying books of a dropped standing box cut as a stack (`RowSpines.lyingStack`), when it holds two or more.
    static func stack(_ m: EdgeMaps, _ f: RowSpines.Found, _ band: RowFinder.Band, _ p: DetectorParameters) -> [RowSpines.Found] {
        let yc = Double(band.top + band.bottom) / 2
        let (left, right) = RowSpines.Line.sides(of: f.quad, yc: yc)
        let books = RowSpines.lyingStack(m, band, left: left, right: right, yc: yc, p).books
        return books.count >= 2 ? books : []
    }
}
