import BookModel
import Foundation

/// One row of the Library Dataset's `spine_annotations.csv` that is a book in the catalogue: what OCR read on
/// the spine and which book it is. eval-catalog and eval-enrichment score against the same rows and split.
public struct AnnotatedSpine: Sendable, Equatable {
    public var image: String
    public var ocr: String
    public var title: String
    public var isbn: String
    /// The photo's half: fitting uses only the training half. Split by photo so one shelf's spines never
    /// land on both sides.
    public var train: Bool

    /// The rows with `not_book` and `not_in_db` both False, in file order.
    public static func load(csvAt path: String) throws -> [AnnotatedSpine] {
        let records = CSVReader().parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).records
        guard let header = records.first?.fields else { return [] }
        func col(_ name: String) throws -> Int {
            guard let i = header.firstIndex(of: name) else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
            return i
        }
        let (cImage, cOCR, cTitle, cISBN, cNotBook, cNotInDB) =
            (try col("image_name"), try col("ocr"), try col("title"), try col("isbn"), try col("not_book"), try col("not_in_db"))
        return records.dropFirst().compactMap { r in
            let f = r.fields
            guard f.count == header.count, f[cNotBook] == "False", f[cNotInDB] == "False" else { return nil }
            return AnnotatedSpine(image: f[cImage], ocr: f[cOCR], title: f[cTitle], isbn: f[cISBN].trimmingCharacters(in: .whitespaces),
                                  train: fnv(f[cImage]) % 2 == 0)
        }
    }

    /// FNV-1a, so the split is the same on every machine and run.
    static func fnv(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }
}
