import Foundation

/// The photos a scan will visit, found from the paths a user typed.
///
/// Folders are walked recursively and sorted, so a batch visits photos in the same order every run: a
/// resumed batch then reports progress the user can follow. Hidden files and folders are skipped, as a
/// shell glob would.
public struct PhotoSource: Sendable, Equatable {
    /// The photos to scan, in visiting order, as absolute standardized paths, each listed once.
    public var photos: [String]
    /// Files seen that are not .jpg, .jpeg, .png, .heic, .heif or .webp (in any case); reported, never read.
    public var skippedNonImages: Int
    /// Paths the user named that do not exist or cannot be listed; each is a failure of the batch.
    public var missing: [String]

    /// What phones and cameras save: JPEG, PNG, HEIC/HEIF (an iPhone's default) and WebP.
    public static let photoExtensions: Set<String> = ["jpg", "jpeg", "png", "heic", "heif", "webp"]

    public static func isPhotoPath(_ path: String) -> Bool {
        photoExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Expands files and folders into the list of photos.
    /// - Parameter excluding: files and folders never listed, such as the library's own database and
    ///   crops folder when the library lives inside the folder being scanned (its crops are not shelf photos).
    public init(paths: [String], excluding: [String] = [], fileManager: FileManager = .default) {
        let excluded = excluding.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var photos: [String] = []
        var seen = Set<String>()
        var skipped = 0
        var missing: [String] = []
        func add(_ path: String) {
            if seen.insert(path).inserted { photos.append(path) }
        }
        for raw in paths {
            let path = URL(fileURLWithPath: raw).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                missing.append(raw)
                continue
            }
            if !isDirectory.boolValue {
                // A file named explicitly is scanned whatever its name: the decoder sniffs the bytes and
                // says clearly if it is not a photo.
                add(path)
                continue
            }
            guard let walker = fileManager.enumerator(
                at: URL(fileURLWithPath: path, isDirectory: true),
                includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles]
            ) else {
                missing.append(raw)
                continue
            }
            var found: [String] = []
            for case let url as URL in walker {
                let filePath = url.standardizedFileURL.path
                if excluded.contains(where: { filePath == $0 || filePath.hasPrefix($0 + "/") }) {
                    walker.skipDescendants()
                    continue
                }
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
                if Self.isPhotoPath(url.path) {
                    found.append(filePath)
                } else {
                    skipped += 1
                }
            }
            found.sort()
            found.forEach(add)
        }
        self.photos = photos
        self.skippedNonImages = skipped
        self.missing = missing
    }
}
