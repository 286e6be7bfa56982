/// An ONNX model file opened for rewriting: its graph's nodes and initializers as values, every other field
/// (opsets, metadata, shapes) carried through as it was. Field numbers are those of `onnx.proto`.
public struct OnnxModel: Sendable {
    /// The model's fields but the graph.
    var rest: [ProtoField]
    public var graph: OnnxGraph

    public init(bytes: [UInt8]) throws(ProtoWireError) {
        let fields = try ProtoWire.decode(bytes)
        guard let graphField = fields.first(where: { $0.number == 7 }), let graphBytes = graphField.bytes else {
            throw ProtoWireError(description: "the file holds no graph")
        }
        rest = fields.filter { $0.number != 7 }
        graph = try OnnxGraph(bytes: graphBytes)
    }

    public func encoded() -> [UInt8] {
        ProtoWire.encode(rest + [ProtoField(7, message: graph.fields())])
    }
}

public struct OnnxGraph: Sendable {
    /// In the file's order, which is an order the nodes can run in.
    public var nodes: [OnnxNode]
    public var initializers: [OnnxTensor]
    /// Graph inputs, outputs, value shapes, name: untouched but for entries naming tensors a rewrite removed.
    var rest: [ProtoField]
    /// The initializers as read: older files also list them as graph inputs, which must go when they do.
    let readInitializers: Set<String>

    init(bytes: [UInt8]) throws(ProtoWireError) {
        var nodes: [OnnxNode] = [], initializers: [OnnxTensor] = [], rest: [ProtoField] = []
        for f in try ProtoWire.decode(bytes) {
            switch (f.number, f.bytes) {
            case (1, let b?): nodes.append(try OnnxNode(bytes: b))
            case (5, let b?): initializers.append(try OnnxTensor(bytes: b))
            default: rest.append(f)
            }
        }
        self.nodes = nodes
        self.initializers = initializers
        self.rest = rest
        readInitializers = Set(initializers.map(\.name))
    }

    /// The names of the graph's outputs.
    public var outputNames: Set<String> { Set(rest.filter { $0.number == 12 }.compactMap(Self.valueName)) }

    func fields() -> [ProtoField] {
        // A shape (13) for a value nothing produces any more, or an input (11) naming a dropped initializer,
        // would describe a tensor that no longer exists.
        let initializerNames = Set(initializers.map(\.name))
        let inputs = Set(rest.filter { $0.number == 11 }.compactMap(Self.valueName))
        let produced = Set(nodes.flatMap(\.outputs)).union(initializerNames).union(inputs)
        let kept = rest.filter { f in
            guard f.number == 11 || f.number == 13, let name = Self.valueName(f) else { return true }
            return f.number == 11 ? !(readInitializers.contains(name) && !initializerNames.contains(name)) : produced.contains(name)
        }
        return nodes.map { ProtoField(1, message: $0.fields()) } + initializers.map { ProtoField(5, message: $0.fields) } + kept
    }

    /// ValueInfoProto's name.
    private static func valueName(_ f: ProtoField) -> String? {
        f.bytes.flatMap { try? ProtoWire.decode($0) }?.first { $0.number == 1 }?.string
    }
}

/// One operator: what it reads and writes by tensor name, its type, and its attributes as read.
public struct OnnxNode: Sendable {
    public var inputs: [String]
    public var outputs: [String]
    public let opType: String
    /// "" for the standard operators.
    public let domain: String
    /// Name, attributes, documentation: everything but inputs and outputs, as read.
    let rest: [ProtoField]

    init(bytes: [UInt8]) throws(ProtoWireError) {
        let fields = try ProtoWire.decode(bytes)
        inputs = fields.filter { $0.number == 1 }.compactMap(\.string)
        outputs = fields.filter { $0.number == 2 }.compactMap(\.string)
        opType = fields.first { $0.number == 4 }?.string ?? ""
        domain = fields.first { $0.number == 7 }?.string ?? ""
        rest = fields.filter { $0.number != 1 && $0.number != 2 }
    }

    init(inputs: [String], outputs: [String], opType: String, domain: String = "", attributes: [[ProtoField]] = []) {
        self.inputs = inputs
        self.outputs = outputs
        self.opType = opType
        self.domain = domain
        rest = [ProtoField(4, string: opType)] + (domain.isEmpty ? [] : [ProtoField(7, string: domain)])
            + attributes.map { ProtoField(5, message: $0) }
    }

    func fields() -> [ProtoField] {
        inputs.map { ProtoField(1, string: $0) } + outputs.map { ProtoField(2, string: $0) } + rest
    }

    /// The attribute called `name` (AttributeProto's fields), if the node has it.
    func attribute(_ name: String) -> [ProtoField]? {
        for f in rest where f.number == 5 {
            if let a = f.bytes.flatMap({ try? ProtoWire.decode($0) }), a.first(where: { $0.number == 1 })?.string == name { return a }
        }
        return nil
    }

    /// An INTS attribute (kernel_shape, pads), or nil when absent.
    func integers(_ name: String) -> [Int64]? { attribute(name).flatMap { try? ProtoWire.integers($0, 8) } }

    /// An INT attribute (group), or nil when absent.
    func integer(_ name: String) -> Int64? {
        guard let field = attribute(name)?.first(where: { $0.number == 3 }), let v = field.varint else { return nil }
        return Int64(bitPattern: v)
    }

    /// A STRING attribute (auto_pad), or nil when absent.
    func text(_ name: String) -> String? { attribute(name)?.first { $0.number == 4 }?.string }
}

/// A constant tensor of the graph (weights, biases, scalars). Only 32-bit floats are opened; any other
/// type, or data kept outside the file, has no `floats` and is never rewritten.
public struct OnnxTensor: Sendable {
    public let name: String
    public let dims: [Int64]
    let fields: [ProtoField]

    init(bytes: [UInt8]) throws(ProtoWireError) {
        fields = try ProtoWire.decode(bytes)
        name = fields.first { $0.number == 8 }?.string ?? ""
        dims = try ProtoWire.integers(fields, 1)
    }

    /// A float tensor, its values stored little-endian in raw_data.
    public init(name: String, dims: [Int64], floats: [Float]) {
        self.name = name
        self.dims = dims
        let raw = floats.map { $0.bitPattern.littleEndian }.withUnsafeBytes { Array($0) }
        fields = dims.map { ProtoField(1, .varint(UInt64(bitPattern: $0))) }
            + [ProtoField(2, .varint(1)), ProtoField(8, string: name), ProtoField(9, .bytes(raw))]
    }

    /// The TensorProto message.
    public var encoded: [UInt8] { ProtoWire.encode(fields) }

    /// The values, row-major, when this is a float tensor held in the file and its size matches its dims.
    public var floats: [Float]? {
        guard fields.first(where: { $0.number == 2 })?.varint == 1,
              fields.first(where: { $0.number == 14 })?.varint ?? 0 == 0 else { return nil }
        guard dims.allSatisfy({ $0 >= 0 && $0 <= Int64(Int32.max) }) else { return nil }
        var count = 1
        for d in dims {
            let (product, overflow) = count.multipliedReportingOverflow(by: Int(d))
            guard !overflow, product <= Int(Int32.max) else { return nil }
            count = product
        }
        var values: [Float] = []
        if let raw = fields.first(where: { $0.number == 9 })?.bytes {
            guard raw.count == 4 * count else { return nil }
            values = raw.withUnsafeBytes { b in
                (0..<count).map { Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
            }
        } else {
            for f in fields where f.number == 4 {
                switch f.value {
                case .fixed32(let bits): values.append(Float(bitPattern: bits))
                case .bytes(let packed) where packed.count % 4 == 0:
                    for k in stride(from: 0, to: packed.count, by: 4) {
                        let bits = UInt32(packed[k]) | UInt32(packed[k + 1]) << 8 | UInt32(packed[k + 2]) << 16 | UInt32(packed[k + 3]) << 24
                        values.append(Float(bitPattern: bits))
                    }
                default: return nil
                }
            }
        }
        return values.count == count ? values : nil
    }
}
