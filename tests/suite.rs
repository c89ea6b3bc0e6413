//! The integration tests of rulebook as one test program: each file of
//! `tests/` is a module here (built and linked once, not thirty times).
//! `agents.rs` and `replay_memory.rs` count allocations with a global
//! allocator of their own, so each stays a program of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/mod.rs"]
mod common;

#[path = "bench.rs"]
mod bench;
#[path = "board_ataxx.rs"]
mod board_ataxx;
#[path = "board_events.rs"]
mod board_events;
#[path = "board_finish.rs"]
mod board_finish;
#[path = "board_jumps.rs"]
mod board_jumps;
#[path = "board_stacks.rs"]
mod board_stacks;
#[path = "board_tafl.rs"]
mod board_tafl;
#[path = "capture_search.rs"]
mod capture_search;
#[path = "check_second.rs"]
mod check_second;
#[path = "cli.rs"]
mod cli;
#[path = "compile.rs"]
mod compile;
#[path = "diagnostics.rs"]
mod diagnostics;
#[path = "docs_language.rs"]
mod docs_language;
#[path = "editors.rs"]
mod editors;
#[path = "end_reasons.rs"]
mod end_reasons;
#[path = "explain.rs"]
mod explain;
#[path = "files_second.rs"]
mod files_second;
#[path = "format_rules.rs"]
mod format_rules;
#[path = "formats.rs"]
mod formats;
#[path = "games.rs"]
mod games;
#[path = "generality.rs"]
mod generality;
#[path = "harden_files.rs"]
mod harden_files;
#[path = "harden_lsp.rs"]
mod harden_lsp;
#[path = "harden_merge.rs"]
mod harden_merge;
#[path = "harden_web.rs"]
mod harden_web;
#[path = "harden_work.rs"]
mod harden_work;
#[path = "hardening.rs"]
mod hardening;
#[path = "invariants.rs"]
mod invariants;
#[path = "kernel.rs"]
mod kernel;
#[path = "kernel_flips.rs"]
mod kernel_flips;
#[path = "kernel_lines.rs"]
mod kernel_lines;
#[path = "kernel_slides.rs"]
mod kernel_slides;
#[path = "kernel_steps.rs"]
mod kernel_steps;
#[path = "lab.rs"]
mod lab;
#[path = "lsp.rs"]
mod lsp;
#[path = "narrate.rs"]
mod narrate;
#[path = "pdn.rs"]
mod pdn;
#[path = "perft.rs"]
mod perft;
#[path = "pictures.rs"]
mod pictures;
#[path = "placement.rs"]
mod placement;
#[path = "prompt.rs"]
mod prompt;
#[path = "prompt_second.rs"]
mod prompt_second;
#[path = "properties.rs"]
mod properties;
#[path = "pydraughts.rs"]
mod pydraughts;
#[path = "race.rs"]
mod race;
#[path = "race_back_each.rs"]
mod race_back_each;
#[path = "race_backgammon.rs"]
mod race_backgammon;
#[path = "race_cross.rs"]
mod race_cross;
#[path = "race_each.rs"]
mod race_each;
#[path = "race_effects_each.rs"]
mod race_effects_each;
#[path = "race_faces.rs"]
mod race_faces;
#[path = "race_fast.rs"]
mod race_fast;
#[path = "race_layout.rs"]
mod race_layout;
#[path = "race_parcheesi.rs"]
mod race_parcheesi;
#[path = "race_paths.rs"]
mod race_paths;
#[path = "race_players.rs"]
mod race_players;
#[path = "race_points.rs"]
mod race_points;
#[path = "race_rules.rs"]
mod race_rules;
#[path = "race_score.rs"]
mod race_score;
mod race_second;
mod race_senet;
#[path = "records.rs"]
mod records;
#[path = "rules_page.rs"]
mod rules_page;
#[path = "session.rs"]
mod session;
#[path = "sessions.rs"]
mod sessions;
#[path = "shell.rs"]
mod shell;
#[path = "simulate.rs"]
mod simulate;
#[path = "tools_second.rs"]
mod tools_second;
#[path = "typed_errors.rs"]
mod typed_errors;
#[path = "web.rs"]
mod web;
#[path = "web_browser.rs"]
mod web_browser;
#[path = "web_editor.rs"]
mod web_editor;
#[path = "web_one_game.rs"]
mod web_one_game;
#[path = "web_second.rs"]
mod web_second;
