// swift-tools-version:6.2
// ShelfScan: bookshelf photos in, a reviewed book library out.
//
// Layering (lower never imports upper):
//   C libraries → CImageCodecs / CTesseract, CPixelLoops → ShelfImage → SpineDetection, SpineReading
//   ONNX Runtime (dlopen'd) → OnnxRuntime → PPOCR → SpineReading
//   BookModel (Foundation only) → LibraryCore (the library's protocol, values and rules, no database) → Library
//   (the SQLite engine, GRDB) and LibraryPostgres (the PostgreSQL engine, postgres-nio), neither importing the other;
//   BookModel → Catalog
//   UserDirectories (XDG places, and the one reader of config.json) → SpineReading, Enrichment, PPOCR, the CLI
//   ShelfScan (the pipeline) → ShelfScanServer (HTTP door, Hummingbird) → ShelfScanCLI (commands) → shelfscan
//   The pipeline and the server see only `LibraryStoring`; the CLI, which puts the program together, opens
//   SQLite or PostgreSQL (LibraryOpener), so only it links both engines.
import PackageDescription

let package = Package(
    name: "ShelfScan",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "shelfscan", targets: ["shelfscan"]),
        .library(name: "ShelfScan", targets: ["ShelfScan"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already in the graph through postgres-nio and Hummingbird; named here because our targets import them.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // MARK: C libraries
        // libjpeg-turbo, libpng, libheif (HEVC via libde265) and libwebp behind one error-value shim:
        // longjmp must never cross Swift frames and no codec may abort the process, so every codec call
        // that can fail lands in C first (see include/CImageCodecs.h).
        .target(
            name: "CImageCodecs",
            linkerSettings: [
                .linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("heif"),
                .linkedLibrary("webp"), .linkedLibrary("webpdemux"),
            ]
        ),
        // Per-pixel loops run on every photo, where Swift's checked float-to-byte conversions cost more than
        // the arithmetic and its sums stay scalar (see include/CPixelLoops.h). No library: plain C99.
        .target(name: "CPixelLoops"),
        // libtesseract's C API (capi.h) and leptonica, found through pkg-config.
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]
        ),

        // MARK: Domain
        // The versioned files under models/ (detector parameters, prompts, answer schemas), as resources.
        .target(name: "ShelfModels", path: "models", resources: [.copy("detection"), .copy("prompts"), .copy("ocr"), .copy("spine"), .copy("reading")]),
        .target(name: "ShelfImage", dependencies: ["CImageCodecs", "CPixelLoops"]),
        // ONNX Runtime's C API, bound by hand and loaded by path at run time (the PyPI wheel ships no headers).
        .target(name: "OnnxRuntime", dependencies: ["OnnxGraph"]),
        // ONNX model files read and rewritten as plain values (protobuf wire format by hand, no generated code):
        // folds the scalar affine steps PP-OCR's networks carry into their convolutions.
        .target(name: "OnnxGraph"),
        // PP-OCR's text detector and recognizer on ONNX Runtime: pre- and post-processing, no spine logic.
        // Where a person's files live (XDG cache, config and data directories), one rule for every target.
        .target(name: "UserDirectories"),
        .target(name: "PPOCR", dependencies: ["OnnxRuntime", "ShelfImage", "ShelfModels", "UserDirectories"]),
        .target(name: "SpineDetection", dependencies: ["CPixelLoops", "ShelfImage", "ShelfModels"]),
        // PP-OCR's text detector over the whole photo, turned into the spine detector's text evidence.
        .target(name: "TextCue", dependencies: ["OnnxRuntime", "PPOCR", "ShelfImage", "SpineDetection"]),
        // The learned spine detector: a fine-tuned PP-OCR detector (models/spine, trained by scripts/spine-model)
        // whose map of book middles becomes rows and upright quads through SpineDetection's layout.
        .target(
            name: "SpineModel",
            dependencies: ["OnnxRuntime", "PPOCR", "ShelfImage", "ShelfModels", "SpineDetection", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "SpineReading",
            dependencies: ["ShelfImage", "ShelfModels", "BookModel", "CTesseract", "OnnxRuntime", "PPOCR", "UserDirectories", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "BookModel"),
        .target(name: "Catalog", dependencies: ["BookModel"]),
        // The library as callers see it (`LibraryStoring`), its values and errors, and every rule (decide, undo,
        // split and join, filing, import, the queue) written once over the steps an engine gives (`LibraryEngine`).
        .target(name: "LibraryCore", dependencies: ["BookModel"]),
        // The library on SQLite (GRDB): the embedded default.
        .target(name: "Library", dependencies: ["LibraryCore", "BookModel", .product(name: "GRDB", package: "GRDB.swift")]),
        // The same library on PostgreSQL (postgres-nio), for teams: several scan workers and reviewers at once.
        .target(
            name: "LibraryPostgres",
            dependencies: [
                "LibraryCore", "BookModel", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // OpenLibrary and Google Books over URLSession: seed-004 normalizers, cache, backoff, circuit.
        .target(name: "Enrichment", dependencies: ["BookModel", "Catalog", "UserDirectories"]),
        .target(
            name: "ShelfScan",
            dependencies: [
                "ShelfImage", "SpineDetection", "TextCue", "SpineModel", "OnnxRuntime", "PPOCR", "SpineReading", "BookModel", "Catalog", "LibraryCore", "Enrichment",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // MARK: HTTP service
        // `shelfscan serve`: BooksTrack v3 (multipart + SSE) and v1 (raw bytes + WebSocket), review over HTTP,
        // over the same pipeline and library as the command line.
        .target(
            name: "ShelfScanServer",
            dependencies: [
                "ShelfScan", "LibraryCore", "BookModel", "ShelfImage", "UserDirectories",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The browser pages' style sheet and script (plain files, no build step).
            resources: [.copy("Pages")]
        ),

        // MARK: Command line
        .target(
            name: "ShelfScanCLI",
            dependencies: [
                "ShelfScan", "Catalog", "Enrichment", "ShelfScanServer", "UserDirectories", "BookModel", "LibraryCore", "Library", "LibraryPostgres", "ShelfImage",
                "SpineReading", .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "shelfscan", dependencies: ["ShelfScanCLI"]),

        // MARK: Benchmarks and evaluations (run with `swift run -c release NAME`)
        .executableTarget(name: "bench-image", dependencies: ["ShelfImage"], path: "Benchmarks/bench-image"),
        .executableTarget(name: "eval-detection", dependencies: ["ShelfImage", "SpineDetection", "ShelfModels", "TextCue", "SpineModel", "PPOCR", "OnnxRuntime"], path: "Benchmarks/eval-detection"),
        .executableTarget(name: "bench-reading", dependencies: ["ShelfImage", "SpineReading", "ShelfScanTestSupport"], path: "Benchmarks/bench-reading"),
        .executableTarget(name: "eval-reading", dependencies: ["ShelfImage", "SpineReading", "PPOCR", "BookModel", "ShelfScanTestSupport", "SpineDetection", "TextCue", "ShelfScan"], path: "Benchmarks/eval-reading"),
        .executableTarget(name: "eval-catalog", dependencies: ["Catalog", "BookModel", "ShelfScanTestSupport"], path: "Benchmarks/eval-catalog"),
        .executableTarget(name: "eval-enrichment", dependencies: ["Enrichment", "Catalog", "BookModel", "ShelfScanTestSupport"], path: "Benchmarks/eval-enrichment"),
        .executableTarget(name: "bench-review", dependencies: ["LibraryCore", "Library", "BookModel"], path: "Benchmarks/bench-review"),
        .executableTarget(name: "bench-scan", dependencies: ["ShelfScan", "ShelfScanTestSupport"], path: "Benchmarks/bench-scan"),
        .executableTarget(name: "bench-postgres", dependencies: ["LibraryCore", "Library", "LibraryPostgres", "BookModel", "ShelfScanTestSupport"], path: "Benchmarks/bench-postgres"),
        .executableTarget(
            name: "bench-serve",
            dependencies: [
                "ShelfScanServer", "ShelfScan", "LibraryCore", "Library", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/bench-serve"),

        // MARK: Tests
        // Fixtures built in code and the local fake vision-LLM server (127.0.0.1, port 0).
        .target(name: "ShelfScanTestSupport", dependencies: ["ShelfImage", "BookModel"]),
        // The engines a store test runs on (SQLite always, PostgreSQL when a test server is named).
        .target(name: "LibraryTestSupport", dependencies: ["LibraryCore", "Library", "LibraryPostgres", "ShelfScanTestSupport"]),
        .testTarget(name: "ShelfImageTests", dependencies: ["ShelfImage", "ShelfScanTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SpineDetectionTests", dependencies: ["SpineDetection", "ShelfImage", "ShelfScanTestSupport"]),
        .testTarget(name: "SpineReadingTests", dependencies: ["SpineReading", "ShelfScanTestSupport", "PPOCR", "OnnxRuntime", "BookModel", "ShelfImage"]),
        .testTarget(name: "OnnxGraphTests", dependencies: ["OnnxGraph", "OnnxRuntime", "PPOCR", "ShelfImage", "ShelfScanTestSupport"]),
        .testTarget(name: "PPOCRTests", dependencies: ["PPOCR", "OnnxRuntime", "ShelfImage", "ShelfScanTestSupport"]),
        .testTarget(name: "TextCueTests", dependencies: ["TextCue", "SpineDetection", "ShelfImage", "ShelfScanTestSupport", "PPOCR", "OnnxRuntime"]),
        .testTarget(name: "SpineModelTests", dependencies: ["SpineModel", "SpineDetection", "ShelfModels", "TextCue", "ShelfImage", "ShelfScanTestSupport", "PPOCR", "OnnxRuntime"]),
        .testTarget(name: "BookModelTests", dependencies: ["BookModel"]),
        .testTarget(name: "UserDirectoriesTests", dependencies: ["UserDirectories"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog"]),
        .testTarget(name: "EnrichmentTests", dependencies: ["Enrichment", "BookModel", "ShelfScanTestSupport"]),
        .testTarget(name: "LibraryTests", dependencies: ["LibraryCore", "Library", "BookModel", "ShelfScanTestSupport", "LibraryTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "LibraryPostgresTests",
            dependencies: [
                "LibraryCore", "Library", "LibraryPostgres", "LibraryTestSupport", "ShelfScanTestSupport", "BookModel",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(name: "ShelfScanTests", dependencies: ["ShelfScan", "ShelfScanTestSupport", "LibraryCore", "Library", "BookModel", "ShelfImage", "SpineDetection", "SpineReading", "TextCue"]),
        .testTarget(
            name: "ShelfScanServerTests",
            dependencies: [
                "ShelfScanServer", "ShelfScan", "ShelfScanTestSupport", "LibraryCore", "Library", "LibraryPostgres", "BookModel", "ShelfImage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ShelfScanCLITests", dependencies: ["ShelfScanCLI", "ShelfScan", "Catalog", "Enrichment", "LibraryPostgres", "ShelfScanTestSupport", "LibraryCore", "Library", "ShelfImage", "BookModel", "PPOCR"]),
    ]
)

// Our own code builds without warnings, and a new one fails the build (CI builds through scripts/test): a warning
// left for later is read by nobody. Dependencies' settings are their own and stay untouched.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
}
