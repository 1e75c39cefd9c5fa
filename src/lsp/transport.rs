//! The server's transport: reads each message once (`framing`), decodes it (`message`) and
//! dispatches it, in order:
//! - `didOpen` and `didChange` go to the server directly, with their typed params, once it is
//!   initialized and until it is shut down (as tower-lsp treats every notification): the text
//!   of a 100 MB document is never held as a `serde_json::Value`;
//! - formatting requests are answered here too, once the server is initialized and until it is
//!   shut down (`formatting`): their answer, as large as the document, is encoded edit by edit,
//!   never held as a `serde_json::Value`; a `$/cancelRequest` for one of them stops it;
//! - every other request and notification goes to tower-lsp's `LspService`, and the client's
//!   answers to the server's requests go back through its socket;
//! - `exit` ends the process (tower-lsp 0.20 keeps running while stdin stays open, DESIGN §6.2),
//!   with code 0 when a `shutdown` was accepted first and 1 otherwise; the `"params": null` some
//!   clients (Emacs Eglot) send with `shutdown`, which tower-lsp would reject, is dropped (§6.3);
//! - a message that cannot be decoded is answered with its JSON-RPC error, and reading goes on;
//!   a request that tower-lsp leaves unanswered (one whose method starts with `$/`) is
//!   answered with MethodNotFound.
//!
//! Each message runs up to its first `.await` before the next one is read, so notifications are
//! applied, and requests take their snapshot, in the order the client sent them (§6.1); the rest
//! of a request runs in a task of its own. One writer sends the responses and the server's own
//! messages, each as one buffered write: its notifications (diagnostics), which the server
//! encodes itself ([`Notifier`]), and what it sends through tower-lsp's `Client`. Responses
//! come to the writer encoded.

use std::future::poll_fn;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Poll;

use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender, unbounded_channel};
use tower::Service;
use tower_lsp::jsonrpc::{Error, ErrorCode, Id, Request, Response};
use tower_lsp::{ClientSocket, Loopback, LspService};

use super::formatting::{FormatRequest, InProgress, cancelled_id};
use super::framing::{self, Frame};
use super::message::{self, Incoming};
use super::server::Server;

/// Whether `shutdown` was accepted; shared with the code that runs after the transport ends.
#[derive(Clone, Default)]
pub struct ShutdownFlag(Arc<AtomicBool>);

impl ShutdownFlag {
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    fn set(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// The exit code the protocol asks for: 0 after `shutdown`, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        if self.is_set() { 0 } else { 1 }
    }
}

/// How many encoded notifications may wait for the writer; a sender beyond that waits, so a
/// client that reads slowly slows the publishing down (which then coalesces more edits).
const NOTIFICATIONS_WAITING: usize = 4;

/// The server's own notifications to the client, encoded by their sender (no
/// `serde_json::Value` in between) and written in the order they are sent.
#[derive(Clone)]
pub struct Notifier(mpsc::Sender<Vec<u8>>);

/// What the writer reads from a [`Notifier`].
pub struct Notifications(mpsc::Receiver<Vec<u8>>);

pub fn notifier() -> (Notifier, Notifications) {
    let (sender, receiver) = mpsc::channel(NOTIFICATIONS_WAITING);
    (Notifier(sender), Notifications(receiver))
}

impl Notifier {
    /// Send a notification encoded as a whole message body; `method` names it in the log.
    pub async fn send(&self, method: &str, body: Vec<u8>) {
        if self.0.send(body).await.is_err() {
            tracing::debug!("{method} not sent: the output is closed");
        }
    }
}

/// Serve `service` on `input`/`output` until `input` ends (or `exit` ends the process), then
/// until the answers to the requests read are written.
pub async fn serve(
    (service, socket, notifications): (LspService<Server>, ClientSocket, Notifications),
    input: impl AsyncRead + Unpin,
    output: impl AsyncWrite + Unpin,
    shutdown: ShutdownFlag,
) {
    let (server_messages, client_responses) = Loopback::split(socket);
    let (responses, to_write) = unbounded_channel();
    let formatting = InProgress::default();
    let dispatcher = Dispatcher { service, client_responses, responses, shutdown, formatting };
    let writer = Writer { responses: to_write, notifications, server_messages };
    tokio::join!(dispatcher.read(input), writer.write(output));
}

struct Dispatcher {
    service: LspService<Server>,
    client_responses: <ClientSocket as Loopback>::ResponseSink,
    /// To the writer, encoded.
    responses: UnboundedSender<Vec<u8>>,
    shutdown: ShutdownFlag,
    /// The formatting requests answered here that are in progress.
    formatting: InProgress,
}

impl Dispatcher {
    async fn read(mut self, input: impl AsyncRead + Unpin) {
        let mut input = BufReader::new(input);
        while let Some(frame) = framing::next_frame(&mut input).await {
            let message = match frame {
                // The body is used up: the decoded message is the only copy left.
                Frame::Body(body) => message::decode(body),
                Frame::BadHeader(why) => message::invalid(Id::Null, ErrorCode::ParseError, why),
            };
            match message {
                Incoming::Open(params) if self.accepts_notifications() => {
                    self.service.inner().open_document(params)
                }
                Incoming::Change(params) if self.accepts_notifications() => {
                    self.service.inner().change_document(params)
                }
                Incoming::Open(_) | Incoming::Change(_) => {
                    tracing::warn!("document notification before initialize or after shutdown")
                }
                Incoming::Request(request) => self.call(request).await,
                Incoming::Response(response) => {
                    if self.client_responses.send(response).await.is_err() {
                        tracing::warn!("a response from the client after exit");
                    }
                }
                Incoming::Invalid(response) => self.answer(response),
            }
        }
    }

    fn accepts_notifications(&self) -> bool {
        self.service.inner().is_initialized() && !self.shutdown.is_set()
    }

    fn answer(&self, response: Response) {
        // The writer stops only when the client can no longer be written to.
        let _ = self.responses.send(message::encode(&response));
    }

    /// Hand `request` to the service; run it up to its first `.await` now, and the rest in a
    /// task of its own.
    async fn call(&mut self, request: Request) {
        let method = request.method();
        if method == "exit" {
            tracing::info!("exit received, stopping");
            std::process::exit(self.shutdown.exit_code());
        }
        if cancelled_id(&request).is_some_and(|id| self.formatting.cancel(&id)) {
            return;
        }
        if self.accepts_notifications()
            && let Some(format) = FormatRequest::from_request(&request)
        {
            return self.format(format);
        }
        // Only a shutdown the server accepted counts (not one before `initialize`).
        let shutdown = (method == "shutdown").then(|| self.shutdown.clone());
        let request = if shutdown.is_some() { without_null_params(request) } else { request };
        if let Err(e) = poll_fn(|cx| self.service.poll_ready(cx)).await {
            tracing::error!("the service stopped: {e}");
            return;
        }
        // tower-lsp answers no request whose method starts with `$/`, as if it were a
        // notification; a request must be answered, and such a one with MethodNotFound (LSP
        // 3.17, "$ Notifications and Requests").
        let id = request.id().cloned();
        let mut future = self.service.call(request);
        let responses = self.responses.clone();
        let finish = move |response: Option<Response>| {
            let response = match (response, id) {
                (Some(response), _) => response,
                (None, Some(id)) => Response::from_error(id, Error::method_not_found()),
                (None, None) => return,
            };
            if let Some(flag) = shutdown
                && response.is_ok()
            {
                flag.set();
            }
            let _ = responses.send(message::encode(&response));
        };
        match poll_fn(|cx| Poll::Ready(future.as_mut().poll(cx))).await {
            Poll::Ready(result) => finish(result.ok().flatten()),
            Poll::Pending => {
                tokio::spawn(async move { finish(future.await.ok().flatten()) });
            }
        }
    }

    /// Take the snapshot `request` works on now, and answer it from a task of its own.
    fn format(&self, request: FormatRequest) {
        let id = request.id.clone();
        let job = self.service.inner().format_job(request);
        let cancelled = self.formatting.start(id.clone());
        let (formatting, responses) = (self.formatting.clone(), self.responses.clone());
        tokio::spawn(async move {
            let body = match tokio::task::spawn_blocking(move || job.run(&cancelled)).await {
                Ok(body) => body,
                Err(e) => {
                    tracing::error!("formatting stopped: {e}");
                    message::encode(&Response::from_error(id.clone(), Error::internal_error()))
                }
            };
            formatting.finish(&id);
            let _ = responses.send(body);
        });
    }
}

/// The request without its params when they are `null`.
fn without_null_params(request: Request) -> Request {
    if !request.params().is_some_and(|p| p.is_null()) {
        return request;
    }
    let (method, id, _) = request.into_parts();
    let builder = Request::build(method);
    match id {
        Some(id) => builder.id(id).finish(),
        None => builder.finish(),
    }
}

/// What the writer writes: responses, notifications and tower-lsp's server-to-client messages.
struct Writer {
    responses: UnboundedReceiver<Vec<u8>>,
    notifications: Notifications,
    server_messages: <ClientSocket as Loopback>::RequestStream,
}

impl Writer {
    /// Write the messages as they come, until no more responses can come (the input ended and
    /// every request read is answered) or the output fails.
    async fn write(mut self, mut output: impl AsyncWrite + Unpin) {
        let (mut notifications_open, mut server_messages_open) = (true, true);
        loop {
            let body = tokio::select! {
                response = self.responses.recv() => match response {
                    Some(body) => body,
                    None => break,
                },
                body = self.notifications.0.recv(), if notifications_open => match body {
                    Some(body) => body,
                    None => {
                        notifications_open = false;
                        continue;
                    }
                },
                request = self.server_messages.next(), if server_messages_open => match request {
                    Some(request) => message::encode(&request),
                    None => {
                        server_messages_open = false;
                        continue;
                    }
                },
            };
            if let Err(e) = framing::write_frame(&mut output, body).await {
                tracing::warn!("cannot write to the client: {e}");
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
        flag.set();
        assert_eq!(flag.exit_code(), 0);
    }
}
