/// Protocol Buffers' wire format, as far as reading and rewriting an ONNX file needs: a message is a list of
/// numbered fields, each a varint, a fixed 32- or 64-bit word or a length-delimited run of bytes (a string,
/// a nested message or a packed array). Fields this code does not know are carried through unchanged, so a
/// rewrite touches only what it means to.
public struct ProtoField: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case varint(UInt64)
        case fixed64(UInt64)
        case bytes([UInt8])
        case fixed32(UInt32)
    }

    public var number: Int
    public var value: Value

    public init(_ number: Int, _ value: Value) {
        self.number = number
        self.value = value
    }

    public init(_ number: Int, string: String) { self.init(number, .bytes(Array(string.utf8))) }

    public init(_ number: Int, message: [ProtoField]) { self.init(number, .bytes(ProtoWire.encode(message))) }

    var bytes: [UInt8]? {
        guard case .bytes(let b) = value else { return nil }
        return b
    }
    var varint: UInt64? {
        guard case .varint(let v) = value else { return nil }
        return v
    }
    var string: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
}

/// Why bytes are not a protobuf message.
public struct ProtoWireError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

public enum ProtoWire {
    /// The fields of one message, in file order.
    public static func decode(_ bytes: [UInt8]) throws(ProtoWireError) -> [ProtoField] {
        try bytes.withUnsafeBufferPointer { (b) throws(ProtoWireError) -> [ProtoField] in
            var fields: [ProtoField] = []
            var at = 0
            while at < b.count {
                let key = try varint(b, &at)
                let number = Int(key >> 3)
                guard number > 0 else { throw ProtoWireError(description: "field number 0 at byte \(at)") }
                switch key & 7 {
                case 0: fields.append(ProtoField(number, .varint(try varint(b, &at))))
                case 1: fields.append(ProtoField(number, .fixed64(try fixed(b, &at, size: 8))))
                case 2:
                    let length = try varint(b, &at)
                    guard length <= UInt64(b.count - at) else { throw ProtoWireError(description: "field \(number) runs past the end") }
                    fields.append(ProtoField(number, .bytes(Array(b[at..<(at + Int(length))]))))
                    at += Int(length)
                case 5: fields.append(ProtoField(number, .fixed32(UInt32(try fixed(b, &at, size: 4)))))
                default: throw ProtoWireError(description: "field \(number) has wire type \(key & 7), which ONNX never uses")
                }
            }
            return fields
        }
    }

    public static func encode(_ fields: [ProtoField]) -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            let n = UInt64(field.number) << 3
            switch field.value {
            case .varint(let v): append(n | 0, to: &out); append(v, to: &out)
            case .fixed64(let v): append(n | 1, to: &out); for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
            case .bytes(let b): append(n | 2, to: &out); append(UInt64(b.count), to: &out); out += b
            case .fixed32(let v): append(n | 5, to: &out); for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) }
            }
        }
        return out
    }

    /// A repeated integer field's values, packed (one run of varints) or not (one field each).
    static func integers(_ fields: [ProtoField], _ number: Int) throws(ProtoWireError) -> [Int64] {
        var out: [Int64] = []
        for f in fields where f.number == number {
            switch f.value {
            case .varint(let v): out.append(Int64(bitPattern: v))
            case .bytes(let packed):
                try packed.withUnsafeBufferPointer { (b) throws(ProtoWireError) in
                    var at = 0
                    while at < b.count { out.append(Int64(bitPattern: try varint(b, &at))) }
                }
            default: throw ProtoWireError(description: "field \(number) is not an integer")
            }
        }
        return out
    }

    static func append(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }

    private static func varint(_ b: UnsafeBufferPointer<UInt8>, _ at: inout Int) throws(ProtoWireError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while at < b.count, shift < 64 {
            let byte = b[at]
            at += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw ProtoWireError(description: "a varint runs past the end or past 64 bits")
    }

    private static func fixed(_ b: UnsafeBufferPointer<UInt8>, _ at: inout Int, size: Int) throws(ProtoWireError) -> UInt64 {
        guard b.count - at >= size else { throw ProtoWireError(description: "a fixed-size field runs past the end") }
        var value: UInt64 = 0
        for k in 0..<size { value |= UInt64(b[at + k]) << (8 * UInt64(k)) }
        at += size
        return value
    }
}
