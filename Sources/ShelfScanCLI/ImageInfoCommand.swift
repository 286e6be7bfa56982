import ArgumentParser
import Foundation
import ShelfImage

extension ImageCommand {
    /// `shelfscan image info PATH [--json]`: what the header says, without decoding pixels.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Print a photo's format, stored size, EXIF orientation and upright size."
        )

        @Argument(help: ArgumentHelp("The photo (JPEG, PNG, HEIC/HEIF or WebP; the format is read from the bytes).", valueName: "path"),
                  completion: .file(extensions: ["jpg", "jpeg", "png", "heic", "heif", "webp"]))
        var path: String

        @OptionGroup var output: OutputOptions

        @Flag(help: "Read only the header; skip checking that the image data decodes (faster, misses truncation).")
        var headerOnly = false

        /// The `data` of the JSON envelope: `ImageInfo`'s fields plus the path.
        struct Payload: Encodable {
            var path: String
            var format: String
            var width, height, orientation, uprightWidth, uprightHeight: Int
        }

        func run() throws {
            let info: ImageInfo
            do {
                info = try ImageDecoder.info(fileAt: path, verifyingData: !headerOnly)
            } catch {
                if output.json { print(Envelope<Empty>(error: error, path: path).encoded()) }
                throw ImageCommand.report(error)
            }
            if output.json {
                let payload = Payload(path: path, format: info.format.rawValue, width: info.width, height: info.height,
                                      orientation: info.orientation, uprightWidth: info.uprightWidth,
                                      uprightHeight: info.uprightHeight)
                print(Envelope(data: payload).encoded())
            } else {
                print("""
                    format       \(info.format.rawValue)
                    width        \(info.width)
                    height       \(info.height)
                    orientation  \(info.orientation)
                    upright      \(info.uprightWidth)x\(info.uprightHeight)
                    """)
            }
        }
    }
}
