/// Finds the EXIF orientation tag (0x0112) in a JPEG's APP1 "Exif" segment, a PNG's eXIf chunk or a
/// WebP's EXIF chunk. (A HEIF's EXIF is not read: libheif's irot/imir already turn it upright.)
///
/// Written by hand rather than through a library because the only thing we need is one tag, and EXIF
/// blocks in the wild are often damaged: every read here is bounds-checked and every failure means
/// "orientation 1", never a crash. Offsets inside the TIFF block are untrusted 32-bit values.
enum ExifOrientation {
    /// Orientation from a JPEG: walks the marker segments up to the first scan.
    static func inJPEG(_ d: [UInt8]) -> Int {
        var i = 2 // after SOI
        var segments = 0
        while i + 4 <= d.count, segments < 1000 {
            guard d[i] == 0xFF else { return 1 }
            let marker = d[i + 1]
            if marker == 0xFF { i += 1; continue } // fill byte
            i += 2
            if marker == 0x01 || marker == 0xD8 || (0xD0...0xD7).contains(marker) { continue } // no length
            if marker == 0xDA || marker == 0xD9 { return 1 } // scan or end: EXIF comes before
            let length = Int(d[i]) << 8 | Int(d[i + 1])
            guard length >= 2, i + length <= d.count else { return 1 }
            if marker == 0xE1, length >= 8 + 2,
               d[i + 2] == 0x45, d[i + 3] == 0x78, d[i + 4] == 0x69, d[i + 5] == 0x66, d[i + 6] == 0, d[i + 7] == 0,
               let o = inTIFF(d, start: i + 8, end: i + length) {
                return o
            }
            i += length
            segments += 1
        }
        return 1
    }

    /// Orientation from a PNG's eXIf chunk (the TIFF block itself; some writers prefix "Exif\0\0").
    static func inPNG(_ d: [UInt8]) -> Int {
        var i = 8
        var chunks = 0
        while i + 8 <= d.count, chunks < 100_000 {
            let length = Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3])
            let type = (d[i + 4], d[i + 5], d[i + 6], d[i + 7])
            let start = i + 8
            guard length <= d.count - start else { return 1 }
            if type == (0x65, 0x58, 0x49, 0x66) { // eXIf
                var s = start
                if length >= 6, d[s] == 0x45, d[s + 1] == 0x78, d[s + 2] == 0x69, d[s + 3] == 0x66, d[s + 4] == 0, d[s + 5] == 0 { s += 6 }
                return inTIFF(d, start: s, end: start + length) ?? 1
            }
            if type == (0x49, 0x45, 0x4E, 0x44) { return 1 } // IEND
            i = start + length + 4 // data and CRC
            chunks += 1
        }
        return 1
    }

    /// Orientation from a WebP's `EXIF` chunk (RIFF chunks after `WEBP`: fourcc, little-endian size,
    /// payload padded to even length). The payload is the TIFF block; some writers prefix "Exif\0\0".
    static func inWebP(_ d: [UInt8]) -> Int {
        var i = 12
        var chunks = 0
        while i + 8 <= d.count, chunks < 100_000 {
            let length = Int(d[i + 4]) | Int(d[i + 5]) << 8 | Int(d[i + 6]) << 16 | Int(d[i + 7]) << 24
            let start = i + 8
            guard length <= d.count - start else { return 1 }
            if d[i] == 0x45, d[i + 1] == 0x58, d[i + 2] == 0x49, d[i + 3] == 0x46 { // EXIF
                var s = start
                if length >= 6, d[s] == 0x45, d[s + 1] == 0x78, d[s + 2] == 0x69, d[s + 3] == 0x66, d[s + 4] == 0, d[s + 5] == 0 { s += 6 }
                return inTIFF(d, start: s, end: start + length) ?? 1
            }
            i = start + length + (length & 1)
            chunks += 1
        }
        return 1
    }

    /// Reads IFD0 of a TIFF block `d[start..<end]` and returns tag 0x0112 if it holds 1...8.
    static func inTIFF(_ d: [UInt8], start: Int, end: Int) -> Int? {
        guard start >= 0, end <= d.count, end - start >= 8 else { return nil }
        let little: Bool
        switch (d[start], d[start + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        let size = end - start
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o <= size - 2 else { return nil }
            let a = Int(d[start + o]), b = Int(d[start + o + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ o: Int) -> Int? {
            guard let lo = u16(little ? o : o + 2), let hi = u16(little ? o + 2 : o) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 1024) {
            let entry = ifd + 2 + 12 * k
            guard let tag = u16(entry), let type = u16(entry + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            let value: Int?
            switch type {
            case 3, 8: value = u16(entry + 8) // SHORT (the standard), SSHORT
            case 4, 9: value = u32(entry + 8) // LONG, written by a few tools
            case 1, 6, 7: value = entry + 8 < size ? Int(d[start + entry + 8]) : nil // BYTE
            default: value = nil
            }
            guard let value, (1...8).contains(value) else { return nil }
            return value
        }
        return nil
    }
}
