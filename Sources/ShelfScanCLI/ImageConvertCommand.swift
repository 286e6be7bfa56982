import ArgumentParser
import Foundation
import ShelfImage

extension ImageCommand {
    /// `shelfscan image convert IN OUT [--max-side N] [--quality Q]`: decode upright, shrink, re-encode.
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Decode a photo, turn it upright, optionally shrink it, and save it as JPEG or PNG.",
            discussion: "The output format follows OUT's extension: .jpg, .jpeg or .png."
        )

        /// Output formats, picked by OUT's extension.
        enum OutputFormat: String, CaseIterable {
            case jpeg, png

            init?(path: String) {
                switch (path as NSString).pathExtension.lowercased() {
                case "jpg", "jpeg": self = .jpeg
                case "png": self = .png
                default: return nil
                }
            }
        }

        @Argument(help: ArgumentHelp("The photo to read (JPEG, PNG, HEIC/HEIF or WebP).", valueName: "in"),
                  completion: .file(extensions: ["jpg", "jpeg", "png", "heic", "heif", "webp"]))
        var input: String

        @Argument(help: ArgumentHelp("Where to write; .jpg/.jpeg writes JPEG, .png writes PNG.", valueName: "out"))
        var output: String

        @Option(help: ArgumentHelp("Shrink so the longer side is at most N pixels (area averaging).", valueName: "N"))
        var maxSide: Int?

        @Option(help: ArgumentHelp("JPEG quality, 1-100.", valueName: "Q"))
        var quality: Int = 90

        func validate() throws {
            guard OutputFormat(path: output) != nil else {
                throw ValidationError("Give OUT a .jpg, .jpeg or .png extension; the output format follows it.")
            }
            guard (1...100).contains(quality) else { throw ValidationError("Pass a --quality between 1 and 100.") }
            if let maxSide, maxSide < 1 { throw ValidationError("Pass a --max-side of at least 1 pixel.") }
        }

        func run() throws {
            let bytes: [UInt8]
            do {
                let image = try decode()
                let shrunk = maxSide.map { image.downscaled(maxSide: $0) } ?? image
                switch OutputFormat(path: output)! {
                case .jpeg: bytes = try shrunk.jpegData(quality: quality)
                case .png: bytes = try shrunk.pngData()
                }
            } catch {
                throw ImageCommand.report(error)
            }
            do {
                // Atomic: a failed run never leaves half a file at OUT.
                try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                let reason = (error as NSError).localizedDescription
                FileHandle.standardError.write(Data("shelfscan: Cannot write \(output): \(reason)\n".utf8))
                throw ExitCode(73)
            }
        }

        /// With --max-side, a JPEG decodes straight at the largest DCT scale (a WebP at the largest libwebp
        /// scale) that still leaves at least N pixels on the long side, so a 12 MP photo shrunk to 1600 px
        /// never exists at full size.
        private func decode() throws(ShelfImageError) -> RGBImage {
            var options = DecodeOptions()
            if let maxSide {
                let info = try ImageDecoder.info(fileAt: input)
                if info.format == .jpeg || info.format == .webp {
                    let longest = max(info.width, info.height)
                    options.scaleDenominator = [8, 4, 2].first { (longest + $0 - 1) / $0 >= maxSide } ?? 1
                }
            }
            return try ImageDecoder.decode(fileAt: input, options: options)
        }
    }
}
