/// The threads a directory load started by a synchronous query runs its
/// task on (see `loadInBackground`), not Swift concurrency's cooperative
/// ones: a synchronous caller that blocks one of those (a loop of the
/// synchronous hot reads on the cooperative pool, say) cannot starve the
/// task. Its async steps are short (the blocking work goes to a store's
/// executor), so two threads. A backend's own background tasks that must
/// not wait for that pool run here too (a PostgreSQL store's listener
/// reconnecting).
package final class BridgeExecutor: TaskExecutor {
    package static let shared = BridgeExecutor()

    private let lane = ThreadLane(name: "tessera bridge", threads: 2, niceness: 0)

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lane.submit { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
            return {}
        }
    }
}
