//! Plain text: byte ranges, line/column conversion in UTF-8, UTF-16 and UTF-32 units, text
//! edits, sets of edits that can be made at once, minimal diffs, space searches, character
//! counts, line break styles, byte order marks and UTF-16. Knows nothing about PGN.

mod chars;
mod diff;
mod edit_set;
mod encoding;
mod line_index;
mod newline;
mod range;
mod spaces;

pub use chars::char_count;
pub use diff::minimal_edit;
pub use edit_set::EditSet;
pub use encoding::{UTF8_BOM, Utf16};
pub use line_index::{LineCol, LineIndex, PositionEncoding, line_break_count};
pub use newline::{line_break_of, line_break_of_chunks, with_line_break};
pub use range::{TextEdit, TextRange};
pub use spaces::{first_space, last_space};
