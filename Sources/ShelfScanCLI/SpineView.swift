import BookModel
import ShelfImage

/// The spine of a Work under review turned to be read (the strip of shelf around it is `ShelfStrip`, which the
/// review page draws too).
enum SpineView {
    /// The crop turned so its text runs left to right. Crops are stored as the book stands, a lying book's
    /// too (tall for a spine); a spine's title mostly runs top to bottom, which a quarter turn
    /// counter-clockwise lays left to right. `flipped` turns it half round for spines printed the other way.
    static func readable(_ crop: RGBImage, flipped: Bool = false) -> RGBImage {
        var image = crop.rotated(.counterClockwise90)
        if flipped { image = image.rotated(.half) }
        return image
    }
}
