//! Fuzz target `parse`: the property of `tests/invariants/lossless.rs` on every input.
#![no_main]

#[allow(dead_code)]
#[path = "../../tests/invariants/mod.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| invariants::lossless::run(data));
