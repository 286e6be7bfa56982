import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// BooksTrack's success envelope: `{success: true, data, metadata: {timestamp, requestId}}`.
struct Envelope<T: Encodable & Sendable>: Encodable, Sendable {
    var success = true
    var data: T
    var metadata: Metadata

    struct Metadata: Encodable, Sendable {
        var timestamp: String
        var requestId: String
    }
}

enum JSONResponse {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// `data` wrapped in the envelope, with the request's ID from Hummingbird's logger and the time on `clock`.
    static func envelope<T: Encodable & Sendable>(_ data: T, status: HTTPResponse.Status = .ok, context: ServerContext,
                                                  clock: ServerClock, headers: HTTPFields = [:]) throws -> Response {
        try plain(Envelope(data: data, metadata: .init(timestamp: clock.timestamp(), requestId: context.id)),
                  status: status, headers: headers)
    }

    /// The envelope around `data` already encoded as JSON (a job's status, cached results), spliced without decoding it again.
    static func envelope(encodedData data: Data, context: ServerContext, clock: ServerClock) throws -> Response {
        let metadata = try encoder.encode(Envelope<Int>.Metadata(timestamp: clock.timestamp(), requestId: context.id))
        var buffer = ByteBuffer()
        buffer.reserveCapacity(data.count + metadata.count + 40)
        buffer.writeString("{\"data\":")
        buffer.writeBytes(data)
        buffer.writeString(",\"metadata\":")
        buffer.writeBytes(metadata)
        buffer.writeString(",\"success\":true}")
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: buffer))
    }

    static func plain<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}

extension HTTPField.Name {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
