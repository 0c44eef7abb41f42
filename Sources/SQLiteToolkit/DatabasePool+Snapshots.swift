import Locking
import Dispatch
import Synchronization

/// Read snapshots kept between reads.
///
/// Beginning and ending a WAL read transaction takes two `fcntl` locks and
/// the pager's checks, about 5 µs here: more than the rest of a warm rect
/// query. So a reader keeps its transaction open after a read, and the next
/// read on it reuses the snapshot when the WAL-index header is unchanged,
/// which means nothing was committed by anyone since the snapshot began.
/// Any commit changes the header, and the next read then takes a new
/// snapshot: reads never see less than what was committed before they began.
///
/// An open read transaction stops checkpoints (ours and other processes')
/// from resetting the WAL, so idle readers give their snapshots up after
/// `snapshotIdleLifetime`, and the writer suspends keeping them while it
/// checkpoints.
extension DatabasePool {
    /// Makes sure `slot` is inside a read transaction whose snapshot is the
    /// newest committed state.
    func renewSnapshot(of slot: Slot) throws {
        let connection = slot.connection
        if let stamp = slot.snapshotStamp, connection.isInTransaction, let walIndex, walIndex.stamp() == stamp {
            return
        }
        endSnapshot(of: slot)
        connection.knownChangeCounter = nil
        // Read before BEGIN: a commit between the two makes the next check
        // fail and renew, never the reverse.
        let stamp = walIndex?.stamp()
        try connection.cachedStatement(SQL.beginDeferred).execute()
        slot.snapshotStamp = stamp
        guard let stamp, let walIndex else { return }
        // A deferred BEGIN takes its snapshot at the first read: take it now.
        // If the header is still the one read before BEGIN, nothing was
        // committed in between, and the snapshot is exactly the state the
        // stamp names: readers with equal tags share what they resolve.
        try connection.cachedStatement(SQL.schemaVersion).execute()
        if walIndex.stamp() == stamp { connection.exactSnapshot = stamp.wordArray }
    }

    /// Ends a read: statements reset, and the transaction ended unless it
    /// may be kept.
    func finishRead(on slot: Slot) {
        slot.connection.resetActiveStatements()
        // A stamp exists only when the WAL index is mapped.
        let keep = slot.snapshotStamp != nil && slot.connection.isInTransaction
            && snapshotHoldsSuspended.load(ordering: .acquiring) == 0
        if !keep { endSnapshot(of: slot) }
    }

    /// Ends the read transaction of `slot`, if it has one.
    func endSnapshot(of slot: Slot) {
        let connection = slot.connection
        slot.snapshotStamp = nil
        connection.knownChangeCounter = nil
        connection.exactSnapshot = nil
        guard connection.isInTransaction else { return }
        // A read-only transaction cannot fail to commit once its statements
        // are reset; ROLLBACK is the fallback that always ends it.
        connection.resetActiveStatements()
        if (try? connection.cachedStatement(SQL.commit).execute()) == nil, connection.isInTransaction {
            try? connection.cachedStatement(SQL.rollback).execute()
        }
    }

    /// Puts a reader back on the idle list, and schedules the release of its
    /// snapshot if it kept one.
    func returnToIdle(_ slot: Slot) {
        let now = ContinuousClock.now
        let schedule = idle.withLock { state in
            slot.idleSince = now
            state.readers.append(slot)
            guard slot.snapshotStamp != nil, !state.releaseScheduled else { return false }
            state.releaseScheduled = true
            return true
        }
        if schedule { scheduleRelease() }
    }

    /// Ends the snapshots of idle readers that have been idle for at least
    /// `age` seconds; schedules another release while younger ones remain.
    func releaseIdleSnapshots(olderThan age: Double) {
        let now = ContinuousClock.now
        let age = Duration.seconds(age)
        let remaining = idle.withLock { state in
            // Idle readers are used by no thread: the lock is their owner here.
            var remaining = false
            for slot in state.readers where slot.snapshotStamp != nil {
                if now - slot.idleSince >= age { endSnapshot(of: slot) } else { remaining = true }
            }
            state.releaseScheduled = remaining
            return remaining
        }
        if remaining { scheduleRelease() }
    }

    /// Runs `body` while readers end their snapshot at the end of every
    /// read, after ending those of idle readers: for a checkpoint that must
    /// reset the WAL, which waits for every open read transaction to end.
    package func withoutHeldSnapshots<T>(_ body: () throws -> T) rethrows -> T {
        snapshotHoldsSuspended.add(1, ordering: .acquiringAndReleasing)
        defer { snapshotHoldsSuspended.subtract(1, ordering: .acquiringAndReleasing) }
        releaseIdleSnapshots(olderThan: 0)
        return try body()
    }

    /// How many idle readers hold a snapshot (for tests).
    package var idleSnapshotCount: Int {
        idle.withLock { state in state.readers.filter { $0.snapshotStamp != nil }.count }
    }

    private func scheduleRelease() {
        let lifetime = configuration.snapshotIdleLifetime
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + lifetime) { [weak self] in
            self?.releaseIdleSnapshots(olderThan: lifetime)
        }
    }
}
