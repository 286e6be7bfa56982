// bench-reading: vision-reader throughput against a local endpoint with fixed latency.
//
//   swift run -c release bench-reading [--crops 200] [--concurrency 16] [--latency 0.3] [--batch 1]
//
// Ideal wall time = calls / concurrency x latency (the 200/16 x 0.3 s = 3.75 s); with whole
// rounds of calls it cannot beat ceil(calls / concurrency) x latency (3.9 s), printed too. The fake
// server (ShelfScanTestSupport) answers after `latency` seconds; the client is the real OpenAIVisionReader.
import Foundation
import ShelfImage
import ShelfScanTestSupport
import SpineReading

let args = CommandLine.arguments
func value(_ flag: String) -> String? { args.firstIndex(of: flag).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } }
let count = value("--crops").flatMap(Int.init) ?? 200
let concurrency = value("--concurrency").flatMap(Int.init) ?? 16
let latency = value("--latency").flatMap(Double.init) ?? 0.3
let batch = value("--batch").flatMap(Int.init) ?? 1

let server = try FakeVisionServer(apiKey: "bench-key", latency: latency)
defer { server.stop() }
let crops = (0..<count).map { i in
    SpineCrop(id: i, image: RGBImage(width: 40 + i % 50, height: 400 + i / 50, fill: (UInt8(i % 256), 120, 90)))
}
for kind in [ReaderConfiguration.Kind.openai, .gemini] {
    let configuration = ReaderConfiguration(
        kind: kind, endpoint: kind == .openai ? server.openAIEndpoint : server.geminiEndpoint, model: "bench-model",
        timeout: .seconds(30), batchSize: batch, concurrency: concurrency)
    let reader = try ReaderFactory.make(configuration, environment: [kind == .openai ? "OPENAI_API_KEY" : "GEMINI_API_KEY": "bench-key"])
    let before = server.hits
    let start = ContinuousClock.now
    let readings = await reader.read(crops)
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let calls = (count + batch - 1) / batch
    let ideal = Double(calls) / Double(concurrency) * latency
    let rounds = Double((calls + concurrency - 1) / concurrency) * latency
    let read = readings.filter(\.isRead).count
    print(String(format: "bench-reading %@: %d crops, batch %d, concurrency %d, latency %.0f ms: %.2f s; ideal %.2f s -> %.1f%% of ideal (%.1f%% of the whole-rounds bound %.2f s); %d read, %d calls, peak in flight %d",
                 kind.rawValue, count, batch, concurrency, latency * 1000, seconds, ideal, 100 * ideal / seconds, 100 * rounds / seconds, rounds, read, server.hits - before, server.peakConcurrency))
}
