import BookModel
import Foundation
import LibraryCore
import ShelfImage
import ShelfScan

/// The spine and shelf pictures for the Work on screen, drawn once per Work and screen size: typing in the
/// edit form redraws the text only. The last photo decoded is kept, because a queue goes photo by photo and
/// decoding a 12-megapixel photo for every spine would make each key wait.
final class ReviewPictures {
    let mode: CropRenderer.Mode
    let cellPixels: (width: Int, height: Int)
    private var key: (id: Int64?, revision: Int, columns: Int, rows: Int, flipped: Bool, cut: Double?)?
    private(set) var spine: Picture = .empty
    private(set) var context: Picture = .empty
    private(set) var contextNote: String?
    private var photo: (path: String, image: RGBImage?)?

    init(mode: CropRenderer.Mode, cellPixels: (width: Int, height: Int)) {
        self.mode = mode
        self.cellPixels = cellPixels
    }

    /// Draws the pictures of `item` if it, the screen size or the flip changed since the last call.
    /// - Parameter cut: where a split would cut the box (a fraction of its width), drawn on the shelf strip.
    func update(_ item: ReviewItem?, columns: Int, rows: Int, flipped: Bool, cut: Double? = nil) {
        let id = item?.work.id, revision = item?.work.revision ?? 0
        if let key, key.id == id, key.revision == revision, key.columns == columns, key.rows == rows, key.flipped == flipped,
           key.cut == cut { return }
        key = (id, revision, columns, rows, flipped, cut)
        let (spineRows, contextRows) = ReviewScreen.pictureRows(rows: rows)
        spine = .empty
        context = .empty
        contextNote = nil
        guard let item else { return }
        if let url = item.cropURL, let crop = try? ImageDecoder.decode(fileAt: url.path) {
            // T turns the picture from the way the reader found the title runs (unknown: top to bottom).
            let readable = SpineView.readable(crop, flipped: flipped != (item.work.spine?.textRunsUp ?? false))
            spine = CropRenderer.picture(readable, columns: columns, rows: spineRows, mode: mode, cellPixels: cellPixels)
        } else {
            spine = Picture(columns: columns, rows: 1, lines: [clip(item.cropURL == nil ? "(no crop file)" : "(crop unreadable)", columns)], overlay: nil)
        }
        guard let box = item.work.boundingBox else { return }
        guard let path = item.work.originalImagePath, let image = decodedPhoto(path) else {
            contextNote = "(the photo is not at \(item.work.originalImagePath ?? "?"); the shelf around this spine cannot be shown)"
            return
        }
        let aspect = Double(columns * cellPixels.width) / Double(contextRows * cellPixels.height)
        if let strip = ShelfStrip.context(photo: image, box: box, polygon: item.work.spine?.polygon ?? [], aspect: aspect, columns: columns,
                                          cut: cut, lying: item.work.spine?.lying ?? false) {
            context = CropRenderer.picture(strip, columns: columns, rows: contextRows, mode: mode, cellPixels: cellPixels)
        }
    }

    /// The photo at about 1600 pixels on its long side (libjpeg's DCT scaling skips most of the work).
    private func decodedPhoto(_ path: String) -> RGBImage? {
        if let photo, photo.path == path { return photo.image }
        var image: RGBImage?
        if let info = try? ImageDecoder.info(fileAt: path) {
            let side = max(info.width, info.height)
            let denominator = side >= 6400 ? 4 : side >= 3200 ? 2 : 1
            image = try? ImageDecoder.decode(fileAt: path, options: DecodeOptions(scaleDenominator: denominator))
        }
        photo = (path, image)
        return image
    }
}
