//! A `tower` layer in front of the tower-lsp service that works around its defects (DESIGN
//! §6.2, §6.3): it ends the process on `exit` (tower-lsp 0.20 keeps running while stdin stays
//! open), with code 0 when a `shutdown` was accepted first and 1 otherwise; it drops the
//! `"params": null` that some clients (Emacs Eglot) send with `shutdown`, which tower-lsp
//! would reject; and it answers the messages the framing guard found invalid with their
//! JSON-RPC error (`framing`), which tower-lsp would not survive.

use std::future::{Future, ready};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use tower::{Layer, Service};
use tower_lsp::jsonrpc::{Request, Response};

use super::framing::{INVALID_MESSAGE, error_response};

/// The future of tower-lsp's service.
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Whether `shutdown` was received; shared with the code that runs after the service ends.
#[derive(Clone, Default)]
pub struct ShutdownFlag(Arc<AtomicBool>);

impl ShutdownFlag {
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The exit code the protocol asks for: 0 after `shutdown`, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        if self.is_set() { 0 } else { 1 }
    }
}

pub struct ExitLayer {
    pub shutdown: ShutdownFlag,
}

impl<S> Layer<S> for ExitLayer {
    type Service = ExitService<S>;

    fn layer(&self, inner: S) -> ExitService<S> {
        ExitService { inner, shutdown: self.shutdown.clone() }
    }
}

pub struct ExitService<S> {
    inner: S,
    shutdown: ShutdownFlag,
}

impl<S, E> Service<Request> for ExitService<S>
where
    S: Service<
            Request,
            Response = Option<Response>,
            Error = E,
            Future = BoxFuture<Result<Option<Response>, E>>,
        >,
    E: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> S::Future {
        match req.method() {
            "exit" => {
                tracing::info!("exit received, stopping");
                std::process::exit(self.shutdown.exit_code());
            }
            "shutdown" => {
                // Only a shutdown the server accepted counts (not one before `initialize`).
                let flag = self.shutdown.clone();
                let response = self.inner.call(without_null_params(req));
                Box::pin(async move {
                    let response = response.await;
                    if matches!(&response, Ok(Some(r)) if r.is_ok()) {
                        flag.0.store(true, Ordering::SeqCst);
                    }
                    response
                })
            }
            INVALID_MESSAGE => Box::pin(ready(Ok(Some(error_response(req))))),
            _ => self.inner.call(req),
        }
    }
}

/// The request without its params when they are `null`.
fn without_null_params(req: Request) -> Request {
    if !req.params().is_some_and(|p| p.is_null()) {
        return req;
    }
    let (method, id, _) = req.into_parts();
    let builder = Request::build(method);
    match id {
        Some(id) => builder.id(id).finish(),
        None => builder.finish(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn null_params_are_dropped_and_others_kept() {
        let null = Request::build("shutdown").id(1).params(json!(null)).finish();
        let kept = without_null_params(null);
        assert_eq!(kept.params(), None);
        assert_eq!(kept.id(), Some(&1.into()));
        let object = Request::build("shutdown").id(2).params(json!({})).finish();
        assert_eq!(without_null_params(object).params(), Some(&json!({})));
    }

    #[test]
    fn exit_code_follows_shutdown() {
        let flag = ShutdownFlag::default();
        assert_eq!(flag.exit_code(), 1);
        flag.0.store(true, Ordering::SeqCst);
        assert_eq!(flag.exit_code(), 0);
    }
}
