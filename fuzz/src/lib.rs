//! pdnkit's fuzz targets, shared by the libFuzzer entry points (`fuzz_targets/`) and the
//! stable driver (`src/bin/driver.rs`).

pub mod targets;
