//! Command-line file safety: `fmt` replaces a file atomically and reads it
//! through the bounded reader; a refused run opens no output; an output
//! that names an input is refused; the prompt ends on a line that never
//! ends; a byte order mark is skipped; record tags survive export and
//! import.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::cell::Cell;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;

use common::run;
use rulebook::board::Position;
use rulebook::load::{check, BundledLoader};
use rulebook::record::BoardRecord;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// The draughts rule file, with many comment lines carrying trailing
/// spaces (which `fmt` cuts): some 12 KB, not formatted.
fn unformatted() -> String {
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!("// a comment line, number {i}        \n"));
    }
    text.push_str(&std::fs::read_to_string(games_dir().join("draughts.rules")).unwrap());
    text
}

#[test]
#[cfg(unix)]
fn fmt_keeps_the_original_when_the_write_fails() {
    let scratch = common::scratch();
    let file = scratch.path().join("big.rules");
    let text = unformatted();
    std::fs::write(&file, &text).unwrap();
    // The file size limit of the shell (a few KB) makes every write past
    // it fail (EFBIG, the signal ignored): the formatted text is some 8 KB.
    let status = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 4; exec \"$0\" fmt \"$1\"")
        .arg(env!("CARGO_BIN_EXE_rulebook"))
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&status.stderr);
    assert_ne!(status.status.code(), Some(0), "{err}");
    assert!(
        err.contains("can't write") && err.contains(s(&file)),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    // No temporary file is left beside it.
    let left: Vec<_> = std::fs::read_dir(scratch.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    // Without the limit the same file is formatted.
    let (code, _, err) = run(&["fmt", s(&file)]);
    assert_eq!(code, 0, "{err}");
    let formatted = std::fs::read_to_string(&file).unwrap();
    assert_ne!(formatted, text);
    assert!(!formatted.contains("        \n"));
}

#[test]
#[cfg(unix)]
fn fmt_reads_only_regular_files_within_the_limit_and_names_them() {
    let scratch = common::scratch();
    let d = scratch.path();
    // A device: refused at once, not read.
    let (code, _, err) = run(&["fmt", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("/dev/zero") && err.contains("not a regular file"),
        "{err}"
    );
    // A named pipe with no writer: refused, not waited on.
    let fifo = d.join("pipe.rules");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let (code, _, err) = run(&["fmt", s(&fifo)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(s(&fifo)) && err.contains("not a regular file"),
        "{err}"
    );
    // A file past 1 MiB: refused with the limit.
    let big = d.join("big.rules");
    std::fs::write(&big, "// x\n".repeat(300_000)).unwrap();
    let (code, _, err) = run(&["fmt", "--check", s(&big)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(s(&big)) && err.contains("1 MiB"), "{err}");
    // A folder.
    let (code, _, err) = run(&["fmt", s(d)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(s(d)) && err.contains("directory"), "{err}");
    // Text that is not UTF-8.
    let latin = d.join("latin.rules");
    std::fs::write(&latin, b"// caf\xe9\n").unwrap();
    let (code, _, err) = run(&["fmt", s(&latin)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(s(&latin)) && err.contains("UTF-8"), "{err}");
}

/// Files with known contents, to see that a refused run leaves them be.
fn results(d: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let files = vec![
        (d.join("rows.csv"), b"game,index\nfinished,1\n".to_vec()),
        (d.join("rows.parquet"), b"PAR1 a finished shard".to_vec()),
        (d.join("chart.svg"), b"<svg>finished</svg>".to_vec()),
    ];
    for (p, b) in &files {
        std::fs::write(p, b).unwrap();
    }
    files
}

fn unchanged(files: &[(PathBuf, Vec<u8>)]) {
    for (p, b) in files {
        assert_eq!(&std::fs::read(p).unwrap(), b, "{} changed", p.display());
    }
}

#[test]
fn a_refused_run_leaves_earlier_results_alone() {
    let scratch = common::scratch();
    let d = scratch.path();
    let files = results(d);
    let (csv, parquet, svg) = (s(&files[0].0), s(&files[1].0), s(&files[2].0));
    let outputs = ["--csv", csv, "--svg", svg];
    let cases: Vec<Vec<&str>> = vec![
        // An agent mistyped.
        vec!["simulate", "draughts", "--agents", "randon", "--games", "2"],
        // A game mistyped.
        vec!["simulate", "draughtz", "--games", "2"],
        // A race game with more players than it allows.
        vec![
            "simulate",
            "slow-and-steady",
            "--players",
            "8",
            "--games",
            "2",
        ],
        // A board game given a number of players.
        vec!["simulate", "draughts", "--players", "2", "--games", "2"],
        // A bad option.
        vec!["simulate", "draughts", "--option", "nope=1", "--games", "2"],
        // compare: the second game's agents don't fit it.
        vec![
            "compare",
            "draughts",
            "variants/english",
            "--agents",
            "random,random,random",
            "--games",
            "2",
        ],
        vec!["compare", "draughts", "variants/englsh", "--games", "2"],
    ];
    for case in cases {
        let mut args = case.clone();
        args.extend_from_slice(&outputs);
        if case[0] == "simulate" {
            args.extend_from_slice(&["--parquet", parquet]);
        }
        let (code, out, err) = run(&args);
        assert_ne!(code, 0, "{case:?}: {out}");
        assert!(err.starts_with("error"), "{case:?}: {err}");
        unchanged(&files);
    }
    // The same run, right: the files are written.
    let (code, _, err) = run(&[
        "simulate",
        "draughts",
        "--games",
        "2",
        "--csv",
        csv,
        "--parquet",
        parquet,
        "--svg",
        svg,
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(csv).unwrap().starts_with("game,"));
}

/// Runs and expects the refusal of an output that names an input: exit 2,
/// the message, and `kept` unchanged.
fn refused(args: &[&str], kept: &Path) {
    let before = std::fs::read(kept).unwrap();
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert!(err.contains("is also"), "{args:?}: {err}");
    assert_eq!(std::fs::read(kept).unwrap(), before, "{args:?}");
}

#[test]
#[cfg(unix)]
fn an_output_that_names_an_input_is_refused() {
    let scratch = common::scratch();
    let d = scratch.path();
    let rules = d.join("mine.rules");
    std::fs::copy(games_dir().join("draughts.rules"), &rules).unwrap();
    let link = d.join("link.rules");
    std::os::unix::fs::symlink("mine.rules", &link).unwrap();
    let hard = d.join("hard.rules");
    std::fs::hard_link(&rules, &hard).unwrap();
    let dotted = format!("{}/./mine.rules", d.display());
    let (r, l, h) = (s(&rules), s(&link), s(&hard));
    let seats = ["--seat", "1=random", "--seat", "2=random"];
    // The rule file played, by name, through a link, a hard link, `./`,
    // and without `.rules`.
    let bare = format!("{}/mine", d.display());
    for (game, output) in [
        (r, r),
        (l, r),
        (r, l),
        (r, h),
        (r, dotted.as_str()),
        (bare.as_str(), r),
    ] {
        let mut args = vec!["play", game];
        args.extend_from_slice(&seats);
        args.extend_from_slice(&["--record", output]);
        refused(&args, &rules);
        refused(&["simulate", game, "--games", "2", "--csv", output], &rules);
        refused(
            &["simulate", game, "--games", "2", "--parquet", output],
            &rules,
        );
        refused(&["simulate", game, "--games", "2", "--svg", output], &rules);
        refused(
            &["compare", "draughts", game, "--games", "2", "--csv", output],
            &rules,
        );
        refused(&["show", game, "--svg", output], &rules);
    }
    // A rule file that the game played extends.
    let child = d.join("child.rules");
    std::fs::write(&child, "extends \"mine\"\ngame \"Child\"\n").unwrap();
    refused(&["simulate", s(&child), "--games", "2", "--csv", r], &rules);
    let mut args = vec!["play", s(&child)];
    args.extend_from_slice(&seats);
    args.extend_from_slice(&["--record", h]);
    refused(&args, &rules);
    // Two outputs in one file.
    let csv = d.join("rows.csv");
    std::fs::write(&csv, "kept").unwrap();
    refused(
        &[
            "simulate",
            "draughts",
            "--games",
            "2",
            "--csv",
            s(&csv),
            "--svg",
            s(&csv),
        ],
        &csv,
    );
    // A record resumed and recorded to.
    let rec = d.join("game.jsonl");
    let mut args = vec!["play", "draughts", "--max-plies", "4"];
    args.extend_from_slice(&seats);
    args.extend_from_slice(&["--record", s(&rec)]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    refused(&["play", s(&rec), "--record", s(&rec)], &rec);
    refused(&["play", "--resume", s(&rec), "--record", s(&rec)], &rec);
    // export and import.
    refused(&["export", s(&rec), "--pdn", "-o", s(&rec)], &rec);
    let pdn = d.join("game.pdn");
    let (code, _, err) = run(&["export", s(&rec), "--pdn", "-o", s(&pdn)]);
    assert_eq!(code, 0, "{err}");
    refused(&["import", s(&pdn), "-o", s(&pdn)], &pdn);
    // merge: the chart over a shard.
    let shard = |i: usize| d.join(format!("s{i}.parquet"));
    for i in 0..2 {
        let (code, _, err) = run(&[
            "simulate",
            "draughts",
            "--games",
            "4",
            "--shard",
            &format!("{i}/2"),
            "--parquet",
            s(&shard(i)),
            "--quiet",
        ]);
        assert_eq!(code, 0, "{err}");
    }
    refused(
        &["merge", s(&shard(0)), s(&shard(1)), "--svg", s(&shard(0))],
        &shard(0),
    );
    let (code, _, err) = run(&["merge", s(&shard(0)), s(&shard(1))]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn save_at_the_prompt_refuses_the_rule_file_played() {
    let scratch = common::scratch();
    let d = scratch.path();
    let rules = d.join("mine.rules");
    std::fs::copy(games_dir().join("draughts.rules"), &rules).unwrap();
    let before = std::fs::read(&rules).unwrap();
    let input = format!("save {}\n", rules.display());
    let (code, out, err) = common::run_input(&["play", s(&rules), "--black", "random"], input);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("can't save to") && out.contains("is also"),
        "{out}"
    );
    assert_eq!(std::fs::read(&rules).unwrap(), before);
}

/// A reader of `len` zero bytes that counts what was read of it.
struct Zeros {
    left: u64,
    read: Rc<Cell<u64>>,
}

impl Read for Zeros {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(usize::try_from(self.left).unwrap());
        buf[..n].fill(0);
        self.left -= n as u64;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// `play` with 64 MiB of zero bytes and no line break as its input:
/// (exit code, stdout, stderr, bytes read).
fn play_zeros(args: &[&str]) -> (i32, String, String, u64) {
    let read = Rc::new(Cell::new(0));
    let mut input = BufReader::new(Zeros {
        left: 64 << 20,
        read: Rc::clone(&read),
    });
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let r = common::run_on(&all, &mut input, rulebook::cli::Term::default());
    (r.code, r.out, r.err, read.get())
}

#[test]
fn a_prompt_line_that_never_ends_ends_the_game() {
    for args in [
        vec!["draughts", "--black", "random"],
        vec![
            "variants/slow-and-steady-both-pieces",
            "--seat",
            "2=random",
            "--seed",
            "1",
        ],
    ] {
        let (code, out, err, read) = play_zeros(&args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(
            err.contains("a line of input went on past 1 MiB without a line break"),
            "{args:?}: {err}"
        );
        // Read no more than the bound and a buffer or two past it.
        assert!(
            read <= (1 << 20) + (64 << 10),
            "{args:?}: read {read} bytes"
        );
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let scratch = common::scratch();
    let d = scratch.path();
    let text = std::fs::read_to_string(games_dir().join("draughts.rules")).unwrap();
    let plain = d.join("plain.rules");
    let marked = d.join("marked.rules");
    std::fs::write(&plain, &text).unwrap();
    std::fs::write(&marked, format!("\u{feff}{text}")).unwrap();
    let (code, out, err) = run(&["check", s(&marked)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with(": ok\n"), "{out}");
    // A mistake is placed where it is in the file without the mark.
    let broken = text.replace("game \"Draughts\"", "game \"Draughts\" oops");
    std::fs::write(&plain, &broken).unwrap();
    std::fs::write(&marked, format!("\u{feff}{broken}")).unwrap();
    let (code_p, _, err_p) = run(&["check", s(&plain)]);
    let (code_m, _, err_m) = run(&["check", s(&marked)]);
    assert_eq!((code_p, code_m), (1, 1));
    assert!(err_p.contains(":4:"), "{err_p}");
    assert_eq!(err_m.replace("marked", "plain"), err_p);
    // A file that extends a marked file.
    let child = d.join("child.rules");
    std::fs::write(&marked, format!("\u{feff}{text}")).unwrap();
    std::fs::write(&child, "\u{feff}extends \"marked\"\ngame \"Mine\"\n").unwrap();
    let (code, _, err) = run(&["check", s(&child)]);
    assert_eq!(code, 0, "{err}");
    // fmt reads it, and a formatted file with a mark is left as it is.
    let (code, _, err) = run(&["fmt", "--check", s(&marked)]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn tags_with_line_breaks_brackets_and_quotes_round_trip_through_pdn() {
    let scratch = common::scratch();
    let d = scratch.path();
    let t = check(&BundledLoader, "draughts", &[]).into_board().unwrap();
    let start = Position::start(&t);
    let m = common::random_game(&t, &start, 5, 20);
    let mut rec = BoardRecord::of_game("draughts", &[], &t, &start, m.played());
    let tag = |k: &str, v: &str| (k.to_string(), v.to_string());
    rec.header.tags = vec![
        tag("Event", "Club\nnight"),
        tag("Site", "Room [3]"),
        tag("White", "Ona \"the fox\" \\o/"),
        tag("Black", "a]b\r\nc"),
        tag("Round", "]"),
        tag("Bad Name", "dropped"),
        tag("Odd]", "dropped"),
    ];
    let file = d.join("tagged.jsonl");
    std::fs::write(&file, rec.to_jsonl()).unwrap();
    let pdn = d.join("tagged.pdn");
    let (code, _, err) = run(&["export", s(&file), "--pdn", "-o", s(&pdn)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("Bad Name") && err.contains("left out"),
        "{err}"
    );
    let back = d.join("back.jsonl");
    let (code, _, err) = run(&["import", s(&pdn), "-o", s(&back)]);
    assert_eq!(code, 0, "{err}");
    let again = BoardRecord::parse(&std::fs::read_to_string(&back).unwrap()).unwrap();
    let want = vec![
        tag("Event", "Club night"),
        tag("Site", "Room [3]"),
        tag("White", "Ona \"the fox\" \\o/"),
        tag("Black", "a]b c"),
        tag("Round", "]"),
    ];
    let got: Vec<_> = again
        .header
        .tags
        .iter()
        .filter(|(k, _)| !["GameType", "Result"].contains(&k.as_str()))
        .cloned()
        .collect();
    assert_eq!(got, want);
    assert_eq!(again.plies, rec.plies);
}
