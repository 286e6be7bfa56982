import Foundation
import ShelfImage

/// An image laid out for the screen: `lines` are its text rows (half blocks or plain characters), or blank
/// rows when a graphics protocol draws it; then `overlay` is the escape string that draws it, sent with
/// the cursor at the picture's top-left cell.
struct Picture: Equatable, Sendable {
    var columns: Int
    var rows: Int
    var lines: [String]
    var overlay: String?

    static let empty = Picture(columns: 0, rows: 0, lines: [], overlay: nil)
}

/// Draws an image in the terminal with the best protocol it speaks: kitty graphics, sixel, iTerm2 inline
/// images; else 24-bit colour half blocks (two pixels per cell); else (NO_COLOR) a grey ramp of characters.
enum CropRenderer {
    enum Mode: String, Equatable, Sendable, CaseIterable { case kitty, sixel, iterm, halfBlocks = "blocks", ascii = "text" }

    /// What the environment says about the terminal. Sixel support that only the terminal's own answer
    /// reveals (xterm -ti vt340, a sixel-enabled tmux) is found by `Terminal.probeSixel()`.
    static func mode(environment: [String: String], colorAllowed: Bool) -> Mode {
        guard colorAllowed else { return .ascii }
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term.contains("kitty") || program == "WezTerm" || program == "ghostty" {
            return .kitty
        }
        if program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" { return .iterm }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") || term.hasPrefix("yaft") || term.hasPrefix("contour")
            || environment["WT_SESSION"] != nil {
            return .sixel
        }
        return .halfBlocks
    }

    /// The image's cell size inside a box of `columns` x `rows`, keeping its shape; a cell is
    /// `cellAspect` times as tall as it is wide (2 for the usual fonts).
    static func fit(width: Int, height: Int, columns: Int, rows: Int, cellAspect: Double = 2) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (0, 0) }
        let scale = min(Double(columns) / Double(width), Double(rows) * cellAspect / Double(height))
        return (max(1, min(columns, Int(Double(width) * scale))), max(1, min(rows, Int((Double(height) * scale / cellAspect).rounded(.up)))))
    }

    /// The picture of `image` fitted into `columns` x `rows` cells of `cellPixels` pixels each.
    static func picture(_ image: RGBImage, columns: Int, rows: Int, mode: Mode, cellPixels: (width: Int, height: Int) = (10, 20)) -> Picture {
        let aspect = Double(max(1, cellPixels.height)) / Double(max(1, cellPixels.width))
        let size = fit(width: image.width, height: image.height, columns: columns, rows: rows, cellAspect: aspect)
        guard size.columns > 0 else { return .empty }
        let blank = Array(repeating: String(repeating: " ", count: size.columns), count: size.rows)
        switch mode {
        case .kitty:
            return Picture(columns: size.columns, rows: size.rows, lines: blank, overlay: kitty(image, size: size))
        case .sixel:
            // Sixel has no cell placement: the pixels are sent at the size they take on screen.
            let px = image.resized(width: max(1, size.columns * cellPixels.width), height: max(1, size.rows * cellPixels.height))
            return Picture(columns: size.columns, rows: size.rows, lines: blank, overlay: SixelEncoder.encode(px))
        case .iterm:
            return Picture(columns: size.columns, rows: size.rows, lines: blank, overlay: iterm(image, size: size))
        case .halfBlocks, .ascii:
            return Picture(columns: size.columns, rows: size.rows, lines: textLines(image, size: size, mode: mode), overlay: nil)
        }
    }

    /// One string per terminal row (half blocks or characters; blank rows under a graphics overlay).
    static func render(_ image: RGBImage, columns: Int, rows: Int, mode: Mode) -> [String] {
        let p = picture(image, columns: columns, rows: rows, mode: mode)
        guard let overlay = p.overlay, !p.lines.isEmpty else { return p.lines }
        return [overlay + p.lines[0]] + p.lines.dropFirst()
    }

    private static func textLines(_ image: RGBImage, size: (columns: Int, rows: Int), mode: Mode) -> [String] {
        if mode == .halfBlocks {
            let small = image.resized(width: size.columns, height: size.rows * 2)
            return (0..<size.rows).map { r in
                var line = ""
                for c in 0..<size.columns {
                    let top = pixel(small, c, 2 * r), bottom = pixel(small, c, 2 * r + 1)
                    line += "\u{1B}[38;2;\(top.0);\(top.1);\(top.2)m\u{1B}[48;2;\(bottom.0);\(bottom.1);\(bottom.2)m▀"
                }
                return line + "\u{1B}[0m"
            }
        }
        let ramp = Array(" .:-=+*#%@")
        let small = image.resized(width: size.columns, height: size.rows)
        return (0..<size.rows).map { r in
            String((0..<size.columns).map { c -> Character in
                let p = pixel(small, c, r)
                let luma = (299 * Int(p.0) + 587 * Int(p.1) + 114 * Int(p.2)) / 1000
                return ramp[min(ramp.count - 1, (255 - luma) * ramp.count / 256)]
            })
        }
    }

    private static func pixel(_ image: RGBImage, _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let yy = min(y, image.height - 1), xx = min(x, image.width - 1)
        let i = (yy * image.width + xx) * 3
        return (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    }

    /// kitty's graphics protocol: raw RGB (f=24), base64 in 4 KiB chunks, placed over `size` cells.
    private static func kitty(_ image: RGBImage, size: (columns: Int, rows: Int)) -> String {
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
        return out
    }

    /// iTerm2's inline image (OSC 1337 File=): a JPEG, stretched over exactly `size` cells.
    private static func iterm(_ image: RGBImage, size: (columns: Int, rows: Int)) -> String {
        let small = image.width * image.height > 400_000 ? image.downscaled(maxSide: 800) : image
        guard let jpeg = try? small.jpegData(quality: 85) else { return "" }
        return "\u{1B}]1337;File=inline=1;size=\(jpeg.count);width=\(size.columns);height=\(size.rows);preserveAspectRatio=0:"
            + Data(jpeg).base64EncodedString() + "\u{07}"
    }
}
