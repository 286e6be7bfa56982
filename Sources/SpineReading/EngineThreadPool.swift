import Foundation

/// A fixed set of threads, each owning one `TesseractEngine`, taking jobs from one queue. Threads, not
/// tasks, because a TessBaseAPI must stay on one thread at a time and recognition blocks for tens of
/// milliseconds, which would starve Swift's cooperative pool. A class because it owns the threads.
final class EngineThreadPool: @unchecked Sendable {
    typealias Job = @Sendable (TesseractEngine) -> Void

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var closed = false
    let size: Int

    /// Creates the first engine here, so a missing language file fails construction with one clear error;
    /// the other threads create theirs on first use.
    init(size: Int, dataPath: String, language: String) throws(ReaderError) {
        self.size = max(1, size)
        let first = EngineBox(try TesseractEngine(dataPath: dataPath, language: language))
        for i in 0..<self.size {
            let box = i == 0 ? first : EngineBox(nil)
            let thread = Thread { [self] in self.work(box, dataPath: dataPath, language: language) }
            thread.name = "tesseract-\(i)"
            thread.start()
        }
    }

    /// Runs `body` on some engine's thread and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable (TesseractEngine) -> T) async -> T {
        await withCheckedContinuation { continuation in
            condition.withLock {
                jobs.append { engine in continuation.resume(returning: body(engine)) }
                condition.signal()
            }
        }
    }

    /// Lets the threads finish queued jobs, then end (each deletes its engine).
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    private func work(_ box: EngineBox, dataPath: String, language: String) {
        if box.engine == nil { box.engine = try? TesseractEngine(dataPath: dataPath, language: language) }
        guard let engine = box.engine else { return }  // the first thread's engine exists, so jobs still run
        box.engine = nil
        while true {
            condition.lock()
            while jobs.isEmpty && !closed { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job(engine)
        }
    }
}

/// Hands a non-Sendable engine to the thread that will own it from then on.
private final class EngineBox: @unchecked Sendable {
    var engine: TesseractEngine?
    init(_ engine: TesseractEngine?) { self.engine = engine }
}
