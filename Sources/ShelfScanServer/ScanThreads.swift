import Foundation

/// Threads of the server's own for scanning, used as the task executor of every scan.
///
/// A photo's decode, detection, cropping and filing block a thread for hundreds of milliseconds each. On
/// Swift's cooperative pool (one thread per core: two on the target machine) two scans took every thread,
/// and request handlers, the job actor and the WebSocket and SSE writers waited behind them. On these
/// threads the pool stays free for requests. They keep the normal priority: at nice 10 on a machine shared
/// with other work, twenty PP-OCR jobs took 638 s instead of about 150 (bench-serve).
///
/// One thread per job in flight: a job scans its photos one after another.
final class ScanThreads: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    let count: Int

    init(count: Int) {
        self.count = max(1, count)
        for i in 0..<self.count {
            let thread = Thread { [self] in self.work() }
            thread.name = "scan-\(i)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            queue.append(job)
            condition.signal()
        }
    }

    /// The threads live as long as the server process: it has one pool, made once at start.
    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
