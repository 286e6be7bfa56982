#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file with POSIX calls straight into a `[UInt8]`: no Foundation `Data` in between.
/// Public so the pipeline reads a photo once, hashes those bytes and decodes the same buffer.
public enum FileBytes {
    /// Larger than any photo we expect; refusing early keeps a wrong path (a disk image) from eating memory.
    static let maxBytes = 1 << 30

    public static func contents(of path: String) throws(ShelfImageError) -> [UInt8] {
        func failure(_ what: String, _ errnoValue: Int32) -> ShelfImageError {
            ShelfImageError(code: .unreadablePath, message: "Cannot read \(path): \(what).", cause: String(cString: strerror(errnoValue)))
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            let what = e == ENOENT ? "no such file" : e == EACCES ? "permission denied" : "cannot open it"
            throw failure(what, e)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw failure("cannot stat it", errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw ShelfImageError(code: .unreadablePath, message: "Cannot read \(path): it is a directory, not an image file.")
        }
        let size = Int(st.st_size)
        guard size <= maxBytes else {
            throw ShelfImageError(code: .unreadablePath, message: "Cannot read \(path): \(size) bytes is larger than any photo (limit 1 GiB).")
        }
        if (st.st_mode & S_IFMT) != S_IFREG {
            return try readStream(fd, path: path)
        }
        var readError: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var done = 0
            while done < size {
                let n = read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 { if errno == EINTR { continue }; readError = errno; break }
                if n == 0 { break } // the file shrank while we read it
                done += n
            }
            initialized = done
        }
        if readError != 0 { throw failure("read failed", readError) }
        return bytes
    }

    /// Pipes and devices have no size up front: read in chunks up to the limit.
    private static func readStream(_ fd: Int32, path: String) throws(ShelfImageError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ShelfImageError(code: .unreadablePath, message: "Cannot read \(path): read failed.", cause: String(cString: strerror(errno)))
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > maxBytes {
                throw ShelfImageError(code: .unreadablePath, message: "Cannot read \(path): larger than any photo (limit 1 GiB).")
            }
        }
    }
}
