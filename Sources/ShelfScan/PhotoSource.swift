import Foundation

/// The photos a scan will visit, found from the paths a user typed.
///
/// Folders are walked recursively and the photos sorted by path, so a batch visits photos in the same order
/// every run: a resumed batch then reports progress the user can follow. Links to photos and to folders are
/// followed (photo managers and synced folders are made of them), and a photo is listed once however many
/// paths reach it: each folder is entered once by its real path, which also ends a link cycle. Every file a
/// folder walk passes over is kept with its reason, so the summary can say what was left out and why.
public struct PhotoSource: Sendable, Equatable {
    /// The photos to scan, in visiting order, as absolute standardized paths, each file listed once.
    public var photos: [String]
    /// Files inside the folders that were not taken, in path order.
    public var leftOut: [LeftOutFile]
    /// Paths the user named that do not exist or cannot be listed; each is a failure of the batch.
    public var missing: [String]
    /// The photos the user named as files rather than found in a folder. A folder scan leaves a photo over
    /// the pixel limit out and goes on; a photo named on its own was asked for, so the same limit fails it.
    public var named: Set<String>

    /// What phones and cameras save: JPEG, PNG, HEIC/HEIF (an iPhone's default) and WebP.
    public static let photoExtensions: Set<String> = ["jpg", "jpeg", "png", "heic", "heif", "webp"]

    public static func isPhotoPath(_ path: String) -> Bool {
        photoExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Expands files and folders into the list of photos.
    /// - Parameters:
    ///   - excluding: files and folders never listed, such as the library's own database and crops folder when
    ///     the library lives inside the folder being scanned (its crops are not shelf photos).
    ///   - followLinks: false leaves every symbolic link inside a folder out (counted), as scans did before.
    public init(paths: [String], excluding: [String] = [], followLinks: Bool = true, fileManager: FileManager = .default) {
        var walk = FolderWalk(excluded: excluding.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                              followLinks: followLinks, fileManager: fileManager)
        var photos: [String] = []
        var seen = Set<String>()
        var missing: [String] = []
        var named = Set<String>()
        func add(_ path: String) {
            if seen.insert(FolderWalk.realPath(path) ?? path).inserted { photos.append(path) }
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
                named.insert(path)
                continue
            }
            guard walk.enter(path) else {
                missing.append(raw)
                continue
            }
            // A file reached by several paths is listed by a path that is not itself a link when there is one (a
            // link is only another name), else by the first in sorted order.
            var byFile: [String: String] = [:]
            for found in walk.found.sorted() {
                let real = FolderWalk.realPath(found) ?? found
                if let kept = byFile[real], !walk.linked.contains(kept) || walk.linked.contains(found) { continue }
                byFile[real] = found
            }
            byFile.values.sorted().forEach(add)
            walk.found = []
        }
        self.photos = photos
        self.leftOut = walk.leftOut.sorted { $0.path < $1.path }
        self.missing = missing
        self.named = named
    }
}

/// A file a folder scan did not take, and why.
public struct LeftOutFile: Sendable, Equatable, Codable {
    public enum Reason: String, Sendable, Codable, CaseIterable {
        /// Not named .jpg, .jpeg, .png, .heic, .heif or .webp (in any case).
        case notAPhoto = "not-a-photo"
        /// Its name starts with a dot, as a shell glob would skip it (a hidden folder counts once, unopened).
        case hidden
        /// No permission to read it or list it, or not a plain file (a pipe, a socket, a device).
        case unreadable
        /// A symbolic link to nothing, or to a link cycle.
        case brokenLink = "broken-link"
        /// A symbolic link, left out by `--no-follow-links`.
        case linkNotFollowed = "link-not-followed"
        /// A photo whose header says more pixels than the scan decodes (`ScanConfiguration.maxPixels`): found
        /// when its turn comes, not by the folder walk, which reads no file.
        case overPixelLimit = "over-pixel-limit"
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }
}

/// One depth-first walk through the folders of a `PhotoSource`, sharing its set of folders already entered.
struct FolderWalk {
    let excluded: [String]
    let followLinks: Bool
    let fileManager: FileManager
    var found: [String] = []
    /// The entries of `found` that are symbolic links themselves.
    var linked = Set<String>()
    var leftOut: [LeftOutFile] = []
    /// Real paths of the folders entered so far: a folder reached again, through a link or a cycle, adds nothing.
    var entered = Set<String>()

    init(excluded: [String], followLinks: Bool, fileManager: FileManager) {
        self.excluded = excluded
        self.followLinks = followLinks
        self.fileManager = fileManager
    }

    /// The path with every link resolved, or nil when it leads nowhere.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Lists `folder` (a path the walk shows, maybe through links) and everything under it; false when it
    /// cannot be listed.
    mutating func enter(_ folder: String) -> Bool {
        guard let real = Self.realPath(folder), let names = try? fileManager.contentsOfDirectory(atPath: folder) else {
            return false
        }
        guard entered.insert(real).inserted else { return true }
        for name in names.sorted() {
            let path = folder == "/" ? "/" + name : folder + "/" + name
            if excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { continue }
            if name.hasPrefix(".") {
                leftOut.append(LeftOutFile(path: path, reason: .hidden))
                continue
            }
            let (kind, isLink) = PathKind.of(path)
            if isLink && !followLinks {
                leftOut.append(LeftOutFile(path: path, reason: .linkNotFollowed))
                continue
            }
            switch kind {
            case .missing:
                leftOut.append(LeftOutFile(path: path, reason: .unreadable))
            case .brokenLink:
                leftOut.append(LeftOutFile(path: path, reason: .brokenLink))
            case .folder:
                if !enter(path) { leftOut.append(LeftOutFile(path: path, reason: .unreadable)) }
            case .file(let readable):
                if !PhotoSource.isPhotoPath(name) {
                    leftOut.append(LeftOutFile(path: path, reason: .notAPhoto))
                } else if !readable {
                    leftOut.append(LeftOutFile(path: path, reason: .unreadable))
                } else {
                    found.append(path)
                    if isLink { linked.insert(path) }
                }
            case .special:
                leftOut.append(LeftOutFile(path: path, reason: PhotoSource.isPhotoPath(name) ? .unreadable : .notAPhoto))
            }
        }
        return true
    }
}

/// Why a path a person named cannot be read as one file, in a sentence that names it: a scan's missing paths
/// and `library import` say which of the folder walk's reasons stopped them.
public enum PathCheck {
    /// Nil when `path` is a plain file this process may read; a folder is a problem only when `folderAllowed` is false.
    public static func problem(_ path: String, folderAllowed: Bool = false) -> String? {
        switch PathKind.of(path).kind {
        case .missing:
            return "No such file or folder: \(path)."
        case .brokenLink(cycle: true):
            return "\(path) is a link in a cycle of links, which leads to no file."
        case .brokenLink(cycle: false):
            let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return "\(path) is a link to \(destination), which does not exist."
        case .folder:
            return folderAllowed ? nil : "\(path) is a folder; name the file inside it."
        case .file(let readable):
            return readable ? nil : "\(path) cannot be read: no permission."
        case .special:
            return "\(path) is not a plain file (a pipe, a socket or a device)."
        }
    }
}

/// What a path is once its links are followed, and whether it is a link itself: the one reading of a path that
/// the folder walk and `PathCheck` share.
enum PathKind: Equatable {
    case missing
    /// A link whose target does not exist; `cycle` when following it never ends (ELOOP).
    case brokenLink(cycle: Bool)
    case folder
    /// A plain file; `readable` by this process (as `access(2)` says, so root reads every file).
    case file(readable: Bool)
    /// A pipe, a socket or a device: reading one could block or never end.
    case special

    static func of(_ path: String) -> (kind: PathKind, isLink: Bool) {
        var link = stat(), target = stat()
        guard lstat(path, &link) == 0 else { return (.missing, false) }
        let isLink = link.st_mode & S_IFMT == S_IFLNK
        if isLink {
            guard stat(path, &target) == 0 else { return (.brokenLink(cycle: errno == ELOOP), true) }
        } else {
            target = link
        }
        switch target.st_mode & S_IFMT {
        case S_IFDIR: return (.folder, isLink)
        case S_IFREG: return (.file(readable: access(path, R_OK) == 0), isLink)
        default: return (.special, isLink)
        }
    }
}
