//! Records are never lost (issue 11, items 2, 3, 7, 9, 13, 14): the record
//! equals the game as it stands after an undo, for board and race games
//! alike, and is replaced atomically then; `write_atomic` writes through
//! symbolic links, refuses what is not a regular file and removes the
//! temporary files of killed runs; a record that can't be written warns and
//! the game goes on, never with half a line; a race game without a person
//! keeps no undo history; and a recorded game killed with SIGKILL at any
//! moment leaves a record that replays to a prefix of the game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::run_input as cli;
use rulebook::agents::Strength;
use rulebook::board::{Position, Tables};
use rulebook::load::{check, BundledLoader};
use rulebook::record::{write_atomic, Header, Written};
use rulebook::session::race::RaceSession;
use rulebook::session::BoardSession;

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Input typed at the prompt one line at a time, with something done
/// just before a given line is read (while the game waits for it).
struct Typed<F: FnMut()> {
    lines: std::collections::VecDeque<String>,
    before: String,
    hook: F,
}

impl<F: FnMut()> std::io::Read for Typed<F> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some(line) = self.lines.pop_front() else {
            return Ok(0);
        };
        if line == self.before {
            (self.hook)();
        }
        let bytes = format!("{line}\n").into_bytes();
        assert!(bytes.len() <= buf.len());
        buf[..bytes.len()].copy_from_slice(&bytes);
        Ok(bytes.len())
    }
}

#[test]
fn race_undo_replaces_the_record_atomically_and_it_equals_the_game() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let record = d.join("game.jsonl");
    let kept = d.join("kept.jsonl");
    let rec = record.to_str().unwrap();
    // Red (a person) enters, blue (random) plays, red takes it back.
    let args = [
        "play",
        "slow-and-steady",
        "--players",
        "2",
        "--seat",
        "2=random",
        "--seed",
        "4",
        "--record",
        rec,
    ];
    // Just before the undo, the record file gets a second name (a hard
    // link): a record rewritten in place changes under both names, one
    // replaced atomically leaves the old file whole.
    let typed = Typed {
        lines: ["enter", "undo", "resign"].map(String::from).into(),
        before: "undo".into(),
        hook: || std::fs::hard_link(&record, &kept).unwrap(),
    };
    let mut input = std::io::BufReader::with_capacity(64, typed);
    let r = common::run_on(&args, &mut input, rulebook::cli::Term::default());
    let (code, out) = (r.code, r.out);
    assert_eq!(code, 0, "{}", r.err);
    assert!(out.contains("14. red rolls 1+6, choice: enter"), "{out}");
    assert!(out.contains("taken back"), "{out}");
    let played = lines(&kept);
    // Red's first choice is at the 14th roll (the 13 before leave one
    // choice each): the header, 14 turns, blue's 15th.
    assert_eq!(played.len(), 16, "{played:?}");
    // The game as it stands after the undo: 13 turns; the resignation is
    // in the header.
    let now = lines(&record);
    assert!(now[0].contains(r#""reason":"resigned""#), "{now:?}");
    assert_eq!(now[1..], played[1..14]);
    // An undo, then the same choice again: the record follows.
    let (code, _, err) = cli(&args, "enter\nundo\nenter\nresign\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&record)[1..], played[1..]);
}

#[test]
fn board_record_after_undo_then_resign_equals_the_game() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let record = d.join("game.jsonl");
    let rec = record.to_str().unwrap();
    // Two people at the board.
    let args = ["play", "draughts", "--seed", "0", "--record", rec];
    let (code, _, err) = cli(&args, "24-20\nundo\nresign\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&record),
        vec![
            r#"{"game":"draughts","options":[],"seed":0,"agents":["human","human"],"result":{"winner":"black","reason":"resigned","resigned":"white"}}"#
        ]
    );
    // Undo then the end of input: the same.
    let (code, _, err) = cli(&args, "24-20\n9-13\n22-18\n13-17\nundo\n");
    assert_eq!(code, 0, "{err}");
    let kept = lines(&record);
    assert_eq!(kept.len(), 3, "{kept:?}");
    assert_eq!(kept[1], r#"{"player":"white","move":"24-20"}"#);
    // Redo plays the move again, and the record has it again.
    let (code, _, err) = cli(&args, "24-20\n9-13\n22-18\n13-17\nundo\nredo\nresign\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&record).len(), 4);
    assert_eq!(lines(&record)[3], r#"{"player":"white","move":"22-18"}"#);
}

#[test]
fn the_record_path_is_checked_before_the_first_move() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let missing = d.join("no-such-folder").join("game.jsonl");
    for game in ["draughts", "slow-and-steady"] {
        let (code, out, err) = cli(
            &[
                "play",
                game,
                "--seat",
                "1=random",
                "--seat",
                "2=random",
                "--record",
                missing.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(code, 2, "{out}");
        assert!(err.contains("can't write the record"), "{err}");
        assert!(!out.contains("1. "), "no move was played: {out}");
    }
}

#[test]
#[cfg(unix)]
fn write_atomic_follows_links_and_refuses_what_is_not_a_file() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    // Through a symbolic link: the target is written, the link stays.
    let target = d.join("target.jsonl");
    std::fs::write(&target, "old\n").unwrap();
    let link = d.join("link.jsonl");
    std::os::unix::fs::symlink("target.jsonl", &link).unwrap();
    write_atomic(&link, b"new\n").unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
    // A dangling link: its target is created.
    let dangling = d.join("dangling.jsonl");
    std::os::unix::fs::symlink("made.jsonl", &dangling).unwrap();
    write_atomic(&dangling, b"made\n").unwrap();
    assert_eq!(
        std::fs::read_to_string(d.join("made.jsonl")).unwrap(),
        "made\n"
    );
    // A named pipe and a folder are refused and left as they are.
    let fifo = d.join("pipe");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let e = write_atomic(&fifo, b"x").unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    assert!(!std::fs::metadata(&fifo).unwrap().is_file());
    let e = write_atomic(&d, b"x").unwrap_err();
    assert!(e.to_string().contains("is a folder"), "{e}");
    // A device: refused too (as root, it used to be replaced by a file).
    let e = write_atomic(Path::new("/dev/null"), b"x").unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    // `play --record` and `save` say so.
    let (code, _, err) = cli(
        &[
            "play",
            "draughts",
            "--seat",
            "1=random",
            "--seat",
            "2=random",
            "--record",
            fifo.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn stale_temporary_files_of_a_killed_save_are_removed() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let file = d.join("game.jsonl");
    // A process that no longer runs (pids are far below this) left one.
    let stale = d.join(".game.jsonl.rulebook-tmp.4000000000");
    std::fs::write(&stale, "half").unwrap();
    // Another file's temporary file is not touched.
    let other = d.join(".other.jsonl.rulebook-tmp.4000000000");
    std::fs::write(&other, "half").unwrap();
    write_atomic(&file, b"whole\n").unwrap();
    assert!(!stale.exists());
    assert!(other.exists());
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

fn draughts() -> Tables {
    check(&BundledLoader, "draughts", &[]).into_board().unwrap()
}

#[test]
fn a_removed_folder_warns_and_the_record_comes_back_whole() {
    let t = draughts();
    let view = BoardSession::players_view(&t);
    let humans = vec!["human".to_string(); 2];
    let mut s = BoardSession::new(&view, Position::start(&t), &humans, 1, Strength::default())
        .unwrap()
        .named("draughts", &[]);
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let record = d.join("game.jsonl");
    s.record_to(&record).unwrap();
    // Each side plays its first legal move.
    let play = |s: &mut BoardSession<'_>, _: &str| {
        let m = s.game().legal()[0].clone();
        s.play(&m);
    };
    play(&mut s, "24-20");
    assert_eq!(s.record_news(), Written::Ok);
    std::fs::remove_dir_all(&d).unwrap();
    play(&mut s, "9-13");
    assert!(matches!(s.record_news(), Written::Failed(_)));
    // The game goes on; the folder is still gone.
    play(&mut s, "22-18");
    assert_eq!(s.record_news(), Written::StillFailing);
    // Saving elsewhere works meanwhile.
    let elsewhere_dir = common::scratch();
    let elsewhere = elsewhere_dir.path().join("saved.jsonl");
    write_atomic(&elsewhere, s.record().to_jsonl().as_bytes()).unwrap();
    assert_eq!(lines(&elsewhere).len(), 4);
    // The folder is back: the whole record is written again.
    std::fs::create_dir_all(&d).unwrap();
    play(&mut s, "13-17");
    assert_eq!(s.record_news(), Written::Recovered);
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        s.record().to_jsonl()
    );
    play(&mut s, "21x14");
    assert_eq!(s.record_news(), Written::Ok);
    assert_eq!(lines(&record).len(), 6);
}

/// The rulebook program.
fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_rulebook"))
}

#[test]
#[cfg(unix)]
fn a_full_disk_warns_and_the_game_goes_on_with_whole_lines() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let record = d.join("game.jsonl");
    // A file size limit of 1 KiB stands in for a full disk: writes past it
    // fail (EFBIG; the signal it would send is ignored).
    let script = format!(
        "trap '' XFSZ; ulimit -f 2; exec '{}' play slow-and-steady --players 2 --seat 1=random --seat 2=random --seed 7 --record '{}'",
        bin().display(),
        record.display()
    );
    let run = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(
        out.contains("result: "),
        "the game went on to its end: {out}"
    );
    assert_eq!(
        err.matches("warning: can't write the record").count(),
        1,
        "one warning: {err}"
    );
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.len() <= 1024 && text.ends_with('\n'), "{text}");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("a whole JSON line");
    }
    let (code, replayed, e) = cli(&["replay", record.to_str().unwrap()], "");
    assert_eq!(code, 0, "{e}");
    assert!(turns(&replayed).len() > 3);
    assert!(turns(&out).starts_with(&turns(&replayed)));
}

/// The numbered turns of a transcript.
fn turns(transcript: &str) -> Vec<String> {
    transcript
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_race_game_without_a_person_keeps_no_turns_for_undo() {
    let game = check(&BundledLoader, "slow-and-steady", &[])
        .into_race()
        .unwrap();
    let header = Header {
        game: "slow-and-steady".into(),
        ..Header::default()
    };
    let computers = vec!["random".to_string(), "first".to_string()];
    let mut s = RaceSession::new(
        &game,
        &computers,
        3,
        Strength::default(),
        10_000,
        header.clone(),
        None,
    )
    .unwrap();
    while !s.is_over() {
        s.roll();
        s.play_computer().unwrap();
    }
    assert!(s.state().rolls() > 10);
    assert!(s.turns().is_empty(), "no person, no undo history");
    // With a person, every turn is kept (for undo and save).
    let mixed = vec!["human".to_string(), "first".to_string()];
    let mut s =
        RaceSession::new(&game, &mixed, 3, Strength::default(), 10_000, header, None).unwrap();
    for _ in 0..6 {
        s.roll();
        if s.human_to_roll() {
            let c = s.choices()[0];
            s.choose(c).unwrap();
        } else {
            s.play_computer().unwrap();
        }
    }
    assert_eq!(s.turns().len(), 6);
}

/// A game long enough to be killed in the middle: the full record (played
/// to the end once), then `kills` runs killed with SIGKILL after delays
/// spread over its length, each record a prefix of the full one that
/// `replay` reads without error.
#[cfg(unix)]
fn killed_records_replay_to_a_prefix(args: &[&str], kills: u64) {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let full = d.join("full.jsonl");
    let started = Instant::now();
    let run = Command::new(bin())
        .args(args)
        .arg("--record")
        .arg(&full)
        .output()
        .unwrap();
    assert!(run.status.success());
    let whole = lines(&full);
    let length = started.elapsed();
    assert!(whole.len() > 20, "{whole:?}");
    // One run recorded to `file`, killed (SIGKILL) when `wait` returns:
    // its record must be a prefix of the whole game that `replay` reads.
    // Whether the kill landed mid-game.
    let killed = |file: &Path, label: &str, wait: &dyn Fn(&mut Child)| -> bool {
        let mut child = Command::new(bin())
            .args(args)
            .arg("--record")
            .arg(file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait(&mut child);
        let _ = child.kill();
        child.wait().unwrap();
        if !file.exists() {
            return false; // killed before it started
        }
        let kept = lines(file);
        assert!(
            kept.len() <= whole.len() && kept[..] == whole[..kept.len()],
            "{label}: not a prefix"
        );
        let (code, _, err) = cli(&["replay", file.to_str().unwrap()], "");
        assert_eq!(code, 0, "{label}: {err}");
        kept.len() > 1 && kept.len() < whole.len()
    };
    // Delays from a fixed generator: anywhere in the game.
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut prefixes = 0;
    for i in 0..kills {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let delay = length.mul_f64((x % 1000) as f64 / 1000.0);
        let file = d.join(format!("killed-{i}.jsonl"));
        let label = format!("run {i} killed after {delay:?}");
        if killed(&file, &label, &|_| std::thread::sleep(delay)) {
            prefixes += 1;
        }
    }
    // On a loaded machine the random delays may all miss the game (the
    // measured run and the killed ones go at different speeds): then kill
    // runs as soon as their record has a turn, which is mid-game.
    for i in 0..20 {
        if prefixes > 0 {
            break;
        }
        let file = d.join(format!("watched-{i}.jsonl"));
        let has_a_turn =
            || std::fs::read_to_string(&file).is_ok_and(|text| text.lines().count() > 1);
        let watch = |child: &mut Child| {
            let since = Instant::now();
            while child.try_wait().unwrap().is_none()
                && since.elapsed() < Duration::from_secs(60)
                && !has_a_turn()
            {
                std::thread::sleep(Duration::from_micros(200));
            }
        };
        if killed(&file, &format!("watched run {i}"), &watch) {
            prefixes += 1;
        }
    }
    assert!(prefixes > 0, "some kill landed in the middle of the game");
}

#[test]
#[cfg(unix)]
fn kills_at_random_points_leave_a_record_that_replays_to_a_prefix() {
    killed_records_replay_to_a_prefix(
        &[
            "play",
            "draughts",
            "--white",
            "mcts",
            "--black",
            "mcts",
            "--playouts",
            "150",
            "--seed",
            "11",
        ],
        8,
    );
    killed_records_replay_to_a_prefix(
        &[
            "play",
            "slow-and-steady",
            "--players",
            "2",
            "--seat",
            "1=mcts",
            "--seat",
            "2=greedy",
            "--playouts",
            "100",
            "--seed",
            "11",
        ],
        8,
    );
}

/// The test game that never ends by itself, copied into `dir` (a record
/// may name a rule file in its own folder).
fn endless(dir: &Path) -> PathBuf {
    let file = dir.join("endless.rules");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records/endless.rules"),
        &file,
    )
    .unwrap();
    file
}

#[test]
fn a_long_recorded_game_between_computers_takes_linear_time() {
    // 20,000 plies with a record: each computer move used to replay the
    // game from the start and each ply to rewrite and fsync the whole
    // record (quadratic: this game never finished). Now a move costs the
    // same at any length and a ply appends one line.
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let record = d.join("game.jsonl");
    let game = endless(&d);
    let started = Instant::now();
    let (code, out, err) = cli(
        &[
            "play",
            game.to_str().unwrap(),
            "--white",
            "random",
            "--black",
            "greedy",
            "--max-plies",
            "20000",
            "--record",
            record.to_str().unwrap(),
        ],
        "",
    );
    let took = started.elapsed();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("stopped after 20000 plies"), "{out}");
    assert_eq!(lines(&record).len(), 20_001);
    assert!(took.as_secs() < 60, "{took:?}");
    // The record replays whole, to the same position.
    let (code, replayed, err) = cli(&["replay", record.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    let last_ply = |t: &str| {
        t.lines()
            .rfind(|l| l.starts_with("10000. Black: "))
            .map(str::to_string)
    };
    assert!(last_ply(&out).is_some());
    assert_eq!(last_ply(&replayed), last_ply(&out));
}

/// Issue 12, item 7: a resignation ends the game with its result in the
/// record's header (also before any move), and `replay` says it.
#[test]
fn a_resignation_is_recorded_and_replayed() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let record = d.join("board.jsonl");
    let path = record.to_str().unwrap();
    let (code, out, err) = cli(
        &["play", "draughts", "--seed", "1", "--record", path],
        "resign\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("White resigns: Black wins\n"), "{out}");
    let header = lines(&record)[0].clone();
    assert!(
        header.ends_with(r#""result":{"winner":"black","reason":"resigned","resigned":"white"}}"#),
        "{header}"
    );
    let (code, replayed, err) = cli(&["replay", path], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        replayed.ends_with("result: Black wins: White resigned\n"),
        "{replayed}"
    );
    // After moves: the moves stay, the header holds the result.
    let (code, _, err) = cli(
        &["play", "draughts", "--seed", "1", "--record", path],
        "22-18\n11-15\nresign\n",
    );
    assert_eq!(code, 0, "{err}");
    let all = lines(&record);
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(all[0].contains(r#""winner":"black""#), "{all:?}");
    let (_, replayed, _) = cli(&["replay", path], "");
    assert!(
        replayed.ends_with("result: Black wins: White resigned\n"),
        "{replayed}"
    );
    // A race game.
    let race = d.join("race.jsonl");
    let path = race.to_str().unwrap();
    let (code, out, err) = cli(
        &[
            "play",
            "slow-and-steady",
            "--seat",
            "2=random",
            "--seed",
            "4",
            "--record",
            path,
        ],
        "resign\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("red resigns: blue wins\n"), "{out}");
    assert!(lines(&race)[0]
        .contains(r#""result":{"winner":"blue","reason":"resigned","resigned":"red"}"#));
    let (code, replayed, err) = cli(&["replay", path], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        replayed.ends_with("result: blue wins: red resigned\n"),
        "{replayed}"
    );
}

/// Issue 12, item 4: a saved or recorded game resumes where it stopped
/// (`play FILE` recognised by its content, or `play --resume FILE`), with
/// its moves to undo and its seats unless others are given.
#[test]
fn a_saved_board_game_resumes_where_it_stopped() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let saved = d.join("saved.game");
    let path = saved.to_str().unwrap();
    let (code, _, err) = cli(
        &["play", "draughts", "--black", "greedy", "--seed", "2"],
        format!("22-18\nsave {path}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let header = lines(&saved)[0].clone();
    assert!(
        header.contains(r#""agents":["human","greedy"]"#),
        "{header}"
    );
    // By content (the name has no .jsonl): White to move after two moves;
    // undo goes back to the start.
    let (code, out, err) = cli(&["play", path], "undo\nmoves\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Draughts\nresumed "), "{out}");
    assert!(out.contains("saved.game: 2 moves played\n"), "{out}");
    let start_moves = "21-17 22-17 22-18 23-18 23-19 24-19 24-20";
    let after = out.split("White to move> ").collect::<Vec<_>>();
    assert!(after[0].contains("White to move   W:W18,"), "{out}");
    assert!(after[2].starts_with(start_moves), "{out}");
    // The record's seats: Black (greedy) answers White's move itself.
    let (_, out, _) = cli(&["play", "--resume", path], "18x9\n");
    assert!(out.contains("Black: "), "{out}");
    assert_eq!(out.matches("White to move> ").count(), 2, "{out}");
    // Seats given on the command line win: two computers play to the end.
    let (code, out, err) = cli(
        &[
            "play", "--resume", path, "--white", "random", "--black", "random",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("result: "), "{out}");
    // A finished game says so.
    let resigned = d.join("resigned.jsonl");
    let rpath = resigned.to_str().unwrap();
    cli(&["play", path, "--record", rpath], "resign\n");
    let (code, out, _) = cli(&["play", rpath], "");
    assert_eq!(code, 0);
    assert!(out.contains("2 moves played\nthe game is over\n"), "{out}");
    assert!(out.ends_with("White resigns: Black wins\n"), "{out}");
}

#[test]
fn a_resumed_race_game_rolls_the_dice_it_would_have_rolled() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let saved = d.join("race.jsonl");
    let path = saved.to_str().unwrap();
    let args = [
        "play",
        "slow-and-steady",
        "--seat",
        "2=random",
        "--seed",
        "4",
    ];
    let (_, whole, _) = cli(&args, "enter\n\n\n");
    let (code, _, err) = cli(&args, format!("enter\nsave {path}\n"));
    assert_eq!(code, 0, "{err}");
    let (code, resumed, err) = cli(&["play", path], "\n\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        resumed.contains("race.jsonl: 15 turns played\n"),
        "{resumed}"
    );
    let turns = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.contains(" rolls ") && l.contains(", choice: "))
            .map(|l| l.rsplit("> ").next().unwrap_or(l).to_string())
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .collect()
    };
    let whole = turns(&whole);
    let resumed = turns(&resumed);
    assert!(resumed.len() >= 4, "{resumed:?}");
    assert!(resumed[0].starts_with("16. red rolls 5+4"), "{resumed:?}");
    assert_eq!(&whole[15..15 + resumed.len()], &resumed[..]);
    // Undo goes back into the saved turns: red's 14th roll again.
    let (_, out, _) = cli(&["play", path], "undo\n");
    assert!(out.contains("taken back\n"), "{out}");
    assert!(
        out.contains("red rolls 1+6: choose enter, 45 [45]> "),
        "{out}"
    );
}

#[test]
fn a_record_that_cant_be_resumed_names_its_file_and_line() {
    let scratch = common::scratch();
    let d = scratch.path().to_path_buf();
    let bad = d.join("bad.jsonl");
    let path = bad.to_str().unwrap();
    std::fs::write(
        &bad,
        "{\"game\":\"draughts\"}\n{\"player\":\"white\",\"move\":\"22-18\"}\n\n{\"player\":\"white\",\"move\":\"11-15\"}\n",
    )
    .unwrap();
    let (code, _, err) = cli(&["play", path], "");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        format!("error: {path}:4: it is black's turn, not white's\n")
    );
    std::fs::write(&bad, "{\"game\":\"draughts\"\n").unwrap();
    let (code, _, err) = cli(&["play", "--resume", path], "");
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!("error: {path}:1: not a record header")),
        "{err}"
    );
    std::fs::write(
        &bad,
        "{\"game\":\"slow-and-steady\",\"players\":2,\"seed\":4}\n{\"player\":\"red\",\"dice\":[2,6],\"choice\":\"enter\"}\n{\"player\":\"blue\",\"dice\":[3,6],\"choice\":\"7\"}\n",
    )
    .unwrap();
    let (code, _, err) = cli(&["play", path], "");
    assert_eq!(code, 1);
    assert!(err.starts_with(&format!("error: {path}:3: ")), "{err}");
    let (code, _, err) = cli(&["play", path, "--players", "3"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("`--players` can't change a resumed game"),
        "{err}"
    );
}
