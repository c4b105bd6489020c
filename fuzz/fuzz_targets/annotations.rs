#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pdnkit_fuzz::targets::annotations(data));
