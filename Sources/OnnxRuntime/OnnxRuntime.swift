import Foundation
import OnnxGraph

/// A float tensor as plain values: row-major `values` of `shape`.
public struct Tensor: Sendable, Equatable {
    public var shape: [Int]
    public var values: [Float]

    public init(shape: [Int], values: [Float]) {
        self.shape = shape
        self.values = values
    }
}

/// The ONNX Runtime library of this process. ONNX Runtime wants one environment per process, so the
/// first `load` creates it and later calls with the same path share it.
public final class OnnxRuntime: @unchecked Sendable {
    let api: OrtAPI
    let env: OpaquePointer
    let cpuMemory: OpaquePointer

    /// "1.32.0": recorded next to readings so a new runtime is a cache miss.
    public var version: String { api.version }
    public var libraryPath: String { api.path }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: OnnxRuntime] = [:]

    /// Loads the library at `libraryPath` (once per process). Throws one line when the file is missing, is
    /// not ONNX Runtime, or is too old.
    public static func load(libraryPath: String) throws(OnnxRuntimeError) -> OnnxRuntime {
        lock.lock()
        defer { lock.unlock() }
        if let runtime = loaded[libraryPath] { return runtime }
        guard FileManager.default.fileExists(atPath: libraryPath) else { throw .libraryMissing(searched: [libraryPath]) }
        let runtime = try OnnxRuntime(api: OrtAPI(libraryPath: libraryPath))
        loaded[libraryPath] = runtime
        return runtime
    }

    private init(api: OrtAPI) throws(OnnxRuntimeError) {
        self.api = api
        var env: OpaquePointer?
        // Log level 3 (errors only): ORT's own warnings would otherwise reach the user's terminal.
        try api.check(api.fn(.createEnv, CreateEnvFn.self)(3, "shelfscan", &env), "CreateEnv")
        var memory: OpaquePointer?
        // OrtDeviceAllocator (0), OrtMemTypeDefault (0): tensors wrap memory this process owns.
        try api.check(api.fn(.createCpuMemoryInfo, CreateCpuMemoryInfoFn.self)(0, 0, &memory), "CreateCpuMemoryInfo")
        self.env = env!
        self.cpuMemory = memory!
    }
}

/// One loaded model. `run` may be called from several threads at once (ONNX Runtime sessions are
/// thread-safe for Run); each call uses `threads` cores, so the caller's parallelism times `threads` is
/// what the process takes.
public final class OnnxSession: @unchecked Sendable {
    public let modelPath: String
    public let inputNames: [String]
    public let outputNames: [String]
    public let memory: MemoryPlan
    private let runtime: OnnxRuntime
    private let session: OpaquePointer
    private let cInputNames: [UnsafeMutablePointer<CChar>]
    private let cOutputNames: [UnsafeMutablePointer<CChar>]

    /// How a session gets the memory a run's intermediate tensors need.
    public enum MemoryPlan: Sendable, Equatable {
        /// Each run allocates what it needs and gives it back. For inputs of ever-changing shape (every
        /// spine crop and text line has its own), where a kept arena and a plan per shape would only grow.
        case perRun
        /// ONNX Runtime's arena and memory-pattern plan are kept between runs. For inputs of a few fixed
        /// shapes (the text cue's whole photo): memory stays at one run's high-water mark, and a 736 x 544 cue
        /// run costs about 12 ms less CPU than with per-run allocation (`shelfscan scan --reader none --jobs 1`
        /// over 18 Bookfinder photos: page faults 124k -> 47k).
        case reused
    }

    /// What a session runs: the file as shipped, or the file with its scalar affine steps folded into
    /// convolutions (`ScalarAffineFolding`: the same function up to float rounding, and faster on PP-OCRv5's
    /// networks, one thread: eval-detection's text cue about 88 -> 74 ms per photo, eval-reading's PP-OCR
    /// reading 105 -> 85 ms per crop). A file with nothing to fold, or that cannot be rewritten, runs as shipped.
    public enum Form: Sendable, Equatable {
        case asShipped
        case affinesFolded
    }

    /// How many affine steps were folded into convolutions for this session (0: the file runs as shipped).
    public let foldedAffines: Int

    /// Loads `modelPath` with `threads` intra-op threads (1: the caller parallelises across crops, which
    /// scales better on small inputs than splitting one small convolution across cores).
    public init(runtime: OnnxRuntime, modelPath: String, threads: Int = 1, memory: MemoryPlan = .perRun,
                form: Form = .affinesFolded) throws(OnnxRuntimeError) {
        guard FileManager.default.fileExists(atPath: modelPath) else { throw .modelMissing(modelPath) }
        let api = runtime.api
        var options: OpaquePointer?
        try api.check(api.fn(.createSessionOptions, CreateSessionOptionsFn.self)(&options), "CreateSessionOptions")
        defer { api.release(.releaseSessionOptions, options) }
        try api.check(api.fn(.setIntraOpNumThreads, SetIntOptionFn.self)(options, Int32(max(1, threads))), "SetIntraOpNumThreads")
        try api.check(api.fn(.setInterOpNumThreads, SetIntOptionFn.self)(options, 1), "SetInterOpNumThreads")
        try api.check(api.fn(.setSessionGraphOptimizationLevel, SetIntOptionFn.self)(options, 99), "SetSessionGraphOptimizationLevel")
        if memory == .perRun {
            try api.check(api.fn(.disableMemPattern, SessionOptionsFn.self)(options), "DisableMemPattern")
            try api.check(api.fn(.disableCpuMemArena, SessionOptionsFn.self)(options), "DisableCpuMemArena")
        }
        var session: OpaquePointer?
        var folds = 0
        // A rewrite an earlier process kept beside the model; one ONNX Runtime refuses is made again.
        if form == .affinesFolded, let kept = Self.keptRewrite(runtime, modelPath) {
            do throws(OnnxRuntimeError) {
                try api.check(api.fn(.createSession, CreateSessionFn.self)(runtime.env, kept.path, options, &session), "CreateSession")
                folds = kept.count
            } catch {
                session = nil
                try? FileManager.default.removeItem(atPath: kept.path)
            }
        }
        if session == nil {
            let folded = form == .affinesFolded ? Self.foldedModel(runtime, modelPath) : nil
            do throws(OnnxRuntimeError) {
                if let folded {
                    let status = folded.bytes.withUnsafeBytes { raw in
                        api.fn(.createSessionFromArray, CreateSessionFromArrayFn.self)(runtime.env, raw.baseAddress!, raw.count, options, &session)
                    }
                    try api.check(status, "CreateSessionFromArray")
                    folds = folded.count
                    Self.keep(folded.bytes, count: folded.count, rewriteOf: modelPath, runtime)
                } else {
                    try api.check(api.fn(.createSession, CreateSessionFn.self)(runtime.env, modelPath, options, &session), "CreateSession")
                }
            } catch {
                throw .modelUnusable(modelPath, error.message.replacingOccurrences(of: "ONNX Runtime CreateSession failed: ", with: "")
                    .replacingOccurrences(of: "ONNX Runtime CreateSessionFromArray failed: ", with: ""))
            }
        }
        foldedAffines = folds
        guard let session else { throw .modelUnusable(modelPath, "no session") }
        self.runtime = runtime
        self.session = session
        self.modelPath = modelPath
        self.memory = memory
        do throws(OnnxRuntimeError) {
            let inputs = try Self.names(api, session, count: .sessionGetInputCount, name: .sessionGetInputName)
            let outputs = try Self.names(api, session, count: .sessionGetOutputCount, name: .sessionGetOutputName)
            guard inputs.count == 1, outputs.count >= 1 else {
                throw .modelUnusable(modelPath, "expected one input and at least one output, found \(inputs.count) and \(outputs.count)")
            }
            inputNames = inputs
            outputNames = outputs
        } catch {
            api.release(.releaseSession, session)
            throw error
        }
        cInputNames = inputNames.map { strdup($0)! }
        cOutputNames = outputNames.map { strdup($0)! }
    }

    /// The model at `path` with its affine steps folded, or nil when there are none or any step fails (the
    /// shipped file then runs). ONNX Runtime first writes the file as its own basic and extended rewrites
    /// leave it (batch norms folded, biases joined to their convolutions, constants as initializers: the
    /// plain Conv -> Mul -> Add chains the folding looks for); the layout rewrites for this CPU are left
    /// to the session that runs it.
    static func foldedModel(_ runtime: OnnxRuntime, _ path: String) -> (bytes: [UInt8], count: Int)? {
        let api = runtime.api
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("shelfscan-\(UUID().uuidString).onnx").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do throws(OnnxRuntimeError) {
            var options: OpaquePointer?
            try api.check(api.fn(.createSessionOptions, CreateSessionOptionsFn.self)(&options), "CreateSessionOptions")
            defer { api.release(.releaseSessionOptions, options) }
            // ORT_ENABLE_EXTENDED (2): everything but the CPU-specific layout, which a saved file must not hold.
            try api.check(api.fn(.setSessionGraphOptimizationLevel, SetIntOptionFn.self)(options, 2), "SetSessionGraphOptimizationLevel")
            try api.check(api.fn(.setIntraOpNumThreads, SetIntOptionFn.self)(options, 1), "SetIntraOpNumThreads")
            try api.check(api.fn(.setOptimizedModelFilePath, SetOptimizedModelFilePathFn.self)(options, scratch), "SetOptimizedModelFilePath")
            var session: OpaquePointer?
            try api.check(api.fn(.createSession, CreateSessionFn.self)(runtime.env, path, options, &session), "CreateSession")
            api.release(.releaseSession, session)
        } catch {
            return nil
        }
        guard let bytes = FileManager.default.contents(atPath: scratch), var model = try? OnnxModel(bytes: [UInt8](bytes)) else { return nil }
        let report = ScalarAffineFolding.fold(&model.graph)
        return report.total > 0 ? (model.encoded(), report.total) : nil
    }

    /// Where the rewrite of `path` is kept between processes: beside it, hidden, named for the file it was made
    /// from (size and modification time), the ONNX Runtime that made it and the rewrite's version, so that a new
    /// model, runtime or rewrite makes a new one; the name ends in how many steps it folded, so finding it reads
    /// no file. Making it costs an extended-level session and the rewrite (about 70 ms for PP-OCR's detector,
    /// 150 ms for its recognizer), once per machine instead of per process.
    static func rewriteName(_ runtime: OnnxRuntime, _ path: String) -> (directory: URL, prefix: String, key: String)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date else { return nil }
        let url = URL(fileURLWithPath: path)
        let prefix = ".\(url.lastPathComponent).affines-folded-"
        let key = "\(prefix)v\(ScalarAffineFolding.version)-ort\(runtime.version)-\(size.int64Value)-\(Int64(modified.timeIntervalSince1970 * 1000))-"
        return (url.deletingLastPathComponent(), prefix, key)
    }

    /// The kept rewrite of `path` and how many steps it folded, when there is one.
    static func keptRewrite(_ runtime: OnnxRuntime, _ path: String) -> (path: String, count: Int)? {
        guard let (directory, _, key) = rewriteName(runtime, path),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return nil }
        for name in names where name.hasPrefix(key) && name.hasSuffix(".onnx") {
            if let count = Int(name.dropFirst(key.count).dropLast(".onnx".count)), count > 0 {
                return (directory.appendingPathComponent(name).path, count)
            }
        }
        return nil
    }

    /// Keeps `bytes`, which fold `count` steps, as the rewrite of `path` (written whole under a scratch name,
    /// then renamed, so a process never reads half a file), removing any other kept rewrite of it. Where the
    /// model's directory is not writable nothing is kept, and each process rewrites again.
    static func keep(_ bytes: [UInt8], count: Int, rewriteOf path: String, _ runtime: OnnxRuntime) {
        guard let (directory, prefix, key) = rewriteName(runtime, path) else { return }
        let name = "\(key)\(count).onnx"
        let scratch = directory.appendingPathComponent(".\(UUID().uuidString).partial").path
        guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes)) else { return }
        guard rename(scratch, directory.appendingPathComponent(name).path) == 0 else {
            try? FileManager.default.removeItem(atPath: scratch)
            return
        }
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for other in siblings where other.hasPrefix(prefix) && other != name {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(other))
        }
    }

    deinit {
        runtime.api.release(.releaseSession, session)
        cInputNames.forEach { free($0) }
        cOutputNames.forEach { free($0) }
    }

    private static func names(_ api: OrtAPI, _ session: OpaquePointer, count: OrtSlot, name: OrtSlot) throws(OnnxRuntimeError) -> [String] {
        var n = 0
        try api.check(api.fn(count, SessionGetCountFn.self)(session, &n), "SessionGetCount")
        var allocator: UnsafeMutableRawPointer?
        try api.check(api.fn(.getAllocatorWithDefaultOptions, GetAllocatorFn.self)(&allocator), "GetAllocatorWithDefaultOptions")
        var out: [String] = []
        for i in 0..<n {
            var cName: UnsafeMutablePointer<CChar>?
            try api.check(api.fn(name, SessionGetNameFn.self)(session, i, allocator, &cName), "SessionGetName")
            if let cName {
                out.append(String(cString: cName))
                _ = api.fn(.allocatorFree, AllocatorFreeFn.self)(allocator, cName)
            }
        }
        return out
    }

    /// Runs the model on one float input and returns its first output.
    public func run(_ input: Tensor) throws(OnnxRuntimeError) -> Tensor {
        let count = input.shape.reduce(1, *)
        guard count == input.values.count, count > 0, input.shape.allSatisfy({ $0 > 0 }) else {
            throw .badInput("tensor of shape \(input.shape) cannot hold \(input.values.count) values")
        }
        let api = runtime.api
        let shape = input.shape.map(Int64.init)
        var inputValue: OpaquePointer?
        var outputValue: OpaquePointer?
        defer {
            api.release(.releaseValue, inputValue)
            api.release(.releaseValue, outputValue)
        }
        // The input tensor borrows the caller's storage: it is released (defer) before `input` goes away.
        // Read-only, because ONNX Runtime never writes its inputs, and a mutable view would first copy the
        // array the caller still holds (3.7 MB for the text cue's whole-photo input).
        let status: (OrtStatusPtr, String) = input.values.withUnsafeBytes { raw in
            let created = shape.withUnsafeBufferPointer { dims in
                api.fn(.createTensorWithDataAsOrtValue, CreateTensorWithDataFn.self)(
                    runtime.cpuMemory, UnsafeMutableRawPointer(mutating: raw.baseAddress!), raw.count, dims.baseAddress!, dims.count,
                    OrtElementType.float.rawValue, &inputValue)
            }
            guard created == nil else { return (created, "CreateTensorWithDataAsOrtValue") }
            let inNames: [UnsafePointer<CChar>?] = [UnsafePointer(cInputNames[0])]
            let outNames: [UnsafePointer<CChar>?] = [UnsafePointer(cOutputNames[0])]
            let inputs: [OpaquePointer?] = [inputValue]
            return (api.fn(.run, RunFn.self)(session, nil, inNames, inputs, 1, outNames, 1, &outputValue), "Run")
        }
        try api.check(status.0, status.1)
        return try Self.tensor(api, outputValue)
    }

    private static func tensor(_ api: OrtAPI, _ value: OpaquePointer?) throws(OnnxRuntimeError) -> Tensor {
        var info: OpaquePointer?
        try api.check(api.fn(.getTensorTypeAndShape, GetTensorTypeAndShapeFn.self)(value, &info), "GetTensorTypeAndShape")
        defer { api.release(.releaseTensorTypeAndShapeInfo, info) }
        var type: Int32 = 0
        try api.check(api.fn(.getTensorElementType, GetTensorElementTypeFn.self)(info, &type), "GetTensorElementType")
        guard type == OrtElementType.float.rawValue else { throw .badInput("model output is not float (element type \(type))") }
        var rank = 0
        try api.check(api.fn(.getDimensionsCount, GetDimensionsCountFn.self)(info, &rank), "GetDimensionsCount")
        var dims = [Int64](repeating: 0, count: rank)
        try api.check(api.fn(.getDimensions, GetDimensionsFn.self)(info, &dims, rank), "GetDimensions")
        let shape = dims.map { Int($0) }
        let count = shape.reduce(1, *)
        var data: UnsafeMutableRawPointer?
        try api.check(api.fn(.getTensorMutableData, GetTensorMutableDataFn.self)(value, &data), "GetTensorMutableData")
        guard let data, count >= 0 else { return Tensor(shape: shape, values: []) }
        let values = Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: count))
        return Tensor(shape: shape, values: values)
    }
}
