#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import CImageCodecs

extension RGBImage {
    /// Baseline JPEG, 4:2:0 chroma, `quality` 1-100 (libjpeg's scale; 90 keeps spine text crisp).
    public func jpegData(quality: Int = 90) throws(ShelfImageError) -> [UInt8] {
        try Encoder.jpeg(pixels, width: width, height: height, components: 3, quality: quality)
    }

    /// 8-bit RGB PNG, zlib level 6.
    public func pngData() throws(ShelfImageError) -> [UInt8] {
        try Encoder.png(pixels, width: width, height: height, components: 3)
    }
}

extension GrayImage {
    /// 8-bit gray PNG, zlib level 6.
    public func pngData() throws(ShelfImageError) -> [UInt8] {
        try Encoder.png(pixels, width: width, height: height, components: 1)
    }

    /// Single-channel baseline JPEG.
    public func jpegData(quality: Int = 90) throws(ShelfImageError) -> [UInt8] {
        try Encoder.jpeg(pixels, width: width, height: height, components: 1, quality: quality)
    }
}

enum Encoder {
    static func jpeg(_ pixels: [UInt8], width: Int, height: Int, components: Int, quality: Int) throws(ShelfImageError) -> [UInt8] {
        try encode(width: width, height: height, codec: "libjpeg") { out, size, err in
            pixels.withUnsafeBytes { raw in
                shelf_jpeg_encode(raw.baseAddress, Int32(width), Int32(height), Int32(components), Int32(quality), &out, &size, &err)
            }
        }
    }

    static func png(_ pixels: [UInt8], width: Int, height: Int, components: Int) throws(ShelfImageError) -> [UInt8] {
        try encode(width: width, height: height, codec: "libpng") { out, size, err in
            pixels.withUnsafeBytes { raw in
                shelf_png_encode(raw.baseAddress, Int32(width), Int32(height), Int32(components), 6, &out, &size, &err)
            }
        }
    }

    /// Runs one C encoder, copies its malloc'd output into a Swift array and frees it.
    private static func encode(
        width: Int, height: Int, codec: String,
        _ call: (inout UnsafeMutableRawPointer?, inout Int, inout shelf_codec_error) -> Int32
    ) throws(ShelfImageError) -> [UInt8] {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ShelfImageError(code: .encodingFailed, message: "Cannot encode a \(width)x\(height) image: it has no pixels.")
        }
        var out: UnsafeMutableRawPointer?
        var size = 0
        var err = shelf_codec_error()
        let rc = call(&out, &size, &err)
        defer { free(out) }
        try CodecCall.check(rc, err, codec: codec, action: "encode", name: "a \(width)x\(height) image")
        guard let out else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: out, count: size))
    }
}
