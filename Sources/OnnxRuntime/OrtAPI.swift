#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ShelfScan's own minimal binding to ONNX Runtime's C API, loaded by path at run time.
///
/// Why by hand: the runtime comes from the official `onnxruntime` PyPI wheel, which ships the shared
/// library but no headers, and third-party headers are not copied into this project. The C API is one
/// table of function pointers (`OrtApi`) handed out by the library's only exported entry,
/// `OrtGetApiBase`. The table only ever grows at its end (ONNX Runtime's ABI promise), so a slot's index
/// is fixed forever: the indices below were counted from `OrtApi` in
/// `include/onnxruntime/core/session/onnxruntime_c_api.h` and are exercised by the tests against the real
/// library (a wrong index fails there, never silently).
///
/// Every ORT call returns an `OrtStatus*` that is null on success; ORT catches its C++ exceptions at
/// this boundary, so a failing call (bad model, wrong shape) is an error value here, never an abort.
enum OrtSlot: Int {
    case getErrorMessage = 2
    case createEnv = 3
    case createSession = 7
    case createSessionFromArray = 8
    case run = 9
    case createSessionOptions = 10
    case setOptimizedModelFilePath = 11
    case disableMemPattern = 17
    case disableCpuMemArena = 19
    case setSessionGraphOptimizationLevel = 23
    case setIntraOpNumThreads = 24
    case setInterOpNumThreads = 25
    case sessionGetInputCount = 30
    case sessionGetOutputCount = 31
    case sessionGetInputName = 36
    case sessionGetOutputName = 37
    case createTensorWithDataAsOrtValue = 49
    case getTensorMutableData = 51
    case getTensorElementType = 60
    case getDimensionsCount = 61
    case getDimensions = 62
    case getTensorTypeAndShape = 65
    case createCpuMemoryInfo = 69
    case allocatorFree = 76
    case getAllocatorWithDefaultOptions = 78
    case releaseEnv = 92
    case releaseStatus = 93
    case releaseMemoryInfo = 94
    case releaseSession = 95
    case releaseValue = 96
    case releaseTensorTypeAndShapeInfo = 99
    case releaseSessionOptions = 100
}

/// The API version asked of `GetApi`: every slot above exists since version 13 (ONNX Runtime 1.13), and
/// a newer library still serves an older version's table.
let ortRequestedAPIVersion: UInt32 = 13

typealias OrtStatusPtr = OpaquePointer?

// C signatures of the slots used, spelled with Swift's C types. `ORT_API_CALL` is the default C calling
// convention on Linux, so `@convention(c)` matches.
typealias GetErrorMessageFn = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
typealias CreateEnvFn = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutablePointer<OpaquePointer?>) -> OrtStatusPtr
typealias CreateSessionFn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>) -> OrtStatusPtr
typealias RunFn = @convention(c) (
    OpaquePointer?, OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<OpaquePointer?>, Int,
    UnsafePointer<UnsafePointer<CChar>?>, Int, UnsafeMutablePointer<OpaquePointer?>) -> OrtStatusPtr
typealias CreateSessionFromArrayFn = @convention(c) (OpaquePointer?, UnsafeRawPointer, Int, OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>) -> OrtStatusPtr
typealias SetOptimizedModelFilePathFn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OrtStatusPtr
typealias CreateSessionOptionsFn = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> OrtStatusPtr
typealias SetIntOptionFn = @convention(c) (OpaquePointer?, Int32) -> OrtStatusPtr
typealias SessionOptionsFn = @convention(c) (OpaquePointer?) -> OrtStatusPtr
typealias SessionGetCountFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int>) -> OrtStatusPtr
typealias SessionGetNameFn = @convention(c) (OpaquePointer?, Int, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> OrtStatusPtr
typealias CreateTensorWithDataFn = @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer, Int, UnsafePointer<Int64>, Int, Int32, UnsafeMutablePointer<OpaquePointer?>) -> OrtStatusPtr
typealias GetTensorMutableDataFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> OrtStatusPtr
typealias GetTensorElementTypeFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>) -> OrtStatusPtr
typealias GetDimensionsCountFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int>) -> OrtStatusPtr
typealias GetDimensionsFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int64>, Int) -> OrtStatusPtr
typealias GetTensorTypeAndShapeFn = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>) -> OrtStatusPtr
typealias CreateCpuMemoryInfoFn = @convention(c) (Int32, Int32, UnsafeMutablePointer<OpaquePointer?>) -> OrtStatusPtr
typealias AllocatorFreeFn = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> OrtStatusPtr
typealias GetAllocatorFn = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> OrtStatusPtr
typealias ReleaseFn = @convention(c) (OpaquePointer?) -> Void

/// `OrtApiBase`: two function pointers, in this order.
typealias GetApiFn = @convention(c) (UInt32) -> UnsafeRawPointer?
typealias GetVersionStringFn = @convention(c) () -> UnsafePointer<CChar>?
typealias GetApiBaseFn = @convention(c) () -> UnsafeRawPointer?

/// ONNX tensor element type codes used here (`ONNXTensorElementDataType`).
enum OrtElementType: Int32 {
    case float = 1
}

/// The loaded library and its function table. One per process: ONNX Runtime allows one environment,
/// and the table's pointers stay valid until the library is unloaded, which this never does.
final class OrtAPI: @unchecked Sendable {
    let version: String
    let path: String
    private let table: UnsafePointer<UnsafeRawPointer?>

    init(libraryPath: String) throws(OnnxRuntimeError) {
        guard let handle = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw .libraryUnusable(path: libraryPath, why: why)
        }
        guard let symbol = dlsym(handle, "OrtGetApiBase") else {
            throw .libraryUnusable(path: libraryPath, why: "it does not export OrtGetApiBase (not ONNX Runtime?)")
        }
        let getBase = unsafeBitCast(symbol, to: GetApiBaseFn.self)
        guard let base = getBase() else { throw .libraryUnusable(path: libraryPath, why: "OrtGetApiBase returned nothing") }
        let slots = base.assumingMemoryBound(to: UnsafeRawPointer?.self)
        let getVersion = unsafeBitCast(slots[1], to: GetVersionStringFn.self)
        let version = getVersion().map { String(cString: $0) } ?? "unknown"
        let getAPI = unsafeBitCast(slots[0], to: GetApiFn.self)
        guard let api = getAPI(ortRequestedAPIVersion) else {
            throw .wrongVersion(path: libraryPath, found: version)
        }
        self.version = version
        self.path = libraryPath
        self.table = api.assumingMemoryBound(to: UnsafeRawPointer?.self)
    }

    /// The function in `slot`, typed as `type`.
    func fn<F>(_ slot: OrtSlot, _ type: F.Type) -> F {
        unsafeBitCast(table[slot.rawValue]!, to: type)
    }

    /// Turns a status into a thrown error (releasing it), naming the call that failed.
    func check(_ status: OrtStatusPtr, _ call: String) throws(OnnxRuntimeError) {
        guard let status else { return }
        let message = fn(.getErrorMessage, GetErrorMessageFn.self)(status).map { String(cString: $0) } ?? "unknown error"
        fn(.releaseStatus, ReleaseFn.self)(status)
        throw .call(call, message)
    }

    func release(_ slot: OrtSlot, _ object: OpaquePointer?) {
        guard let object else { return }
        fn(slot, ReleaseFn.self)(object)
    }
}
