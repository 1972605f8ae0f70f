//! A log of what changed in a position, kept beside a game's state for the things the rules
//! work out and keep between decisions (movement reaches, layouts, supply traces): a reader
//! that has read the log up to some length knows what changed since, without a pass over every
//! unit.
//!
//! A log is known by a number no other log has. A copy of the state (an undo, a save loaded, a
//! search's trial position) begins a log of its own, which no reader has read, so that what a
//! reader kept from one position is never taken for another's. The log is not part of the
//! position: it is not saved, hashed or compared (two logs are always equal), and prints as
//! `..`.

use std::sync::atomic::{AtomicU64, Ordering};

/// The number of the next log: never given twice.
static NEXT_LOG: AtomicU64 = AtomicU64::new(1);

/// How long a log grows before a new one is begun (its readers then look at everything once).
const AT_MOST: usize = 1 << 16;

/// What changed, in order, one entry per change (a unit, or a unit with where it was).
pub struct MoveLog<E> {
    id: u64,
    entries: Vec<E>,
}

/// Where a log stood when a reader last read it: its number and length.
pub type Mark = (u64, usize);

impl<E> MoveLog<E> {
    /// Logs a change. A log grown long is begun again.
    pub fn push(&mut self, entry: E) {
        if self.entries.len() >= AT_MOST {
            self.renew();
        }
        self.entries.push(entry);
    }

    /// The number of this log.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The changes logged so far.
    pub fn entries(&self) -> &[E] {
        &self.entries
    }

    /// Where the log stands now.
    pub fn mark(&self) -> Mark {
        (self.id, self.entries.len())
    }

    /// The changes logged since `mark`, if `mark` is of this log.
    pub fn since(&self, mark: Mark) -> Option<&[E]> {
        (mark.0 == self.id).then(|| self.entries.get(mark.1..)).flatten()
    }

    /// Begins a new log: what was read of the old one no longer holds.
    pub fn renew(&mut self) {
        *self = MoveLog::default();
    }
}

impl<E> Default for MoveLog<E> {
    fn default() -> MoveLog<E> {
        MoveLog {
            id: NEXT_LOG.fetch_add(1, Ordering::Relaxed),
            entries: Vec::new(),
        }
    }
}

impl<E> Clone for MoveLog<E> {
    /// A copy begins a log of its own: the copy and the original go separate ways.
    fn clone(&self) -> MoveLog<E> {
        MoveLog::default()
    }
}

impl<E> std::fmt::Debug for MoveLog<E> {
    /// Nothing of the position: two equal positions print alike whatever their logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("..")
    }
}

impl<E> PartialEq for MoveLog<E> {
    /// The log is not part of the position.
    fn eq(&self, _: &MoveLog<E>) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::MoveLog;

    #[test]
    fn a_reader_finds_what_changed_since_it_read_and_nothing_from_another_log() {
        let mut log: MoveLog<u16> = MoveLog::default();
        log.push(3);
        let mark = log.mark();
        log.push(7);
        log.push(3);
        assert_eq!(log.since(mark), Some(&[7, 3][..]));
        assert_eq!(log.entries(), &[3, 7, 3]);
        let copy = log.clone();
        assert_ne!(copy.id(), log.id(), "a copy begins its own log");
        assert_eq!(copy.since(mark), None);
        assert!(copy.entries().is_empty());
        let mut renewed = log.clone();
        renewed.push(1);
        renewed.renew();
        assert_eq!(renewed.since(renewed.mark()), Some(&[][..]));
        assert_eq!(log.since((log.id(), 9)), None, "a mark past the end is not of this log");
    }

    #[test]
    fn a_long_log_begins_again() {
        let mut log: MoveLog<u8> = MoveLog::default();
        let first = log.id();
        for _ in 0..super::AT_MOST {
            log.push(0);
        }
        assert_eq!(log.id(), first);
        log.push(1);
        assert_ne!(log.id(), first);
        assert_eq!(log.entries(), &[1]);
    }
}
