import ShelfImage

/// The reduced, upright image the detector works on, decoded the cheap way: libjpeg's DCT scaling gets
/// within a factor of two of the target straight from the compressed data, so a 12 MP photo is never
/// decoded in full just to be detected.
public enum DetectionInput {
    /// Default long side: spines as thin as 1% of the photo width stay about 12 px wide.
    public static let defaultMaxSide = 1280

    public static func decode(_ bytes: [UInt8], info: ImageInfo, maxSide: Int = defaultMaxSide,
                              maxPixels: Int = DecodeOptions().maxPixels) throws(ShelfImageError) -> RGBImage {
        var options = DecodeOptions()
        options.maxPixels = maxPixels
        options.scaleDenominator = scaleDenominator(longSide: max(info.uprightWidth, info.uprightHeight), target: maxSide)
        return try ImageDecoder.decode(bytes, options: options).downscaled(maxSide: maxSide)
    }

    /// The largest libjpeg scale (1/1, 1/2, 1/4, 1/8) that still leaves at least `target` pixels on the long side.
    public static func scaleDenominator(longSide: Int, target: Int) -> Int {
        var denominator = 1
        while denominator < 8 && longSide / (denominator * 2) >= target { denominator *= 2 }
        return denominator
    }
}
