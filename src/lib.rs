//! pdnkit: read, validate, convert and summarise PDN game records of Russian draughts.
//!
//! The library is a pipeline: [`pdn`] reads text into games, [`rules`] knows the game,
//! and the command line in `src/cli` is a thin layer over them. Nothing here prints or exits.

#![deny(unsafe_code)]

pub mod check;
pub mod color;
pub mod config;
pub mod convert;
pub mod date;
pub mod diag;
pub mod diagram;
pub mod draw;
pub mod duplicates;
pub mod outcome;
pub mod pdn;
pub mod replay;
pub mod rules;
pub mod run;
pub mod select;
pub mod split;
pub mod stats;

pub use color::Color;
pub use outcome::Outcome;

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
