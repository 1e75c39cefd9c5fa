//! The tower-lsp server: document store (ropey), protocol conversions, settings.
