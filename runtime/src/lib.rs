//! The `no_std` engine that gamec's generated firmware links against.
//!
//! Nothing here knows any particular game or board: the mechanics ([`line`], [`rank`]),
//! strategies ([`pick`], [`rng`]), the turn state machine ([`turn`]) and the drivers
//! ([`charlieplex`], [`buttons`], [`tune`]) are generic and are combined by generated tables.
//! Per-chip glue lives in [`chip`], behind one cargo feature per chip. Everything but the chip
//! glue builds for the host, where it is unit-tested.
#![no_std]
// Reading program memory needs inline assembly, still unstable on AVR.
#![cfg_attr(target_arch = "avr", feature(asm_experimental_arch))]

pub mod app;
pub mod buttons;
pub mod card_table;
pub mod cards;
pub mod charlieplex;
pub mod chip;
pub mod core_turn;
pub mod cursor;
pub mod duel_cursor;
pub mod encoder;
pub mod grid;
pub mod grid_rows;
pub mod heaps;
pub mod intro;
pub mod lamp;
pub mod lights;
pub mod line;
pub mod mailbox;
pub mod matrix;
pub mod microwire;
pub mod pick;
pub mod progmem;
pub mod puzzle;
pub mod puzzle_app;
pub mod rank;
pub mod rng;
pub mod rules;
pub mod search;
pub mod serial;
pub mod session;
pub mod solved;
pub mod strategy;
pub mod tune;
pub mod turn;
