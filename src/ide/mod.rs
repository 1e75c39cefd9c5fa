//! Editor features as plain data over a document snapshot: diagnostics, hover, formatting edits.
