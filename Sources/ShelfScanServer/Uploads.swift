import Foundation
import Hummingbird
import MultipartKit
import NIOCore
import ShelfImage

/// Reads photos out of a request and checks each before anything is stored: the content type, the sizes
/// (per photo, per request), the count, that the bytes are a JPEG or PNG, and the pixel limit the image
/// module enforces at decode. A request failing any check is answered with a problem and leaves no trace.
struct UploadReader: Sendable {
    var maxPhotos: Int
    var maxRequestBytes: Int
    var maxPhotoBytes: Int
    var maxPixels: Int

    init(_ configuration: ServerConfiguration) {
        maxPhotos = configuration.maxPhotos
        maxRequestBytes = configuration.maxRequestBytes
        maxPhotoBytes = configuration.maxPhotoBytes
        maxPixels = configuration.maxPixels
    }

    /// v3: `multipart/form-data` with the photos in fields named `photos[]` (or `photos`). Other fields are not
    /// read; the files among them are named in the answer, so a client that used the wrong field learns it.
    func multipartPhotos(_ request: Request) async throws -> MultipartUpload {
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("multipart/form-data") else {
            throw Problem.badRequest("UNSUPPORTED_CONTENT_TYPE",
                                     "Send the photos as multipart/form-data in fields named photos[] (got \(contentType.isEmpty ? "no Content-Type" : contentType)).")
        }
        guard let boundary = Self.dispositionParameter("boundary", in: contentType), !boundary.isEmpty, boundary.utf8.count <= 200 else {
            throw Problem.badRequest("MALFORMED_MULTIPART", "The multipart Content-Type has no boundary parameter.")
        }
        let body = try await collect(request)
        let parts = try Self.parts(body, boundary: boundary)
        let photoFields = ["photos[]", "photos", "photo", "image"]
        let photoParts = parts.filter { photoFields.contains($0.name ?? "") }
        let leftOut = parts.compactMap { part in
            part.filename.flatMap { photoFields.contains(part.name ?? "") ? nil : LeftOutPart(field: part.name ?? "", filename: $0) }
        }
        guard !photoParts.isEmpty else {
            let elsewhere = leftOut.isEmpty ? ""
                : " (" + leftOut.map { "\($0.filename) came in field \($0.field.isEmpty ? "without a name" : $0.field)" }.joined(separator: ", ") + ")"
            throw Problem.badRequest("NO_PHOTOS", "The request carries no photo\(elsewhere): add one or more files in fields named photos[].")
        }
        guard photoParts.count <= maxPhotos else {
            throw Problem.badRequest("TOO_MANY_PHOTOS", "\(photoParts.count) photos in one request; at most \(maxPhotos) are accepted. Split them over several jobs.")
        }
        let photos = try photoParts.enumerated().map { index, part in
            try check(part.body, name: part.filename, label: "photo \(index + 1)\(part.filename.map { " (\($0))" } ?? "")")
        }
        return MultipartUpload(photos: photos, leftOut: leftOut)
    }

    /// v1: the raw image bytes as the body, `Content-Type: image/*`.
    func rawPhoto(_ request: Request) async throws -> UploadedPhoto {
        let contentType = (request.headers[.contentType] ?? "").lowercased()
        guard contentType.hasPrefix("image/") else {
            throw Problem.badRequest("UNSUPPORTED_CONTENT_TYPE",
                                     "Send the photo's bytes as the body with Content-Type image/jpeg or image/png (got \(contentType.isEmpty ? "no Content-Type" : contentType)).")
        }
        let body = try await collect(request, limit: min(maxRequestBytes, maxPhotoBytes))
        return try check(Array(buffer: body), name: nil, label: "the photo")
    }

    /// The whole body, refused early from `Content-Length` and again while collecting (a chunked body has none).
    private func collect(_ request: Request, limit: Int? = nil) async throws -> ByteBuffer {
        let limit = limit ?? maxRequestBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw Self.tooLarge(limit)
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Self.tooLarge(limit)
        } catch is NIOTooManyBytesError {
            throw Self.tooLarge(limit)
        }
    }

    static func tooLarge(_ limit: Int) -> Problem {
        .tooLarge("REQUEST_TOO_LARGE", "The request body is larger than the \(megabytes(limit)) limit (--max-upload-mb).")
    }

    private func check(_ bytes: [UInt8], name: String?, label: String) throws -> UploadedPhoto {
        guard bytes.count <= maxPhotoBytes else {
            throw Problem.tooLarge("PHOTO_TOO_LARGE", "\(label) is \(Self.megabytes(bytes.count)); each photo may be at most \(Self.megabytes(maxPhotoBytes)).")
        }
        guard !bytes.isEmpty else { throw Problem.badRequest("EMPTY_PHOTO", "\(label) is empty.") }
        let info: ImageInfo
        do {
            info = try ImageDecoder.info(bytes)
        } catch where error.code == .tooManyPixels {
            throw Problem.tooLarge("TOO_MANY_PIXELS", "\(label) has more pixels than the \(maxPixels / 1_000_000) megapixel limit. Send a smaller photo.")
        } catch where error.code == .truncated {
            throw Problem.badRequest("TRUNCATED_IMAGE", "\(label) ends before its image data does: the upload was cut short. Send it again.")
        } catch {
            throw Problem(.unsupportedMediaType, code: "UNSUPPORTED_IMAGE",
                          detail: "\(label) is not a JPEG or PNG photo. Convert it to JPEG and send it again.")
        }
        guard info.width > 0, info.height > 0 else {
            throw Problem(.unsupportedMediaType, code: "UNSUPPORTED_IMAGE", detail: "\(label) has no pixels.")
        }
        guard info.width * info.height <= maxPixels else {
            throw Problem.tooLarge("TOO_MANY_PIXELS",
                                   "\(label) is \(info.width)x\(info.height) pixels; at most \(maxPixels / 1_000_000) megapixels are accepted. Send a smaller photo.")
        }
        return UploadedPhoto(bytes: bytes, originalName: name, format: info.format)
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    struct Part { var name: String?; var filename: String?; var body: [UInt8] }

    /// Splits a multipart body into parts with MultipartKit's parser. A body that ends inside a part, or a
    /// part without a `Content-Disposition` name, is malformed.
    static func parts(_ body: ByteBuffer, boundary: String) throws -> [Part] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [Part] = []
        var current: Part?
        var headers: [(String, String)] = []
        parser.onHeader = { name, value in
            if current == nil { current = Part(body: []) }
            headers.append((name, value))
        }
        parser.onBody = { buffer in
            if current == nil { current = Part(body: []) }
            current!.body.append(contentsOf: buffer.readableBytesView)
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        }
        parser.onPartComplete = {
            var part = current ?? Part(body: [])
            for (name, value) in headers where name.lowercased() == "content-disposition" {
                part.name = dispositionParameter("name", in: value)
                part.filename = dispositionParameter("filename", in: value)
            }
            parts.append(part)
            current = nil
            headers = []
        }
        do {
            try parser.execute(body)
        } catch {
            throw Problem.badRequest("MALFORMED_MULTIPART", "The multipart body could not be parsed: check its boundary and part headers.")
        }
        guard current == nil, !parts.isEmpty else {
            throw Problem.badRequest("MALFORMED_MULTIPART", "The multipart body ends inside a part or has no parts: it was cut short or its boundary is wrong.")
        }
        return parts
    }

    /// `form-data; name="photos[]"; filename="a.jpg"` → the quoted or bare value of one parameter.
    static func dispositionParameter(_ key: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            var v = pair[1]
            if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
            return v
        }
        return nil
    }
}

/// The photos of a v3 upload, and the files it carried in fields that are not read.
struct MultipartUpload: Sendable {
    var photos: [UploadedPhoto]
    var leftOut: [LeftOutPart]
}

/// A file sent in a multipart field other than photos[], so not scanned.
struct LeftOutPart: Encodable, Sendable, Equatable {
    var field: String
    var filename: String
}
