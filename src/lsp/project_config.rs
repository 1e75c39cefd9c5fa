//! The `pgn-lsp.toml` of each document's project (`crate::config`), looked up afresh at each
//! publish and each request, so that a change to it counts at once. A file that cannot be read
//! or is not valid is left out, and shown to the user (`window/showMessage`) once for each
//! different error. A client that can watch files is asked to report changes to these files
//! (`workspace/didChangeWatchedFiles`), so that the diagnostics of the open documents follow an
//! edit of the file without waiting for an edit of the document.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use tower_lsp::Client;
use tower_lsp::lsp_types::notification::{DidChangeWatchedFiles, Notification as _};
use tower_lsp::lsp_types::{
    ClientCapabilities, DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern,
    MessageType, Registration, Url,
};

use crate::config::{Config, ConfigError, ConfigFinder, FILE_NAME};

pub struct ProjectConfigs {
    client: Client,
    /// The settings files reported as broken, with the message shown for each.
    reported: Mutex<HashMap<PathBuf, String>>,
}

impl ProjectConfigs {
    pub fn new(client: Client) -> Self {
        ProjectConfigs { client, reported: Mutex::default() }
    }

    /// The settings of the `pgn-lsp.toml` nearest the file of the document at `uri` (none for a
    /// document that is no file, such as a new one not yet saved).
    pub fn for_document(&self, uri: &Url) -> Option<Config> {
        let dir = uri.to_file_path().ok()?.parent()?.to_owned();
        ConfigFinder::default().for_dir(&dir).unwrap_or_else(|e| {
            self.report(e);
            None
        })
    }

    /// A settings file was created, changed or deleted: if it is broken now, say so at once,
    /// even if it repeats an error shown before.
    pub fn changed(&self, uri: &Url) {
        let Ok(path) = uri.to_file_path() else { return };
        self.reported.lock().unwrap_or_else(PoisonError::into_inner).remove(&path);
        if path.is_file()
            && let Err(e) = Config::load(&path)
        {
            self.report(e);
        }
    }

    /// Log `error` and show it to the user, unless that very message was shown last for its
    /// file.
    fn report(&self, error: ConfigError) {
        tracing::warn!("ignoring {error}");
        let message = format!("{error}: its settings are not used until it is mended");
        {
            let mut reported = self.reported.lock().unwrap_or_else(PoisonError::into_inner);
            if reported.get(&error.path) == Some(&message) {
                return;
            }
            reported.insert(error.path, message.clone());
        }
        let client = self.client.clone();
        tokio::spawn(async move { client.show_message(MessageType::WARNING, message).await });
    }

    /// Ask the client to report changes to settings files (one that [`can_watch`]).
    pub fn watch(&self) {
        let client = self.client.clone();
        // Not awaited here: the client's answer comes through the transport, which reads it
        // only once this notification is handled.
        tokio::spawn(async move {
            if let Err(e) = client.register_capability(vec![watcher()]).await {
                tracing::warn!("the client watches no pgn-lsp.toml: {e}");
            }
        });
    }
}

/// Whether a client with these capabilities can be asked to watch files.
pub fn can_watch(capabilities: &ClientCapabilities) -> bool {
    capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        == Some(true)
}

/// Whether `uri` names a settings file.
pub fn is_settings_file(uri: &Url) -> bool {
    uri.to_file_path().is_ok_and(|path| path.file_name() == Some(Path::new(FILE_NAME).as_os_str()))
}

/// The registration of a watcher for every `pgn-lsp.toml` in the workspace.
fn watcher() -> Registration {
    let options = DidChangeWatchedFilesRegistrationOptions {
        watchers: vec![FileSystemWatcher {
            glob_pattern: GlobPattern::String(format!("**/{FILE_NAME}")),
            kind: None,
        }],
    };
    Registration {
        id: FILE_NAME.to_owned(),
        method: DidChangeWatchedFiles::METHOD.to_owned(),
        register_options: serde_json::to_value(options).ok(),
    }
}
