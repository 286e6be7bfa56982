import Foundation

/// A folder of many photos for batch benchmarks, made from a few real JPEGs: photo i is sample i mod n with
/// `"<tag>-<i>"` appended after the JPEG's end-of-image marker, which decoders ignore. The pixels repeat, the
/// bytes (and so the content hashes the library files photos by) do not.
public enum DistinctPhotos {
    /// The folder (`<tmp>/<tag>-<pid>-<count>`, emptied first) with `photo-0000.jpg` ... of `count` photos.
    public static func folder(from samples: [Data], count: Int, tag: String) throws -> String {
        precondition(!samples.isEmpty, "no sample photos")
        let dir = NSTemporaryDirectory() + "\(tag)-\(getpid())-\(count)"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for i in 0..<count {
            var data = samples[i % samples.count]
            data.append(contentsOf: Array("\(tag)-\(i)".utf8))
            try data.write(to: URL(fileURLWithPath: "\(dir)/photo-\(String(format: "%04d", i)).jpg"))
        }
        return dir
    }

    /// The JPEGs of a folder (samples/ by default), in name order.
    public static func samples(in directory: String = "samples") -> [Data] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.lowercased().hasSuffix(".jpg") }.sorted()
            .compactMap { FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent($0)) }
    }
}
