import Foundation

/// Threads of our own, used as a task executor: work started with `Task(executorPreference:)` on them runs
/// there, awaits included, and never waits for a thread of Swift's cooperative pool (one per core). That pool
/// is easily taken whole by blocking work (a photo's decode and detection, a synchronous wait), and whatever
/// needs it then waits too: a server's request handlers, or the answer a review loop blocks on.
///
/// The threads live as long as the process; make one set at start and keep it.
public final class DedicatedThreads: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    public let count: Int

    public init(count: Int, name: String) {
        self.count = max(1, count)
        for i in 0..<self.count {
            let thread = Thread { [self] in self.work() }
            thread.name = "\(name)-\(i)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            queue.append(job)
            condition.signal()
        }
    }

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
