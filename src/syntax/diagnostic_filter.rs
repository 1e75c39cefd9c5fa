//! Which diagnostics a user wants to see: `check --min-severity` and `--ignore`, the server's
//! `diagnostics.minSeverity` and `diagnostics.ignore` settings. Every code has one severity
//! (the registry in `diagnostic.rs`), so what a filter keeps is a set of codes.

use super::diagnostic::{Code, Diagnostic, Severity};

/// A set of diagnostic codes, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CodeSet(u32);

const _: () = assert!(Code::COUNT <= u32::BITS as usize, "a code set has a bit per code");

impl CodeSet {
    pub fn insert(&mut self, code: Code) {
        self.0 |= 1 << code as u32;
    }

    pub fn contains(self, code: Code) -> bool {
        self.0 & 1 << code as u32 != 0
    }

    pub fn intersects(self, other: CodeSet) -> bool {
        self.0 & other.0 != 0
    }

    pub fn union(self, other: CodeSet) -> CodeSet {
        CodeSet(self.0 | other.0)
    }
}

impl FromIterator<Code> for CodeSet {
    fn from_iter<I: IntoIterator<Item = Code>>(codes: I) -> CodeSet {
        let mut set = CodeSet::default();
        codes.into_iter().for_each(|code| set.insert(code));
        set
    }
}

/// The diagnostics shown: those at least as severe as `min_severity`, but for the codes
/// `ignored`. The default shows every diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticFilter {
    /// The least severe severity shown.
    pub min_severity: Severity,
    /// Codes never shown.
    pub ignored: Vec<Code>,
}

impl Default for DiagnosticFilter {
    fn default() -> Self {
        DiagnosticFilter { min_severity: Severity::Hint, ignored: Vec::new() }
    }
}

impl DiagnosticFilter {
    pub fn keeps(&self, d: &Diagnostic) -> bool {
        self.keeps_code(d.code)
    }

    pub fn keeps_code(&self, code: Code) -> bool {
        code.default_severity() <= self.min_severity && !self.ignored.contains(&code)
    }

    /// The diagnostics both `self` and `other` keep.
    pub fn and(&self, other: &DiagnosticFilter) -> DiagnosticFilter {
        let mut ignored = self.ignored.clone();
        ignored.extend(other.ignored.iter().filter(|code| !self.ignored.contains(code)));
        DiagnosticFilter { min_severity: self.min_severity.min(other.min_severity), ignored }
    }

    /// The codes of `severity` that are shown.
    pub fn kept_codes(&self, severity: Severity) -> CodeSet {
        let of_severity = Code::ALL.iter().filter(|code| code.default_severity() == severity);
        of_severity.copied().filter(|&code| self.keeps_code(code)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_sets_hold_every_code() {
        let all: CodeSet = Code::ALL.iter().copied().collect();
        assert!(Code::ALL.iter().all(|&code| all.contains(code)));
        let one: CodeSet = [Code::LineTooLong].into_iter().collect();
        assert!(one.contains(Code::LineTooLong) && !one.contains(Code::IllegalMove));
        assert!(one.intersects(all) && !one.intersects(CodeSet::default()));
        let two = one.union([Code::IllegalMove].into_iter().collect());
        assert!(two.contains(Code::IllegalMove) && two.contains(Code::LineTooLong));
    }

    #[test]
    fn a_filter_keeps_codes_by_severity_and_name() {
        let filter = DiagnosticFilter {
            min_severity: Severity::Warning,
            ignored: vec![Code::InvalidTagValue, Code::IllegalMove],
        };
        assert!(filter.keeps_code(Code::AmbiguousMove));
        assert!(filter.keeps_code(Code::MoveNumber));
        assert!(!filter.keeps_code(Code::IllegalMove));
        assert!(!filter.keeps_code(Code::InvalidTagValue));
        assert!(!filter.keeps_code(Code::MissingTag));
        assert!(!filter.keeps_code(Code::LineTooLong));
        let errors = filter.kept_codes(Severity::Error);
        assert!(errors.contains(Code::AmbiguousMove) && !errors.contains(Code::IllegalMove));
        assert_eq!(filter.kept_codes(Severity::Hint), CodeSet::default());
        let everything = DiagnosticFilter::default();
        assert!(Code::ALL.iter().all(|&code| everything.keeps_code(code)));
        let hints = everything.kept_codes(Severity::Hint);
        assert!(hints.contains(Code::LineTooLong) && hints.contains(Code::StringTooLong));
        assert!(!hints.contains(Code::MissingTag));
    }

    #[test]
    fn two_filters_together_keep_what_both_keep() {
        let project = DiagnosticFilter {
            min_severity: Severity::Information,
            ignored: vec![Code::MissingTag],
        };
        let user = DiagnosticFilter {
            min_severity: Severity::Hint,
            ignored: vec![Code::MoveNumber, Code::MissingTag],
        };
        let both = project.and(&user);
        assert_eq!(both.min_severity, Severity::Information);
        assert_eq!(both.ignored, [Code::MissingTag, Code::MoveNumber]);
        for &code in Code::ALL {
            let kept = project.keeps_code(code) && user.keeps_code(code);
            assert_eq!(both.keeps_code(code), kept, "{code:?}");
            assert_eq!(user.and(&project).keeps_code(code), kept, "{code:?}");
        }
    }
}
