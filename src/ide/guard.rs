//! Panic boundaries: a panic while analysing one game or answering one request is caught,
//! logged and contained, so one bad input never takes the server down. A process-wide panic
//! hook can ask [`is_active`] to tell a contained panic from one that nothing will catch.

use std::any::Any;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Whether the current thread runs inside [`catch`].
pub fn is_active() -> bool {
    DEPTH.with(Cell::get) > 0
}

/// Run `f`. A panic in it is logged with `what` and returned as `Err` with its message.
pub fn catch<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    DEPTH.with(|d| d.set(d.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    DEPTH.with(|d| d.set(d.get() - 1));
    result.map_err(|payload| {
        let message = panic_message(payload.as_ref());
        tracing::error!("{what} failed: {message}");
        message
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_contained_and_reported() {
        assert!(!is_active());
        let result: Result<(), String> = catch("test", || {
            assert!(is_active());
            panic!("boom {}", 1)
        });
        assert_eq!(result, Err("boom 1".to_owned()));
        assert!(!is_active());
        assert_eq!(catch("test", || 7), Ok(7));
    }
}
