import Foundation
import ShelfImage

/// Draws a spine crop in the terminal: kitty graphics when the terminal speaks it, else 24-bit colour
/// half blocks (two pixels per cell), else (NO_COLOR) a grey ramp of plain characters.
enum CropRenderer {
    enum Mode: Equatable { case kitty, halfBlocks, ascii }

    /// kitty (and terminals that implement its graphics protocol) announce themselves in the environment.
    static func mode(environment: [String: String], colorAllowed: Bool) -> Mode {
        guard colorAllowed else { return .ascii }
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term.contains("kitty") || program == "WezTerm" || program == "ghostty" {
            return .kitty
        }
        return .halfBlocks
    }

    /// The crop's cell size inside a box of `columns` x `rows`, keeping its shape (a cell is about twice as
    /// tall as it is wide).
    static func fit(width: Int, height: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (0, 0) }
        let scale = min(Double(columns) / Double(width), Double(rows * 2) / Double(height))
        return (max(1, Int(Double(width) * scale)), max(1, Int((Double(height) * scale / 2).rounded(.up))))
    }

    /// One string per terminal row. For kitty, the first row carries the image and the others are blank
    /// space it is drawn over.
    static func render(_ image: RGBImage, columns: Int, rows: Int, mode: Mode) -> [String] {
        let size = fit(width: image.width, height: image.height, columns: columns, rows: rows)
        guard size.columns > 0 else { return [] }
        switch mode {
        case .kitty:
            return kitty(image, size: size)
        case .halfBlocks:
            let small = image.downscaled(width: size.columns, height: size.rows * 2)
            return (0..<size.rows).map { r in
                var line = ""
                for c in 0..<size.columns {
                    let top = pixel(small, c, 2 * r), bottom = pixel(small, c, 2 * r + 1)
                    line += "\u{1B}[38;2;\(top.0);\(top.1);\(top.2)m\u{1B}[48;2;\(bottom.0);\(bottom.1);\(bottom.2)m▀"
                }
                return line + "\u{1B}[0m"
            }
        case .ascii:
            let ramp = Array(" .:-=+*#%@")
            let small = image.downscaled(width: size.columns, height: size.rows)
            return (0..<size.rows).map { r in
                String((0..<size.columns).map { c -> Character in
                    let p = pixel(small, c, r)
                    let luma = (299 * Int(p.0) + 587 * Int(p.1) + 114 * Int(p.2)) / 1000
                    return ramp[min(ramp.count - 1, (255 - luma) * ramp.count / 256)]
                })
            }
        }
    }

    private static func pixel(_ image: RGBImage, _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let yy = min(y, image.height - 1), xx = min(x, image.width - 1)
        let i = (yy * image.width + xx) * 3
        return (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    }

    /// kitty's graphics protocol: raw RGB (f=24), base64 in 4 KiB chunks, placed over `size` cells.
    private static func kitty(_ image: RGBImage, size: (columns: Int, rows: Int)) -> [String] {
        let small = image.width * image.height > 400_000 ? image.downscaled(maxSide: 800) : image
        let payload = Data(small.pixels).base64EncodedString()
        var out = ""
        var start = payload.startIndex
        var first = true
        while start < payload.endIndex {
            let end = payload.index(start, offsetBy: 4096, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let control = first ? "a=T,f=24,s=\(small.width),v=\(small.height),c=\(size.columns),r=\(size.rows),C=1,q=2,m=\(more)" : "m=\(more)"
            out += "\u{1B}_G\(control);\(payload[start..<end])\u{1B}\\"
            first = false
            start = end
        }
        return [out + String(repeating: " ", count: size.columns)] + Array(repeating: String(repeating: " ", count: size.columns), count: max(0, size.rows - 1))
    }
}
