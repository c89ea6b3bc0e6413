//! `rulebook export FILE --pdn` and `rulebook import FILE.pdn`: game records
//! to and from PDN, the portable game notation of checkers software.

use std::io::Write;
use std::path::{Path, PathBuf};

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
    /// A PDN file.
    file: PathBuf,
    /// The game to play it in (default: the bundled game whose `pdn gametype`
    /// matches the GameType tag).
    #[arg(long)]
    game: Option<String>,
    /// Write the record to this file instead of standard output.
    #[arg(long, short)]
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
    let t = load(&game, &record.header.options, err)?;
    if t.game.pdn_game_type.is_none() {
        writeln!(
            err,
            "warning: {} declares no `pdn gametype`; the GameType tag is left out",
            record.header.game
        )?;
    }
    let replay = record.replay(&t);
    let bad = bad.or(replay.error);
    let moves: Vec<_> = replay.played.into_iter().map(|(m, _)| m).collect();
    let start = record
        .start(&t)
        .unwrap_or_else(|_| crate::board::Position::start(&t));
    let event = format!("{} ({})", t.game.title, args.file.display());
    emit(
        args.output.as_deref(),
        &pdn::write(&t, &event, &start, &moves),
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

/// The bundled game whose `pdn gametype` is `n`.
fn game_of_type(n: u32) -> Option<&'static str> {
    crate::bundled::GAMES
        .iter()
        .map(|(name, _)| *name)
        .find(|name| {
            check(&FsLoader, name, &[])
                .game
                .is_some_and(|g| g.pdn_game_type == Some(n))
        })
}

pub(crate) fn import(
    args: ImportArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let text = read_pdn(&args.file)?;
    let game = pdn::parse_first(&text)
        .map_err(|e| Failure::new(format!("error: {}: {e}", args.file.display())))?;
    let name = match (&args.game, game.tag("GameType")) {
        (Some(g), _) => g.clone(),
        (None, Some(gt)) => {
            let first = gt.split(',').next().unwrap_or("").trim();
            let n: u32 = first.parse().map_err(|_| {
                let why = if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
                    "is too large: no game type is above 4294967295"
                } else {
                    "is not a number"
                };
                let gt = crate::shown::shown(gt);
                Failure::new(format!("error: GameType \"{gt}\" {why}"))
            })?;
            game_of_type(n)
                .ok_or_else(|| {
                    Failure::new(format!(
                        "error: no bundled game has `pdn gametype {n}`; name one with --game"
                    ))
                })?
                .to_string()
        }
        (None, None) => {
            return Err(Failure::new(
                "error: the PDN has no GameType tag; name the game with --game",
            ))
        }
    };
    let t = load(&name, &[], err)?;
    let (start, moves, bad) = pdn::play(&t, &game);
    let record = BoardRecord::of_game(&name, &[], &t, &start, &moves);
    emit(args.output.as_deref(), &record.to_jsonl(), out)?;
    match bad {
        Some(e) => Err(Failure {
            message: format!(
                "error: {}: {e}; the {} moves before it were imported",
                args.file.display(),
                moves.len()
            ),
            code: 1,
        }),
        None => Ok(0),
    }
}
