import Foundation

/// Finds the versioned parameter files under `models/` (detector parameters, prompt profiles, answer
/// schemas). They ship as this target's resources so that an installed binary, `swift run` and the
/// tests all read the very same files, and a parameter change is a reviewed diff, not a literal.
public enum ShelfModels {
    /// The URL of `models/<subdirectory>/<name>`, or nil when the file is not shipped.
    public static func url(_ name: String, in subdirectory: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: subdirectory)
    }

    /// The bytes of `models/<subdirectory>/<name>`.
    public static func data(_ name: String, in subdirectory: String) throws -> Data {
        guard let url = url(name, in: subdirectory) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "models/\(subdirectory)/\(name)"])
        }
        return try Data(contentsOf: url)
    }
}
