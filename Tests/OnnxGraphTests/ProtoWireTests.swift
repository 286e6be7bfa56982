import OnnxGraph
import Testing

@Suite("Protobuf wire format")
struct ProtoWireTests {
    @Test("Every wire type survives encoding and decoding, with multi-byte varints and field numbers")
    func roundTrip() throws {
        let fields = [
            ProtoField(1, .varint(0)), ProtoField(2, .varint(300)), ProtoField(3, .varint(UInt64.max)),
            ProtoField(4, .fixed32(0x4049_0FDB)), ProtoField(5, .fixed64(0x0123_4567_89AB_CDEF)),
            ProtoField(6, string: "Conv"), ProtoField(2000, .bytes([])), ProtoField(7, message: [ProtoField(1, .varint(42))]),
        ]
        let bytes = ProtoWire.encode(fields)
        #expect(try ProtoWire.decode(bytes) == fields)
        // 300 is the varint 0xAC 0x02 after the key 0x10 (field 2, wire type 0).
        #expect(ProtoWire.encode([ProtoField(2, .varint(300))]) == [0x10, 0xAC, 0x02])
    }

    @Test("Bytes that are not a message are one error, never a crash")
    func malformed() {
        let first = ProtoWire.encode([ProtoField(1, string: "abcdef")])
        let good = first + ProtoWire.encode([ProtoField(2, .varint(1 << 40))])
        // Every truncation that ends inside a field (anywhere but between the two).
        for end in 1..<good.count where end != first.count {
            #expect(throws: ProtoWireError.self) { try ProtoWire.decode(Array(good[..<end])) }
        }
        #expect(throws: ProtoWireError.self) { try ProtoWire.decode([0x0B]) }  // wire type 3 (groups), unused by ONNX
        #expect(throws: ProtoWireError.self) { try ProtoWire.decode([0x00, 0x01]) }  // field number 0
        #expect(throws: ProtoWireError.self) { try ProtoWire.decode([UInt8](repeating: 0xFF, count: 12)) }  // endless varint
        #expect(throws: ProtoWireError.self) { try ProtoWire.decode([0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) }  // length past the end
        #expect(throws: ProtoWireError.self) { try OnnxModel(bytes: ProtoWire.encode([ProtoField(1, .varint(8))])) }  // no graph
    }
}
