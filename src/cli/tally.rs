//! Counts of what `check` reported, the closing summary line, and the exit status they give.

use std::fmt;
use std::ops::AddAssign;

use crate::syntax::Severity;

/// How many diagnostics of each severity, in how many games of how many files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub errors: u64,
    pub warnings: u64,
    pub infos: u64,
    pub hints: u64,
    pub games: u64,
    pub files: u64,
}

impl Tally {
    pub fn count(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Information => self.infos += 1,
            Severity::Hint => self.hints += 1,
        }
    }

    /// Whether the run failed: an error, or a warning when warnings are denied. Information
    /// and hints never fail a run.
    pub fn fails(&self, deny_warnings: bool) -> bool {
        self.errors > 0 || deny_warnings && self.warnings > 0
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
        self.hints += other.hints;
        self.games += other.games;
        self.files += other.files;
    }
}

/// `2 errors, 1 warning, 3 infos in 4 games` (severities that did not occur are left out,
/// except errors and warnings), or `no problems in 4 games`; `in 4 games (2 files)` when more
/// than one file was read.
impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut games = plural(self.games, "game");
        if self.files > 1 {
            games = format!("{games} ({})", plural(self.files, "file"));
        }
        if self.errors + self.warnings + self.infos + self.hints == 0 {
            return write!(f, "no problems in {games}");
        }
        write!(f, "{}, {}", plural(self.errors, "error"), plural(self.warnings, "warning"))?;
        if self.infos > 0 {
            write!(f, ", {}", plural(self.infos, "info"))?;
        }
        if self.hints > 0 {
            write!(f, ", {}", plural(self.hints, "hint"))?;
        }
        write!(f, " in {games}")
    }
}

fn plural(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lines() {
        let mut t = Tally { games: 1, ..Tally::default() };
        assert_eq!(t.to_string(), "no problems in 1 game");
        t.count(Severity::Error);
        t.count(Severity::Hint);
        t.count(Severity::Hint);
        t += Tally { games: 2, ..Tally::default() };
        assert_eq!(t.to_string(), "1 error, 0 warnings, 2 hints in 3 games");
        t += Tally { files: 2, ..Tally::default() };
        assert_eq!(t.to_string(), "1 error, 0 warnings, 2 hints in 3 games (2 files)");
        let read = Tally { files: 3, ..Tally::default() };
        assert_eq!(read.to_string(), "no problems in 0 games (3 files)");
    }

    #[test]
    fn only_errors_fail_unless_warnings_are_denied() {
        let mut t = Tally::default();
        t.count(Severity::Information);
        t.count(Severity::Hint);
        assert!(!t.fails(true));
        t.count(Severity::Warning);
        assert!(!t.fails(false));
        assert!(t.fails(true));
        t.count(Severity::Error);
        assert!(t.fails(false));
    }
}
