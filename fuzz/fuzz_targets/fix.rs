//! Fuzz target `fix`: the property of `tests/invariants/fix.rs` on every input.
#![no_main]

#[allow(dead_code)]
#[path = "../../tests/invariants/mod.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| invariants::fix::run(data));
