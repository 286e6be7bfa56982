import Foundation
import OnnxGraph
import OnnxRuntime
import PPOCR
import ShelfImage
import ShelfScanTestSupport
import Testing

/// A small model written field by field: the chains the folding must fold, and those it must leave.
enum TinyModel {
    static func value(_ name: String, _ shape: [Int]) -> ProtoField {
        let dims = shape.map { ProtoField(1, message: [ProtoField(1, .varint(UInt64($0)))]) }
        let tensorType = [ProtoField(1, .varint(1)), ProtoField(2, message: dims)]
        return ProtoField(1, message: [ProtoField(1, string: name), ProtoField(2, message: [ProtoField(1, message: tensorType)])])
    }

    static func attribute(_ name: String, ints: [Int]) -> ProtoField {
        ProtoField(5, message: [ProtoField(1, string: name), ProtoField(20, .varint(7))] + ints.map { ProtoField(8, .varint(UInt64($0))) })
    }

    static func node(_ op: String, _ inputs: [String], _ output: String, _ attributes: [ProtoField] = []) -> ProtoField {
        ProtoField(1, message: inputs.map { ProtoField(1, string: $0) } + [ProtoField(2, string: output), ProtoField(4, string: op)] + attributes)
    }

    static func tensor(_ name: String, _ dims: [Int64], seed: Int) -> ProtoField {
        let values = (0..<Int(dims.reduce(1, *))).map { Float(sin(Double($0 * 7 + seed * 13))) * 0.5 }
        return ProtoField(5, .bytes(OnnxTensor(name: name, dims: dims, floats: values).encoded))
    }

    static func scalar(_ name: String, _ v: Float) -> ProtoField {
        ProtoField(5, .bytes(OnnxTensor(name: name, dims: [1], floats: [v]).encoded))
    }

    /// x [1,2,6,6] -> 3x3 Conv -> (Mul a1, Add b1: folds into it) -> Relu -> (Mul a2, Add b2: folds into the
    /// 1x1 Conv after) -> 1x1 Conv -> Relu -> (Mul a3, Add b3: a padded 3x3 Conv follows, so it becomes a 1x1
    /// depthwise Conv) -> 3x3 Conv -> out, and a side branch whose Conv output is also a graph output (stays).
    static func bytes() -> [UInt8] {
        let pad1 = attribute("pads", ints: [1, 1, 1, 1])
        let nodes = [
            node("Conv", ["x", "W1", "B1"], "c1", [attribute("kernel_shape", ints: [3, 3]), pad1]),
            node("Mul", ["a1", "c1"], "m1"), node("Add", ["m1", "b1"], "y1"), node("Relu", ["y1"], "r1"),
            node("Mul", ["r1", "a2"], "m2"), node("Add", ["b2", "m2"], "y2"),
            node("Conv", ["y2", "W2", "B2"], "c2", [attribute("kernel_shape", ints: [1, 1])]), node("Relu", ["c2"], "r2"),
            node("Mul", ["r2", "a3"], "m3"), node("Add", ["m3", "b3"], "y3"),
            node("Conv", ["y3", "W3"], "out", [attribute("kernel_shape", ints: [3, 3]), pad1]),
            node("Conv", ["x", "W4"], "side", [attribute("kernel_shape", ints: [1, 1])]),
            node("Mul", ["side", "a4"], "m4"), node("Add", ["m4", "b4"], "out2"),
        ]
        let initializers = [
            tensor("W1", [3, 2, 3, 3], seed: 1), tensor("B1", [3], seed: 2), tensor("W2", [4, 3, 1, 1], seed: 3),
            tensor("B2", [4], seed: 4), tensor("W3", [2, 4, 3, 3], seed: 5), tensor("W4", [2, 2, 1, 1], seed: 6),
            scalar("a1", 1.5), scalar("b1", -0.25), scalar("a2", 0.75), scalar("b2", 0.5), scalar("a3", 2), scalar("b3", 0.125),
            scalar("a4", 3), scalar("b4", 1),
        ]
        let graph = nodes + [ProtoField(2, string: "tiny")] + initializers
            + [value("x", [1, 2, 6, 6]).renumbered(11), value("out", [1, 2, 6, 6]).renumbered(12),
               value("side", [1, 2, 6, 6]).renumbered(12), value("out2", [1, 2, 6, 6]).renumbered(12)]
        return ProtoWire.encode([ProtoField(1, .varint(8)), ProtoField(8, message: [ProtoField(2, .varint(13))]), ProtoField(7, message: graph)])
    }
}

extension TinyModel {
    /// The model written as `tiny.onnx` in `directory`.
    static func file(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("tiny.onnx")
        try Data(bytes()).write(to: url)
        return url
    }
}

extension ProtoField {
    func renumbered(_ n: Int) -> ProtoField { ProtoField(n, value) }
}

@Suite("Folding scalar affine steps into convolutions")
struct ScalarAffineFoldingTests {
    @Test("The chain after a convolution and the one before a 1x1 convolution fold; a padded kernel's becomes a depthwise convolution; a shared output's stays")
    func foldsWhereExact() throws {
        var model = try OnnxModel(bytes: TinyModel.bytes())
        let before = model.graph.nodes.map(\.opType)
        let report = ScalarAffineFolding.fold(&model.graph)
        #expect(report == ScalarAffineFolding.Report(afterConvolution: 1, beforePointwise: 1, depthwise: 1))
        #expect(before.count - model.graph.nodes.count == 5)
        let ops = model.graph.nodes.map(\.opType)
        #expect(ops == ["Conv", "Relu", "Conv", "Relu", "Conv", "Conv", "Conv", "Mul", "Add"])
        // The first Conv writes what the Add wrote; the 1x1 Conv reads what the Mul read.
        #expect(model.graph.nodes[0].outputs == ["y1"])
        #expect(model.graph.nodes[2].inputs.first == "r1")
        // Weights: W1·a1 and B1·a1 + b1; W2·a2 and B2 + b2·ΣW2 per output.
        let t = Dictionary(uniqueKeysWithValues: model.graph.initializers.map { ($0.name, $0) })
        let w1 = try #require(t[model.graph.nodes[0].inputs[1]]?.floats), b1 = try #require(t[model.graph.nodes[0].inputs[2]]?.floats)
        let original = try OnnxModel(bytes: TinyModel.bytes())
        let o = Dictionary(uniqueKeysWithValues: original.graph.initializers.map { ($0.name, $0) })
        let ow1 = try #require(o["W1"]?.floats), ob1 = try #require(o["B1"]?.floats)
        #expect(w1 == ow1.map { $0 * 1.5 })
        #expect(b1 == ob1.map { $0 * 1.5 - 0.25 })
        let b2 = try #require(t[model.graph.nodes[2].inputs[2]]?.floats)
        let ow2 = try #require(o["W2"]?.floats), ob2 = try #require(o["B2"]?.floats)
        for k in 0..<4 {
            let sum = ow2[(3 * k)..<(3 * k + 3)].reduce(0.0) { $0 + Double($1) }
            #expect(abs(Double(b2[k]) - (Double(ob2[k]) + 0.5 * sum)) < 1e-6)
        }
        // Constants nothing reads any more are gone; the ones still read stay.
        #expect(t["W1"] == nil && t["a1"] == nil && t["b2"] == nil && t["a3"] == nil)
        #expect(t["W4"] != nil && t["a4"] != nil)
        // The depthwise step: one weight a3 and one bias b3 per channel of the 4 the 3x3 Conv reads.
        let dw = model.graph.nodes[4]
        #expect(dw.inputs.first == "r2" && dw.outputs == ["y3"])
        #expect(t[dw.inputs[1]]?.dims == [4, 1, 1, 1] && t[dw.inputs[1]]?.floats == [2, 2, 2, 2])
        #expect(t[dw.inputs[2]]?.floats == [0.125, 0.125, 0.125, 0.125])
        // The rewritten file reads back as the same graph.
        let reread = try OnnxModel(bytes: model.encoded())
        #expect(reread.graph.nodes.map(\.opType) == ops)
        #expect(reread.graph.initializers.map(\.name) == model.graph.initializers.map(\.name))
    }

    @Test("ONNX Runtime computes the same outputs from the folded file as from the original")
    func sameFunction() throws {
        let runtime = try #require(Engine.runtime, Engine.missing)
        let scratch = try ScratchDirectory.make("affine-fold")
        let original = try TinyModel.file(in: scratch)
        var model = try OnnxModel(bytes: TinyModel.bytes())
        _ = ScalarAffineFolding.fold(&model.graph)
        let folded = scratch.appendingPathComponent("tiny-folded.onnx")
        try Data(model.encoded()).write(to: folded)
        let input = Tensor(shape: [1, 2, 6, 6], values: (0..<72).map { Float(cos(Double($0) * 0.37)) })
        let shipped = try OnnxSession(runtime: runtime, modelPath: original.path, form: .asShipped)
        #expect(shipped.foldedAffines == 0)
        let expected = try shipped.run(input)
        for path in [folded.path, original.path] {
            // The second: the session folds the original itself (after ONNX Runtime's own rewrites).
            let session = try OnnxSession(runtime: runtime, modelPath: path)
            #expect(session.foldedAffines == (path == original.path ? 3 : 0))
            let got = try session.run(input)
            #expect(got.shape == expected.shape)
            let worst = zip(got.values, expected.values).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst < 1e-5, "largest difference \(worst)")
        }
    }

    @Test("The rewrite is kept beside the model for the next process; a kept file that is broken or stale is made again")
    func keptRewrite() throws {
        let runtime = try #require(Engine.runtime, Engine.missing)
        let scratch = try ScratchDirectory.make("affine-kept")
        let model = try TinyModel.file(in: scratch)
        let input = Tensor(shape: [1, 2, 6, 6], values: (0..<72).map { Float(sin(Double($0) * 0.21)) })
        let expected = try OnnxSession(runtime: runtime, modelPath: model.path, form: .asShipped).run(input)
        func kept() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".tiny.onnx.affines-folded-") }
        }
        func close(_ session: OnnxSession) throws -> Bool {
            zip(try session.run(input).values, expected.values).allSatisfy { abs($0 - $1) < 1e-5 }
        }

        func current() throws -> URL { scratch.appendingPathComponent(try #require(try kept().first)) }

        // The first session rewrites and keeps the result, named with how many steps it folded.
        let first = try OnnxSession(runtime: runtime, modelPath: model.path)
        #expect(first.foldedAffines == 3)
        #expect(try close(first))
        let name = try #require(try kept().first)
        #expect(try kept().count == 1 && name.hasSuffix("-3.onnx"))
        // The next one runs the kept file: a count changed in its name is what the session reports.
        let marked = scratch.appendingPathComponent(String(name.dropLast("3.onnx".count)) + "7.onnx")
        try FileManager.default.moveItem(at: scratch.appendingPathComponent(name), to: marked)
        let second = try OnnxSession(runtime: runtime, modelPath: model.path)
        #expect(second.foldedAffines == 7)
        #expect(try close(second))

        // A kept file that is not a model, or one ONNX Runtime refuses, is made again.
        try Data("not a model".utf8).write(to: marked)
        let third = try OnnxSession(runtime: runtime, modelPath: model.path)
        #expect(third.foldedAffines == 3)
        #expect(try close(third))
        var broken = try OnnxModel(bytes: [UInt8](Data(contentsOf: try current())))
        broken.graph.nodes.removeLast()
        try Data(broken.encoded()).write(to: try current())
        let fourth = try OnnxSession(runtime: runtime, modelPath: model.path)
        #expect(fourth.foldedAffines == 3)
        #expect(try close(fourth))
        #expect(try OnnxModel(bytes: [UInt8](Data(contentsOf: try current()))).graph.nodes.count == broken.graph.nodes.count + 1)
        let remade = try current().lastPathComponent

        // A changed model file is a new name; the old rewrite goes.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: model.path)
        let fifth = try OnnxSession(runtime: runtime, modelPath: model.path)
        #expect(fifth.foldedAffines == 3)
        let renamed = try kept()
        #expect(renamed.count == 1 && renamed.first != remade)
    }

    @Test("PP-OCRv5's detector folds; it and PP-OCRv6's recognizer give the same maps and characters as shipped")
    func ppocrModels() throws {
        let models = try #require(Engine.models, Engine.missing)
        let runtime = try #require(Engine.runtime, Engine.missing)
        let photo = try ImageDecoder.decode(fileAt: "samples/shelf-01.jpg").resized(width: 160, height: 96)
        func normalised(_ image: RGBImage) -> [Float] {
            (0..<3).flatMap { c in (0..<(image.width * image.height)).map { Float(image.pixels[3 * $0 + c]) / 127.5 - 1 } }
        }
        let detIn = Tensor(shape: [1, 3, 96, 160], values: normalised(photo))
        let line = photo.resized(width: 160, height: 48)
        let recIn = Tensor(shape: [1, 3, 48, 160], values: normalised(line))
        // v6's recognizer has no learnable affine blocks (v5's mobile one had 53): nothing to fold, nothing changed.
        for (path, input, folds) in [(models.detector, detIn, 48), (models.recognizer, recIn, 0)] {
            let shipped = try OnnxSession(runtime: runtime, modelPath: path, form: .asShipped)
            let folded = try OnnxSession(runtime: runtime, modelPath: path)
            #expect(folded.foldedAffines == folds, "\(path): \(folded.foldedAffines) folded")
            let a = try shipped.run(input), b = try folded.run(input)
            #expect(a.shape == b.shape)
            let worst = zip(a.values, b.values).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst < 1e-4, "\(path): largest difference \(worst)")
            if path == models.recognizer, let classes = a.shape.last, classes > 0 {
                // The character chosen at every step is the same.
                let steps = a.values.count / classes
                let best = { (v: [Float]) in (0..<steps).map { s in (0..<classes).max { v[s * classes + $0] < v[s * classes + $1] }! } }
                #expect(best(a.values) == best(b.values))
            }
        }
    }
}

/// The real ONNX Runtime library and PP-OCR models that `scripts/setup.sh` fetches (pinned, hash-checked).
enum Engine {
    static let models: PPOCRModels? = try? PPOCRModels.inDirectory(PPOCRModels.defaultDirectory())
    static let runtime: OnnxRuntime? = models.flatMap { try? OnnxRuntime.load(libraryPath: $0.runtimeLibrary) }
    static let missing: Comment = "the ONNX Runtime library and PP-OCR models are fetched by scripts/setup.sh (scripts/fetch-models.py)"
}
