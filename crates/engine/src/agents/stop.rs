//! Stopping a search that is no longer wanted. A front end that runs a
//! computer player's move on a worker thread runs it inside
//! [`with_stop`] with a flag of its own; `mcts` (every 16 playouts) and
//! `alphabeta` (every 1024 nodes, which also ends its iterative deepening)
//! look at the flag and, once it is raised, stop at once and answer with
//! what they have. The answer is then not wanted: the front end drops it.
//! Without a flag (the command line, the lab) nothing changes: a search
//! runs to its playouts, depth or think time.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

thread_local! {
    /// The stop flag of the searches on this thread.
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` as the stop flag of every search it makes on this
/// thread (the flag before is back afterwards, also on a panic).
pub fn with_stop<R>(flag: Arc<AtomicBool>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            FLAG.with(|c| *c.borrow_mut() = old);
        }
    }
    let _restore = Restore(FLAG.with(|c| c.replace(Some(flag))));
    f()
}

/// Whether the search on this thread is to stop now.
pub fn requested() -> bool {
    FLAG.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_flag_is_seen_inside_only() {
        let flag = Arc::new(AtomicBool::new(false));
        assert!(!requested());
        with_stop(flag.clone(), || {
            assert!(!requested());
            flag.store(true, Ordering::Relaxed);
            assert!(requested());
        });
        assert!(!requested());
    }
}
