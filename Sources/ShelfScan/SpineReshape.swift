import BookModel
import Foundation
import LibraryCore
import ShelfImage

/// The geometry and crops of a box redrawn by the reviewer: a split in two across the spine, or two
/// neighbouring boxes joined. Crops are cut from the stored crops, not the photo, so this works after the
/// photo has moved. Here, beside the pipeline, so `shelfscan review` and the server's review routes redraw a
/// box the same way.
public enum SpineReshape {
    /// The margin `SpineGeometry.crop` adds on each side across a spine (its default, 4% of the width).
    static let cropMargin = 0.04

    /// A box that cannot be redrawn as asked (no box, no crop, no neighbour): the reviewer's to see, nothing broke.
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// The box's quad, normalized, as the book stands (the detector's quads, lying books' too, and their crops
    /// are turned upright): the polygon when there is one, else the bounding box's corners, turned for a lying
    /// book as the detector turns it (its head at the box's left end, so top-left is the box's bottom-left).
    static func quad(_ work: Work) -> [[Double]]? {
        if let p = work.spine?.polygon, p.count == 4, p.allSatisfy({ $0.count == 2 }) { return p }
        guard let b = work.boundingBox else { return nil }
        if work.spine?.lying == true {
            return [[b.x, b.y + b.height], [b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height]]
        }
        return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
    }

    private static func lerp(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] { [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t] }

    /// Two pieces, cut at `fraction` of the box's width from its left as the book stands: across a standing
    /// spine, or between two books of a lying stack (a lying book's crop stands too, so its stack's books stand
    /// side by side in it).
    public static func split(_ work: Work, crop: RGBImage, at fraction: Double) throws -> [SpinePiece] {
        guard let q = quad(work) else { throw Failure(description: "This spine has no box to split.") }
        let f = min(0.9, max(0.1, fraction))
        let top = lerp(q[0], q[1], f), bottom = lerp(q[3], q[2], f)
        let quads = [[q[0], top, bottom, q[3]], [top, q[1], q[2], bottom]]
        let x = Int((Double(crop.width) * (cropMargin + f) / (1 + 2 * cropMargin)).rounded())
        let crops = [crop.cropped(x: 0, y: 0, width: x, height: crop.height), crop.cropped(x: x, y: 0, width: crop.width - x, height: crop.height)]
        guard crops.allSatisfy({ $0.width > 0 && $0.height > 0 }) else { throw Failure(description: "The crop is too small to split.") }
        return try zip(quads, crops).map { quad, image in
            SpinePiece(boundingBox: BoundingBox(enclosing: quad)!, polygon: quad, cropJPEG: try image.jpegData(quality: 85))
        }
    }

    /// One piece covering `left` and `right` (neighbours in shelf order), its crop the two crops side by side,
    /// and the surer of the two readings. The two are put in the order they stand in as books: left to right
    /// for standing books, and for a lying stack, whose order runs down the photo, bottom book first (turned
    /// upright, a lying book's top-left corner is its bottom-left in the photo).
    public static func join(_ left: Work, _ right: Work, crops: (RGBImage, RGBImage)) throws -> SpinePiece {
        guard let a = quad(left), let b = quad(right) else { throw Failure(description: "These spines have no boxes to join.") }
        // Along the books' own left-to-right: the direction from a's top-left to its top-right.
        let ux = a[1][0] - a[0][0], uy = a[1][1] - a[0][1]
        func along(_ q: [[Double]]) -> Double { q.reduce(0) { $0 + $1[0] * ux + $1[1] * uy } }
        let inOrder = along(a) <= along(b)
        let (first, second) = inOrder ? (a, b) : (b, a)
        let polygon = [first[0], second[1], second[2], first[3]]
        let boxes = [left.boundingBox, right.boundingBox].compactMap { $0 }
        let x0 = boxes.map(\.x).min() ?? 0, y0 = boxes.map(\.y).min() ?? 0
        let x1 = boxes.map { $0.x + $0.width }.max() ?? 1, y1 = boxes.map { $0.y + $0.height }.max() ?? 1
        let image = inOrder ? sideBySide(crops.0, crops.1) : sideBySide(crops.1, crops.0)
        let read = [left, right].filter { !$0.hasUnreadTitle }
            .max { ($0.spine?.readingConfidence ?? 0) < ($1.spine?.readingConfidence ?? 0) }
        let raw = [left, right].compactMap { $0.spine?.rawText }.filter { !$0.isEmpty }.joined(separator: "\n")
        return SpinePiece(boundingBox: BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0), polygon: polygon,
                          cropJPEG: try image.jpegData(quality: 85), title: read?.title, authors: read?.authors.map(\.name) ?? [],
                          rawText: raw.isEmpty ? nil : raw)
    }

    static func sideBySide(_ a: RGBImage, _ b: RGBImage) -> RGBImage {
        let h = max(a.height, b.height)
        let a2 = a.height == h ? a : a.resized(width: max(1, a.width * h / max(1, a.height)), height: h)
        let b2 = b.height == h ? b : b.resized(width: max(1, b.width * h / max(1, b.height)), height: h)
        var out = RGBImage(width: a2.width + b2.width, height: h)
        for y in 0..<h {
            out.pixels.replaceSubrange((y * out.width * 3)..<((y * out.width + a2.width) * 3), with: a2.pixels[(y * a2.width * 3)..<((y + 1) * a2.width * 3)])
            out.pixels.replaceSubrange(((y * out.width + a2.width) * 3)..<((y + 1) * out.width * 3), with: b2.pixels[(y * b2.width * 3)..<((y + 1) * b2.width * 3)])
        }
        return out
    }
}

extension SpineReshape {
    /// Cuts the pending Work `id` in two at `fraction` and files the pieces in its place, as one decision one
    /// undo takes back.
    /// - Parameter revision: the revision the reviewer saw; nil skips the check.
    /// - Throws: `Failure` when the box or its crop cannot be cut; the store's `LibraryError` otherwise
    ///   (`.conflict` for a stale `revision`, `.notPending` for a Work already decided).
    public static func split(_ id: Work.ID, revision: Int?, at fraction: Double, in store: any LibraryStoring, session: String) async throws -> ReshapeReceipt {
        guard let work = try await store.work(id: id) else { throw LibraryError.notFound(id) }
        let pieces = try split(work, crop: try await crop(of: work, in: store), at: fraction)
        return try await store.reshape([id], into: pieces, kind: "split", expectedRevisions: revision.map { [id: $0] } ?? [:], session: session)
    }

    /// Joins the pending Work `id` with the pending box to its right on the same shelf row, as one decision.
    /// The neighbour is checked at the revision read here, so a change to it in between is a conflict.
    public static func join(_ id: Work.ID, revision: Int?, in store: any LibraryStoring, session: String) async throws -> ReshapeReceipt {
        guard let work = try await store.work(id: id) else { throw LibraryError.notFound(id) }
        guard let right = try await store.pendingNeighbour(of: id), let rightID = right.id else {
            throw Failure(description: "No pending box to the right of this one on its shelf to join with.")
        }
        let crops = (try await crop(of: work, in: store), try await crop(of: right, in: store))
        let piece = try join(work, right, crops: crops)
        var expected = [rightID: right.revision]
        if let revision { expected[id] = revision }
        return try await store.reshape([id, rightID], into: [piece], kind: "join", expectedRevisions: expected, session: session)
    }

    static func crop(of work: Work, in store: any LibraryStoring) async throws -> RGBImage {
        guard let url = await store.cropURL(for: work) else { throw Failure(description: "“\(work.title)” has no crop file to cut.") }
        do { return try ImageDecoder.decode(fileAt: url.path) } catch {
            throw Failure(description: "Cannot read the crop \(url.lastPathComponent): \(error)")
        }
    }
}
