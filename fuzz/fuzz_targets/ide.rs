//! Fuzz target `ide`: the property of `tests/invariants/ide.rs` on every input.
#![no_main]

#[allow(dead_code)]
#[path = "../../tests/invariants/mod.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| invariants::ide::run(data));
