import ShelfImage

/// Text drawn with a built-in 5x7 capital font, for OCR fixtures that need no font files: big, blocky
/// letters that Tesseract reads reliably, so a failing test means the reader broke, not the fixture.
public enum BitmapText {
    private static let glyphs: [Character: [String]] = [
        "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
        "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
        "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
        "D": ["11100", "10010", "10001", "10001", "10001", "10010", "11100"],
        "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
        "F": ["11111", "10000", "10000", "11110", "10000", "10000", "10000"],
        "G": ["01110", "10001", "10000", "10111", "10001", "10001", "01111"],
        "H": ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
        "I": ["01110", "00100", "00100", "00100", "00100", "00100", "01110"],
        "J": ["00111", "00010", "00010", "00010", "00010", "10010", "01100"],
        "K": ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
        "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
        "M": ["10001", "11011", "10101", "10101", "10001", "10001", "10001"],
        "N": ["10001", "11001", "11001", "10101", "10011", "10011", "10001"],
        "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
        "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
        "Q": ["01110", "10001", "10001", "10001", "10101", "10010", "01101"],
        "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
        "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
        "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
        "U": ["10001", "10001", "10001", "10001", "10001", "10001", "01110"],
        "V": ["10001", "10001", "10001", "10001", "10001", "01010", "00100"],
        "W": ["10001", "10001", "10001", "10101", "10101", "10101", "01010"],
        "X": ["10001", "10001", "01010", "00100", "01010", "10001", "10001"],
        "Y": ["10001", "10001", "01010", "00100", "00100", "00100", "00100"],
        "Z": ["11111", "00001", "00010", "00100", "01000", "10000", "11111"],
        " ": ["00000", "00000", "00000", "00000", "00000", "00000", "00000"],
    ]

    /// One line of capitals (other characters are skipped) on a plain background, `scale` pixels per
    /// font dot, with a margin of two letter heights' worth of paper around it.
    public static func render(_ text: String, scale: Int = 5, ink: (UInt8, UInt8, UInt8) = (20, 20, 20),
                              paper: (UInt8, UInt8, UInt8) = (235, 225, 200)) -> RGBImage {
        let letters = text.uppercased().filter { glyphs[$0] != nil }
        let margin = 3 * scale
        let width = max(1, letters.count * 6 * scale - scale + 2 * margin)
        let height = 7 * scale + 2 * margin
        var image = RGBImage(width: width, height: height, fill: (paper.0, paper.1, paper.2))
        for (i, letter) in letters.enumerated() {
            let rows = glyphs[letter]!
            for (gy, row) in rows.enumerated() {
                for (gx, bit) in row.enumerated() where bit == "1" {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let x = margin + (i * 6 + gx) * scale + dx, y = margin + gy * scale + dy
                            let p = 3 * (y * width + x)
                            image.pixels[p] = ink.0; image.pixels[p + 1] = ink.1; image.pixels[p + 2] = ink.2
                        }
                    }
                }
            }
        }
        return image
    }

    /// Stands a horizontal text image up as a spine: `topToBottom` is how most English spines run
    /// (the image is turned clockwise), otherwise bottom-to-top as on many European spines.
    public static func standingSpine(_ horizontal: RGBImage, topToBottom: Bool = true) -> RGBImage {
        let w = horizontal.width, h = horizontal.height
        var out = RGBImage(width: h, height: w)
        for y in 0..<h {
            for x in 0..<w {
                let (nx, ny) = topToBottom ? (h - 1 - y, x) : (y, w - 1 - x)
                let s = 3 * (y * w + x), d = 3 * (ny * h + nx)
                out.pixels[d] = horizontal.pixels[s]; out.pixels[d + 1] = horizontal.pixels[s + 1]; out.pixels[d + 2] = horizontal.pixels[s + 2]
            }
        }
        return out
    }
}
