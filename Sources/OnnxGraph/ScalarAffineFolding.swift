/// Folds scalar affine steps (y = a·x + b, a Mul and an Add by one-element constants) into convolutions.
///
/// PP-OCRv5's mobile networks (PP-LCNetV3) put such a "learnable affine block" after most convolutions and
/// activations. ONNX Runtime does not fold them (its Conv+Mul rule wants the constant second and per
/// channel; here it comes first and is one number), so each costs two passes over the feature map and, on
/// x86, two layout reorders around its blocked convolutions: a sixth of the text detector's time.
///
/// Two places fold exactly. After a convolution, with nothing between: conv(x)·a + b is the convolution
/// with weights W·a and bias B·a + b. Before a 1x1 convolution without padding: conv(a·x + b) is the
/// convolution with weights W·a and bias B + b·ΣW, summed per output channel over its inputs. Before a
/// wider, padded kernel folding would not be exact (padding adds zeros where the step would have given b),
/// so there the step becomes a 1x1 depthwise convolution of its own (weight a, bias b per channel), which
/// ONNX Runtime runs in the same blocked layout as the convolutions around it instead of reordering out
/// and back. The network computes the same function up to float rounding (largest change on a photo's
/// probability map: 2e-7).
public enum ScalarAffineFolding {
    /// Raised whenever a change to the rewrite changes what it writes, so that kept rewrites are made again.
    public static let version = 1

    public struct Report: Sendable, Equatable {
        /// Affine steps folded into the convolution before them.
        public var afterConvolution = 0
        /// Affine steps folded into the 1x1 convolution after them.
        public var beforePointwise = 0
        /// Affine steps before a wider convolution, turned into a 1x1 depthwise convolution.
        public var depthwise = 0
        public var total: Int { afterConvolution + beforePointwise + depthwise }

        public init(afterConvolution: Int = 0, beforePointwise: Int = 0, depthwise: Int = 0) {
            self.afterConvolution = afterConvolution
            self.beforePointwise = beforePointwise
            self.depthwise = depthwise
        }
    }

    public static func fold(_ graph: inout OnnxGraph) -> Report {
        var report = Report()
        var folding = Folding(graph)
        report.afterConvolution = folding.foldAfterConvolutions()
        report.beforePointwise = folding.foldBeforePointwise()
        report.depthwise = folding.depthwiseBeforeConvolutions()
        graph = folding.finished()
        return report
    }
}

/// The graph under rewrite, with who reads each tensor.
private struct Folding {
    var graph: OnnxGraph
    var removed = Set<Int>()
    var tensors: [String: Int] = [:]
    var readers: [String: [Int]] = [:]
    var producers: [String: Int] = [:]
    let outputs: Set<String>

    init(_ graph: OnnxGraph) {
        self.graph = graph
        outputs = graph.outputNames
        reindex()
    }

    mutating func reindex() {
        tensors = Dictionary(graph.initializers.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        readers = [:]
        producers = [:]
        for (k, node) in graph.nodes.enumerated() where !removed.contains(k) {
            for input in Set(node.inputs) { readers[input, default: []].append(k) }
            for output in node.outputs { producers[output] = k }
        }
    }

    /// The one node reading `tensor`, when exactly one does and the tensor is not a graph output.
    func soleReader(_ tensor: String) -> Int? {
        guard !outputs.contains(tensor), let r = readers[tensor], r.count == 1 else { return nil }
        return r[0]
    }

    /// A Mul or Add of one tensor by a one-element float constant: the constant and the other input.
    func scalarStep(_ k: Int, _ op: String) -> (value: Float, input: String)? {
        let node = graph.nodes[k]
        guard node.opType == op, node.domain.isEmpty, node.inputs.count == 2, node.outputs.count == 1 else { return nil }
        for (i, name) in node.inputs.enumerated() {
            if let t = tensors[name], let v = graph.initializers[t].floats, v.count == 1, tensors[node.inputs[1 - i]] == nil {
                return (v[0], node.inputs[1 - i])
            }
        }
        return nil
    }

    /// A convolution's weights (M x C x kh x kw) and bias (M, zeros when absent), when both are float constants.
    func weights(_ node: OnnxNode) -> (w: [Float], dims: [Int64], b: [Float])? {
        guard node.inputs.count >= 2, let t = tensors[node.inputs[1]], let w = graph.initializers[t].floats else { return nil }
        let dims = graph.initializers[t].dims
        guard dims.count >= 3, dims[0] > 0, w.count % Int(dims[0]) == 0 else { return nil }
        let m = Int(dims[0])
        guard node.inputs.count >= 3, !node.inputs[2].isEmpty else { return (w, dims, [Float](repeating: 0, count: m)) }
        guard let bt = tensors[node.inputs[2]], let b = graph.initializers[bt].floats, b.count == m else { return nil }
        return (w, dims, b)
    }

    /// New constants for a folded convolution, named after its weights so they stay recognisable.
    mutating func replaceWeights(of k: Int, w: [Float], dims: [Int64], b: [Float]) {
        let node = graph.nodes[k]
        func fresh(_ base: String) -> String {
            var n = 0
            while tensors[n == 0 ? base : "\(base)_\(n)"] != nil { n += 1 }
            return n == 0 ? base : "\(base)_\(n)"
        }
        let wName = fresh(node.inputs[1] + "_affine_folded")
        graph.initializers.append(OnnxTensor(name: wName, dims: dims, floats: w))
        tensors[wName] = graph.initializers.count - 1
        let bName = fresh((node.inputs.count >= 3 && !node.inputs[2].isEmpty ? node.inputs[2] : node.inputs[1] + "_bias") + "_affine_folded")
        graph.initializers.append(OnnxTensor(name: bName, dims: [dims[0]], floats: b))
        tensors[bName] = graph.initializers.count - 1
        var inputs = graph.nodes[k].inputs
        if inputs.count < 3 { inputs.append(bName) } else { inputs[2] = bName }
        inputs[1] = wName
        graph.nodes[k].inputs = inputs
    }

    /// Offers every node still in the graph to `rewrite`, which returns the nodes its rewrite removed, or nil
    /// when it left the graph alone; who reads what is indexed again after each rewrite.
    mutating func rewritingEach(_ rewrite: (inout Folding, Int) -> [Int]?) -> Int {
        var count = 0
        for k in graph.nodes.indices where !removed.contains(k) {
            guard let gone = rewrite(&self, k) else { continue }
            removed.formUnion(gone)
            reindex()
            count += 1
        }
        return count
    }

    mutating func foldAfterConvolutions() -> Int {
        rewritingEach { f, k in
            let conv = f.graph.nodes[k]
            // A plain Conv only: a fused one applies its activation before the affine step could be moved in.
            guard conv.opType == "Conv", conv.domain.isEmpty, conv.outputs.count == 1,
                  let m = f.soleReader(conv.outputs[0]), let scale = f.scalarStep(m, "Mul"),
                  let a = f.soleReader(f.graph.nodes[m].outputs[0]), let shift = f.scalarStep(a, "Add"),
                  let (w, dims, b) = f.weights(conv) else { return nil }
            f.replaceWeights(of: k, w: w.map { $0 * scale.value }, dims: dims, b: b.map { $0 * scale.value + shift.value })
            f.graph.nodes[k].outputs = f.graph.nodes[a].outputs
            return [m, a]
        }
    }

    mutating func foldBeforePointwise() -> Int {
        rewritingEach { f, a in
            guard let step = f.affineBeforeConvolution(a), Self.isPointwise(f.graph.nodes[step.conv]),
                  let (w, dims, b) = f.weights(f.graph.nodes[step.conv]), dims.dropFirst(2).allSatisfy({ $0 == 1 }) else { return nil }
            let perOutput = w.count / Int(dims[0])
            let bias = b.indices.map { o in
                Float(Double(b[o]) + Double(step.shift) * w[(o * perOutput)..<((o + 1) * perOutput)].reduce(0.0) { $0 + Double($1) })
            }
            f.replaceWeights(of: step.conv, w: w.map { $0 * step.scale }, dims: dims, b: bias)
            f.graph.nodes[step.conv].inputs[0] = step.input
            return [step.mul, a]
        }
    }

    mutating func depthwiseBeforeConvolutions() -> Int {
        rewritingEach { f, a in
            // Only the weights' shape is needed here, not their values.
            guard let step = f.affineBeforeConvolution(a), let weightsName = f.graph.nodes[step.conv].inputs.dropFirst().first,
                  let t = f.tensors[weightsName], case let dims = f.graph.initializers[t].dims, dims.count >= 3 else { return nil }
            // The channels the next convolution reads: its weights' second dimension times its groups.
            let channels = dims[1] * (f.graph.nodes[step.conv].integer("group") ?? 1)
            guard channels > 0, channels <= Int64(Int32.max) else { return nil }
            let name = f.graph.nodes[a].outputs[0]
            var wName = name + "_affine_scale", bName = name + "_affine_shift"
            while f.tensors[wName] != nil || f.tensors[bName] != nil { wName += "_"; bName += "_" }
            f.graph.initializers.append(OnnxTensor(name: wName, dims: [channels, 1, 1, 1], floats: Array(repeating: step.scale, count: Int(channels))))
            f.graph.initializers.append(OnnxTensor(name: bName, dims: [channels], floats: Array(repeating: step.shift, count: Int(channels))))
            f.graph.nodes[a] = OnnxNode(inputs: [step.input, wName, bName], outputs: [name], opType: "Conv", attributes: [
                [ProtoField(1, string: "group"), ProtoField(20, .varint(2)), ProtoField(3, .varint(UInt64(channels)))],
                [ProtoField(1, string: "kernel_shape"), ProtoField(20, .varint(7)), ProtoField(8, .varint(1)), ProtoField(8, .varint(1))],
            ])
            return [step.mul]
        }
    }

    /// The affine step ending at Add `a`: a Mul by a scalar that only this Add reads, whose result only a
    /// convolution reads, as its data. The Mul, what it scales, the two numbers, and the convolution.
    func affineBeforeConvolution(_ a: Int) -> (mul: Int, input: String, scale: Float, shift: Float, conv: Int)? {
        guard let shift = scalarStep(a, "Add"), let m = producers[shift.input], soleReader(shift.input) == a,
              let scale = scalarStep(m, "Mul"), let k = soleReader(graph.nodes[a].outputs[0]),
              Self.isConvolution(graph.nodes[k]), graph.nodes[k].inputs.first == graph.nodes[a].outputs[0] else { return nil }
        return (m, scale.input, scale.value, shift.value, k)
    }

    static func isConvolution(_ node: OnnxNode) -> Bool {
        (node.opType == "Conv" && node.domain.isEmpty) || (node.opType == "FusedConv" && node.domain == "com.microsoft")
    }

    /// A 1x1 convolution over all input channels (one group) that pads nothing: the only kind an affine step
    /// before it folds into exactly. FusedConv (ONNX Runtime's Conv with its activation) applies its
    /// activation after the bias, so it folds the same way.
    static func isPointwise(_ node: OnnxNode) -> Bool {
        guard isConvolution(node), let kernel = node.integers("kernel_shape"), !kernel.isEmpty, kernel.allSatisfy({ $0 == 1 }) else { return false }
        let pads = node.integers("pads") ?? []
        let autoPad = node.text("auto_pad") ?? "NOTSET"
        return pads.allSatisfy { $0 == 0 } && (autoPad == "NOTSET" || autoPad == "VALID") && (node.integer("group") ?? 1) == 1
    }

    func finished() -> OnnxGraph {
        var g = graph
        g.nodes = graph.nodes.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        let read = Set(g.nodes.flatMap(\.inputs)).union(outputs)
        g.initializers = graph.initializers.filter { read.contains($0.name) }
        return g
    }
}
