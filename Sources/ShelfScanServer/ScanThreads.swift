import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Threads of the server's own for scanning, used as the task executor of every scan.
///
/// A photo's decode, detection, cropping and filing block a thread for hundreds of milliseconds each. On
/// Swift's cooperative pool (one thread per core: two on the target machine) two scans took every thread,
/// and request handlers, the job actor and the WebSocket and SSE writers waited behind them. On these
/// threads the pool stays free for requests; the threads also run at a lower priority (nice 10), so when
/// the cores are busy the kernel serves a request before it continues a scan.
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
        #if os(Linux)
        // On Linux the nice value is per thread, and `who` 0 is the calling thread alone.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
