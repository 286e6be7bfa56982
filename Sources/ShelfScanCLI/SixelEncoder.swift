import ShelfImage

/// DEC sixel graphics, the image format of xterm (-ti vt340), foot, WezTerm, mlterm, contour and Windows
/// Terminal: a DCS string of six-pixel-tall bands, each band painted once per colour it uses.
///
/// Colours come from a fixed 6x6x6 cube (216 registers, as xterm's default 256 allow). A fixed cube keeps
/// the encoder one pass and its output exact to check; a spine's few colours lose little to it.
enum SixelEncoder {
    /// The six levels of each channel: 0, 51, ... 255. In sixel's 0-100 percent they are 0, 20, ... 100,
    /// so the register values survive the round trip through percent exactly.
    static func level(_ v: UInt8) -> Int { (Int(v) * 5 + 127) / 255 }

    /// The palette index of a colour: 36 r + 6 g + b over the levels.
    static func index(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int { 36 * level(r) + 6 * level(g) + level(b) }

    /// The colour a register holds, as the terminal shows it.
    static func color(_ index: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8(index / 36 * 51), UInt8(index / 6 % 6 * 51), UInt8(index % 6 * 51))
    }

    /// The whole DCS string: `ESC P 0;1;0 q`, raster attributes with the size, the registers used, the
    /// bands, `ESC \`. P2 = 1 leaves unpainted pixels alone, which never matters here: every pixel is painted.
    static func encode(_ image: RGBImage) -> String {
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return "" }
        var indices = [Int](repeating: 0, count: w * h)
        var used = Set<Int>()
        for i in 0..<(w * h) {
            let k = index(image.pixels[3 * i], image.pixels[3 * i + 1], image.pixels[3 * i + 2])
            indices[i] = k
            used.insert(k)
        }
        var out = "\u{1B}P0;1;0q\"1;1;\(w);\(h)"
        for k in used.sorted() {
            out += "#\(k);2;\(k / 36 * 20);\(k / 6 % 6 * 20);\(k % 6 * 20)"
        }
        var band = 0
        while band < h {
            let rows = min(6, h - band)
            // The colours of this band, each painted left to right with run-length compression.
            var colors: [Int] = []
            var seen = Set<Int>()
            for y in band..<(band + rows) { for x in 0..<w where seen.insert(indices[y * w + x]).inserted { colors.append(indices[y * w + x]) } }
            for (n, k) in colors.enumerated() {
                out += "#\(k)"
                var run = 0, last: UInt8 = 0
                func flush() {
                    guard run > 0 else { return }
                    let c = Character(Unicode.Scalar(63 + last))
                    out += run > 3 ? "!\(run)\(c)" : String(repeating: c, count: run)
                }
                for x in 0..<w {
                    var bits: UInt8 = 0
                    for r in 0..<rows where indices[(band + r) * w + x] == k { bits |= 1 << r }
                    if run > 0 && bits == last { run += 1 } else { flush(); last = bits; run = 1 }
                }
                flush()
                out += n + 1 < colors.count ? "$" : ""
            }
            band += 6
            out += band < h ? "-" : ""
        }
        return out + "\u{1B}\\"
    }
}
