//! `rulebook export FILE --pdn` and `rulebook import FILE.pdn`: game records
//! to and from PDN, the portable game notation other programs read and write.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::{Failure, FsLoader};
use crate::board::Tables;
use crate::load::check;
use crate::pdn;
use crate::record::BoardRecord;

/// Arguments of `export`.
#[derive(clap::Args, Debug)]
pub(crate) struct ExportArgs {
    /// A game record (JSON lines, as `play --record` or the `save` command write).
    file: PathBuf,
    /// Write PDN (the only format for now).
    #[arg(long)]
    pdn: bool,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

/// Arguments of `import`.
#[derive(clap::Args, Debug)]
pub(crate) struct ImportArgs {
    /// A PDN file: one game or several.
    file: PathBuf,
    /// Import only the Nth game of the file (from 1).
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// The rule file to play the games in: a bundled game or a path
    /// (default: the bundled game whose `pdn gametype` matches each game's
    /// GameType tag).
    #[arg(long, value_name = "GAME")]
    rules: Option<String>,
    /// Write the record to this file instead of standard output; a file of
    /// several games gives one record each, OUT-1.jsonl, OUT-2.jsonl, ...
    #[arg(long, short, value_name = "OUT")]
    output: Option<PathBuf>,
}

/// A game record, read within the limits of docs/limits.md.
fn read_record(path: &Path) -> Result<String, Failure> {
    super::loader::read_text(path, super::loader::MAX_RECORD, "a game record")
        .map_err(|e| Failure::new(format!("error: can't read {}: {e}", path.display())))
}

/// A PDN file, read within the limits of docs/limits.md: UTF-8 or Latin-1.
fn read_pdn(path: &Path) -> Result<String, Failure> {
    super::loader::read_bytes(path, super::loader::MAX_PDN, "a PDN file")
        .map(|b| pdn::decode(&b))
        .map_err(|e| Failure::new(format!("error: can't read {}: {e}", path.display())))
}

fn load(game: &str, options: &[String], err: &mut dyn Write) -> Result<Tables, Failure> {
    let args = super::GameArgs {
        game: game.to_string(),
        options: options.to_vec(),
    };
    super::load_game(&args, err)
}

fn emit(output: Option<&Path>, text: &str, out: &mut dyn Write) -> Result<(), Failure> {
    match output {
        Some(p) => crate::record::write_atomic(p, text.as_bytes())
            .map_err(|e| Failure::new(format!("error: can't write {}: {e}", p.display()))),
        None => out.write_all(text.as_bytes()).map_err(Failure::from),
    }
}

pub(crate) fn export(
    args: ExportArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    if !args.pdn {
        return Err(Failure::new("error: say which format: --pdn"));
    }
    let text = read_record(&args.file)?;
    super::loader::as_record(&args.file, &text)?;
    let (record, bad) = match BoardRecord::parse(&text) {
        Ok(r) => (r, None),
        Err(p) => match p.record {
            Some(r) => (r, Some(p.error)),
            None => {
                return Err(Failure::new(format!(
                    "error: {}: {}",
                    args.file.display(),
                    p.error
                )))
            }
        },
    };
    let game = super::loader::record_game(&args.file, &record.header.game).map_err(|e| {
        Failure::new(format!(
            "error: {}:{}: {e}",
            args.file.display(),
            record.lines.first().copied().unwrap_or(1)
        ))
    })?;
    super::paths::Files::new()
        .input("the record exported", Some(&args.file))
        .game(&game)
        .output("-o", args.output.as_deref())
        .check()?;
    let t = load(&game, &record.header.options, err)?;
    if t.game().pdn_game_type.is_none() {
        writeln!(
            err,
            "warning: {} declares no `pdn gametype`; the GameType tag is left out",
            record.header.game
        )?;
    }
    if let (Some(gt), false) = (t.game().pdn_game_type, record.header.options.is_empty()) {
        writeln!(
            err,
            "warning: the game was played with --option {}; GameType {gt} names {} without it, so other programs may read the moves by other rules",
            record.header.options.join(" --option "),
            record.header.game
        )?;
    }
    let replay = record.replay(&t);
    let bad = bad.or(replay.error);
    let moves: Vec<_> = replay.played.into_iter().map(|(m, _)| m).collect();
    let start = record
        .start(&t)
        .unwrap_or_else(|_| crate::board::Position::start(&t));
    // An imported game keeps its tags; a game played here gets the
    // players, the day its record was last written and where.
    let event = format!("{} ({})", t.game().title, args.file.display());
    let mut tags = record.header.tags.clone();
    if tags.is_empty() {
        tags = pdn::played_tags(&t, &event, &record.header.agents, saved_day(&args.file));
    } else if !tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("Event")) {
        tags.insert(0, ("Event".to_string(), event));
    }
    // How the game ended when the moves don't say it: the record's result
    // (a resignation), else the Result tag it was imported with.
    let declared = record.header.result.as_ref().map(|r| {
        let winner = r
            .winner
            .as_deref()
            .and_then(|w| t.game().sides.iter().position(|s| s.id == w));
        match winner {
            Some(i) if pdn::is_white(&t, crate::board::game::SideId(i as u8)) => {
                pdn::PdnResult::White
            }
            Some(_) => pdn::PdnResult::Black,
            None => pdn::PdnResult::Unknown,
        }
    });
    let result = declared.or_else(|| {
        record
            .header
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Result"))
            .and_then(|(_, v)| pdn::PdnResult::parse(v))
    });
    for (name, _) in tags.iter().filter(|(k, _)| !pdn::is_tag_name(k)) {
        writeln!(
            err,
            "warning: the tag `{}` is left out: a PDN tag's name has no space, quote, bracket, brace, semicolon or backslash",
            crate::shown::shown(name)
        )?;
    }
    let export = pdn::Export { tags, result };
    emit(
        args.output.as_deref(),
        &pdn::write_game(&t, &export, &start, &moves),
        out,
    )?;
    match bad {
        Some(e) => Err(Failure {
            message: format!(
                "error: {}: {e}; the {} moves before it were exported",
                args.file.display(),
                moves.len()
            ),
            code: 1,
        }),
        None => Ok(0),
    }
}

/// The day (counted from 1970-01-01, UTC) a file was last written, if the
/// system says.
fn saved_day(path: &Path) -> Option<i64> {
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    let secs = modified
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    i64::try_from(secs / 86_400).ok()
}

/// The bundled game whose `pdn gametype` is `n`.
fn game_of_type(n: u32) -> Option<&'static str> {
    crate::bundled::GAMES
        .iter()
        .map(|(name, _)| *name)
        .find(|name| {
            check(&FsLoader, name, &[])
                .board()
                .is_some_and(|t| t.game().pdn_game_type == Some(n))
        })
}

/// The rule game of a PDN game: `--rules`, or the bundled game of its
/// GameType tag.
fn rules_of(rules: Option<&str>, game: &pdn::PdnGame, cache: &mut Cache) -> Result<String, String> {
    if let Some(r) = rules {
        return Ok(r.to_string());
    }
    let Some((line, gt)) = game.tag_at("GameType") else {
        return Err("the game has no GameType tag; name its rules with --rules GAME".into());
    };
    let first = gt.split(',').next().unwrap_or("").trim();
    let n: u32 = first.parse().map_err(|_| {
        let why = if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
            "is too large: no game type is above 4294967295"
        } else {
            "is not a number"
        };
        let gt = crate::shown::shown(gt);
        format!("line {line}: GameType \"{gt}\" {why}")
    })?;
    let of_type = *cache.by_type.entry(n).or_insert_with(|| game_of_type(n));
    of_type.map(str::to_string).ok_or_else(|| {
        format!("line {line}: no bundled game has `pdn gametype {n}`; name one with --rules GAME")
    })
}

/// One game imported: its record, and the error that stopped it (after the
/// moves before it), if any.
struct Imported {
    record: String,
    moves: usize,
    error: Option<String>,
}

/// The rule games of one import, each found and loaded once: a file may
/// hold thousands of games of one type.
#[derive(Default)]
struct Cache {
    /// The bundled game of each game type asked for.
    by_type: HashMap<u32, Option<&'static str>>,
    /// The tables of each rule game loaded, or why it could not be.
    tables: HashMap<String, Result<Rc<Tables>, (String, i32)>>,
}

fn import_game(
    rules: Option<&str>,
    game: &pdn::PdnGame,
    cache: &mut Cache,
    err: &mut dyn Write,
) -> Result<Imported, Failure> {
    let name = rules_of(rules, game, cache).map_err(Failure::new)?;
    if !cache.tables.contains_key(&name) {
        let loaded = load(&name, &[], err)
            .map(Rc::new)
            .map_err(|f| (f.message, f.code));
        cache.tables.insert(name.clone(), loaded);
    }
    let t = match cache.tables.get(&name) {
        Some(Ok(t)) => Rc::clone(t),
        Some(Err((message, code))) => {
            return Err(Failure {
                message: message.clone(),
                code: *code,
            })
        }
        None => return Err(Failure::new(format!("error: {name} could not be loaded"))),
    };
    let (start, moves, bad) = pdn::play(&t, game);
    let mut record = BoardRecord::of_game(&name, &[], &t, &start, &moves);
    record.header.tags = game
        .tags
        .iter()
        .filter(|(k, _)| {
            !["GameType", "SetUp", "FEN"]
                .iter()
                .any(|m| m.eq_ignore_ascii_case(k))
        })
        .cloned()
        .collect();
    Ok(Imported {
        record: record.to_jsonl(),
        moves: moves.len(),
        error: bad.map(|e| e.to_string()),
    })
}

/// `OUT.jsonl` for the game `i` of `n`: `OUT-1.jsonl` (numbers padded to
/// the width of `n`, so that they sort).
fn numbered(path: &Path, i: usize, n: usize) -> PathBuf {
    let width = n.to_string().len();
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{i:0width$}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{i:0width$}"),
    };
    path.with_file_name(name)
}

pub(crate) fn import(
    args: ImportArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let text = read_pdn(&args.file)?;
    let file = args.file.display().to_string();
    let (games, syntax) = pdn::parse_all(&text);
    let n = games.len();
    if n == 0 {
        return Err(match syntax {
            Some(e) => Failure::new(format!("error: {file}: {e}")),
            None => Failure::new(format!(
                "error: {file} holds no PDN game: no tags and no moves"
            )),
        });
    }
    let chosen: Vec<usize> = match args.game {
        Some(i) if i >= 1 && i <= n => vec![i],
        Some(i) => {
            if let Some(e) = syntax {
                return Err(Failure::new(format!(
                    "error: {file}: {e}; the {n} game{} before it can be imported",
                    if n == 1 { "" } else { "s" }
                )));
            }
            let range = if n == 1 {
                "1".to_string()
            } else {
                format!("1 to {n}")
            };
            return Err(Failure::new(format!(
                "error: --game {i}: {file} holds {n} game{}: choose {range}",
                if n == 1 { "" } else { "s" }
            )));
        }
        None => (1..=n).collect(),
    };
    if chosen.len() > 1 && args.output.is_none() {
        let lines: Vec<String> = games
            .iter()
            .map(|g| g.first_line.unwrap_or(1).to_string())
            .collect();
        return Err(Failure::new(format!(
            "error: {file} holds {n} games (at lines {}): choose one with --game N, or write one record each with -o OUT.jsonl (OUT-1.jsonl to OUT-{n}.jsonl)",
            lines.join(", ")
        )));
    }
    // No record written over the PDN file or the rule file read (the
    // numbered files of several games differ from one another).
    let mut inputs = super::paths::Files::new().input("the PDN file imported", Some(&args.file));
    if let Some(r) = &args.rules {
        inputs = inputs.game(r);
    }
    for &i in &chosen {
        let path = match &args.output {
            Some(p) if chosen.len() > 1 => Some(numbered(p, i, n)),
            other => other.clone(),
        };
        inputs = inputs
            .output("-o", path.as_deref())
            .check()?
            .without_outputs();
    }
    let mut failed = false;
    let mut written = Vec::new();
    let mut cache = Cache::default();
    for &i in &chosen {
        let Some(game) = games.get(i - 1) else {
            continue;
        };
        // Several games: errors say which game.
        let which = if chosen.len() > 1 {
            format!("game {i}: ")
        } else {
            String::new()
        };
        let imported = match import_game(args.rules.as_deref(), game, &mut cache, err) {
            Ok(g) => g,
            Err(f) if chosen.len() > 1 => {
                let why = f.message.trim_start_matches("error: ");
                writeln!(err, "error: {file}: {which}{why}")?;
                failed = true;
                continue;
            }
            Err(f) => {
                let why = f.message.trim_start_matches("error: ").to_string();
                return Err(Failure {
                    message: format!("error: {file}: {why}"),
                    code: f.code,
                });
            }
        };
        let path = match &args.output {
            Some(p) if chosen.len() > 1 => Some(numbered(p, i, n)),
            other => other.clone(),
        };
        emit(path.as_deref(), &imported.record, out)?;
        if let Some(p) = path {
            written.push(p.display().to_string());
        }
        if let Some(e) = imported.error {
            writeln!(
                err,
                "error: {file}: {which}{e}; the {} moves before it were imported",
                imported.moves
            )?;
            failed = true;
        }
    }
    if chosen.len() > 1 {
        let files = match written.as_slice() {
            [] => "no file written".to_string(),
            [one] => one.clone(),
            [first, second] => format!("{first}, {second}"),
            [first, .., last] => format!("{first} to {last}"),
        };
        writeln!(
            err,
            "imported {} of the {n} games of {file}: {files}",
            written.len(),
        )?;
    }
    if let Some(e) = syntax {
        writeln!(
            err,
            "error: {file}: {e}; the {n} game{} before it were read",
            if n == 1 { "" } else { "s" }
        )?;
        failed = true;
    }
    Ok(i32::from(failed))
}
